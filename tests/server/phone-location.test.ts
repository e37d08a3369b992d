/**
 * GET api/kf/phoneToAddress: province, city and carrier of mainland mobiles, offline, from the
 * libphonenumber tables the npm package ships; known numbers, the forms a caller types, refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseMobile, splitPlace } from '../../src/server/modules/kf/phone-location.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';

describe('mobile numbers and places', () => {
  it('takes the forms a caller types and splits province from city', () => {
    expect(normaliseMobile('+86 138-0013-8000')).toBe('13800138000');
    expect(normaliseMobile('008613800138000')).toBe('13800138000');
    expect(normaliseMobile('12800138000')).toBeNull();
    expect(normaliseMobile('1380013800')).toBeNull();
    expect(splitPlace('江苏省常州市')).toEqual(['江苏省', '常州市']);
    expect(splitPlace('内蒙古自治区呼和浩特市')).toEqual(['内蒙古自治区', '呼和浩特市']);
    expect(splitPlace('北京市')).toEqual(['北京市', '北京市']);
    expect(splitPlace('')).toEqual(['', '']);
  });
});

describe.each(testApps())('phone location on %s', (_dialect, start) => {
  let t: TestApp;
  let token: string;
  const ask = (phone: string, auth: string | null = token) =>
    t.app.inject({ method: 'GET', url: `/api/kf/phoneToAddress?phone=${encodeURIComponent(phone)}`, headers: auth ? bearer(auth) : {} });

  beforeAll(async () => {
    t = await start();
    token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t?.close());

  it('answers province, city and carrier of known mobiles', async () => {
    const known: Array<[string, string, string, string]> = [
      ['13800138000', '北京市', '北京市', '中国移动'],
      ['18612345678', '北京市', '北京市', '中国联通'],
      ['13912345678', '江苏省', '常州市', '中国移动'],
      ['13312345678', '贵州省', '遵义市', '中国电信'],
      ['17612345678', '重庆市', '重庆市', '中国联通'],
      ['15012345678', '云南省', '昭通市', '中国移动'],
    ];
    for (const [phone, province, city, carrier] of known) {
      const res = await ask(phone);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), phone).toMatchObject({ phone, province, city, carrier });
    }
    expect((await ask('+86 139 1234 5678')).json()).toEqual({ phone: '13912345678', province: '江苏省', city: '常州市', carrier: '中国移动', location: '江苏省常州市' });
    // a range with a carrier but no place in the tables answers what is known
    expect((await ask('19912345678')).json()).toMatchObject({ province: '', city: '', carrier: '中国电信' });
  });

  it('refuses what is not a mainland mobile with a Chinese 400, and callers without a session', async () => {
    for (const bad of ['', '1234', '12800138000', '138001380001', 'x'.repeat(100), '1380013800０']) {
      const res = await ask(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(errorOf(res).message).toBe('请输入正确的11位手机号码');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/kf/phoneToAddress', headers: bearer(token) })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/kf/phoneToAddress?phone=1&phone=2', headers: bearer(token) })).statusCode).toBe(400);
    expect((await ask('13800138000', null)).statusCode).toBe(401);
  });
});
