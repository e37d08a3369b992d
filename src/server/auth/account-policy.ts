/**
 * Account rules applied at sign-in, stored on the user row so that every instance applies them:
 * - lockout: MAX_FAILURES failed passwords for one account within FAILURE_WINDOW_MS lock it for
 *   LOCK_MS, whatever captcha was used; the answer says until when. A success clears the count.
 * - password age: PASSWORD_DISABLE_DAYS or more since the last reset refuses the sign-in and
 *   says how to reset it (the web warns from PASSWORD_WARN_DAYS on).
 */
import type { Dialect, Db } from '../types.ts';
import { plainText } from '../../shared/text.ts';

export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
export const PASSWORD_WARN_DAYS = 90;
export const PASSWORD_DISABLE_DAYS = 100;

const pad = (n: number) => String(n).padStart(2, '0');
/** 'YYYY-MM-DD HH:mm:ss' in the server's local time. */
export function clockText(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export const lockedMessage = (until: number) => `密码错误次数过多，账号已锁定，请于${clockText(until)}后再试`;
export const PASSWORD_EXPIRED = `密码已超过${PASSWORD_DISABLE_DAYS}天未修改，账号已停用。请在登录页点击“忘记密码”，用绑定的手机号接收验证码重置密码，或联系管理员重置`;

/** The end of the account's lock, or null when it is not locked at `now`. */
export function lockedUntil(row: { locked_until?: unknown }, now: number): number | null {
  const until = row.locked_until === null || row.locked_until === undefined ? 0 : Number(row.locked_until);
  return until > now ? until : null;
}

/**
 * Counts one failed password; answers the lock's end when this failure locks the account.
 * Done in one transaction so that concurrent failures on several instances all count.
 */
export async function recordFailure(db: Db, dialect: Dialect, userId: number, now: number, table = 'sys_user'): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom(table)
      .select(['login_fail_count', 'login_fail_since'])
      .where('id', '=', userId)
      // SQLite runs one writer at a time; PostgreSQL locks the row
      .$if(dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!row) return null;
    const since = row.login_fail_since === null ? 0 : Number(row.login_fail_since);
    const inWindow = now - since < FAILURE_WINDOW_MS;
    const count = (inWindow ? Number(row.login_fail_count ?? 0) : 0) + 1;
    if (count >= MAX_FAILURES) {
      const until = now + LOCK_MS;
      await trx
        .updateTable(table)
        .set({ login_fail_count: 0, login_fail_since: null, locked_until: until })
        .where('id', '=', userId)
        .execute();
      return until;
    }
    await trx
      .updateTable(table)
      .set({ login_fail_count: count, login_fail_since: inWindow ? since : now })
      .where('id', '=', userId)
      .execute();
    return null;
  });
}

export async function clearFailures(db: Db, userId: number, table = 'sys_user'): Promise<void> {
  await db.updateTable(table).set({ login_fail_count: 0, login_fail_since: null, locked_until: null }).where('id', '=', userId).execute();
}

/** Whole days since the last password reset ('YYYY-MM-DD HH:mm:ss' or a Date), null when unknown. */
export function passwordAgeDays(lastReset: unknown, now: number): number | null {
  if (lastReset === null || lastReset === undefined || lastReset === '') return null;
  const t = lastReset instanceof Date ? lastReset.getTime() : new Date(plainText(lastReset).replace(' ', 'T')).getTime();
  if (Number.isNaN(t)) return null;
  return Math.floor((now - t) / 86_400_000);
}
