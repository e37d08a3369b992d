/**
 * A fetch stand-in for web tests: answers by method + path, records every call. The same
 * answers serve XMLHttpRequest, which the HTTP client uses for transfers with progress
 * (uploads, downloads): a request sent that way reports its upload progress, then answers.
 */
import { vi } from 'vitest';
import { textOf } from '../../src/web/common/text.ts';

export interface RecordedCall {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

export type Answer = { status?: number; body?: unknown; delayMs?: number } | ((call: RecordedCall) => { status?: number; body?: unknown });

function parsed(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

export function mockFetch(routes: Record<string, Answer>) {
  const calls: RecordedCall[] = [];
  /** The answer to a call, after its delay (rejects with AbortError when `signal` aborts first). */
  async function answer(call: RecordedCall, signal?: AbortSignal | null): Promise<{ status: number; payload: string | null }> {
    calls.push(call);
    const route = routes[`${call.method} ${call.url.pathname}`] ?? routes[call.url.pathname];
    if (!route) return { status: 404, payload: JSON.stringify({ status: 404, message: 'not found' }) };
    const resolved = typeof route === 'function' ? route(call) : route;
    const delay = typeof route === 'function' ? 0 : (route.delayMs ?? 0);
    if (delay) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, delay);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    }
    const status = resolved.status ?? 200;
    return { status, payload: resolved.body === undefined || status === 204 ? null : JSON.stringify(resolved.body) };
  }

  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    const { status, payload } = await answer({ method, url, headers, body: parsed(init.body) }, init.signal);
    return new Response(payload, { status, headers: { 'Content-Type': 'application/json' } });
  });

  class MockXhr {
    readyState = 0;
    status = 0;
    statusText = '';
    responseText = '';
    response: unknown = '';
    responseType = '';
    responseURL = '';
    timeout = 0;
    withCredentials = false;
    onloadend: (() => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private method = 'GET';
    private url = '';
    private headers: Record<string, string> = {};
    private aborter = new AbortController();
    private listeners = new Map<string, Array<(e: unknown) => void>>();
    upload = {
      addEventListener: (type: string, fn: (e: unknown) => void) =>
        this.listeners.set(`upload:${type}`, [...(this.listeners.get(`upload:${type}`) ?? []), fn]),
      removeEventListener: () => undefined,
    };
    open(method: string, url: string) {
      this.method = method.toUpperCase();
      this.url = url;
      this.readyState = 1;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    addEventListener(type: string, fn: (e: unknown) => void) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
    }
    removeEventListener() {}
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n';
    }
    abort() {
      this.aborter.abort();
      this.onabort?.();
    }
    private emit(type: string, e: unknown) {
      for (const fn of this.listeners.get(type) ?? []) fn(e);
    }
    send(body: unknown) {
      const url = new URL(this.url, 'http://localhost');
      const size =
        body instanceof FormData
          ? [...body.values()].reduce((n, v) => n + (v instanceof Blob ? v.size : String(v).length), 0)
          : typeof body === 'string'
            ? body.length
            : body instanceof Blob
              ? body.size
              : textOf(body).length;
      answer({ method: this.method, url, headers: this.headers, body: parsed(body) }, this.aborter.signal).then(
        ({ status, payload }) => {
          this.emit('upload:progress', { lengthComputable: true, loaded: size, total: size });
          this.status = status;
          this.responseText = payload ?? '';
          this.response = this.responseType === 'blob' ? new Blob([payload ?? '']) : (payload ?? '');
          this.readyState = 4;
          this.onloadend?.();
        },
        () => undefined,
      );
    }
  }

  vi.stubGlobal('fetch', fetchImpl);
  vi.stubGlobal('XMLHttpRequest', MockXhr);
  return { calls, fetch: fetchImpl };
}
