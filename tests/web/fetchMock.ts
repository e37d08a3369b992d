/** A fetch stand-in for web tests: answers by method + path, records every call. */
import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

export type Answer = { status?: number; body?: unknown; delayMs?: number } | ((call: RecordedCall) => { status?: number; body?: unknown });

export function mockFetch(routes: Record<string, Answer>) {
  const calls: RecordedCall[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    let body: unknown = init.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        /* raw */
      }
    }
    const call = { method, url, headers, body };
    calls.push(call);
    const answer = routes[`${method} ${url.pathname}`] ?? routes[url.pathname];
    if (!answer) return new Response(JSON.stringify({ status: 404, message: 'not found' }), { status: 404 });
    const resolved = typeof answer === 'function' ? answer(call) : answer;
    const delay = typeof answer === 'function' ? 0 : (answer.delayMs ?? 0);
    if (delay) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, delay);
        init.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    }
    const status = resolved.status ?? 200;
    const payload = resolved.body === undefined || status === 204 ? null : JSON.stringify(resolved.body);
    return new Response(payload, { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchImpl);
  return { calls, fetch: fetchImpl };
}
