import { MENU_DIRECTORIES } from '../../src/server/auth/seed.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { setPublicSetting } from '../../src/server/modules/system/index.ts';
import { authTestApp, createStaff, encryptPassword, loginAs, publicKeyOf, testDialects, type AuthTestApp } from './auth-helpers.ts';
import { submitId, testApps, type TestApp } from './helpers.ts';
import type { ErrorBody, Page, Row } from '../support/answers.ts';
import { DEFAULT_PRODUCT_NAME } from '../../src/shared/product.ts';
import { resources } from '../../src/generated/resources.ts';
import { permissionKey } from '../../src/shared/resource-spec.ts';

const ADMIN_PASSWORD = 'Admin@123456';

async function login(app: FastifyInstance, body: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/login', payload: body });
}

async function loginBody(app: FastifyInstance, username: string, password: string, extra: Record<string, unknown> = {}) {
  return { username, password: encryptPassword(await publicKeyOf(app), password), code: '', uuid: '', platTypeId: 100001, ...extra };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** the answer of a sign-in, and of GET /api/info without the token */
interface SignIn {
  token: string;
  user: Row;
  permissions: string[];
  sys: Row;
}

/** GET /api/code */
interface Captcha {
  enabled: boolean;
  img: string;
  uuid: string;
}

function expectError(res: { statusCode: number; json<T>(): T }, status: number, message: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json<ErrorBody>();
  expect(body.status).toBe(status);
  expect(body.message).toBe(message);
  expect(typeof body.timestamp).toBe('string');
}

describe.each(testApps())('staff sign-in on %s', (_dialect, start) => {
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await start({ seedDemo: true });
    app = t.app;
    // 全部: the department list below shows every department (data scope is tested in access-scope)
    await createStaff(app, {
      username: 'zhangsan',
      password: 'Zhang@2024',
      permissions: ['sysQuestion:add'],
      phone: '13800138000',
      dataScope: '全部',
    });
    await createStaff(app, { username: 'deleter', password: 'Del@2024', permissions: ['sysQuestion:del', 'staffunZp:edit'] });
    await createStaff(app, { username: 'disabled', password: 'Off@2024', permissions: [], enabled: false });
  });
  afterAll(async () => t?.close());

  describe('first start', () => {
    it('creates admin with the default-password flag, the root company and demo departments', async () => {
      const token = await loginAs(app, 'admin', ADMIN_PASSWORD);
      const res = await app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      const { user, permissions, sys } = res.json<SignIn>();
      expect(user).toMatchObject({
        username: 'admin',
        nickName: '管理员',
        orgName: '总公司',
        deptNamePath: '总公司/信息数据部',
        defPassword: true,
        enabled: true,
        lockTime: 0,
        sex: 1,
      });
      expect(user.lastPasswordResetDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(user.roles).toEqual([expect.objectContaining({ name: 'admin', dataScope: '全部', level: 1 })]);
      expect(permissions).toEqual(['admin']);
      expect(sys).toMatchObject({ compName: '车商集团', title: DEFAULT_PRODUCT_NAME });
      const depts = await app.database.db.selectFrom('sys_dept').select('name').orderBy('id').execute();
      expect(depts.map((d) => d.name as string)).toEqual(['总公司', '人事部', '销售部', '售后服务部', '信息数据部']);
    });

    it('stores a bcrypt hash, never the password', async () => {
      const row = await app.database.db.selectFrom('sys_user').select('password').where('username', '=', 'admin').executeTakeFirstOrThrow();
      expect(row.password).toMatch(/^\$2[aby]\$10\$/);
      expect(row.password).not.toContain(ADMIN_PASSWORD);
    });

    it('seeds a menu and a button per action of every resource, linked to the admin role', async () => {
      const db = app.database.db;
      const keys = await db
        .selectFrom('sys_menu as m')
        .innerJoin('sys_roles_menus as rm', 'rm.menu_id', 'm.id')
        .innerJoin('sys_role as r', 'r.id', 'rm.role_id')
        .select(['m.permission', 'm.type'])
        .where('r.name', '=', 'admin')
        .execute();
      const byKey = new Map(keys.map((k) => [k.permission, Number(k.type)]));
      // generated from the schemas: each resource's screen (type 1) and a button (type 2) per action,
      // with the key that shows its personal data in full when it has any
      const wrong: string[] = [];
      for (const spec of resources) {
        if (byKey.get(permissionKey(spec, 'list')) !== 1)
          wrong.push(`${permissionKey(spec, 'list')} -> ${byKey.get(permissionKey(spec, 'list'))}`);
        const actions: string[] = [...spec.actions, ...(spec.fields.some((f) => f.mask) ? ['sensitive'] : [])];
        for (const action of actions) {
          const key = permissionKey(spec, action);
          if (byKey.get(key) !== 2) wrong.push(`${key} -> ${byKey.get(key)}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(resources.length).toBeGreaterThanOrEqual(20);
    });
  });

  describe('POST /api/login', () => {
    it('signs in by user name and answers token, user, permissions and public settings', async () => {
      const res = await login(app, await loginBody(app, 'zhangsan', 'Zhang@2024'));
      expect(res.statusCode).toBe(200);
      const body = res.json<SignIn>();
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(body.user).toMatchObject({
        username: 'zhangsan',
        phone: '13800138000',
        orgName: '总公司',
        deptNamePath: '总公司',
        defPassword: false,
      });
      expect(Object.keys(body.user).sort()).toEqual(
        [
          'deptId',
          'deptNamePath',
          'defPassword',
          'email',
          'enabled',
          'id',
          'idno',
          'img',
          'lastPasswordResetDate',
          'lockTime',
          'nickName',
          'orgId',
          'orgName',
          'phone',
          'roles',
          'sex',
          'username',
          'wxImg',
        ].sort(),
      );
      expect(body.user).not.toHaveProperty('password');
      expect(body.permissions).toEqual(['sysQuestion:add', 'zhangsan的岗位']);
      expect(body.sys).toHaveProperty('recordNumber');
    });

    it('signs in by phone', async () => {
      const res = await login(app, await loginBody(app, '13800138000', 'Zhang@2024'));
      expect(res.statusCode).toBe(200);
      expect(res.json<SignIn>().user.username).toBe('zhangsan');
    });

    it('stores only the hash of the token', async () => {
      const token = await loginAs(app, 'zhangsan', 'Zhang@2024');
      const rows = await app.database.db.selectFrom('sys_session').select('id').execute();
      expect(rows.some((r) => r.id === token)).toBe(false);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(String(r.id)))).toBe(true);
    });

    it('names each missing field', async () => {
      const full = await loginBody(app, 'zhangsan', 'Zhang@2024');
      expectError(await login(app, { ...full, username: '' }), 400, '用户名/手机号不能为空');
      expectError(await login(app, { ...full, username: '   ' }), 400, '用户名/手机号不能为空');
      expectError(await login(app, { ...full, password: undefined }), 400, '密码不能为空');
      expectError(await login(app, {}), 400, '用户名/手机号不能为空');
      expectError(await login(app, { username: ['a'], password: { x: 1 } }), 400, '用户名/手机号不能为空');
      expectError(await login(app, { username: 'zhangsan', password: 42 }), 400, '用户名或密码错误');
    });

    it('wrong password and unknown user get the same answer', async () => {
      expectError(await login(app, await loginBody(app, 'zhangsan', 'wrong')), 400, '用户名或密码错误');
      expectError(await login(app, await loginBody(app, 'nobody', 'Zhang@2024')), 400, '用户名或密码错误');
      expectError(await login(app, await loginBody(app, "zhangsan' or '1'='1", 'x')), 400, '用户名或密码错误');
    });

    it('tampered or garbage ciphertext is a 400, not a 500', async () => {
      const good = (await loginBody(app, 'zhangsan', 'Zhang@2024')).password;
      const bytes = Buffer.from(good, 'base64');
      bytes[10] ^= 0xff;
      for (const password of [bytes.toString('base64'), 'garbage!!', 'Zhang@2024', 'QUJD', 'A'.repeat(4000)]) {
        expectError(await login(app, { username: 'zhangsan', password, code: '', uuid: '' }), 400, '用户名或密码错误');
      }
    });

    it('a disabled account is refused once the password is right', async () => {
      expectError(await login(app, await loginBody(app, 'disabled', 'Off@2024')), 400, '账号未激活');
      expectError(await login(app, await loginBody(app, 'disabled', 'wrong')), 400, '用户名或密码错误');
    });
  });

  describe('tokens', () => {
    it('401 without a token, with garbage, or with a token nobody issued', async () => {
      for (const headers of [
        {},
        { authorization: 'Bearer' },
        { authorization: 'Bearer x' },
        { authorization: 'Basic YWRtaW46YWRtaW4=' },
        bearer('A'.repeat(43)),
        bearer("' or 1=1 --"),
      ]) {
        expectError(await app.inject({ method: 'GET', url: '/api/info', headers }), 401, '登录状态已过期，请重新登录');
      }
    });

    it('logout ends the session at once; other sessions live on', async () => {
      const a = await loginAs(app, 'zhangsan', 'Zhang@2024');
      const b = await loginAs(app, 'zhangsan', 'Zhang@2024');
      expect((await app.inject({ method: 'GET', url: '/api/info', headers: bearer(a) })).statusCode).toBe(200);
      const out = await app.inject({ method: 'DELETE', url: '/api/logout', headers: bearer(a) });
      expect(out.statusCode).toBe(200);
      expectError(await app.inject({ method: 'GET', url: '/api/info', headers: bearer(a) }), 401, '登录状态已过期，请重新登录');
      expectError(await app.inject({ method: 'DELETE', url: '/api/logout', headers: bearer(a) }), 401, '登录状态已过期，请重新登录');
      expect((await app.inject({ method: 'GET', url: '/api/info', headers: bearer(b) })).statusCode).toBe(200);
    });

    it('a user disabled after sign-in is out at the next request', async () => {
      const id = await createStaff(app, { username: 'leaver', password: 'Leave@2024', permissions: [] });
      const token = await loginAs(app, 'leaver', 'Leave@2024');
      expect((await app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) })).statusCode).toBe(200);
      await app.database.db.updateTable('sys_user').set({ enabled: 0 }).where('id', '=', id).execute();
      expect((await app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) })).statusCode).toBe(401);
    });
  });

  describe('permissions', () => {
    it('403 for a staff member without the key, allowed with it, admin passes', async () => {
      const del = (token?: string) =>
        app.inject({
          method: 'DELETE',
          url: '/api/sysQuestion',
          headers: { ...(token ? bearer(token) : {}), submit_id: submitId() },
          payload: [987654],
        });
      const without = await loginAs(app, 'zhangsan', 'Zhang@2024');
      expectError(await del(without), 403, '没有权限，请联系管理员');
      // reading is closed too: the list needs sysQuestion:list
      expectError(await app.inject({ method: 'GET', url: '/api/sysQuestion', headers: bearer(without) }), 403, '没有权限，请联系管理员');
      const withKey = await loginAs(app, 'deleter', 'Del@2024');
      // past the key check: the id is not there
      expectError(await del(withKey), 404, '数据不存在');
      expectError(
        await app.inject({ method: 'GET', url: '/api/sysQuestion/download', headers: bearer(withKey) }),
        403,
        '没有权限，请联系管理员',
      );
      const admin = await loginAs(app, 'admin', ADMIN_PASSWORD);
      expectError(await del(admin), 404, '数据不存在');
      expectError(await del(), 401, '登录状态已过期，请重新登录');
    });

    it('a user without roles gets ROLE_SYSTEM_DEFAULT', async () => {
      const id = await createStaff(app, { username: 'norole', password: 'NoRole@2024', permissions: [] });
      await app.database.db.deleteFrom('sys_users_roles').where('user_id', '=', id).execute();
      const token = await loginAs(app, 'norole', 'NoRole@2024');
      const info = (await app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) })).json<SignIn>();
      expect(info.permissions).toEqual(['ROLE_SYSTEM_DEFAULT']);
      expect(info.user.roles).toEqual([]);
    });
  });

  describe('public settings', () => {
    it('answers defaults, the filing number from the configuration, then stored values', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/system/sysConfigInit/anon/pc?type=pc' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        favicon: '',
        logo: '',
        compName: '车商集团',
        recordNumber: t.config.recordNumber,
        sysHomeImg: '',
        title: DEFAULT_PRODUCT_NAME,
      });
      await setPublicSetting(app.database.db, 'compName', '中原车商集团');
      await setPublicSetting(app.database.db, 'compName', '豫车集团');
      expect((await app.inject({ method: 'GET', url: '/api/system/sysConfigInit/anon/pc' })).json<Row>().compName).toBe('豫车集团');
      await setPublicSetting(app.database.db, 'compName', '车商集团');
    });
  });

  describe('GET /api/dept', () => {
    it('pages, sorts and filters departments', async () => {
      const token = await loginAs(app, 'zhangsan', 'Zhang@2024');
      const get = (qs: string) => app.inject({ method: 'GET', url: `/api/dept?${qs}`, headers: bearer(token) });
      const all = (await get('page=0&size=99999&sort=sort,asc')).json<Page>();
      expect(all.totalElements).toBe(5);
      expect(all.content.map((d) => d.name)).toEqual(['总公司', '人事部', '销售部', '售后服务部', '信息数据部']);
      expect(all.content[0]).toMatchObject({ pid: null, enabled: true });
      expect(all.content[1].pid).toBe(all.content[0].id);
      const page = (await get('page=1&size=2&sort=id,desc')).json<Page>();
      expect(page.totalElements).toBe(5);
      expect(page.content.map((d) => d.name)).toEqual(['销售部', '人事部']);
      expect((await get('name=服务')).json<Page>().content.map((d) => d.name)).toEqual(['售后服务部']);
      expect((await get('name=%25')).json<Page>().totalElements).toBe(0);
      expect((await get('enabled=true')).json<Page>().totalElements).toBe(5);
      expect((await get('enabled=false')).json<Page>().totalElements).toBe(0);
      expect((await get('pid=0')).json<Page>().content.map((d) => d.name)).toEqual(['总公司']);
    });

    it('rejects unknown sorts and parameters with a 400', async () => {
      const token = await loginAs(app, 'zhangsan', 'Zhang@2024');
      for (const qs of [
        'sort=password,asc',
        'sort=id;drop table sys_dept',
        'sort=id,sideways',
        'foo=1',
        'page=-1',
        'size=0',
        'size=abc',
        'enabled=maybe',
      ]) {
        const res = await app.inject({ method: 'GET', url: `/api/dept?${qs}`, headers: bearer(token) });
        expect(res.statusCode, qs).toBe(400);
        expect(res.json<ErrorBody>().status).toBe(400);
      }
      expect((await app.inject({ method: 'GET', url: '/api/dept' })).statusCode).toBe(401);
    });
  });
});

describe.each(testApps())('captcha on %s', (_dialect, start) => {
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await start({ captchaEnabled: true });
    app = t.app;
  });
  afterAll(async () => t?.close());

  const newCaptcha = async () => {
    const res = await app.inject({ method: 'GET', url: '/api/code' });
    expect(res.statusCode).toBe(200);
    const body = res.json<Captcha>();
    const row = await app.database.db.selectFrom('sys_captcha').select('answer').where('uuid', '=', body.uuid).executeTakeFirstOrThrow();
    return { ...body, answer: String(row.answer) };
  };

  it('GET /api/code answers an SVG image and an id', async () => {
    const c = await newCaptcha();
    expect(c.enabled).toBe(true);
    expect(c.img).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(c.uuid).toMatch(/^[0-9a-f]{32}$/);
  });

  it('requires the code, refuses a wrong one and consumes it', async () => {
    const c = await newCaptcha();
    expectError(await login(app, await loginBody(app, 'admin', ADMIN_PASSWORD, { uuid: c.uuid })), 400, '验证码不能为空');
    const wrong = String(Number(c.answer) + 1);
    expectError(await login(app, await loginBody(app, 'admin', ADMIN_PASSWORD, { uuid: c.uuid, code: wrong })), 400, '验证码错误');
    expectError(
      await login(app, await loginBody(app, 'admin', ADMIN_PASSWORD, { uuid: c.uuid, code: c.answer })),
      400,
      '验证码不存在或已过期',
    );
    expectError(
      await login(app, await loginBody(app, 'admin', ADMIN_PASSWORD, { uuid: 'f'.repeat(32), code: '3' })),
      400,
      '验证码不存在或已过期',
    );
  });

  it('signs in with the right answer, once', async () => {
    const c = await newCaptcha();
    const body = await loginBody(app, 'admin', ADMIN_PASSWORD, { uuid: c.uuid, code: c.answer });
    expect((await login(app, body)).statusCode).toBe(200);
    expectError(await login(app, body), 400, '验证码不存在或已过期');
  });

  it('a wrong password still uses up the captcha', async () => {
    const c = await newCaptcha();
    expectError(await login(app, await loginBody(app, 'admin', 'nope', { uuid: c.uuid, code: c.answer })), 400, '用户名或密码错误');
    expectError(
      await login(app, await loginBody(app, 'admin', ADMIN_PASSWORD, { uuid: c.uuid, code: c.answer })),
      400,
      '验证码不存在或已过期',
    );
  });
});

describe.each(testDialects)('sessions and restarts on %s', (dialect) => {
  let t: AuthTestApp;
  let clock = Date.UTC(2024, 5, 1, 2, 0, 0);
  const now = () => clock;

  beforeAll(async () => {
    t = await authTestApp(dialect, { config: { sessionIdleMinutes: 30, rememberMeDays: 7 }, auth: { now } });
  });
  afterAll(async () => t?.close());

  it('with the captcha off, /api/code says so', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/code' })).json()).toEqual({ img: '', uuid: '', enabled: false });
  });

  it('expires after the idle time, sliding with use', async () => {
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const info = () => t.app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) });
    clock += 29 * 60_000;
    expect((await info()).statusCode).toBe(200);
    clock += 29 * 60_000; // 58 minutes after sign-in, 29 after the last use
    expect((await info()).statusCode).toBe(200);
    clock += 30 * 60_000 + 1000;
    expect((await info()).statusCode).toBe(401);
  });

  it('writes last use at most once a minute', async () => {
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const expiresOf = async () =>
      Number(
        (await t.app.database.db.selectFrom('sys_session').select('expires').orderBy('expires', 'desc').executeTakeFirstOrThrow()).expires,
      );
    const first = await expiresOf();
    clock += 30_000;
    await t.app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) });
    expect(await expiresOf()).toBe(first);
    clock += 31_000;
    await t.app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) });
    expect(await expiresOf()).toBe(first + 61_000);
  });

  it('remember-me keeps the session for days', async () => {
    const res = await login(t.app, await loginBody(t.app, 'admin', ADMIN_PASSWORD, { rememberMe: true }));
    const token = res.json<{ token: string }>().token;
    clock += 6 * 86_400_000;
    expect((await t.app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) })).statusCode).toBe(200);
    clock += 7 * 86_400_000 + 1000;
    expect((await t.app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('a restart on the same data keeps the key pair, the admin and the seeds, without duplicates', async () => {
    const before = await publicKeyOf(t.app);
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const count = async (app: FastifyInstance, table: string) =>
      Number(
        (
          await app.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const counts = {
      dept: await count(t.app, 'sys_dept'),
      user: await count(t.app, 'sys_user'),
      menu: await count(t.app, 'sys_menu'),
      rm: await count(t.app, 'sys_roles_menus'),
    };
    const again = await t.restart({ now });
    expect(await publicKeyOf(again)).toBe(before);
    // the session is in the database: still valid on the restarted server
    expect((await again.inject({ method: 'GET', url: '/api/info', headers: bearer(token) })).statusCode).toBe(200);
    expect({
      dept: await count(again, 'sys_dept'),
      user: await count(again, 'sys_user'),
      menu: await count(again, 'sys_menu'),
      rm: await count(again, 'sys_roles_menus'),
    }).toEqual(counts);
    expect(await loginAs(again, 'admin', ADMIN_PASSWORD)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

// several instances share one database only on PostgreSQL (SQLite is one process's file)
describe.skipIf(!testDialects.includes('postgres'))('several instances starting at once on postgres', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await authTestApp('postgres', { instances: 3 });
  });
  afterAll(async () => t?.close());

  it('seed once and share one key pair', async () => {
    const keys = await Promise.all(t.apps.map((a) => publicKeyOf(a)));
    expect(new Set(keys).size).toBe(1);
    const db = t.app.database.db;
    const admins = await db.selectFrom('sys_user').select('id').where('username', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
    const roots = await db.selectFrom('sys_dept').select('id').where('pid', 'is', null).execute();
    expect(roots).toHaveLength(1);
    const dup = await db
      .selectFrom('sys_menu')
      .select(['permission', (eb) => eb.fn.countAll().as('n')])
      .where('permission', 'is not', null)
      .groupBy('permission')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(dup).toEqual([]);
    // directories carry no key: one row each
    const dirs = await db.selectFrom('sys_menu').select('title').where('type', '=', 0).execute();
    expect(dirs.map((d) => d.title as string).sort()).toEqual(MENU_DIRECTORIES.map((d) => d.title).sort());
    // a token from one instance works on another
    const token = await loginAs(t.apps[0], 'admin', ADMIN_PASSWORD);
    expect((await t.apps[2].inject({ method: 'GET', url: '/api/info', headers: bearer(token) })).statusCode).toBe(200);
  });
});
