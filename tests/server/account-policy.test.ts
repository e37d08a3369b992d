import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { nowText } from '../../src/server/db/index.ts';
import {
  clockText,
  LOCK_MS,
  lockedMessage,
  MAX_FAILURES,
  PASSWORD_EXPIRED,
  passwordAgeDays,
} from '../../src/server/auth/account-policy.ts';
import { authTestApp, createStaff, encryptPassword, publicKeyOf, testDialects, type AuthTestApp } from './auth-helpers.ts';
import type { ErrorBody } from '../support/answers.ts';

describe('account rules', () => {
  it('password age in whole days; unknown dates are null', () => {
    const now = new Date('2024-06-01T12:00:00').getTime();
    expect(passwordAgeDays('2024-03-03 12:00:00', now)).toBe(90);
    expect(passwordAgeDays('2024-03-03 12:00:01', now)).toBe(89);
    expect(passwordAgeDays(new Date('2024-02-22T12:00:00'), now)).toBe(100);
    expect(passwordAgeDays(null, now)).toBeNull();
    expect(passwordAgeDays('garbage', now)).toBeNull();
  });

  it('the lock message says until when', () => {
    const until = new Date('2024-06-01T12:15:00').getTime();
    expect(clockText(until)).toBe('2024-06-01 12:15:00');
    expect(lockedMessage(until)).toBe('密码错误次数过多，账号已锁定，请于2024-06-01 12:15:00后再试');
    expect(PASSWORD_EXPIRED).toMatch(/100天/);
    expect(PASSWORD_EXPIRED).toMatch(/忘记密码/);
  });
});

describe.each(testDialects)('sign-in account rules on %s', (dialect) => {
  let t: AuthTestApp;
  let app: FastifyInstance;
  let clock = new Date('2024-06-01T09:00:00').getTime();
  let key: string;

  const login = (username: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/login', payload: { username, password: encryptPassword(key, password), code: '', uuid: '' } });

  beforeAll(async () => {
    t = await authTestApp(dialect, { auth: { now: () => clock } });
    app = t.app;
    key = await publicKeyOf(app);
    await createStaff(app, { username: 'locky', password: 'Locky@2024', permissions: [] });
    await createStaff(app, { username: 'other', password: 'Other@2024', permissions: [] });
    await createStaff(app, { username: 'oldpw', password: 'Oldpw@2024', permissions: [] });
  });
  afterAll(async () => t?.close());

  it(`locks an account after ${MAX_FAILURES} wrong passwords in 15 minutes, even with the right one`, async () => {
    for (let i = 1; i < MAX_FAILURES; i++) {
      const res = await login('locky', 'Wrong@2024');
      expect(res.statusCode).toBe(400);
      expect(res.json<ErrorBody>().message).toBe('用户名或密码错误');
      clock += 60_000;
    }
    const fifth = await login('locky', 'Wrong@2024');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json<ErrorBody>().message).toBe(lockedMessage(clock + LOCK_MS));
    const right = await login('locky', 'Locky@2024');
    expect(right.statusCode).toBe(423);
    // another account is not touched
    expect((await login('other', 'Other@2024')).statusCode).toBe(200);
    // after 15 minutes the right password works and clears the count
    clock += LOCK_MS + 1000;
    expect((await login('locky', 'Locky@2024')).statusCode).toBe(200);
    for (let i = 1; i < MAX_FAILURES; i++) expect((await login('locky', 'Wrong@2024')).statusCode).toBe(400);
    expect((await login('locky', 'Locky@2024')).statusCode).toBe(200);
  });

  it('failures older than 15 minutes do not count', async () => {
    for (let i = 1; i < MAX_FAILURES; i++) expect((await login('other', 'Wrong@2024')).statusCode).toBe(400);
    clock += 15 * 60_000 + 1;
    expect((await login('other', 'Wrong@2024')).statusCode).toBe(400);
    expect((await login('other', 'Other@2024')).statusCode).toBe(200);
  });

  it('a password 100 days old refuses the sign-in; 90 days signs in (the web warns)', async () => {
    const set = (days: number) =>
      app.database.db
        .updateTable('sys_user')
        .set({ pwd_reset_time: nowText(new Date(clock - days * 86_400_000)) })
        .where('username', '=', 'oldpw')
        .execute();
    await set(100);
    const refused = await login('oldpw', 'Oldpw@2024');
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ErrorBody>().message).toBe(PASSWORD_EXPIRED);
    await set(99);
    const warned = await login('oldpw', 'Oldpw@2024');
    expect(warned.statusCode).toBe(200);
    expect(passwordAgeDays(warned.json<{ user: { lastPasswordResetDate: string } }>().user.lastPasswordResetDate, clock)).toBe(99);
    // a wrong password for an expired account is still just a wrong password
    await set(120);
    expect((await login('oldpw', 'Nope@2024')).statusCode).toBe(400);
  });
});
