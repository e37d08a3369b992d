import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { loginAs } from './auth-helpers.ts';
import { createCompany, dealerLogin, dealerToken } from './dealer-helpers.ts';
import type { SmsCodeService } from '../../src/server/modules/dealer/index.ts';
import type { Row } from '../support/answers.ts';

/** An SMS service that records what it sent; the code is always 123456. */
function fakeSms() {
  const sent: Array<{ mobile: string; type: number }> = [];
  const service: SmsCodeService = {
    send(mobile, type) {
      sent.push({ mobile, type });
      return Promise.resolve();
    },
    verify(mobile, type, code) {
      return Promise.resolve(code === '123456' && sent.some((s) => s.mobile === mobile && s.type === type));
    },
  };
  return { sent, service };
}

describe.each(testApps())('dealer password and phone on %s', (_name, start) => {
  let t: TestApp;
  let a: string;
  let aId: number;
  let admin: string;
  const inject = (method: 'POST' | 'PUT', url: string, token: string, payload: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), payload: payload as object });

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    aId = await createCompany(t.app, admin, 'dealera');
    await createCompany(t.app, admin, 'dealerb');
    a = await dealerToken(t.app, 'dealera');
    const b = await dealerToken(t.app, 'dealerb');
    // dealer b holds 13900000002
    t.app.dealerServices.sms = fakeSms().service;
    expect((await inject('POST', '/comp/dbcCompany/sendMessage', b, { mobile: '13900000002', type: 3 })).statusCode).toBe(200);
    expect((await inject('PUT', '/comp/dbcCompany/updateDbcCompany', b, { mobile: '13900000002', code: '123456' })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('takes sendMessage as form data, as the spec sends it', async () => {
    const sms = fakeSms();
    t.app.dealerServices.sms = sms.service;
    const boundary = '----dealerform';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/comp/dbcCompany/sendMessage',
      headers: { ...bearer(a), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `${part('mobile', '13900000009')}${part('type', '3')}--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Code: 'OK' });
    expect(sms.sent).toEqual([{ mobile: '13900000009', type: 3 }]);
  });

  it('says so when no SMS service is configured', async () => {
    const saved = t.app.dealerServices.sms;
    const { notConfiguredSms } = await import('../../src/server/modules/dealer/account.ts');
    t.app.dealerServices.sms = notConfiguredSms;
    const res = await inject('POST', '/comp/dbcCompany/sendMessage', a, { mobile: '13900000001', type: 3 });
    expect(res.statusCode).toBe(503);
    expect(errorOf(res).message).toBe('短信服务未配置，暂时无法发送或校验验证码');
    t.app.dealerServices.sms = saved;
  });

  it('binds a phone with a code sent to it, then changes it', async () => {
    const sms = fakeSms();
    t.app.dealerServices.sms = sms.service;
    expect(errorOf(await inject('POST', '/comp/dbcCompany/sendMessage', a, { mobile: '', type: 3 })).message).toBe('请输入电话号码');
    expect(errorOf(await inject('POST', '/comp/dbcCompany/sendMessage', a, { mobile: '1390000', type: 3 })).message).toBe(
      '请输入正确的11位手机号码',
    );
    expect(errorOf(await inject('POST', '/comp/dbcCompany/sendMessage', a, { mobile: '13900000001', type: 9 })).message).toBe(
      '验证码类型不正确',
    );
    // a password code needs a bound phone first
    expect(errorOf(await inject('POST', '/comp/dbcCompany/sendMessage', a, { type: 2 })).message).toBe('请先绑定手机号');
    const sent = await inject('POST', '/comp/dbcCompany/sendMessage', a, { mobile: '13900000001', type: 3 });
    expect(sent.json()).toEqual({ Code: 'OK' });
    expect(errorOf(await inject('PUT', '/comp/dbcCompany/updateDbcCompany', a, { mobile: '13900000001', code: '' })).message).toBe(
      '验证码不能为空',
    );
    expect(errorOf(await inject('PUT', '/comp/dbcCompany/updateDbcCompany', a, { mobile: '13900000001', code: '000000' })).message).toBe(
      '验证码错误或已过期',
    );
    // another dealer's number: without its code, the same answer as any number; with it, 已被其他经销商绑定
    expect(errorOf(await inject('PUT', '/comp/dbcCompany/updateDbcCompany', a, { mobile: '13900000002', code: '123456' })).message).toBe(
      '验证码错误或已过期',
    );
    expect((await inject('POST', '/comp/dbcCompany/sendMessage', a, { mobile: '13900000002', type: 3 })).statusCode).toBe(200);
    expect(errorOf(await inject('PUT', '/comp/dbcCompany/updateDbcCompany', a, { mobile: '13900000002', code: '123456' })).message).toBe(
      '该手机号已被其他经销商绑定',
    );
    const bound = await inject('PUT', '/comp/dbcCompany/updateDbcCompany', a, { mobile: '13900000001', code: '123456' });
    expect(bound.statusCode).toBe(200);
    expect(bound.json<Row>().mobile).toBe('13900000001');
    expect(errorOf(await inject('PUT', '/comp/dbcCompany/updateDbcCompany', a, { mobile: '13900000001', code: '123456' })).message).toBe(
      '新手机号不能与原手机号相同',
    );
    // changing: the code goes to the new number, type 4
    await inject('POST', '/comp/dbcCompany/sendMessage', a, { mobile: '13900000003', type: 4 });
    expect((await inject('PUT', '/comp/dbcCompany/updateDbcCompany', a, { mobile: '13900000003', code: '123456' })).statusCode).toBe(200);
    expect(sms.sent).toEqual([
      { mobile: '13900000001', type: 3 },
      { mobile: '13900000002', type: 3 },
      { mobile: '13900000003', type: 4 },
    ]);
  });

  it('changes the password with the code, the old password and the rules, then ends the sessions', async () => {
    const sms = fakeSms();
    t.app.dealerServices.sms = sms.service;
    expect((await inject('POST', '/comp/dbcCompany/sendMessage', a, { type: 2, mobile: '13800000000' })).statusCode).toBe(200);
    expect(sms.sent).toEqual([{ mobile: '13900000003', type: 2 }]);
    const put = (body: Record<string, unknown>) =>
      inject('PUT', '/comp/dbcCompany/updatePass', a, {
        code: '123456',
        oldPass: 'Dealer@123',
        newPass: 'Fresh@456',
        confirmPass: 'Fresh@456',
        ...body,
      });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ oldPass: '' }, '请输入旧密码'],
      [{ newPass: '' }, '请输入新密码'],
      [{ newPass: '12345', confirmPass: '12345' }, '长度在 6 到 20 个字符'],
      [{ newPass: 'a'.repeat(21), confirmPass: 'a'.repeat(21) }, '长度在 6 到 20 个字符'],
      [{ confirmPass: '' }, '请再次输入密码'],
      [{ confirmPass: 'Other@456' }, '两次输入的密码不一致'],
      [{ code: '' }, '请输入验证码'],
      [{ oldPass: 'wrong-old' }, '旧密码错误'],
      [{ code: '999999' }, '验证码错误或已过期'],
    ];
    for (const [body, message] of cases) expect(errorOf(await put(body)).message, JSON.stringify(body)).toBe(message);
    expect((await put({})).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/info', headers: bearer(a) })).statusCode).toBe(401);
    expect((await dealerLogin(t.app, 'dealera')).statusCode).toBe(400);
    expect((await dealerLogin(t.app, 'dealera', 'Fresh@456')).statusCode).toBe(200);
  });

  it("records the dealer's own phone and password changes in the company's history, by the dealer, never a password", async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/system/dbcCompany/${aId}/history`, headers: bearer(admin) });
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json<{ content: Array<{ action: string; actorKind: string; actorName: string; changes: Row[] }> }>().content;
    const own = entries.filter((e) => e.actorKind === 'dealer');
    expect(own.map((e) => e.actorName)).toEqual(['dealera', 'dealera', 'dealera']);
    expect(own.map((e) => e.action)).toEqual(['update', 'update', 'update']);
    expect(own[0].changes).toEqual([{ field: 'password', title: '登录密码', old: null, new: '已修改' }]);
    expect(own[1].changes).toEqual([{ field: 'mobile', title: expect.any(String) as string, old: '13900000001', new: '13900000003' }]);
    expect(own[2].changes).toMatchObject([{ field: 'mobile', old: null, new: '13900000001' }]);
    // neither the new password nor its hash is stored in any revision
    const stored = await t.app.database.db.selectFrom('sys_revision').select('changes').where('resource', '=', 'dbcCompany').execute();
    const text = JSON.stringify(stored);
    expect(text).not.toContain('Fresh@456');
    expect(text).not.toMatch(/\$2[aby]\$/);
  });
});
