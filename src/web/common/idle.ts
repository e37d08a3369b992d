/**
 * The idle-lock clock: idle seconds since the last click or key press against the user's
 * lockTime (minutes; 0 never locks). The warning starts WARN_SECONDS before the lock.
 */

export const WARN_SECONDS = 30;

/** The choices of the 锁屏时间 dialog (staff and dealers): minutes, 0 is 永不; 其他 takes up to 3 digits. */
export const LOCK_CHOICES = [10, 20, 30, 40, 50, 60, 90, 0];

export type IdlePhase = { phase: 'active' } | { phase: 'warning'; secondsLeft: number } | { phase: 'locked' };

export function idlePhase(idleSeconds: number, lockMinutes: number | null | undefined): IdlePhase {
  const limit = Math.floor(Number(lockMinutes) || 0) * 60;
  if (limit <= 0) return { phase: 'active' };
  if (idleSeconds >= limit) return { phase: 'locked' };
  if (idleSeconds >= limit - WARN_SECONDS) return { phase: 'warning', secondsLeft: Math.max(1, Math.ceil(limit - idleSeconds)) };
  return { phase: 'active' };
}

/** The lock dialog's required messages (the sign-in rules, 用户名不能为空 for the user name). */
export function lockFormError(form: { username: string; password: string; code: string }, captchaEnabled: boolean): string | null {
  if (!form.username.trim()) return '用户名不能为空';
  if (!form.password) return '密码不能为空';
  if (captchaEnabled && !form.code.trim()) return '验证码不能为空';
  return null;
}
