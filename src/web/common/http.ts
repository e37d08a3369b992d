/**
 * The web apps' HTTP client: one configured axios instance per app (staff console here, the
 * dealer portal in dealer/http.ts, the applicant form in applicant/api.ts), all made by
 * createHttpClient. Its interceptors carry the app's bearer token and a random 32-digit
 * submit_id header, and apply the error rules of the spec: timeout -> 网络请求超时 (5 s),
 * no answer -> 接口请求失败 (5 s), 401 -> the session-expired dialog, 403 -> /401, any other
 * failure -> the server message (30 s, closable).
 *
 * JSON calls go through axios' fetch adapter; a call that asks for progress (uploads, large
 * downloads) goes through its XMLHttpRequest adapter, the only browser API that reports how
 * much of a request body has been sent. Either can be cancelled with an AbortSignal.
 */
import axios, {
  AxiosError,
  AxiosHeaders,
  type AxiosInstance,
  type AxiosProgressEvent,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import { getToken } from './token.ts';
import { reportHttpProblem, type HttpProblem } from './httpEvents.ts';
import { messages } from '../../shared/messages.ts';

export const REQUEST_TIMEOUT_MS = 30_000;
export const NETWORK_NOTICE_MS = 5_000;
export const ERROR_NOTICE_MS = 30_000;
export const MSG_TIMEOUT = messages.error.timeout;
export const MSG_NO_ANSWER = messages.error.requestFailed;
/** a transfer the user cancelled (no notice: the user knows) */
export const MSG_CANCELED = '已取消';

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
  /** progress of the upload (a body is sent) or else of the download, 0-100 */
  onProgress?: (progress: TransferProgress) => void;
  /** cancels the request (the promise rejects with HttpError MSG_CANCELED, status 0, nothing reported) */
  signal?: AbortSignal;
}

export interface TransferProgress {
  /** 0-100, or undefined when the size is not known */
  percent: number | undefined;
  loaded: number;
  total: number | undefined;
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

export function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    return (body as { message: string }).message || fallback;
  }
  if (typeof body === 'string' && body.trim() && !body.trim().startsWith('<')) return body.trim();
  return fallback;
}

declare module 'axios' {
  interface AxiosRequestConfig {
    /** the caller shows failures itself: nothing is reported */
    quiet?: boolean;
  }
}

/** What a client reports; each app turns it into its own dialogs, navigation and notices. */
export type ClientProblem = HttpProblem;

export interface HttpClientOptions {
  /** the app's bearer token, if any */
  token: () => string | null | undefined;
  /** when to send a submit_id: with every request that carries the token, or only with writes */
  submitId: 'withToken' | 'writes';
  timeoutMs: number;
  /** tells the app about a failure (not called for quiet requests and cancellations) */
  report: (problem: ClientProblem) => void;
  /** the message of a 401 without a server message */
  unauthorizedFallback?: string;
  /** a 403: reported as forbidden (the console goes to /401) or as a notice with the server's message */
  forbidden?: 'problem' | 'notice';
}

const WRITES = new Set(['post', 'put', 'patch', 'delete']);

/** A body read as text (an error answered to a blob request), then as JSON when it is JSON. */
async function errorBody(data: unknown): Promise<unknown> {
  let value = data;
  if (typeof Blob !== 'undefined' && value instanceof Blob) value = await value.text().catch(() => '');
  if (typeof value === 'string') {
    if (!value) return null;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value ?? null;
}

/**
 * One configured axios instance: token and submit_id on the way out; on the way back every
 * failure becomes an HttpError with the spec's Chinese message, reported to the app.
 */
export function createHttpClient(options: HttpClientOptions): AxiosInstance {
  const client = axios.create({
    timeout: options.timeoutMs,
    // fetch for JSON calls (the Request constructor is left out: relative URLs as the page has them)
    adapter: 'fetch',
    env: { Request: null as unknown as typeof Request },
    headers: { Accept: 'application/json' },
    // the Spring way: empty values dropped, arrays as repeated keys (createTime=a&createTime=b)
    paramsSerializer: { serialize: (params) => buildQuery(params as Record<string, QueryValue>) },
    // same-origin cookies, as fetch sends them by default
    withCredentials: 'same-origin' as unknown as boolean,
  });

  client.interceptors.request.use(
    (config: InternalAxiosRequestConfig) => {
      const token = options.token();
      const write = WRITES.has((config.method ?? 'get').toLowerCase());
      if (token) {
        config.headers.set('Authorization', `Bearer ${token}`);
        if (options.submitId === 'withToken' || write) config.headers.set('submit_id', submitId());
      }
      if (config.data instanceof FormData) config.headers.setContentType(false);
      // no body, no type: axios would name a body-less PUT or POST form-urlencoded, which the
      // server refuses with 415 (api/jobs/exec/{id}, pause, read marks...)
      if (config.data === undefined || config.data === null) config.headers.setContentType(false);
      // progress needs XMLHttpRequest: fetch cannot tell how much of a body has been sent
      if (config.onUploadProgress || config.onDownloadProgress) config.adapter = 'xhr';
      return config;
      // synchronous: the request leaves in the same tick (the console's early list request races the screen's code)
    },
    undefined,
    { synchronous: true },
  );

  client.interceptors.response.use(
    (response) => {
      if (response.data === '' && (response.config.responseType ?? 'json') === 'json') response.data = null;
      return response;
    },
    async (error: unknown) => {
      const config = (error as AxiosError).config;
      const quiet = !!config?.quiet;
      const url = config?.url ?? '';
      if (axios.isCancel(error) || (error as AxiosError).code === AxiosError.ERR_CANCELED) {
        throw new HttpError(MSG_CANCELED, 0, error);
      }
      const response = (error as AxiosError).response;
      if (!response) {
        const code = (error as AxiosError).code;
        const message = code === AxiosError.ETIMEDOUT || code === AxiosError.ECONNABORTED ? MSG_TIMEOUT : MSG_NO_ANSWER;
        if (!quiet) options.report({ kind: 'notice', message, duration: NETWORK_NOTICE_MS, closable: false, html: false });
        throw new HttpError(message, 0, error);
      }
      const data = await errorBody(response.data);
      const message = messageOf(data, response.status === 401 ? (options.unauthorizedFallback ?? '登录状态已过期') : MSG_NO_ANSWER);
      if (!quiet) {
        if (response.status === 401) options.report({ kind: 'unauthorized', url });
        else if (response.status === 403 && options.forbidden !== 'notice') options.report({ kind: 'forbidden', url });
        else options.report({ kind: 'notice', message, duration: ERROR_NOTICE_MS, closable: true, html: true });
      }
      throw new HttpError(message, response.status, data);
    },
  );
  return client;
}

/** The staff console's client: the console's token, a submit_id with every signed-in request. */
export const staffHttp = createHttpClient({
  token: getToken,
  submitId: 'withToken',
  timeoutMs: REQUEST_TIMEOUT_MS,
  report: reportHttpProblem,
});

function progressOf(event: AxiosProgressEvent): TransferProgress {
  const total = event.total && event.total > 0 ? event.total : undefined;
  return { loaded: event.loaded, total, percent: total ? Math.min(100, Math.round((event.loaded / total) * 100)) : undefined };
}

function headersOf(response: AxiosResponse): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(AxiosHeaders.from(response.headers as never).toJSON())) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  return headers;
}

/** A call through `client` (the staff console's by default) in the shape the screens use. */
export async function request<T = unknown>(
  url: string,
  options: RequestOptions = {},
  client: AxiosInstance = staffHttp,
): Promise<HttpResponse<T>> {
  const { method = 'GET', query, body, responseType = 'json', timeoutMs = REQUEST_TIMEOUT_MS, quiet = false, onProgress, signal } = options;
  const sending = body !== undefined;
  const response = await client.request<T>({
    url,
    method,
    params: query,
    data: body,
    responseType,
    timeout: timeoutMs,
    quiet,
    signal,
    ...(onProgress && sending ? { onUploadProgress: (e: AxiosProgressEvent) => onProgress(progressOf(e)) } : {}),
    ...(onProgress && !sending ? { onDownloadProgress: (e: AxiosProgressEvent) => onProgress(progressOf(e)) } : {}),
  });
  return { status: response.status, data: response.data, headers: headersOf(response) };
}
