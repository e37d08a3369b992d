/**
 * GET api/kf/phoneToAddress: province, city and carrier of mainland mobiles, offline, from the
 * libphonenumber tables the npm package ships; known numbers, the forms a caller types, refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseMobile, splitPlace } from '../../src/server/modules/kf/phone-location.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { Created } from '../support/answers.ts';

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
    expect((await ask('+86 139 1234 5678')).json()).toEqual({
      phone: '13912345678',
      province: '江苏省',
      city: '常州市',
      carrier: '中国移动',
      location: '江苏省常州市',
    });
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
    expect((await t.app.inject({ method: 'GET', url: '/api/kf/phoneToAddress?phone=1&phone=2', headers: bearer(token) })).statusCode).toBe(
      400,
    );
    expect((await ask('13800138000', null)).statusCode).toBe(401);
  });

  it('looks up the mobile of a feedback record, masked for callers without the sensitive key', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/sysQuestion',
      headers: { ...bearer(token), submit_id: `${Date.now()}1234567890123456789` },
      payload: { userType: '客户', model: '服务', title: '来电', content: '客户来电咨询保养', username: '王伟', mobile: '13912345678' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Created>().id;
    const byRecord = (auth: string, query: string) =>
      t.app.inject({ method: 'GET', url: `/api/kf/phoneToAddress?${query}`, headers: bearer(auth) });
    expect((await byRecord(token, `resource=sysQuestion&id=${id}`)).json()).toEqual({
      phone: '13912345678',
      province: '江苏省',
      city: '常州市',
      carrier: '中国移动',
      location: '江苏省常州市',
    });
    await createStaff(t.app, { username: 'kfreader', password: 'Kf_reader1', permissions: ['sysQuestion:list'] });
    const reader = await loginAs(t.app, 'kfreader', 'Kf_reader1');
    expect((await byRecord(reader, `resource=sysQuestion&id=${id}`)).json()).toEqual({
      phone: '139****5678',
      province: '江苏省',
      city: '常州市',
      carrier: '中国移动',
      location: '江苏省常州市',
    });
    await createStaff(t.app, { username: 'kfnone', password: 'Kf_reader1', permissions: [] });
    const none = await loginAs(t.app, 'kfnone', 'Kf_reader1');
    expect((await byRecord(none, `resource=sysQuestion&id=${id}`)).statusCode).toBe(403);
    expect((await byRecord(reader, 'resource=sysQuestion&id=999999')).statusCode).toBe(404);
    expect((await byRecord(reader, 'resource=sysQuestion&id=x')).statusCode).toBe(400);
    expect(errorOf(await byRecord(reader, 'resource=jpType&id=1')).message).toBe('该数据没有手机号码');
    expect((await byRecord(reader, 'resource=__proto__&id=1')).statusCode).toBe(400);
  });
});
