/**
 * Every request is answered within REQUEST_TIMEOUT_SECONDS: a handler still busy at the
 * deadline (a stuck query, a slow provider) has the client answered 503 请求处理超时，请稍后再试
 * in the usual error shape, and whatever the handler sends later is dropped. Answers whose
 * headers have gone out (file downloads streaming to the client) and hijacked requests
 * (websockets) are left alone. The Node server's own requestTimeout bounds how long a client
 * may take to send its request (slow uploads, a body that never ends), answered 408.
 */
import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors.ts';

export const REQUEST_TIMED_OUT = '请求处理超时，请稍后再试';

export function registerRequestDeadline(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('onRequest', async (request, reply) => {
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent || request.raw.destroyed) return;
      request.log.warn({ url: request.url, timeoutMs }, 'request timed out');
      reply.code(503).header('content-type', 'application/json; charset=utf-8').send(errorBody(503, REQUEST_TIMED_OUT));
    }, timeoutMs);
    timer.unref();
    // an answer's end (or the client leaving) emits 'close'; the timer does nothing once sent
    reply.raw.once('close', () => clearTimeout(timer));
  });
}
