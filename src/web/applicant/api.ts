/**
 * The applicant pages' HTTP client: JSON, the applicant token (kept in local storage, so another
 * tab of this browser continues; another device resumes with ID number, mobile and an SMS code;
 * a staff token is never sent from these pages) and a submit_id on writes.
 * Failures throw ApiProblem with the server's Chinese message.
 */
import { submitId } from '../staff/providers/http.ts';

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

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, query?: Record<string, string | number>): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = applicantToken();
  if (token) {
    headers.Authorization = `Bearer ${token}`;
    if (method !== 'GET') headers.submit_id = submitId();
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const search = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}` : '';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(`/${path.replace(/^\//, '')}${search}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (err) {
    throw new ApiProblem((err as Error).name === 'AbortError' ? '网络请求超时' : '接口请求失败', 0);
  } finally {
    clearTimeout(timer);
  }
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const message = (data as { message?: string } | undefined)?.message ?? '接口请求失败';
    throw new ApiProblem(message, res.status);
  }
  return data as T;
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
