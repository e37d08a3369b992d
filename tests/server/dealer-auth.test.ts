import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { createStaff, encryptPassword, loginAs, publicKeyOf } from './auth-helpers.ts';
import { createCompany, dealerLogin, dealerToken } from './dealer-helpers.ts';
import type { Page, Row } from '../support/answers.ts';

/** a dealer's sign-in answer */
interface DealerSignIn {
  token: string;
  user: Row;
}

describe.each(testApps())('dealer sign-in and token kinds on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let compA: number;

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    compA = await createCompany(t.app, admin, 'dealera');
    await createCompany(t.app, admin, 'dealerb');
  });
  afterAll(() => t.close());

  it('keeps the password out of every answer and stores only a bcrypt hash', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/system/dbcCompany', headers: bearer(admin) });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('password');
    expect(list.body).not.toContain('Dealer@123');
    expect(
      list
        .json<Page<{ username: string }>>()
        .content.map((c) => c.username)
        .sort(),
    ).toEqual(['dealera', 'dealerb']);
    const row = await t.app.database.db.selectFrom('dbc_company').select('password').where('id', '=', compA).executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$2[aby]\$10\$/);
    const xlsx = await t.app.inject({ method: 'GET', url: '/api/system/dbcCompany/download', headers: bearer(admin) });
    expect(xlsx.statusCode).toBe(200);
  });

  it('refuses a duplicate user name with 409, a missing or bad password and bad fields with 400', async () => {
    const post = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/system/dbcCompany', headers: bearer(admin), payload });
    const base = { compName: '某公司', compCode: 'X1', username: 'dealerc', enabled: true, password: 'abc12345' };
    const taken = await post({ ...base, username: 'dealera' });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).message).toBe('登录账号“dealera”已存在');
    expect(errorOf(await post({ ...base, password: undefined })).message).toBe('请输入密码');
    expect(errorOf(await post({ ...base, password: '12345' })).message).toBe('长度在 6 到 20 个字符');
    expect(errorOf(await post({ ...base, compName: '' })).message).toBe('公司名称不能为空');
    expect(errorOf(await post({ ...base, mobile: '123' })).message).toBe('请输入正确的11位手机号码');
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/system/dbcCompany',
      headers: bearer(admin),
      payload: { id: compA, username: 'dealerb' },
    });
    expect(put.statusCode).toBe(409);
    expect(errorOf(put).message).toBe('登录账号“dealerb”已存在');
    const noPerm = await createStaff(t.app, { username: 'clerk', password: 'Clerk@123', permissions: [] });
    expect(noPerm).toBeGreaterThan(0);
    const clerk = await loginAs(t.app, 'clerk', 'Clerk@123');
    const refused = await t.app.inject({ method: 'POST', url: '/api/system/dbcCompany', headers: bearer(clerk), payload: base });
    expect(refused.statusCode).toBe(403);
  });

  it('锁屏时间: the dealer sets its own idle lock (0-999 minutes), answered at sign-in and by auth/info', async () => {
    const token = await dealerToken(t.app, 'dealerb');
    const put = (payload: unknown, tok: string | null = token) =>
      t.app.inject({ method: 'PUT', url: '/comp/dbcCompany/lockTime', headers: tok ? bearer(tok) : {}, payload: payload as object });
    const ok = await put({ lockTime: 20 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ username: 'dealerb', lockTime: 20 });
    const info = await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/info', headers: bearer(token) });
    expect(info.json<Row>().lockTime).toBe(20);
    expect((await dealerLogin(t.app, 'dealerb')).json<DealerSignIn>().user.lockTime).toBe(20);
    // the other company is untouched
    expect((await dealerLogin(t.app, 'dealera')).json<DealerSignIn>().user.lockTime).toBe(0);
    for (const bad of [{ lockTime: -1 }, { lockTime: 1000 }, { lockTime: 'abc' }, { lockTime: 1.5 }, {}]) {
      const res = await put(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(errorOf(res).message).toMatch(/锁屏时间/);
    }
    expect((await put({ lockTime: 0 })).json<Row>().lockTime).toBe(0);
    expect((await put({ lockTime: 5 }, null)).statusCode).toBe(401);
    expect((await put({ lockTime: 5 }, admin)).statusCode).toBe(401);
  });

  it('signs in by POST only; a GET with credentials is refused', async () => {
    const get = await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/login?username=dealera&password=Dealer@123' });
    expect(get.statusCode).toBe(405);
    expect(errorOf(get).message).toBe('请使用POST方式提交账号和密码，账号和密码不能放在地址中');
    const ok = await dealerLogin(t.app, 'dealera');
    expect(ok.statusCode).toBe(200);
    expect(ok.json<DealerSignIn>().user).toEqual({
      id: compA,
      compName: 'dealera公司',
      compCode: 'DEALERA',
      username: 'dealera',
      mobile: null,
      lockTime: 0,
    });
    expect(ok.body).not.toContain('password');
    const wrong = await dealerLogin(t.app, 'dealera', 'nope-nope');
    expect(errorOf(wrong).message).toBe('账号或密码错误');
    const plain = await t.app.inject({
      method: 'POST',
      url: '/comp/dbcCompany/auth/login',
      payload: { username: 'dealera', password: 'Dealer@123' },
    });
    expect(plain.statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'POST', url: '/comp/dbcCompany/auth/login', payload: { username: '', password: '' } });
    expect(errorOf(empty).message).toBe('账号不能为空');
  });

  it('keeps staff and dealer tokens apart', async () => {
    const dealer = await dealerToken(t.app, 'dealera');
    // a dealer token opens no staff route
    for (const url of ['/api/info', '/api/system/dbcCompany', '/api/dbc/dbcInfo', '/api/dbc/dbcUserInfo', '/api/menus/build']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(dealer) });
      expect(res.statusCode, url).toBe(401);
    }
    const audit = await t.app.inject({ method: 'PUT', url: '/api/dbc/dbcInfo', headers: bearer(dealer), payload: { id: 1, shStatus: 2 } });
    expect(audit.statusCode).toBe(401);
    // a staff token opens no dealer route
    for (const url of ['/comp/dbcCompany/getDbcUserInfos', '/comp/dbcCompany/auth/info', '/comp/dbcCompany/getMember?mobile=13800000001']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(admin) });
      expect(res.statusCode, url).toBe(401);
      expect(errorOf(res).message).toBe('请使用经销商账号登录');
    }
    const noToken = await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/getDbcUserInfos' });
    expect(noToken.statusCode).toBe(401);
    const info = await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/info', headers: bearer(dealer) });
    expect(info.json<Row>().username).toBe('dealera');
  });

  it('ends the session on logout, on a new password and when the company is disabled', async () => {
    const a1 = await dealerToken(t.app, 'dealera');
    const out = await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/logout', headers: bearer(a1) });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/info', headers: bearer(a1) })).statusCode).toBe(401);

    const a2 = await dealerToken(t.app, 'dealera');
    const pw = await t.app.inject({
      method: 'PUT',
      url: '/api/system/dbcCompany',
      headers: bearer(admin),
      payload: { id: compA, password: 'Newpass@1' },
    });
    expect(pw.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/info', headers: bearer(a2) })).statusCode).toBe(401);
    expect((await dealerLogin(t.app, 'dealera')).statusCode).toBe(400);

    const a3 = await dealerToken(t.app, 'dealera', 'Newpass@1');
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/system/dbcCompany',
      headers: bearer(admin),
      payload: { id: compA, enabled: false },
    });
    expect(off.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/info', headers: bearer(a3) })).statusCode).toBe(401);
    expect(errorOf(await dealerLogin(t.app, 'dealera', 'Newpass@1')).message).toBe('账号已停用，请联系管理员');
    await t.app.inject({
      method: 'PUT',
      url: '/api/system/dbcCompany',
      headers: bearer(admin),
      payload: { id: compA, enabled: true, password: 'Dealer@123' },
    });
  });

  it('locks a company after 5 wrong passwords within 15 minutes', async () => {
    for (let i = 0; i < 4; i++) expect((await dealerLogin(t.app, 'dealerb', 'wrong-pass')).statusCode).toBe(400);
    const fifth = await dealerLogin(t.app, 'dealerb', 'wrong-pass');
    expect(fifth.statusCode).toBe(423);
    expect(errorOf(fifth).message).toMatch(/^密码错误次数过多，账号已锁定，请于.+后再试$/);
    // even the right password waits for the lock to end
    expect((await dealerLogin(t.app, 'dealerb')).statusCode).toBe(423);
    const publicKey = await publicKeyOf(t.app);
    expect(encryptPassword(publicKey, 'x')).toBeTruthy();
  });
});
