/**
 * Answers the page asked for before any module ran: for a signed-in visit to the console,
 * index.html's first script requests the user's info and menus (scripts/vite/console-early-start.ts)
 * and, when the route opens a resource, the list's first page and dictionaries (by URL, `gets`),
 * and leaves the pending answers here. Each is taken once, only for the token it was asked
 * with; anything but a 2xx JSON answer is refused, and the caller asks again the usual way
 * (with the HTTP client's error handling).
 */
import { getToken } from './token.ts';

type EarlyKey = 'info' | 'menus';

interface EarlyRequests {
  token: string;
  info?: Promise<Response>;
  menus?: Promise<Response>;
  /** GET answers by URL (path and query, as staff/firstRequests.ts writes them) */
  gets?: Record<string, Promise<Response> | undefined>;
}

function early(): EarlyRequests | undefined {
  return typeof window === 'undefined' ? undefined : (window as unknown as { __consoleEarly?: EarlyRequests }).__consoleEarly;
}

/** The early answer's JSON body for `key` (once), or null when there is none to take. */
export function takeEarly<T>(key: EarlyKey): Promise<T> | null {
  const requests = early();
  const pending = requests?.[key];
  if (!requests || !pending) return null;
  delete requests[key];
  if (requests.token !== getToken()) return null;
  return bodyOf<T>(pending, key);
}

function bodyOf<T>(pending: Promise<Response>, what: string): Promise<T> {
  return pending.then(async (response) => {
    if (response.status < 200 || response.status >= 300) throw new Error(`early ${what}: ${response.status}`);
    return (await response.json()) as T;
  });
}

/** The early answer's JSON body for a GET of exactly `url` (once), or null when there is none to take. */
export function takeEarlyGet<T>(url: string): Promise<T> | null {
  const requests = early();
  const pending = requests?.gets?.[url];
  if (!requests || !pending) return null;
  delete requests.gets![url];
  if (requests.token !== getToken()) return null;
  return bodyOf<T>(pending, url);
}

/** Drops the GET answers not taken (they belong to the start: the screen opened has asked for what it uses). */
export function dropEarlyGets(): void {
  const requests = early();
  if (requests) delete requests.gets;
}

/** Drops what is left (sign-out: the answers belong to the old session). */
export function dropEarly(): void {
  const requests = early();
  if (requests) {
    delete requests.info;
    delete requests.menus;
    delete requests.gets;
  }
}
