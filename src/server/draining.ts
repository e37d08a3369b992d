/**
 * An instance that stops answers every request in the product's own shape:
 * - once the app closes (SIGTERM, after the drain delay) a request that still arrives, on a
 *   keep-alive connection, is answered 503 服务正在停止，请稍后重试 with `Connection: close`
 *   (Fastify's own answer, `{"error":"Service Unavailable",...}` in English, is switched off
 *   with return503OnClosing: false), and the client retries elsewhere;
 * - requests in flight are counted, so that when the grace period ends with some still
 *   waiting (a stalled database), main.ts has each answered 503 before the process exits
 *   instead of dropping its connection.
 * Per request this costs a flag test, a set entry and one listener.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from './errors.ts';

export const SERVICE_STOPPING = '服务正在停止，请稍后重试';

export interface Draining {
  /** Answers 503 SERVICE_STOPPING to every request still waiting for its answer; answers how many. */
  answerInFlight(): number;
  /** requests whose answer has not gone out yet */
  inFlight(): number;
}

function answerStopping(reply: FastifyReply): void {
  reply.header('connection', 'close').code(503).type('application/json; charset=utf-8').send(errorBody(503, SERVICE_STOPPING));
}

export function registerDraining(app: FastifyInstance): Draining {
  let closing = false;
  const waiting = new Set<FastifyReply>();
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (closing) {
      answerStopping(reply);
      return;
    }
    waiting.add(reply);
    reply.raw.once('close', () => waiting.delete(reply));
    done();
  });
  return {
    answerInFlight() {
      let answered = 0;
      for (const reply of waiting) {
        waiting.delete(reply);
        // a download already streaming cannot change its answer; hijacked requests (websockets) close on their own
        if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) continue;
        answerStopping(reply);
        answered++;
      }
      return answered;
    },
    inFlight: () => waiting.size,
  };
}
