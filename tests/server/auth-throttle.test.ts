import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/server/auth/login-throttle.ts';
import { authTestApp, encryptPassword, publicKeyOf, type AuthTestApp } from './auth-helpers.ts';
import { testApps } from './helpers.ts';
import type { ErrorBody } from '../support/answers.ts';

describe('failed sign-in brake per address', () => {
  it('blocks an address after the limit within the window, then forgets', () => {
    let clock = 0;
    const t = new LoginThrottle(3, 1000, 100, () => clock);
    for (let i = 0; i < 3; i++) {
      expect(t.blocked('1.1.1.1')).toBe(false);
      t.fail('1.1.1.1');
    }
    expect(t.blocked('1.1.1.1')).toBe(true);
    expect(t.blocked('2.2.2.2')).toBe(false);
    clock += 1001;
    expect(t.blocked('1.1.1.1')).toBe(false);
  });

  it('keeps at most the configured number of addresses', () => {
    const t = new LoginThrottle(1, 60_000, 10, () => 0);
    for (let i = 0; i < 1000; i++) t.fail(`10.0.${i >> 8}.${i & 255}`);
    expect((t as unknown as { failures: Map<string, number[]> }).failures.size).toBeLessThanOrEqual(10);
    expect(t.blocked('10.0.3.231')).toBe(true); // the latest is kept
  });

  describe('on the sign-in route', () => {
    let t: AuthTestApp;
    beforeAll(async () => {
      t = await authTestApp('sqlite', { config: { captchaEnabled: true } });
    });
    afterAll(async () => t?.close());

    it('answers 429 after 60 failures from one address, other addresses unaffected', async () => {
      const app = t.app;
      const key = await publicKeyOf(app);
      const attempt = async (ip: string, code: string) => {
        const { uuid } = (await app.inject({ method: 'GET', url: '/api/code' })).json<{ uuid: string }>();
        return app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: ip,
          payload: { username: 'admin', password: encryptPassword(key, 'x'), code, uuid },
        });
      };
      for (let i = 0; i < 60; i++) expect((await attempt('203.0.113.9', '999')).statusCode).toBe(400);
      const blocked = await attempt('203.0.113.9', '999');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ status: 429, message: '登录失败次数过多，请稍后再试' });
      expect((await attempt('203.0.113.10', '999')).json<ErrorBody>().message).toBe('验证码错误');
    });
  });
});

describe('captcha requests per address', () => {
  it('more than 120 a minute from one address are refused with 429', async () => {
    const [[, start]] = testApps();
    const t = await start({ captchaEnabled: true });
    try {
      const get = (ip: string) => t.app.inject({ method: 'GET', url: '/api/code', remoteAddress: ip });
      for (let i = 0; i < 120; i++) expect((await get('198.51.100.7')).statusCode).toBe(200);
      const refused = await get('198.51.100.7');
      expect(refused.statusCode).toBe(429);
      expect(refused.json<ErrorBody>().status).toBe(429);
      expect((await get('198.51.100.8')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
