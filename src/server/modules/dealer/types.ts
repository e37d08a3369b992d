/** What the dealer area adds to Fastify: the dealer's session on a request and its preHandler. */
import type { preHandlerAsyncHookHandler } from 'fastify';

/** The signed-in dealer company of a request (set by app.authenticateDealer). */
export interface DealerUser {
  kind: 'dealer';
  /** the company's id: every dealer read and write is limited to it */
  compId: number;
  compName: string;
  compCode: string;
  username: string;
  mobile: string | null;
  /** minutes of inactivity before the portal locks (0: never) */
  lockTime: number;
  /** hash of the bearer token; the session row's key */
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: a valid dealer token is required (401 otherwise; staff tokens are refused); sets request.dealer */
    authenticateDealer: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    dealer?: DealerUser;
  }
}
