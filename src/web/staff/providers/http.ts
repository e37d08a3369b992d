/**
 * The shared HTTP client: JSON in and out, bearer token and a random 32-digit submit_id
 * header whenever a token exists, a request timeout, and the error rules of the spec:
 * timeout -> 网络请求超时 (5 s), no answer -> 接口请求失败 (5 s), 401 -> the session-expired
 * dialog, 403 -> /401, any other failure -> the server message (30 s, closable).
 */
import { getToken } from './token.ts';
import { reportHttpProblem } from './httpEvents.ts';
import { messages } from '../../../shared/messages.ts';

export const REQUEST_TIMEOUT_MS = 30_000;
export const NETWORK_NOTICE_MS = 5_000;
export const ERROR_NOTICE_MS = 30_000;
export const MSG_TIMEOUT = messages.error.timeout;
export const MSG_NO_ANSWER = messages.error.requestFailed;

export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(message: string, status: number, body?: unknown) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
  }
}

export type QueryValue = string | number | boolean | null | undefined | Array<string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** JSON-serialisable body, or FormData sent as multipart */
  body?: unknown;
  responseType?: 'json' | 'blob';
  timeoutMs?: number;
  /** the caller shows failures itself: nothing is reported (the error is still thrown) */
  quiet?: boolean;
}

export interface HttpResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

/** A random 32-digit string (first digit non-zero). */
export function submitId(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  let id = String(1 + (bytes[0] % 9));
  for (let i = 1; i < 32; i++) id += String(bytes[i] % 10);
  return id;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * Query string the Spring way: empty values dropped, arrays as repeated keys without indices
 * (`createTime=a&createTime=b`).
 */
export function buildQuery(params: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      for (const item of value) if (!isEmpty(item)) search.append(key, String(item));
    } else if (!isEmpty(value)) {
      search.append(key, String(value));
    }
  }
  return search.toString();
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}`, submit_id: submitId() } : {};
}

async function readBody(response: Response, responseType: 'json' | 'blob'): Promise<unknown> {
  if (response.status === 204) return null;
  if (responseType === 'blob' && response.ok) return response.blob();
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object' && 'message' in body && typeof (body as { message: unknown }).message === 'string') {
    return (body as { message: string }).message || fallback;
  }
  if (typeof body === 'string' && body.trim() && !body.trim().startsWith('<')) return body.trim();
  return fallback;
}

export async function request<T = unknown>(url: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
  const { method = 'GET', query, body, responseType = 'json', timeoutMs = REQUEST_TIMEOUT_MS, quiet = false } = options;
  const qs = buildQuery(query);
  const fullUrl = qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json;charset=utf-8';
    payload = JSON.stringify(body);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);

  let response: Response;
  try {
    response = await fetch(fullUrl, { method, headers, body: payload, signal: controller.signal, credentials: 'same-origin' });
  } catch (cause) {
    clearTimeout(timer);
    const message = timedOut ? MSG_TIMEOUT : MSG_NO_ANSWER;
    if (!quiet) reportHttpProblem({ kind: 'notice', message, duration: NETWORK_NOTICE_MS, closable: false, html: false });
    throw new HttpError(message, 0, cause);
  }
  let data: unknown;
  try {
    data = await readBody(response, responseType);
  } catch (cause) {
    clearTimeout(timer);
    const message = timedOut ? MSG_TIMEOUT : MSG_NO_ANSWER;
    if (!quiet) reportHttpProblem({ kind: 'notice', message, duration: NETWORK_NOTICE_MS, closable: false, html: false });
    throw new HttpError(message, response.status, cause);
  }
  clearTimeout(timer);

  if (response.status >= 200 && response.status < 300) {
    return { status: response.status, data: data as T, headers: response.headers };
  }
  const message = messageOf(data, response.status === 401 ? '登录状态已过期' : MSG_NO_ANSWER);
  if (!quiet) {
    if (response.status === 401) reportHttpProblem({ kind: 'unauthorized', url });
    else if (response.status === 403) reportHttpProblem({ kind: 'forbidden', url });
    else reportHttpProblem({ kind: 'notice', message, duration: ERROR_NOTICE_MS, closable: true, html: true });
  }
  throw new HttpError(message, response.status, data);
}
