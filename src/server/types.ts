/**
 * What the app decorates Fastify with. Shared by every area of the server.
 */
import type { Kysely } from 'kysely';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Config } from './config.ts';
import type { SessionStore } from './auth/sessions.ts';
import type { LongTasks } from './realtime/long-tasks.ts';
import type { Hub } from './realtime/hub.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<any>;
  dialect: Dialect;
  close(): Promise<void>;
}

/** The signed-in staff member of a request (set by app.authenticate). */
export interface SessionUser {
  kind: 'staff';
  id: number;
  username: string;
  nickName: string;
  deptId: number | null;
  orgId: number | null;
  /** username === 'admin': passes every permission check except the decision centre */
  isAdmin: boolean;
  /** permission keys from the user's roles' menus, e.g. sysQuestion:add */
  permissions: Set<string>;
  roles: Array<{ id: number; name: string; dataScope: string; level: number }>;
  /** hash of the bearer token; the session row's key */
  sessionId: string;
}

/** The applicant behind an applicant token (public onboarding). */
export interface ApplicantCaller {
  kind: 'applicant';
  staffunId: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    /** staff sessions: look-up of a token, end of sessions (listeners are told) */
    sessions: SessionStore;
    /** websocket hub (realtime area): pushes to the sockets of every instance */
    hub: Hub;
    /** background imports and exports (realtime area) */
    longTasks: LongTasks;
    /** preHandler: a valid staff token is required (401 otherwise); sets request.user */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler: authenticate, then the permission key is required (403 otherwise); admin passes */
    requirePermission(key: string): preHandlerAsyncHookHandler;
    /** preHandler: authenticate, then any one of the keys is required (403 otherwise); admin passes */
    requireAnyPermission(keys: string[]): preHandlerAsyncHookHandler;
    /** readiness: stopping() makes /api/health/ready answer 503 while the instance drains */
    health: { stopping(): void };
    /**
     * The applicant of a request's bearer token when it is an applicant token (the applicant
     * area decorates it): null for any other token or none; 401 for an applicant token that
     * is unknown, expired or ended.
     */
    resolveApplicant?: (request: FastifyRequest) => Promise<ApplicantCaller | null>;
  }
  interface FastifyRequest {
    user?: SessionUser;
    /** set when the request carries a valid applicant token */
    applicant?: ApplicantCaller;
  }
}
