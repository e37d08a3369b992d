/**
 * The permission matrix: every route the app registers (read from the route catalogue, which
 * Fastify's onRoute hook fills, so a new route is covered without editing this file) is called
 * - without a token: 401, unless it is in PUBLIC_ROUTES below;
 * - by a user holding every key but the route's own: 403;
 * - by a user holding only the route's key (or no key for a sign-in-only route; with the other keys
 *   of a route that needs several together): neither 401 nor 403;
 * - by admin: neither 401 nor 403 (except the decision centre, which refuses admin).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCatalogue, type RouteEntry } from '../../src/server/auth/index.ts';
import { resources } from '../../src/generated/resources.ts';
import { invalidateAccess } from '../../src/server/auth/access.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { TEST_BACKUP_KEY } from './backup-helpers.ts';
import type { ErrorBody } from '../support/answers.ts';

/** Routes anyone may call without signing in. */
const PUBLIC_ROUTES = new Set([
  'GET /api/code',
  'GET /api/publicKey',
  'POST /api/login',
  'GET /api/system/sysConfigInit/anon/pc',
  'GET /api/public',
  // password recovery and WeCom sign-in
  'GET /api/findByPhone',
  'GET /api/sendMsg',
  'POST /api/userWeb/getMsg',
  'POST /api/resetPassword',
  'GET /api/getQywxInfo',
  'GET /api/qywxLogin',
  // pictures shown on public pages (avatars, uploaded images) and the image-to-bytes helper
  'GET /api/users/avatar/:id',
  'GET /api/files/:key',
  // the browser's icon of every page (the system setting, else the default)
  'GET /favicon.ico',
  'POST /api/public/imgToTByte',
  // the applicant's registration and the postings they choose from
  'POST /api/staffun',
  // an applicant coming back: ID number + mobile + SMS code
  'POST /api/staffun/resume/sendCode',
  'POST /api/staffun/resume',
  'GET /api/staffunZp/public',
  'GET /api/staffunZp/public/getZpById',
  // liveness and readiness for load balancers
  'GET /api/health',
  'GET /api/health/ready',
  // the API's OpenAPI description and its page (routes and schemas, no data; API_DOCS_ENABLED=false removes them)
  'GET /api/docs',
  'GET /api/docs/openapi.json',
  'GET /api/docs/json',
  'GET /api/docs/yaml',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  // dealer sign-in (the GET only says to use POST)
  'GET /comp/dbcCompany/auth/login',
  'POST /comp/dbcCompany/auth/login',
]);

/**
 * Routes any signed-in staff member may call, each for a reason; every other route needs a
 * permission key (or is public, or takes another identity). A new route with none of these
 * makes the first test fail: closed by default.
 */
const SIGNED_IN_ROUTES: Record<string, string> = {
  'GET /api/info': 'the session: who is signed in, their roles and keys',
  'DELETE /api/logout': "ends the caller's own session",
  'GET /api/menus/build': "the sidebar of the caller's own menus",
  'GET /api/jobs/passwordReminder': "the caller's own password reminder",
  'PUT /api/jobs/passwordReminder/read': "the caller's own password reminder",
  'GET /api/dept': 'department pickers of every form (names only, no personal data)',
  'GET /api/dept/lazy': 'department pickers',
  'GET /api/dept/getDeptList': 'department pickers',
  'GET /api/dept/getIdNameAndPid': 'department pickers',
  'GET /api/dept/getIdsByPid': 'department pickers',
  'GET /api/system/deptRemark/getBrandTree': 'brand and model pickers (catalogue data)',
  'GET /api/system/deptRemark/getOrg': "organisation selectors: the companies of the caller's data scope (names only)",
  'GET /api/system/deptRemark/getDeptRemarkByOrgId': "the department notes beside organisation selectors, within the caller's data scope",
  'GET /api/brandTree': 'brand and model pickers (catalogue data)',
  'GET /api/brandTree/getTreeByPid': 'brand and model pickers',
  'GET /api/brandTree/getTree': 'brand and model pickers',
  'GET /api/brandTree/getBrandTree': 'brand and model pickers',
  'GET /api/brandTree/getItem': 'brand and model pickers',
  'GET /api/brandTree/findTree': 'brand and model pickers',
  'GET /api/menuPage/menu': "the usage guide pages of the caller's menus",
  'GET /api/dictDetail': 'dictionary labels every screen shows',
  'GET /api/busidict/list/:x': 'business dictionary options',
  'GET /api/busidict/options/:x': 'business dictionary options',
  'GET /api/busidict/optionsChilds/:x': 'business dictionary options',
  'GET /api/users/option': "user pickers: id and name of the caller's own company (data scope checked)",
  'PUT /api/users/center': "the caller's own profile",
  'POST /api/users/updatePass/': "the caller's own password",
  'POST /api/users/updateEmail/:code': "the caller's own e-mail",
  'PUT /api/users/updateUserPhone': "the caller's own mobile",
  'POST /api/users/updateAvatar': "the caller's own avatar",
  'POST /api/code/resetEmail': "a code to the caller's own e-mail",
  'GET /api/sendEmailCode': "a code to the caller's own e-mail",
  'POST /api/code/resetPhone': "a code to the caller's own mobile",
  'GET /api/logs/user': "the caller's own operation log",
  'GET /api/downloadFile/:id': "the caller's own background export (checked by owner)",
  'GET /api/sysSocket/getSocket': "the caller's own system messages",
  'GET /api/sysSocket/getNotRead': "the caller's own unread count",
  'PUT /api/sysSocket/read': "the caller's own read state",
  'GET /api/sysSocketChat': "the caller's own chat",
  'POST /api/sysSocketChat': "the caller's own chat",
  'PUT /api/sysSocketChat': "the caller's own chat",
  'DELETE /api/sysSocketChat': "the caller's own chat",
  'GET /api/sysSocketChat/wssList': 'who is online, for the chat',
  'POST /api/pictures': 'uploads of any form',
  'POST /api/uploadFileApi': 'uploads of any form',
  'POST /api/qiNiuContent': 'uploads of any form',
  'POST /api/qywxapp/media/momentImage': 'WeCom media uploads of any form',
  'POST /api/qywxapp/media/sopImage': 'WeCom media uploads of any form',
  'POST /api/qywxapp/media/file': 'WeCom media uploads of any form',
  'POST /api/qywxapp/media/voice': 'WeCom media uploads of any form',
  'POST /api/qywxapp/media/video': 'WeCom media uploads of any form',
  'POST /api/ocr/getCph': 'recognition of a picture the caller sends',
  'POST /api/ocr/getJz': 'recognition of a picture the caller sends',
  'POST /api/ocr/getXsz': 'recognition of a picture the caller sends',
  'POST /api/ocr/getVin': 'recognition of a picture the caller sends',
  'POST /api/ocr/getYhk': 'recognition of a picture the caller sends',
  // the spec's paths of the same recognitions and of the document upload; a dealer's or an
  // applicant's token opens them too (their screens take the pictures)
  'POST /api/public/getCph': 'recognition of a picture the caller sends',
  'POST /api/public/getJz': 'recognition of a picture the caller sends',
  'POST /api/public/getXsz': 'recognition of a picture the caller sends',
  'POST /api/public/getVin': 'recognition of a picture the caller sends',
  'POST /api/public/getYhk': 'recognition of a picture the caller sends',
  'POST /api/public/uploadFileApi': 'uploads of any form',
  'GET /api/kf/phoneToAddress': 'where a mobile the caller types was issued (public numbering-plan data)',
  'GET /api/home/summary':
    "首页: the caller's own unread count, and each list count only for the list keys the caller holds (data scope applied)",
};

/** Routes that refuse admin on purpose. */
const ADMIN_REFUSED = new Set(['GET /api/decision/getDecision']);

const PASSWORD = 'Matrix_pass1';
const key = (r: RouteEntry) => `${r.method} ${r.url}`;

function call(t: TestApp, r: RouteEntry, token?: string) {
  const url = r.url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');
  const payload = r.method === 'DELETE' ? [] : r.method === 'POST' || r.method === 'PUT' ? {} : undefined;
  return t.app.inject({
    method: r.method as 'GET',
    url,
    headers: { ...(token ? bearer(token) : {}), ...(payload !== undefined ? { submit_id: submitId() } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  });
}

/** logout ends the session it is called with: keep it for last */
const ordered = (routes: RouteEntry[]) => [...routes].sort((a, b) => Number(a.url === '/api/logout') - Number(b.url === '/api/logout'));

describe.each(testApps())('permission matrix on %s', (_name, start) => {
  let t: TestApp;
  let routes: RouteEntry[];
  let keys: string[];

  beforeAll(async () => {
    t = await start({ backupKey: TEST_BACKUP_KEY }); // a backup is written: the matrix expects no 503
    // socket routes are not plain HTTP calls: the realtime tests open them with real clients
    routes = routeCatalogue(t.app).filter((r) => !r.url.includes('*') && r.identity !== 'socket');
    keys = [...new Set(routes.map((r) => r.permission).filter((k): k is string => !!k))].sort();
  }, 60_000);
  afterAll(() => t?.close());

  it('lists the routes of the main areas with their keys; every key a route checks is a menu button', () => {
    const names = new Set(routes.map(key));
    for (const r of [
      'GET /api/users',
      'POST /api/roles',
      'PUT /api/menus',
      'DELETE /api/dept',
      'GET /api/dictDetail',
      'POST /api/busidict/add',
      'GET /api/sysQuestion',
      'GET /api/menus/build',
    ]) {
      expect(names, r).toContain(r);
    }
    const perms = new Map(routes.map((r) => [key(r), r.permission]));
    expect(perms.get('GET /api/users')).toBe('user:list');
    expect(perms.get('POST /api/users')).toBe('user:add');
    expect(perms.get('PUT /api/users')).toBe('user:edit');
    expect(perms.get('DELETE /api/users')).toBe('user:del');
    expect(perms.get('POST /api/users/resetPass')).toBe('user:edit');
    expect(perms.get('PUT /api/roles/menu')).toBe('roles:edit');
    expect(perms.get('POST /api/sysQuestion/import')).toBe('sysQuestion:import');
    expect(perms.get('GET /api/decision/getDecision')).toBe('DecisionCenter:list');
    // every key a route checks exists as a menu button (or screen) an administrator can grant
    return t.app.database.db
      .selectFrom('sys_menu')
      .select('permission')
      .where('permission', 'in', keys)
      .execute()
      .then((rows) => expect(new Set(rows.map((r): unknown => r.permission))).toEqual(new Set(keys)));
  });

  it('every route declares who may call it: a key, another identity, public or signed-in with a reason', () => {
    // reads a schema opens to every signed-in member with `"read": ["signedIn"]` are declared there
    const openReads = new Set(
      resources.filter((s) => s.read?.includes('signedIn')).flatMap((s) => ['', '/queryAll', '/total'].map((x) => `GET /${s.path}${x}`)),
    );
    const undeclared = routes
      .filter((r) => !r.permission && !r.identity && !PUBLIC_ROUTES.has(key(r)) && !(key(r) in SIGNED_IN_ROUTES) && !openReads.has(key(r)))
      .map(key);
    expect(undeclared).toEqual([]);
    // the lists name no route that is gone or now takes a key
    const open = new Set(routes.filter((r) => !r.permission && !r.identity).map(key));
    expect(Object.keys(SIGNED_IN_ROUTES).filter((k) => !open.has(k))).toEqual([]);
    // and a schema without the keyword has no open read
    for (const s of resources.filter((x) => !x.read?.includes('signedIn'))) expect(open.has(`GET /${s.path}`), s.name).toBe(false);
    console.log(
      `permission matrix: ${routes.length} routes (${routes.filter((r) => r.permission).length} with a key, ${open.size} public or signed-in)`,
    );
  });

  it('without a token every non-public route answers 401', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const res = await call(t, r);
      if (PUBLIC_ROUTES.has(key(r))) {
        if (res.statusCode === 401 || res.statusCode === 403) wrong.push(`${key(r)} public but ${res.statusCode}`);
      } else if (res.statusCode !== 401) wrong.push(`${key(r)} -> ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('a user lacking the route key gets 403; with only that key, neither 401 nor 403', async () => {
    // two users: one whose role holds only the route's key, one whose role holds every key but
    // it; their roles' menus are rewritten for each key (signing in hundreds of users would be slow)
    const { db } = t.app.database;
    const menuOf = new Map<string, number>();
    for (const m of await db.selectFrom('sys_menu').select(['id', 'permission']).where('permission', 'in', keys).execute())
      menuOf.set(String(m.permission), Number(m.id));
    const roleOf = async (userId: number) =>
      Number((await db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', userId).executeTakeFirstOrThrow()).role_id);
    const onlyRole = await roleOf(
      await createStaff(t.app, { username: 'onlykey', password: PASSWORD, permissions: [], dataScope: '全部' }),
    );
    const butRole = await roleOf(
      await createStaff(t.app, { username: 'butkey', password: PASSWORD, permissions: keys, dataScope: '全部' }),
    );
    const only = await loginAs(t.app, 'onlykey', PASSWORD);
    const but = await loginAs(t.app, 'butkey', PASSWORD);
    const wrong: string[] = [];
    for (const k of keys) {
      const menuId = menuOf.get(k)!;
      await db.deleteFrom('sys_roles_menus').where('role_id', '=', onlyRole).execute();
      await db.insertInto('sys_roles_menus').values({ role_id: onlyRole, menu_id: menuId }).execute();
      await db.deleteFrom('sys_roles_menus').where('role_id', '=', butRole).where('menu_id', '=', menuId).execute();
      invalidateAccess();
      for (const r of routes.filter((x) => x.permission === k)) {
        // a route several keys open (a read a picker elsewhere makes) is denied only without all of them
        const others = (r.permissions ?? []).filter((o) => o !== k && menuOf.has(o));
        if (others.length) {
          await db
            .deleteFrom('sys_roles_menus')
            .where('role_id', '=', butRole)
            .where(
              'menu_id',
              'in',
              others.map((o) => menuOf.get(o)!),
            )
            .execute();
          invalidateAccess();
        }
        const denied = await call(t, r, but);
        if (others.length) {
          await db
            .insertInto('sys_roles_menus')
            .values(others.map((o) => ({ role_id: butRole, menu_id: menuOf.get(o)! })))
            .execute();
          invalidateAccess();
        }
        if (denied.statusCode !== 403) wrong.push(`${key(r)} without ${k} -> ${denied.statusCode}`);
        // a route that needs several keys together (the recycle bin: list and delete) opens with all of them
        const together = (r.allOf ?? []).filter((o) => o !== k && menuOf.has(o));
        if (together.length) {
          await db
            .insertInto('sys_roles_menus')
            .values(together.map((o) => ({ role_id: onlyRole, menu_id: menuOf.get(o)! })))
            .execute();
          invalidateAccess();
        }
        const allowed = await call(t, r, only);
        if (together.length) {
          await db
            .deleteFrom('sys_roles_menus')
            .where('role_id', '=', onlyRole)
            .where(
              'menu_id',
              'in',
              together.map((o) => menuOf.get(o)!),
            )
            .execute();
          invalidateAccess();
        }
        if (allowed.statusCode === 401 || allowed.statusCode === 403 || allowed.statusCode >= 500)
          wrong.push(`${key(r)} with ${k} -> ${allowed.statusCode} ${allowed.body.slice(0, 80)}`);
      }
      await db.insertInto('sys_roles_menus').values({ role_id: butRole, menu_id: menuId }).execute();
    }
    invalidateAccess();
    expect(wrong).toEqual([]);
  }, 240_000);

  it('a signed-in user without any key reaches every sign-in-only route', async () => {
    await createStaff(t.app, { username: 'nokeys', password: PASSWORD, permissions: [] });
    const token = await loginAs(t.app, 'nokeys', PASSWORD);
    const wrong: string[] = [];
    for (const r of ordered(routes.filter((x) => !x.permission && !x.identity && !PUBLIC_ROUTES.has(key(x))))) {
      const res = await call(t, r, token);
      if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500)
        wrong.push(`${key(r)} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('admin passes every check (the decision centre refuses admin on purpose)', async () => {
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const wrong: string[] = [];
    for (const r of ordered(routes.filter((x) => !x.identity && !PUBLIC_ROUTES.has(key(x))))) {
      const res = await call(t, r, token);
      const refused = res.statusCode === 401 || res.statusCode === 403;
      if (ADMIN_REFUSED.has(key(r)) ? res.statusCode !== 403 : refused || res.statusCode >= 500)
        wrong.push(`${key(r)} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("routes of another identity refuse staff tokens, admin's included", async () => {
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    await createStaff(t.app, { username: 'allkeys', password: PASSWORD, permissions: keys, dataScope: '全部' });
    const staff = await loginAs(t.app, 'allkeys', PASSWORD);
    const others = routes.filter((x) => x.identity && !PUBLIC_ROUTES.has(key(x)));
    expect(others.some((r) => r.identity === 'dealer')).toBe(true);
    expect(others.some((r) => r.identity === 'applicant')).toBe(true);
    const wrong: string[] = [];
    for (const r of others) {
      for (const token of [admin, staff]) {
        const res = await call(t, r, token);
        if (res.statusCode !== 401) wrong.push(`${key(r)} (${r.identity}) with a staff token -> ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('hostile input on every route is a 4xx with a Chinese message, never a 500', async () => {
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const bodies: unknown[] = [
      'text',
      42,
      [{}],
      [0, -1, 'x'],
      { id: 'abc', pid: -1, name: 'x'.repeat(5000), level: 1e20, roles: 'all', menus: [{ id: {} }], depts: [null] },
      { __proto__: { admin: true }, id: 1e30 },
    ];
    const queries = [
      'page=-1&size=abc',
      'sort=id;drop table sys_user',
      'pid=x&id=%00&orgId=1e99&menuId=-5',
      'dictName=&enumName=' + 'x'.repeat(300),
      'createTime=a&createTime=b&createTime=c',
      'blurry=%25_%5C',
    ];
    const wrong: string[] = [];
    for (const r of ordered(routes)) {
      const url = r.url.replace(/:[A-Za-z]+/g, 'abc');
      const attempts: Array<{ url: string; payload?: string }> =
        r.method === 'GET' ? queries.map((q) => ({ url: `${url}?${q}` })) : bodies.map((b) => ({ url, payload: JSON.stringify(b) }));
      for (const a of attempts) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: a.url,
          headers: { ...bearer(token), ...(a.payload !== undefined ? { 'content-type': 'application/json', submit_id: submitId() } : {}) },
          ...(a.payload !== undefined ? { payload: a.payload } : {}),
        });
        if (res.statusCode >= 500) wrong.push(`${key(r)} ${a.url} ${(a.payload ?? '').slice(0, 40)} -> ${res.statusCode}`);
        else if (res.statusCode >= 400 && !/[\u4e00-\u9fff]/.test(res.json<ErrorBody>().message))
          wrong.push(`${key(r)} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 240_000);
});
