import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { nowText } from '../../src/server/db/index.ts';
import { latestOutbox } from '../../src/server/providers/outbox.ts';
import { codeFromOutbox, encrypted, lastLogs } from './account-helpers.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { ErrorBody, Row } from '../support/answers.ts';

const fiftyDaysAgo = nowText(new Date(Date.now() - 50 * 86_400_000));
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function multipart(field: string, filename: string, type: string, data: Buffer) {
  const boundary = '----acct' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(testApps())('personal centre on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let userId: number;
  let otherId: number;
  let auth: Record<string, string>;

  const user = async () => app.database.db.selectFrom('sys_user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await start({ avatarMaxBytes: 4096 });
    app = t.app;
    userId = await createStaff(app, { username: 'zhang', password: 'Zhang@2024', permissions: [], phone: '13811112222' });
    otherId = await createStaff(app, { username: 'li', password: 'Li@20240', permissions: [], phone: '13833334444' });
    await app.database.db
      .updateTable('sys_user')
      .set({ is_def_password: 1, pwd_reset_time: fiftyDaysAgo })
      .where('id', '=', userId)
      .execute();
    auth = bearer(await loginAs(app, 'zhang', 'Zhang@2024'));
  });
  afterAll(async () => t?.close());

  it('edits nickname and sex of the own record; 昵称不能为空; no other user', async () => {
    const put = (payload: unknown) => app.inject({ method: 'PUT', url: '/api/users/center', headers: auth, payload: payload as object });
    expect(errorOf(await put({ id: userId, nickName: '  ', sex: 1 })).message).toBe('昵称不能为空');
    expect(errorOf(await put({ id: userId, nickName: 'x', sex: 7 })).message).toBe('性别不正确');
    expect(errorOf(await put({ id: otherId, nickName: '黑客' })).status).toBe(403);
    expect(errorOf(await put({ id: userId, nickName: '张', phone: '13900000000' })).message).toBe('修改手机号请通过验证码验证');
    expect((await put({ id: userId, nickName: '小张', sex: 0, phone: '13811112222' })).statusCode).toBe(204);
    const row = await user();
    expect([row.nick_name, Number(row.sex)]).toEqual(['小张', 0]);
    const info = (await app.inject({ method: 'GET', url: '/api/info', headers: auth })).json<{ user: Row }>();
    expect(info.user.nickName).toBe('小张');
    expect((await app.inject({ method: 'PUT', url: '/api/users/center', payload: { nickName: 'a' } })).statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/api/users/center',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: '[1,2',
        })
      ).statusCode,
    ).toBe(400);
  });

  it('changes the phone with an SMS code sent to the new number', async () => {
    const put = (payload: unknown) =>
      app.inject({ method: 'PUT', url: '/api/users/updateUserPhone', headers: auth, payload: payload as object });
    expect(errorOf(await put({ id: userId, phone: '', code: '1' })).message).toBe('请输入电话号码');
    expect(errorOf(await put({ id: userId, phone: '12345678901', code: '1' })).message).toBe('请输入正确的11位手机号码');
    // another account's number: without its code, the same answer as any number; with it, 已被其他账号使用
    expect(errorOf(await put({ id: userId, phone: '13833334444', code: '123456' })).message).toMatch(/验证码不存在或已过期/);
    await app.inject({ method: 'POST', url: '/api/code/resetPhone', headers: auth, payload: { value: '13833334444' } });
    const takenCode = await codeFromOutbox(app, '13833334444');
    expect(errorOf(await put({ id: userId, phone: '13833334444', code: takenCode })).message).toBe('该手机号已被其他账号使用');
    expect(errorOf(await put({ id: userId, phone: '13855556666', code: '' })).message).toBe('验证码不能为空');
    expect(errorOf(await put({ id: userId, phone: '13855556666', code: '123456' })).message).toMatch(/验证码不存在或已过期/);
    const send = await app.inject({ method: 'POST', url: '/api/code/resetPhone', headers: auth, payload: { value: '13855556666' } });
    expect(send.statusCode).toBe(200);
    expect(send.json<ErrorBody>().message).toBe('发送成功，验证码有效期5分钟');
    const again = await app.inject({ method: 'POST', url: '/api/code/resetPhone', headers: auth, payload: { value: '13855556666' } });
    expect(errorOf(again).status).toBe(429);
    const code = await codeFromOutbox(app, '13855556666');
    expect(errorOf(await put({ id: otherId, phone: '13855556666', code })).status).toBe(403);
    const ok = await put({ id: userId, phone: '13855556666', code });
    expect(ok.statusCode).toBe(200);
    expect((await user()).phone).toBe('13855556666');
    // the code was used up
    expect(errorOf(await put({ id: userId, phone: '13811112222', code })).status).toBe(400);
  });

  it('changes the e-mail with a code and the encrypted password; 邮箱修改成功', async () => {
    const send = await app.inject({ method: 'POST', url: '/api/code/resetEmail', headers: auth, payload: { value: 'zhang@example.com' } });
    expect(send.json<ErrorBody>().message).toBe('发送成功，验证码有效期5分钟');
    expect(
      errorOf(await app.inject({ method: 'POST', url: '/api/code/resetEmail', headers: auth, payload: { value: 'nope' } })).message,
    ).toBe('邮箱格式错误');
    expect(errorOf(await app.inject({ method: 'POST', url: '/api/code/resetEmail', headers: auth, payload: {} })).message).toBe(
      '新邮箱不能为空',
    );
    const code = await codeFromOutbox(app, 'zhang@example.com');
    const post = async (c: string, password: string, email = 'zhang@example.com') =>
      app.inject({
        method: 'POST',
        url: `/api/users/updateEmail/${c}`,
        headers: auth,
        payload: { password: await encrypted(app, password), email },
      });
    expect(errorOf(await post(code, 'Wrong@2024')).message).toBe('密码错误');
    expect(
      errorOf(
        await app.inject({
          method: 'POST',
          url: `/api/users/updateEmail/${code}`,
          headers: auth,
          payload: { password: 'plain', email: 'zhang@example.com' },
        }),
      ).message,
    ).toBe('密码加密方式不正确，请刷新页面后重试');
    expect(errorOf(await post(code, 'Zhang@2024', 'other@example.com')).message).toMatch(/验证码不存在或已过期/);
    const ok = await post(code, 'Zhang@2024');
    expect(ok.statusCode).toBe(200);
    expect(ok.json<ErrorBody>().message).toBe('邮箱修改成功');
    expect((await user()).email).toBe('zhang@example.com');
  });

  it('uploads an avatar (image types only, size limit) served back to every instance', async () => {
    const mk = (d: Buffer) => multipart('avatar', 'a.png', 'image/png', d);
    const send = (m: ReturnType<typeof mk>) =>
      app.inject({ method: 'POST', url: '/api/users/updateAvatar', headers: { ...auth, ...m.headers }, payload: m.payload });
    expect(errorOf(await send(multipart('avatar', 'a.png', 'image/png', Buffer.from('<svg onload=alert(1)>')))).message).toBe(
      '头像只能是 JPG、PNG、GIF 或 WEBP 格式的图片',
    );
    expect(errorOf(await send(mk(Buffer.concat([PNG, Buffer.alloc(5000)])))).message).toMatch(/头像大小不能超过/);
    expect(errorOf(await app.inject({ method: 'POST', url: '/api/users/updateAvatar', headers: auth, payload: {} })).message).toBe(
      '请选择头像图片',
    );
    const ok = await send(mk(PNG));
    expect(ok.statusCode).toBe(200);
    const img = ok.json<{ avatar: string }>().avatar;
    expect(img).toMatch(new RegExp(`^/api/users/avatar/${userId}\\?v=`));
    expect((await user()).img).toBe(img);
    const other = await t.reopen();
    const got = await other.inject({ method: 'GET', url: img });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect((await app.inject({ method: 'GET', url: `/api/users/avatar/${otherId}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/users/avatar/abc' })).statusCode).toBe(404);
  });

  it('password change: rule, not the old one, old password checked; clears the default flag and the age; ends sessions', async () => {
    const post = async (oldPass: string, newPass: string) =>
      app.inject({
        method: 'POST',
        url: '/api/users/updatePass/',
        headers: auth,
        payload: { oldPass: await encrypted(app, oldPass), newPass: await encrypted(app, newPass) },
      });
    const rule = '只能输入6-20个以字母开头、可带数字的字串';
    expect(errorOf(await post('Zhang@2024', '1abcdef')).message).toBe(rule);
    expect(errorOf(await post('Zhang@2024', 'Ab1')).message).toBe(rule);
    expect(errorOf(await post('Zhang@2024', 'A' + 'b'.repeat(20))).message).toBe(rule);
    expect(errorOf(await post('Zhang@2024', 'Abc 123')).message).toBe(rule);
    expect(errorOf(await post('Zhang@2024', 'Abc123~')).message).toBe(rule);
    expect(errorOf(await post('Zhang@2024', 'Zhang@2024')).message).toBe('新密码不能与旧密码相同');
    expect(errorOf(await post('Wrong@2024', 'Zhang.2025')).message).toBe('修改失败，旧密码错误');
    expect(
      errorOf(
        await app.inject({
          method: 'POST',
          url: '/api/users/updatePass/',
          headers: auth,
          payload: { oldPass: 'Zhang@2024', newPass: 'Zhang.2025' },
        }),
      ).message,
    ).toBe('密码加密方式不正确，请刷新页面后重试');
    expect(errorOf(await app.inject({ method: 'POST', url: '/api/users/updatePass/', headers: auth, payload: {} })).message).toBe(
      '请输入旧密码',
    );
    const before = await user();
    expect(Boolean(before.is_def_password)).toBe(true);
    expect(before.pwd_reset_time).toBe(fiftyDaysAgo);
    const ok = await post('Zhang@2024', 'Zhang.2025');
    expect(ok.statusCode).toBe(200);
    expect(ok.json<ErrorBody>().message).toBe('密码修改成功，请重新登录');
    const after = await user();
    expect(Boolean(after.is_def_password)).toBe(false);
    expect(after.pwd_reset_time >= nowText(new Date(Date.now() - 60_000))).toBe(true);
    // the session ended; the old password no longer works, the new one does
    expect((await app.inject({ method: 'GET', url: '/api/info', headers: auth })).statusCode).toBe(401);
    await expect(loginAs(app, 'zhang', 'Zhang@2024')).rejects.toThrow(/400/);
    auth = bearer(await loginAs(app, 'zhang', 'Zhang.2025'));
    // the log keeps neither password
    const logs = await app.database.db
      .selectFrom('sys_log')
      .select(['params', 'description', 'log_type'])
      .where('method', '=', 'POST /api/users/updatePass/')
      .execute();
    expect(logs.length).toBeGreaterThan(5);
    for (const l of logs) {
      expect(l.description).toBe('修改密码');
      expect(l.params).not.toMatch(/Zhang|[A-Za-z0-9+/]{100}/);
    }
  });

  it('forgot password: phone on file, SMS code, new password by the rule; 密码重置成功，请重新登录', async () => {
    const phone = '13855556666';
    // the account is named only once the code sent to the number is given
    expect(errorOf(await app.inject({ method: 'GET', url: `/api/findByPhone?phone=${phone}` })).message).toBe('验证码不能为空');
    const sent = await app.inject({ method: 'GET', url: `/api/sendMsg?phone=${phone}` });
    expect(sent.json<ErrorBody>().message).toBe('发送成功，验证码有效期5分钟');
    const code = await codeFromOutbox(app, phone);
    const found = await app.inject({ method: 'GET', url: `/api/findByPhone?phone=${phone}&code=${code}` });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({ phone, username: 'z****' });
    const reset = async (c: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/resetPassword', payload: { phone, code: c, password: await encrypted(app, password) } });
    expect(errorOf(await reset(code, 'short')).message).toBe('只能输入6-20个以字母开头、可带数字的字串');
    expect(errorOf(await reset(code, 'Zhang.2025')).message).toBe('新密码不能与旧密码相同');
    expect(errorOf(await reset('', 'Zhang#2026')).message).toBe('验证码不能为空');
    // a lock from wrong passwords is lifted by the reset
    await app.database.db
      .updateTable('sys_user')
      .set({ locked_until: Date.now() + 600_000 })
      .where('id', '=', userId)
      .execute();
    const ok = await reset(code, 'Zhang#2026');
    expect(ok.statusCode).toBe(200);
    expect(ok.json<ErrorBody>().message).toBe('密码重置成功，请重新登录');
    expect(errorOf(await reset(code, 'Zhang#2027')).status).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/info', headers: auth })).statusCode).toBe(401);
    auth = bearer(await loginAs(app, 'zhang', 'Zhang#2026'));
    const [log] = await lastLogs(app);
    expect(log.description).toBe('用户登录');
    const resetLog = await app.database.db
      .selectFrom('sys_log')
      .selectAll()
      .where('method', '=', 'POST /api/resetPassword')
      .where('log_type', '=', 'INFO')
      .executeTakeFirstOrThrow();
    expect(resetLog.description).toBe('找回密码');
    expect(resetLog.username).toBe('zhang');
    // the log keeps no personal data: the mobile is masked, secrets left out
    expect(JSON.parse(resetLog.params as string)).toEqual({ phone: '138****6666', code: '******', password: '******' });
  });

  it('forgot password never tells a number on file from one that is not, before the code', async () => {
    const known = '13855556666';
    const unknown = '13855556667';
    const ask = (url: string, remoteAddress: string) => app.inject({ method: 'GET', url, remoteAddress });
    const reset = async (phone: string, code: string) =>
      app.inject({
        method: 'POST',
        url: '/api/resetPassword',
        payload: { phone, code, password: await encrypted(app, 'Zhang#2099') },
        remoteAddress: '10.7.7.7',
      });
    const seen = (res: { statusCode: number; body: string }) =>
      `${res.statusCode} ${res.body.replace(/\d+秒/, 'N秒').replace(/"timestamp":"[^"]*"/, '')}`;
    // no code asked yet: the same refusal for both
    expect(seen(await reset(known, '123456'))).toBe(seen(await reset(unknown, '123456')));
    expect(seen(await ask(`/api/findByPhone?phone=${known}&code=123456`, '10.7.7.1'))).toBe(
      seen(await ask(`/api/findByPhone?phone=${unknown}&code=123456`, '10.7.7.1')),
    );
    // sending: the same answer, then the same wait, from sendMsg and getMsg alike
    const send = async (phone: string) => [
      seen(await ask(`/api/sendMsg?phone=${phone}`, '10.7.7.2')),
      seen(await app.inject({ method: 'POST', url: `/api/userWeb/getMsg?mobile=${phone}`, remoteAddress: '10.7.7.3' })),
    ];
    await app.database.db.deleteFrom('sys_verify_code').where('target', 'in', [known, unknown]).execute();
    const [knownSend, unknownSend] = [await send(known), await send(unknown)];
    expect(knownSend).toEqual(unknownSend);
    expect(knownSend[0]).toMatch(/^200 /);
    expect(knownSend[1]).toMatch(/^429 /);
    // a wrong code after the send: the same refusal for both
    expect(seen(await reset(known, '000000'))).toBe(seen(await reset(unknown, '000000')));
    await app.verificationCodes.settled();
    expect(await latestOutbox(app.database.db, unknown)).toBeFalsy();
  });

  it('hostile input aimed at the account routes (profile, password, e-mail, phone, codes, own logs) is a 4xx in Chinese, never a 500', async () => {
    const routes: Array<[string, string, boolean]> = [
      ['PUT', '/api/users/center', true],
      ['POST', '/api/users/updatePass/', true],
      ['POST', '/api/users/updateEmail/%00%27', true],
      ['PUT', '/api/users/updateUserPhone', true],
      ['POST', '/api/users/updateAvatar', true],
      ['POST', '/api/code/resetEmail', true],
      ['POST', '/api/code/resetPhone', true],
      ['GET', '/api/sendEmailCode?email[]=x', true],
      ['GET', '/api/findByPhone?phone=%27%20or%201=1', false],
      ['GET', '/api/sendMsg?phone=1&phone=2', false],
      ['POST', '/api/resetPassword', false],
      ['GET', '/api/qywxLogin?code=a&code=b&state=' + 'x'.repeat(500), false],
      ['GET', '/api/logs/user?page=abc&size=-1', true],
      ['GET', '/api/logs?createTime=2024-01-01&createTime=%27;drop', true],
      ['GET', '/api/outbox?size=100000', true],
      ['GET', '/api/users/avatar/99999999999999999999', false],
    ];
    const bodies: unknown[] = [
      [1, 2],
      'text',
      42,
      { id: { $gt: 1 }, nickName: ['a'], sex: 'x', phone: { a: 1 }, code: [1], oldPass: 1, newPass: null, email: 5, password: {} },
      { id: 'abc' },
    ];
    for (const [method, url, signedIn] of routes) {
      for (const body of method === 'GET' ? [undefined] : bodies) {
        const res = await app.inject({
          method: method as 'GET',
          url,
          headers: { ...(signedIn ? auth : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeLessThan(500);
        expect(errorOf(res).message).toMatch(/[\u4e00-\u9fa5]/);
      }
    }
  });

  it('remember-me: the sign-in answer says how many days the browser may keep the token', async () => {
    const login = async (rememberMe: boolean) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username: 'li', password: await encrypted(app, 'Li@20240'), code: '', uuid: '', rememberMe },
        })
      ).json<Row>();
    expect((await login(true)).rememberMeDays).toBe(t.config.rememberMeDays);
    expect(await login(false)).not.toHaveProperty('rememberMeDays');
  });
});
