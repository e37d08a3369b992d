/**
 * Websocket clients for server tests: a listening app (port 0) and a client that keeps every
 * message it receives, with waits for a message or the close.
 */
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

export async function listen(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address.replace(/^http/, 'ws');
}

/** one of the online staff in a CONNECT or CLOSE message */
export interface OnlineStaff {
  sid: string;
  name: string;
}

/**
 * A socket message as the tests read it. Every message has `msgType`; the other fields belong to
 * some kinds only (CHAT: id, msg, formUser, formName, createTime; EXCEL: code, msg, url, fileName;
 * CONNECT and CLOSE: formUser, formName, chats; INFO: msg), so pick a message by its kind first.
 */
export interface SocketMessage {
  msgType: string;
  id: number;
  msg: string;
  code: number;
  url: string;
  fileName: string;
  formUser: string;
  formName: string;
  formImg: string | null;
  chats: OnlineStaff[];
  createTime: string;
}

export interface TestSocket {
  ws: WebSocket;
  messages: SocketMessage[];
  /** resolves with the first message (already received or coming) matching the predicate */
  next(predicate: (m: SocketMessage) => boolean, timeoutMs?: number): Promise<SocketMessage>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export function openSocket(url: string): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const messages: SocketMessage[] = [];
    const waiters: Array<{ predicate: (m: SocketMessage) => boolean; resolve: (m: SocketMessage) => void }> = [];
    ws.on('message', (data) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? Buffer.from(data) : data;
      const text = bytes.toString('utf8');
      const m = JSON.parse(text) as SocketMessage;
      messages.push(m);
      for (const w of [...waiters]) {
        if (w.predicate(m)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    });
    const closed = new Promise<{ code: number; reason: string }>((res) =>
      ws.on('close', (code, reason) => res({ code, reason: String(reason) })),
    );
    ws.on('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`refused with ${res.statusCode}`), { statusCode: res.statusCode })),
    );
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        ws,
        messages,
        closed,
        close: () => ws.close(),
        next(predicate, timeoutMs = 5000) {
          const hit = messages.find(predicate);
          if (hit) return Promise.resolve(hit);
          return new Promise<SocketMessage>((res, rej) => {
            const timer = setTimeout(
              () => rej(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages).slice(0, 500)}`)),
              timeoutMs,
            );
            waiters.push({ predicate, resolve: (m) => (clearTimeout(timer), res(m)) });
          });
        },
      }),
    );
  });
}

/** Answers the HTTP status that refused the upgrade, or 101 when a socket opened. */
export async function handshakeStatus(url: string): Promise<number> {
  try {
    const s = await openSocket(url);
    s.close();
    return 101;
  } catch (err) {
    return (err as { statusCode?: number }).statusCode ?? 0;
  }
}
