/**
 * The dealer portal's HTTP client (an axios instance of createHttpClient): JSON, the dealer's
 * bearer token and a random 32-digit submit_id header. Failures are reported to the portal's listeners: 401 opens the
 * session-expired confirm (重新登录 signs the dealer out and goes to /jxsLogin), others show the
 * server's message; time-out 网络请求超时, no answer 接口请求失败.
 */
import { createHttpClient, HttpError, request, type QueryValue, type TransferProgress } from '../common/http.ts';
import { getDealerSession } from './session.ts';

export const DEALER_TIMEOUT_MS = 30_000;

export class DealerHttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
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
  onProgress?: (progress: TransferProgress) => void;
  signal?: AbortSignal;
}

/** The dealer portal's client: the dealer's token and a submit_id with every signed-in request. */
export const dealerHttp = createHttpClient({
  token: () => getDealerSession()?.token,
  submitId: 'withToken',
  timeoutMs: DEALER_TIMEOUT_MS,
  report: (problem) => {
    // a 401 only means the session expired when the dealer was signed in (the sign-in form shows its own)
    if (problem.kind === 'unauthorized') {
      if (getDealerSession()) report({ kind: 'expired' });
    } else if (problem.kind === 'notice') report({ kind: 'message', message: problem.message });
  },
  // the portal has no /401 page: a refusal shows the server's message
  forbidden: 'notice',
});

export async function dealerFetch<T = unknown>(path: string, opts: DealerRequest = {}): Promise<T> {
  try {
    const res = await request<T>(
      `/${path.replace(/^\//, '')}`,
      {
        method: opts.method ?? 'GET',
        query: opts.query,
        body: opts.body,
        responseType: opts.blob ? 'blob' : 'json',
        timeoutMs: DEALER_TIMEOUT_MS,
        quiet: opts.quiet,
        onProgress: opts.onProgress,
        signal: opts.signal,
      },
      dealerHttp,
    );
    return (res.data ?? undefined) as T;
  } catch (err) {
    if (err instanceof HttpError) {
      // a 401 of a signed-in dealer opens the expired dialog even for quiet calls
      if (err.status === 401 && opts.quiet && getDealerSession()) report({ kind: 'expired' });
      // without a session a 401 is an answer like any other (a refused sign-in)
      if (err.status === 401 && !opts.quiet && !getDealerSession()) report({ kind: 'message', message: err.message });
      throw new DealerHttpError(err.message, err.status);
    }
    throw err;
  }
}
