import { describe, expect, it } from 'vitest';
import { idlePhase, lockFormError, WARN_SECONDS } from '../../src/web/common/idle.ts';

describe('idle lock clock', () => {
  it('lockTime 0 (or missing) never locks', () => {
    expect(idlePhase(10 ** 6, 0)).toEqual({ phase: 'active' });
    expect(idlePhase(10 ** 6, undefined)).toEqual({ phase: 'active' });
  });

  it('warns 30 s before the lock with the seconds left, then locks', () => {
    expect(WARN_SECONDS).toBe(30);
    expect(idlePhase(29, 1)).toEqual({ phase: 'active' });
    expect(idlePhase(30, 1)).toEqual({ phase: 'warning', secondsLeft: 30 });
    expect(idlePhase(59.5, 1)).toEqual({ phase: 'warning', secondsLeft: 1 });
    expect(idlePhase(60, 1)).toEqual({ phase: 'locked' });
    expect(idlePhase(10 * 60 - 31, 10)).toEqual({ phase: 'active' });
  });

  it('the lock form asks for user name, password and captcha', () => {
    expect(lockFormError({ username: ' ', password: 'x', code: '1' }, true)).toBe('用户名不能为空');
    expect(lockFormError({ username: 'a', password: '', code: '1' }, true)).toBe('密码不能为空');
    expect(lockFormError({ username: 'a', password: 'x', code: '' }, true)).toBe('验证码不能为空');
    expect(lockFormError({ username: 'a', password: 'x', code: '' }, false)).toBeNull();
  });
});
