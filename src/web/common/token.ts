/**
 * The staff token lives in a cookie. With remember-me the cookie persists for
 * TOKEN_COOKIE_DAYS; without it the cookie is session-scoped (gone when the browser closes).
 * Remember-me keeps the user name in localStorage, never the password.
 */
import { parseJsonRecord } from './json.ts';

export const TOKEN_COOKIE = 'Admin-Token';
export const TOKEN_COOKIE_DAYS = 7;
const REMEMBER_KEY = 'login.remember';

function secureFlag(): string {
  return typeof window !== 'undefined' && window.location.protocol === 'https:' ? '; Secure' : '';
}

export function getToken(): string | null {
  const prefix = `${TOKEN_COOKIE}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) {
      const value = decodeURIComponent(item.slice(prefix.length));
      return value || null;
    }
  }
  return null;
}

export function setToken(token: string, remember: boolean, days: number = TOKEN_COOKIE_DAYS): void {
  const expires = remember ? `; expires=${new Date(Date.now() + days * 86_400_000).toUTCString()}` : '';
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}${expires}; path=/; SameSite=Lax${secureFlag()}`;
}

export function removeToken(): void {
  document.cookie = `${TOKEN_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Lax${secureFlag()}`;
}

export interface RememberedLogin {
  username: string;
  rememberMe: boolean;
}

export function getRemembered(): RememberedLogin {
  try {
    const saved = parseJsonRecord(localStorage.getItem(REMEMBER_KEY) || 'null');
    if (saved && typeof saved.username === 'string') return { username: saved.username, rememberMe: true };
  } catch {
    /* a damaged entry is ignored */
  }
  return { username: '', rememberMe: false };
}

export function setRemembered(username: string, rememberMe: boolean): void {
  if (rememberMe) localStorage.setItem(REMEMBER_KEY, JSON.stringify({ username }));
  else localStorage.removeItem(REMEMBER_KEY);
}

/**
 * The token whose server session has ended while the page still holds it (password changed,
 * idle lock): the sockets neither open with it nor report its refusal as a connection error.
 * Tied to the token, so the next sign-in's token is live again.
 */
let endedToken: string | null = null;

export function markTokenEnded(token: string | null = getToken()): void {
  endedToken = token;
}

/** Whether the token held now is one whose session has ended. */
export function tokenEnded(token: string | null = getToken()): boolean {
  return token !== null && token === endedToken;
}

/** The session stands after all (the change that would have ended it was refused). */
export function clearTokenEnded(): void {
  endedToken = null;
}

/**
 * Whose screen preferences (remembered list filters, pages, hidden columns, sidebar) react-admin's
 * store keeps: the user who signed in last in this browser. The store's key carries the name, so
 * the next user to sign in on a shared browser starts from their own, not from the last user's.
 */
export const STORE_OWNER_KEY = 'staff.storeOwner';

export function setStoreOwner(username: string): void {
  try {
    localStorage.setItem(STORE_OWNER_KEY, username);
  } catch {
    /* storage unavailable: the store lives with the page */
  }
}

/** react-admin's store app key: `staff` plus the signed-in user's name. */
export function storeAppKey(): string {
  let owner: string | null;
  try {
    owner = localStorage.getItem(STORE_OWNER_KEY);
  } catch {
    owner = null;
  }
  return owner ? `staff:${owner}` : 'staff';
}
