/**
 * The dealer's SMS codes through the account area's verification codes and the development
 * outbox: bind, change phone, change password; wrong, used and expired codes; the 60 s resend
 * rule; a number another dealer holds; a code of one type does not pass for another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { loginAs } from './auth-helpers.ts';
import { codeFromOutbox } from './account-helpers.ts';
import { createCompany, dealerLogin, dealerToken } from './dealer-helpers.ts';
import type { Row } from '../support/answers.ts';

describe.each(testApps())('dealer SMS codes from the outbox on %s', (_name, start) => {
  let t: TestApp;
  let a: string;
  let b: string;
  const inject = (method: 'POST' | 'PUT', url: string, token: string, payload: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), payload: payload as object });
  const send = (token: string, body: Record<string, unknown>) => inject('POST', '/comp/dbcCompany/sendMessage', token, body);
  const bind = (token: string, mobile: string, code: string) => inject('PUT', '/comp/dbcCompany/updateDbcCompany', token, { mobile, code });
  /** lets the next code to `target` be sent now (the 60 s resend rule is tested on its own) */
  const allowResend = (target: string) =>
    t.app.database.db.updateTable('sys_verify_code').set({ sent_at: 0 }).where('target', '=', target).execute();

  beforeAll(async () => {
    t = await start();
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    await createCompany(t.app, admin, 'smsdealera');
    await createCompany(t.app, admin, 'smsdealerb');
    a = await dealerToken(t.app, 'smsdealera');
    b = await dealerToken(t.app, 'smsdealerb');
  });
  afterAll(() => t.close());

  it('binds a phone with the code from the outbox; a wrong code or a used one is refused', async () => {
    const sent = await send(a, { mobile: '13911110001', type: 3 });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ Code: 'OK' });
    const code = await codeFromOutbox(t.app, '13911110001');
    expect(code).toMatch(/^\d{6}$/);
    // again within 60 s: refused, and no new message
    const again = await send(a, { mobile: '13911110001', type: 3 });
    expect(again.statusCode).toBe(429);
    expect(errorOf(again).message).toMatch(/^验证码已发送，请\d+秒后再试$/);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(errorOf(await bind(a, '13911110001', wrong)).message).toBe('验证码错误或已过期');
    // the code was sent to 13911110001: it does not bind another number
    expect(errorOf(await bind(a, '13911110009', code)).message).toBe('验证码错误或已过期');
    const ok = await bind(a, '13911110001', code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json<Row>().mobile).toBe('13911110001');
    const row = await t.app.database.db
      .selectFrom('dbc_company')
      .select('mobile')
      .where('username', '=', 'smsdealera')
      .executeTakeFirstOrThrow();
    expect(row.mobile).toBe('13911110001');
    // dealer b binds its own number; the used code does not work twice
    await send(b, { mobile: '13911110002', type: 3 });
    const codeB = await codeFromOutbox(t.app, '13911110002');
    expect((await bind(b, '13911110002', codeB)).statusCode).toBe(200);
  });

  it("refuses another dealer's phone even with a valid code for it", async () => {
    // a asks a code for b's number (the send itself is allowed: the number is checked on use)
    await allowResend('13911110002');
    expect((await send(a, { mobile: '13911110002', type: 4 })).statusCode).toBe(200);
    const code = await codeFromOutbox(t.app, '13911110002');
    const res = await bind(a, '13911110002', code);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('该手机号已被其他经销商绑定');
    const row = await t.app.database.db
      .selectFrom('dbc_company')
      .select('mobile')
      .where('username', '=', 'smsdealera')
      .executeTakeFirstOrThrow();
    expect(row.mobile).toBe('13911110001');
  });

  it('changes the phone with a type 4 code sent to the new number; a bind (type 3) code or an expired one does not pass', async () => {
    // a type 3 code is for binding: a dealer with a phone changes it with type 4
    await send(a, { mobile: '13911110003', type: 3 });
    const bindCode = await codeFromOutbox(t.app, '13911110003');
    expect(errorOf(await bind(a, '13911110003', bindCode)).message).toBe('验证码错误或已过期');
    // an expired type 4 code
    expect((await send(a, { mobile: '13911110003', type: 4 })).statusCode).toBe(200);
    const expired = await codeFromOutbox(t.app, '13911110003');
    await t.app.database.db
      .updateTable('sys_verify_code')
      .set({ expires: Date.now() - 1000 })
      .where('target', '=', '13911110003')
      .where('purpose', '=', 'dealer-change-phone')
      .execute();
    expect(errorOf(await bind(a, '13911110003', expired)).message).toBe('验证码错误或已过期');
    // a fresh one works, once
    await allowResend('13911110003');
    await send(a, { mobile: '13911110003', type: 4 });
    const fresh = await codeFromOutbox(t.app, '13911110003');
    expect((await bind(a, '13911110003', fresh)).json<Row>().mobile).toBe('13911110003');
    await t.app.database.db.updateTable('dbc_company').set({ mobile: '13911110004' }).where('username', '=', 'smsdealera').execute();
    expect(errorOf(await bind(a, '13911110003', fresh)).message).toBe('验证码错误或已过期');
    await t.app.database.db.updateTable('dbc_company').set({ mobile: '13911110003' }).where('username', '=', 'smsdealera').execute();
  });

  it('spoils a code after too many wrong tries', async () => {
    await allowResend('13911110005');
    await send(a, { mobile: '13911110005', type: 4 });
    const code = await codeFromOutbox(t.app, '13911110005');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect(errorOf(await bind(a, '13911110005', wrong)).message).toBe('验证码错误或已过期');
    expect(errorOf(await bind(a, '13911110005', code)).message).toBe('验证码错误或已过期');
  });

  it('changes the password with the code sent to the bound phone, then ends the sessions', async () => {
    // the mobile in the form is ignored: a password code goes to the bound phone
    expect((await send(a, { type: 2, mobile: '13800000000' })).statusCode).toBe(200);
    const other = await t.app.database.db.selectFrom('sys_verify_code').select('target').where('purpose', '=', 'dealer-password').execute();
    expect(other.map((r) => r.target as string)).toEqual(['13911110003']);
    const code = await codeFromOutbox(t.app, '13911110003');
    const put = (body: Record<string, unknown>) =>
      inject('PUT', '/comp/dbcCompany/updatePass', a, {
        code,
        oldPass: 'Dealer@123',
        newPass: 'Fresh@456',
        confirmPass: 'Fresh@456',
        ...body,
      });
    expect(errorOf(await put({ code: code === '000000' ? '111111' : '000000' })).message).toBe('验证码错误或已过期');
    expect(errorOf(await put({ oldPass: 'wrong-old' })).message).toBe('旧密码错误');
    expect((await put({})).statusCode).toBe(200);
    expect((await dealerLogin(t.app, 'smsdealera')).statusCode).toBe(400);
    const fresh = await dealerToken(t.app, 'smsdealera', 'Fresh@456');
    // the used code does not change it again
    const reuse = await inject('PUT', '/comp/dbcCompany/updatePass', fresh, {
      code,
      oldPass: 'Fresh@456',
      newPass: 'Other@789',
      confirmPass: 'Other@789',
    });
    expect(errorOf(reuse).message).toBe('验证码错误或已过期');
  });
});
