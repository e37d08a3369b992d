/**
 * The applicant pages' HTTP client (an axios instance of createHttpClient): JSON, the applicant
 * token (kept in local storage, so another tab of this browser continues; another device resumes
 * with ID number, mobile and an SMS code; a staff token is never sent from these pages) and a
 * submit_id on writes.
 * Failures throw ApiProblem with the server's Chinese message.
 */
import { createHttpClient, HttpError, request } from '../common/http.ts';
import { messages } from '../../shared/messages.ts';

const TOKEN_KEY = 'applicantToken';
const TIMEOUT_MS = 20_000;

export class ApiProblem extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiProblem';
  }
}

export function applicantToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setApplicantToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage unavailable: the token lives as long as the page */
  }
}

/**
 * The applicant form's client: the applicant token, a submit_id on writes. Nothing is reported
 * to a listener: each page shows the ApiProblem's message where the applicant is looking.
 */
export const applicantHttp = createHttpClient({
  token: applicantToken,
  submitId: 'writes',
  timeoutMs: TIMEOUT_MS,
  report: () => undefined,
  unauthorizedFallback: messages.error.requestFailed,
});

export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  query?: Record<string, string | number>,
): Promise<T> {
  try {
    const res = await request<T>(`/${path.replace(/^\//, '')}`, { method, body, query, timeoutMs: TIMEOUT_MS, quiet: true }, applicantHttp);
    return (res.data ?? undefined) as T;
  } catch (err) {
    if (err instanceof HttpError) throw new ApiProblem(err.message, err.status);
    throw err;
  }
}

export interface Posting {
  id: number;
  job: string;
  money: string;
  address: string;
  jobNum: number;
  jobZz: string;
  jobYq: string;
}
