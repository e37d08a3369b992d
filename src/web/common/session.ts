/**
 * The staff session: sign-in, sign-out and the signed-in user's info, permissions and
 * system settings. Used by the sign-in page (without react-admin) and by the authProvider.
 */
import { request, HttpError } from './http.ts';
import { encryptPassword } from './rsa.ts';
import { getToken, removeToken, setRemembered, setStoreOwner, setToken } from './token.ts';
import { dropEarly, takeEarly } from './early.ts';

export const PLAT_TYPE_ID = 100001;
export const DEFAULT_ROLE = 'ROLE_SYSTEM_DEFAULT';

export interface Role {
  id?: number;
  name: string;
  dataScope?: string;
  level?: number;
}

export interface SessionUser {
  id: number;
  username: string;
  nickName?: string;
  orgName?: string;
  deptNamePath?: string;
  phone?: string;
  img?: string;
  lockTime?: number;
  lastPasswordResetDate?: string;
  defPassword?: boolean;
  roles?: Role[];
  [key: string]: unknown;
}

export interface SysSettings {
  favicon?: string;
  logo?: string;
  compName?: string;
  recordNumber?: string;
  sysHomeImg?: string;
  title?: string;
  [key: string]: unknown;
}

export interface SessionInfo {
  user: SessionUser;
  permissions: string[];
  sys: SysSettings;
}

export interface Captcha {
  img: string;
  uuid: string;
  enabled: boolean;
}

export interface LoginForm {
  username: string;
  password: string;
  code: string;
  uuid: string;
  rememberMe: boolean;
}

let current: Promise<SessionInfo> | null = null;
/** the info `current` resolved to, for screens that render before a promise could answer */
let settled: SessionInfo | null = null;

/** The signed-in user's info when it has already arrived (no waiting, no request), else null. */
export function peekSession(): SessionInfo | null {
  return getToken() ? settled : null;
}

function remember(info: Promise<SessionInfo>): Promise<SessionInfo> {
  current = info;
  settled = null;
  info.then(
    (value) => {
      if (current === info) settled = value;
    },
    () => undefined,
  );
  return info;
}

function normalise(info: Partial<SessionInfo> & { user: SessionUser }): SessionInfo {
  const roles = info.user.roles && info.user.roles.length ? info.user.roles : [{ name: DEFAULT_ROLE }];
  return {
    user: { ...info.user, roles },
    permissions: Array.isArray(info.permissions) && info.permissions.length ? info.permissions : [DEFAULT_ROLE],
    sys: info.sys ?? {},
  };
}

const sysListeners = new Set<(sys: SysSettings) => void>();

/** Called with the new settings whenever 系统设置 saves them (the header, sidebar, footer and dashboard follow). */
export function onSysChange(listener: (sys: SysSettings) => void): () => void {
  sysListeners.add(listener);
  return () => void sysListeners.delete(listener);
}

/** The session's system settings changed (saved in 系统设置): kept for later reads and told to every listener. */
export function updateSessionSys(sys: SysSettings): void {
  if (settled) settled.sys = sys;
  for (const listener of sysListeners) listener(sys);
}

export async function fetchCaptcha(): Promise<Captcha> {
  const { data } = await request<Partial<Captcha>>('/api/code', { quiet: true });
  return { img: data.img ?? '', uuid: data.uuid ?? '', enabled: data.enabled !== false };
}

export async function fetchPublicSettings(): Promise<SysSettings> {
  const { data } = await request<SysSettings>('/api/system/sysConfigInit/anon/pc', { quiet: true });
  return data ?? {};
}

export async function fetchPublicKey(): Promise<string> {
  const { data } = await request<{ publicKey: string }>('/api/publicKey', { quiet: true });
  return data.publicKey;
}

/** Signs in; the password is always sent encrypted. Errors are thrown (HttpError), not reported. */
export async function signIn(form: LoginForm): Promise<SessionInfo> {
  const publicKey = await fetchPublicKey();
  const password = await encryptPassword(form.password, publicKey);
  const { data } = await request<SessionInfo & { token: string; rememberMeDays?: number }>('/api/login', {
    method: 'POST',
    quiet: true,
    body: {
      username: form.username,
      password,
      code: form.code,
      uuid: form.uuid,
      platTypeId: PLAT_TYPE_ID,
      rememberMe: form.rememberMe,
    },
  });
  if (!data?.token) throw new HttpError('登录失败', 500, data);
  const days = typeof data.rememberMeDays === 'number' && data.rememberMeDays > 0 ? data.rememberMeDays : undefined;
  setToken(data.token, form.rememberMe, days);
  setRemembered(form.username, form.rememberMe);
  const info = normalise(data);
  setStoreOwner(info.user.username || form.username);
  void remember(Promise.resolve(info));
  return info;
}

/** The signed-in user's info, fetched once per page load. Rejects when there is no valid session. */
export function loadSession(): Promise<SessionInfo> {
  if (!getToken()) return Promise.reject(new HttpError('未登录', 401));
  if (!current) {
    const ask = () => request<SessionInfo>('/api/info', { quiet: true }).then(({ data }) => data);
    // the page may have asked already (index.html, signed-in visits): that answer, else ask now
    const early = takeEarly<SessionInfo>('info');
    const info = remember((early ? early.catch(ask) : ask()).then((data) => normalise(data)));
    info.catch(() => {
      if (current === info) current = null;
    });
  }
  return current!;
}

/** Fetches the user's info again (after the user changed it), for everyone who asks next. */
export function refreshSession(): Promise<SessionInfo> {
  current = null;
  settled = null;
  return loadSession();
}

/** Signs in with the code and state WeCom returned after a QR scan (not remembered). */
export async function signInWithWecom(code: string, state: string): Promise<SessionInfo> {
  const { data } = await request<SessionInfo & { token: string }>('/api/qywxLogin', { query: { code, state }, quiet: true });
  if (!data?.token) throw new HttpError('登录失败', 500, data);
  setToken(data.token, false);
  const info = normalise(data);
  setStoreOwner(info.user.username);
  void remember(Promise.resolve(info));
  return info;
}

export function clearSession(): void {
  current = null;
  settled = null;
  dropEarly();
  removeToken();
}

export async function signOut(): Promise<void> {
  if (getToken()) {
    try {
      await request('/api/logout', { method: 'DELETE', quiet: true });
    } catch {
      /* the token is dropped locally either way */
    }
  }
  clearSession();
}

/** Days since the last password reset ('YYYY-MM-DD HH:mm:ss'), or null when unknown. */
export function passwordAgeDays(lastReset: string | undefined, now: Date = new Date()): number | null {
  if (!lastReset) return null;
  const time = new Date(lastReset.replace(' ', 'T')).getTime();
  if (Number.isNaN(time)) return null;
  return Math.floor((now.getTime() - time) / 86_400_000);
}

export const PASSWORD_WARN_DAYS = 90;
export const PASSWORD_DISABLE_DAYS = 100;

/** Whether `permissions` grants `keys` ('admin' grants everything); false for an empty list. */
export function hasPermission(permissions: readonly string[] | undefined, ...keys: string[]): boolean {
  if (!permissions || keys.length === 0) return false;
  if (permissions.includes('admin')) return true;
  return keys.some((key) => permissions.includes(key));
}
