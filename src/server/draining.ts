/**
 * An instance that stops answers every request in the product's own shape:
 * - from the stop signal on (stopping(), during the drain delay while requests are still
 *   served), every answer carries `Connection: close`, those in flight included, so that the
 *   server closes each keep-alive connection right after an answer. Otherwise the close of
 *   idle connections meets a client that, having just read an answer, is already sending its
 *   next request on the same connection: that request was reset without an answer;
 * - once the app closes (SIGTERM, after the drain delay) a request that still arrives, on a
 *   keep-alive connection, is answered 503 服务正在停止，请稍后重试 with `Connection: close`
 *   (Fastify's own answer, `{"error":"Service Unavailable",...}` in English, is switched off
 *   with return503OnClosing: false), and the client retries elsewhere;
 * - requests in flight are counted, so that when the grace period ends with some still
 *   waiting (a stalled database), main.ts has each answered 503 before the process exits
 *   instead of dropping its connection.
 * - when the app closes, Node would close every connection without a request in flight at
 *   once, among them connections just accepted whose request is still on its way (reset without
 *   an answer). Instead a connection is closed only once it has had nothing to do for
 *   IDLE_CLOSE_MS; a request arriving before that gets the 503 above.
 * Per request this costs a flag test, a set entry, a map entry and one listener.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from './errors.ts';

export const SERVICE_STOPPING = '服务正在停止，请稍后重试';

export interface Draining {
  /** The stop signal: from now on every answer closes its connection. */
  stopping(): void;
  /** Answers 503 SERVICE_STOPPING to every request still waiting for its answer; answers how many. */
  answerInFlight(): number;
  /** requests whose answer has not gone out yet */
  inFlight(): number;
}

/** While closing: a connection without a request in flight is closed after this long without one. */
export const IDLE_CLOSE_MS = 500;
const SWEEP_EVERY_MS = 100;

function answerStopping(reply: FastifyReply): void {
  reply.header('connection', 'close').code(503).type('application/json; charset=utf-8').send(errorBody(503, SERVICE_STOPPING));
}

export function registerDraining(app: FastifyInstance): Draining {
  let stopping = false;
  let closing = false;
  const waiting = new Set<FastifyReply>();
  // open connections (websockets left out): when each was accepted or last answered, and how
  // many bytes it had read then (more since: a request is on its way, as Node counts it)
  const connections = new Map<Socket, { last: number; read: number }>();
  const server = app.server;
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { last: Date.now(), read: socket.bytesRead });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('upgrade', (_request, socket: Socket) => connections.delete(socket));
  const closeIdle = () => {
    const busy = new Set<unknown>([...waiting].map((reply) => reply.request.raw.socket));
    const now = Date.now();
    for (const [socket, { last, read }] of connections)
      if (socket.bytesRead === read && !busy.has(socket) && now - last >= IDLE_CLOSE_MS) {
        connections.delete(socket);
        socket.destroy();
      }
  };
  app.addHook('preClose', (done) => {
    closing = true;
    // replaces Node's close of every connection without a request at this very moment (see above)
    server.closeIdleConnections = closeIdle;
    const sweep = setInterval(closeIdle, SWEEP_EVERY_MS).unref();
    server.once('close', () => clearInterval(sweep));
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket;
    if (closing) {
      answerStopping(reply);
      return;
    }
    waiting.add(reply);
    reply.raw.once('close', () => {
      waiting.delete(reply);
      const state = connections.get(socket);
      if (state) Object.assign(state, { last: Date.now(), read: socket.bytesRead });
    });
    if (stopping) reply.header('connection', 'close');
    done();
  });
  return {
    stopping() {
      stopping = true;
      for (const reply of waiting) if (!reply.sent && !reply.raw.headersSent) reply.header('connection', 'close');
    },
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
