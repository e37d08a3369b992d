/**
 * The dealer portal's HTTP client: JSON, the dealer's bearer token and a random 32-digit
 * submit_id header. Failures are reported to the portal's listeners: 401 opens the
 * session-expired confirm (重新登录 signs the dealer out and goes to /jxsLogin), others show the
 * server's message; time-out 网络请求超时, no answer 接口请求失败.
 */
import { buildQuery, submitId, type QueryValue } from '../staff/providers/http.ts';
import { messages } from '../../shared/messages.ts';
import { getDealerSession } from './session.ts';

export const DEALER_TIMEOUT_MS = 30_000;

export class DealerHttpError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'DealerHttpError';
  }
}

export type Problem = { kind: 'expired' } | { kind: 'message'; message: string };
const listeners = new Set<(p: Problem) => void>();
export function onDealerProblem(listener: (p: Problem) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function report(p: Problem) {
  for (const l of listeners) l(p);
}

export interface DealerRequest {
  method?: 'GET' | 'POST' | 'PUT';
  query?: Record<string, QueryValue>;
  /** JSON-serialisable body, or FormData sent as multipart (a picture to recognise) */
  body?: unknown;
  /** the caller shows the failure itself */
  quiet?: boolean;
  /** answer as a Blob (contract PDF) */
  blob?: boolean;
}

export async function dealerFetch<T = unknown>(path: string, opts: DealerRequest = {}): Promise<T> {
  const session = getDealerSession();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (session) {
    headers.Authorization = `Bearer ${session.token}`;
    headers.submit_id = submitId();
  }
  const form = opts.body instanceof FormData;
  if (opts.body !== undefined && !form) headers['Content-Type'] = 'application/json';
  const qs = buildQuery(opts.query);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), DEALER_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(`/${path.replace(/^\//, '')}${qs ? `?${qs}` : ''}`, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : form ? (opts.body as FormData) : JSON.stringify(opts.body),
      signal: controller.signal,
    });
  } catch (err) {
    const message = (err as Error).name === 'AbortError' ? messages.error.timeout : messages.error.requestFailed;
    if (!opts.quiet) report({ kind: 'message', message });
    throw new DealerHttpError(message, 0);
  } finally {
    clearTimeout(timer);
  }
  if (res.status >= 200 && res.status < 300) {
    if (opts.blob) return (await res.blob()) as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
  let message = messages.error.requestFailed as string;
  try {
    const body = await res.json();
    if (typeof body?.message === 'string') message = body.message;
  } catch {
    /* not JSON */
  }
  if (res.status === 401 && session) report({ kind: 'expired' });
  else if (!opts.quiet) report({ kind: 'message', message });
  throw new DealerHttpError(message, res.status);
}
