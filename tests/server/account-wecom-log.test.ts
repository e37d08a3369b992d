import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { nowText } from '../../src/server/db/index.ts';
import { deleteOldLogs } from '../../src/server/modules/account/index.ts';
import { addressOf, browserOf, maskedParams } from '../../src/server/modules/logs/request-info.ts';
import { encrypted, lastLogs } from './account-helpers.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import type { Page, Row } from '../support/answers.ts';

/** GET /api/getQywxInfo */
interface WecomInfo {
  configured: boolean;
  appid: string;
  agentid: string;
  state: string;
  loginUrl: string;
}

/** a sign-in answer, and GET /api/info */
interface SignIn {
  token: string;
  user: Row;
  permissions: string[];
}

/** a user as the user administration lists it */
interface UserRow extends Row {
  username: string;
  roles: Array<{ id: number }>;
}

/** A small stand-in for the WeCom server API: one corp, codes mapped to user ids. */
async function fakeWecom(): Promise<{ url: string; server: Server; calls: string[]; codes: Map<string, string> }> {
  const calls: string[] = [];
  const codes = new Map<string, string>();
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    calls.push(u.pathname);
    res.setHeader('content-type', 'application/json');
    if (u.pathname === '/cgi-bin/gettoken') {
      const ok = u.searchParams.get('corpid') === 'ww-test-corp' && u.searchParams.get('corpsecret') === 'wecom-secret';
      res.end(
        JSON.stringify(
          ok ? { errcode: 0, errmsg: 'ok', access_token: 'TOKEN-1', expires_in: 7200 } : { errcode: 40001, errmsg: 'invalid credential' },
        ),
      );
    } else if (u.pathname === '/cgi-bin/auth/getuserinfo') {
      const userid = u.searchParams.get('access_token') === 'TOKEN-1' ? codes.get(u.searchParams.get('code') ?? '') : undefined;
      res.end(JSON.stringify(userid ? { errcode: 0, errmsg: 'ok', userid } : { errcode: 40029, errmsg: 'invalid code' }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, calls, codes };
}

describe('operation-log helpers', () => {
  it('masks passwords, codes and tokens at any depth', () => {
    const text = maskedParams({
      query: { phone: '138', code: '123456' },
      body: { user: { password: 'x', oldPass: 'y' }, list: [{ token: 't' }], name: 'n' },
    });
    expect(JSON.parse(text)).toEqual({
      phone: '138',
      code: '******',
      user: { password: '******', oldPass: '******' },
      list: [{ token: '******' }],
      name: 'n',
    });
    expect(maskedParams({ body: { note: 'x'.repeat(5000) } }).length).toBeLessThanOrEqual(2000);
  });
  it('says 内网IP for private addresses only and names the browser', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.0.5', '172.16.0.1', '172.31.9.9', '::1', '::ffff:192.168.1.1'])
      expect(addressOf(ip)).toBe('内网IP');
    for (const ip of ['8.8.8.8', '172.32.0.1', '2001:db8::1']) expect(addressOf(ip)).toBe('');
    expect(browserOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36')).toBe(
      'Chrome 120',
    );
    expect(browserOf('Mozilla/5.0 AppleWebKit/537.36 Chrome/121.0 Safari/537.36 Edg/121.0.0')).toBe('Edge 121');
    expect(browserOf('Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15')).toBe('Safari 17');
    expect(browserOf('Mozilla/5.0 (Windows NT 10.0; rv:115.0) Gecko/20100101 Firefox/115.0')).toBe('Firefox 115');
    expect(browserOf('Mozilla/5.0 Chrome/100 wxwork/4.1.3 MicroMessenger/7.0.1')).toBe('企业微信 4.1.3');
    expect(browserOf(undefined)).toBe('未知');
  });
});

describe.each(testApps())('WeCom QR sign-in on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let wecom: Awaited<ReturnType<typeof fakeWecom>>;

  beforeAll(async () => {
    wecom = await fakeWecom();
    t = await start({ wecomCorpId: 'ww-test-corp', wecomAgentId: '1000002', wecomSecret: 'wecom-secret', wecomApiBase: wecom.url });
    app = t.app;
    const id = await createStaff(app, { username: 'wang', password: 'Wang@2024', permissions: ['sysQuestion:add'] });
    await app.database.db.updateTable('sys_user').set({ wecom_user_id: 'WangWei' }).where('id', '=', id).execute();
    const off = await createStaff(app, { username: 'zhao', password: 'Zhao@2024', permissions: [], enabled: false });
    await app.database.db.updateTable('sys_user').set({ wecom_user_id: 'ZhaoLei' }).where('id', '=', off).execute();
  });
  afterAll(async () => {
    await t?.close();
    wecom?.server.close();
  });

  const info = async () => (await app.inject({ method: 'GET', url: '/api/getQywxInfo' })).json<WecomInfo>();

  it('getQywxInfo answers appid, agentid and a fresh state', async () => {
    const a = await info();
    const b = await info();
    expect(a).toMatchObject({ configured: true, appid: 'ww-test-corp', agentid: '1000002' });
    expect(a.state).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(a.state).not.toBe(b.state);
    expect(a.loginUrl).toMatch(/^https:\/\//);
  });

  it('signs in the staff member bound to the WeCom user id; the state works once', async () => {
    const { state } = await info();
    wecom.codes.set('CODE-OK', 'WangWei');
    const res = await app.inject({ method: 'GET', url: `/api/qywxLogin?code=CODE-OK&state=${state}` });
    expect(res.statusCode).toBe(200);
    const body = res.json<SignIn>();
    expect(body.user.username).toBe('wang');
    expect(body.permissions).toContain('sysQuestion:add');
    expect((await app.inject({ method: 'GET', url: '/api/info', headers: bearer(body.token) })).json<SignIn>().user.username).toBe('wang');
    expect(wecom.calls).toEqual(['/cgi-bin/gettoken', '/cgi-bin/auth/getuserinfo']);
    const again = await app.inject({ method: 'GET', url: `/api/qywxLogin?code=CODE-OK&state=${state}` });
    expect(errorOf(again).message).toBe('扫码登录已失效，请重新扫码');
    const [log] = await lastLogs(app);
    expect(log).toMatchObject({
      description: '企业微信扫码登录',
      username: null,
      log_type: 'ERROR',
      exception_detail: '扫码登录已失效，请重新扫码',
    });
    const ok = await app.database.db
      .selectFrom('sys_log')
      .selectAll()
      .where('method', '=', 'GET /api/qywxLogin')
      .where('log_type', '=', 'INFO')
      .executeTakeFirstOrThrow();
    expect(ok.username).toBe('wang');
    expect(JSON.parse(ok.params as string)).toEqual({ code: '******', state });
  });

  it('an administrator binds, rebinds and unbinds a WeCom account in user administration', async () => {
    const admin = await loginAs(app, 'admin', ADMIN_PASSWORD);
    const list = (await app.inject({ method: 'GET', url: '/api/users?blurry=wang', headers: bearer(admin) })).json<Page<UserRow>>();
    const wang = list.content.find((u) => u.username === 'wang')!;
    expect(wang.wecomUserId).toBe('WangWei');
    const put = (body: Record<string, unknown>) =>
      app.inject({
        method: 'PUT',
        url: '/api/users',
        headers: { ...bearer(admin), submit_id: submitId() },
        payload: { ...wang, roles: wang.roles.map((r) => ({ id: r.id })), ...body },
      });
    // taken by someone else, or not a WeCom id
    const zhao = (await app.inject({ method: 'GET', url: '/api/users?blurry=zhao', headers: bearer(admin) })).json<Page>().content[0];
    expect(zhao.wecomUserId).toBe('ZhaoLei');
    expect(errorOf(await put({ wecomUserId: 'ZhaoLei' })).message).toBe('该企业微信账号已绑定其他用户');
    expect(errorOf(await put({ wecomUserId: '王 伟' })).message).toBe('企业微信账号只能包含字母、数字和 _ . @ -');
    // left out: kept
    const { wecomUserId: _left, ...withoutBinding } = wang;
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/api/users',
          headers: { ...bearer(admin), submit_id: submitId() },
          payload: { ...withoutBinding, roles: wang.roles.map((r) => ({ id: r.id })) },
        })
      ).statusCode,
    ).toBe(204);
    // rebound: the new WeCom id signs in, the old one no longer does
    expect((await put({ wecomUserId: 'wang.wei@corp' })).statusCode).toBe(204);
    wecom.codes.set('CODE-NEW', 'wang.wei@corp');
    const signedIn = await app.inject({ method: 'GET', url: `/api/qywxLogin?code=CODE-NEW&state=${(await info()).state}` });
    expect(signedIn.json<SignIn>().user.username).toBe('wang');
    wecom.codes.set('CODE-OLD', 'WangWei');
    expect(errorOf(await app.inject({ method: 'GET', url: `/api/qywxLogin?code=CODE-OLD&state=${(await info()).state}` })).message).toBe(
      '该企业微信账号未绑定系统用户，请联系管理员',
    );
    // unbound
    expect((await put({ wecomUserId: '' })).statusCode).toBe(204);
    const after = (await app.inject({ method: 'GET', url: '/api/users?blurry=wang', headers: bearer(admin) }))
      .json<Page<UserRow>>()
      .content.find((u) => u.username === 'wang')!;
    expect(after.wecomUserId).toBeNull();
    // bound again for the tests below
    expect((await put({ wecomUserId: 'WangWei' })).statusCode).toBe(204);
  });

  it('refuses unknown states, bad codes, unbound and disabled users', async () => {
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/qywxLogin?code=x&state=nope' })).message).toBe(
      '扫码登录已失效，请重新扫码',
    );
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/qywxLogin' })).message).toBe('缺少扫码登录参数，请重新扫码');
    expect(errorOf(await app.inject({ method: 'GET', url: `/api/qywxLogin?code=BAD&state=${(await info()).state}` })).message).toBe(
      '企业微信授权失败，请重新扫码',
    );
    wecom.codes.set('CODE-STRANGER', 'Stranger');
    expect(
      errorOf(await app.inject({ method: 'GET', url: `/api/qywxLogin?code=CODE-STRANGER&state=${(await info()).state}` })).message,
    ).toBe('该企业微信账号未绑定系统用户，请联系管理员');
    wecom.codes.set('CODE-ZHAO', 'ZhaoLei');
    expect(errorOf(await app.inject({ method: 'GET', url: `/api/qywxLogin?code=CODE-ZHAO&state=${(await info()).state}` })).message).toBe(
      '账号未激活',
    );
    // the access token was fetched once and reused
    expect(wecom.calls.filter((c) => c === '/cgi-bin/gettoken')).toHaveLength(1);
  });

  it('a state handed out by one instance signs in on another', async () => {
    const { state } = await info();
    wecom.codes.set('CODE-MULTI', 'WangWei');
    const other = await t.reopen();
    const res = await other.inject({ method: 'GET', url: `/api/qywxLogin?code=CODE-MULTI&state=${state}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<SignIn>().user.username).toBe('wang');
    expect((await app.inject({ method: 'GET', url: `/api/qywxLogin?code=CODE-MULTI&state=${state}` })).statusCode).toBe(400);
  });

  it('an expired state is refused', async () => {
    const { state } = await info();
    await app.database.db
      .updateTable('sys_wecom_state')
      .set({ expires: Date.now() - 1 })
      .where('state', '=', state)
      .execute();
    wecom.codes.set('CODE-LATE', 'WangWei');
    expect(errorOf(await app.inject({ method: 'GET', url: `/api/qywxLogin?code=CODE-LATE&state=${state}` })).message).toBe(
      '扫码登录已失效，请重新扫码',
    );
  });

  it('without configuration the panel is told so', async () => {
    const plain = await start();
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/api/getQywxInfo' })).json()).toMatchObject({
        configured: false,
        message: '企业微信扫码登录未配置',
      });
      expect(errorOf(await plain.app.inject({ method: 'GET', url: '/api/qywxLogin?code=a&state=b' })).message).toBe(
        '企业微信扫码登录未配置',
      );
    } finally {
      await plain.close();
    }
  });
});

describe.each(testApps())('operation log on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let clerk: Record<string, string>;
  let auditor: Record<string, string>;

  beforeAll(async () => {
    t = await start();
    app = t.app;
    await createStaff(app, { username: 'clerk', password: 'Clerk@2024', permissions: ['sysQuestion:add'] });
    await createStaff(app, { username: 'auditor', password: 'Audit@2024', permissions: ['log:list'] });
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    clerk = bearer(await loginAs(app, 'clerk', 'Clerk@2024'));
    auditor = bearer(await loginAs(app, 'auditor', 'Audit@2024'));
  });
  afterAll(async () => t?.close());

  it('logs sign-ins, successful or not, with masked password, IP, address and browser', async () => {
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const password = await encrypted(app, 'Wrong@2024');
    const res = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'user-agent': ua },
      remoteAddress: '192.168.3.7',
      payload: { username: 'clerk', password, code: '', uuid: '' },
    });
    expect(res.statusCode).toBe(400);
    const [log] = await lastLogs(app);
    expect(log).toMatchObject({
      username: 'clerk',
      description: '用户登录',
      method: 'POST /api/login',
      request_ip: '192.168.3.7',
      address: '内网IP',
      browser: 'Chrome 131',
      log_type: 'ERROR',
      exception_detail: '用户名或密码错误',
    });
    expect(JSON.parse(log.params ?? '')).toEqual({ username: 'clerk', password: '******', code: '******', uuid: '******' });
    expect(Number(log.time)).toBeGreaterThanOrEqual(0);
    expect(log.create_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const logins = await app.database.db
      .selectFrom('sys_log')
      .select(['username', 'log_type', 'user_id'])
      .where('method', '=', 'POST /api/login')
      .where('log_type', '=', 'INFO')
      .execute();
    expect(logins.map((l) => l.username as string).sort()).toEqual(['admin', 'auditor', 'clerk']);
  });

  it('logs generic writes with the resource title and action, and failures with the message', async () => {
    const ok = await app.inject({
      method: 'POST',
      url: '/api/sysQuestion',
      headers: { ...clerk, submit_id: submitId() },
      payload: { userType: '员工', model: '系统', content: '打印不出来', title: '打印' },
    });
    expect(ok.statusCode).toBe(201);
    let [log] = await lastLogs(app);
    expect(log).toMatchObject({ username: 'clerk', description: '新增问题反馈', method: 'POST /api/sysQuestion', log_type: 'INFO' });
    expect(JSON.parse(log.params ?? '')).toMatchObject({ content: '打印不出来' });
    const refused = await app.inject({
      method: 'DELETE',
      url: '/api/sysQuestion',
      headers: { ...clerk, submit_id: submitId() },
      payload: [1],
    });
    expect(refused.statusCode).toBe(403);
    [log] = await lastLogs(app);
    expect(log).toMatchObject({
      username: 'clerk',
      description: '删除问题反馈',
      log_type: 'ERROR',
      exception_detail: '没有权限，请联系管理员',
    });
    // reads are not logged
    const count = (
      await app.database.db
        .selectFrom('sys_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    await app.inject({ method: 'GET', url: '/api/sysQuestion', headers: clerk });
    expect(
      (
        await app.database.db
          .selectFrom('sys_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ).toBe(count);
  });

  it('api/logs/user answers the own entries, newest first, paged', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/logs/user?page=0&size=2', headers: clerk });
    expect(res.statusCode).toBe(200);
    const body = res.json<Page>();
    expect(body.totalElements).toBe(3); // sign-in, feedback, refused delete
    expect(body.content).toHaveLength(2);
    expect(body.content[0]).toMatchObject({
      description: '删除问题反馈',
      logType: 'ERROR',
      address: '内网IP',
      exceptionDetail: '没有权限，请联系管理员',
    });
    expect(Object.keys(body.content[0]).sort()).toEqual(
      ['address', 'browser', 'createTime', 'description', 'exceptionDetail', 'id', 'logType', 'requestIp', 'time'].sort(),
    );
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/logs/user?size=0', headers: clerk })).status).toBe(400);
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/logs/user?sort=params,desc', headers: clerk })).status).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/logs/user' })).statusCode).toBe(401);
  });

  it('api/logs needs log:list and filters by user, time range and errors', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/logs', headers: clerk })).statusCode).toBe(403);
    const all = (await app.inject({ method: 'GET', url: '/api/logs?size=100', headers: auditor })).json<Page>();
    expect(all.totalElements).toBe(6); // 3 sign-ins, 1 failed sign-in, 1 feedback, 1 refused delete
    expect(all.content[0]).toHaveProperty('params');
    const mine = (await app.inject({ method: 'GET', url: '/api/logs?username=clerk&size=100', headers: admin })).json<Page>();
    expect(mine.content.every((l) => l.username === 'clerk')).toBe(true);
    const errors = (await app.inject({ method: 'GET', url: '/api/logs?error=true&size=100', headers: auditor })).json<Page>();
    expect(errors.totalElements).toBeGreaterThanOrEqual(2);
    expect(errors.content.every((l) => l.logType === 'ERROR')).toBe(true);
    const today = nowText().slice(0, 10);
    const inRange = (
      await app.inject({ method: 'GET', url: `/api/logs?createTime=${today}&createTime=${today}&size=100`, headers: auditor })
    ).json<Page>();
    expect(inRange.totalElements).toBe(all.totalElements);
    const none = (
      await app.inject({ method: 'GET', url: '/api/logs?createTime=2000-01-01&createTime=2000-01-02', headers: auditor })
    ).json<Page>();
    expect(none.totalElements).toBe(0);
    const blurry = (
      await app.inject({ method: 'GET', url: `/api/logs?blurry=${encodeURIComponent('问题反馈')}`, headers: auditor })
    ).json<Page>();
    expect(blurry.totalElements).toBe(2);
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/logs?createTime=yesterday', headers: auditor })).status).toBe(400);
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/logs?logType=DEBUG', headers: auditor })).status).toBe(400);
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/logs?blurry=%25&page=-1', headers: auditor })).status).toBe(400);
  });

  it('deleteOldLogs removes entries older than the retention', async () => {
    const old = nowText(new Date(Date.now() - 200 * 86_400_000));
    await app.database.db
      .insertInto('sys_log')
      .values({ username: 'x', description: 'old', method: 'POST /x', time: 1, log_type: 'INFO', create_time: old })
      .execute();
    expect(await deleteOldLogs(app.database.db, 180)).toBe(1);
    expect(await deleteOldLogs(app.database.db, 180)).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/api/logs/user', headers: clerk })).json<Page>().totalElements).toBe(3);
    await expect(deleteOldLogs(app.database.db, 0)).rejects.toThrow();
  });
});
