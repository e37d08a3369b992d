/**
 * The permission matrix: every route the app registers (read from the route catalogue, which
 * Fastify's onRoute hook fills, so a new route is covered without editing this file) is called
 * - without a token: 401, unless it is in PUBLIC_ROUTES below;
 * - by a user holding every key but the route's own: 403;
 * - by a user holding only the route's key (or no key for a sign-in-only route): neither 401 nor 403;
 * - by admin: neither 401 nor 403 (except the decision centre, which refuses admin).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCatalogue, type RouteEntry } from '../../src/server/auth/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';

/** Routes anyone may call without signing in. */
const PUBLIC_ROUTES = new Set([
  'GET /api/code',
  'GET /api/publicKey',
  'POST /api/login',
  'GET /api/system/sysConfigInit/anon/pc',
  'GET /api/public',
]);

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
    t = await start();
    routes = routeCatalogue(t.app).filter((r) => !r.url.includes('*'));
    keys = [...new Set(routes.map((r) => r.permission).filter((k): k is string => !!k))].sort();
  }, 60_000);
  afterAll(() => t?.close());

  it('lists the routes of every area, with their keys', () => {
    const names = new Set(routes.map(key));
    for (const r of ['GET /api/users', 'POST /api/roles', 'PUT /api/menus', 'DELETE /api/dept', 'GET /api/dictDetail', 'POST /api/busidict/add', 'GET /api/sysQuestion', 'GET /api/menus/build']) {
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
      .then((rows) => expect(new Set(rows.map((r) => r.permission))).toEqual(new Set(keys)));
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
    // one user with every key: each keyed route is then tried with all keys but its own
    const wrong: string[] = [];
    const withKey = new Map<string, string>();
    const withoutKey = new Map<string, string>();
    for (const [i, k] of keys.entries()) {
      await createStaff(t.app, { username: `only${i}`, password: PASSWORD, permissions: [k], dataScope: '全部' });
      withKey.set(k, await loginAs(t.app, `only${i}`, PASSWORD));
      await createStaff(t.app, { username: `but${i}`, password: PASSWORD, permissions: keys.filter((x) => x !== k), dataScope: '全部' });
      withoutKey.set(k, await loginAs(t.app, `but${i}`, PASSWORD));
    }
    for (const r of routes.filter((x) => x.permission)) {
      const denied = await call(t, r, withoutKey.get(r.permission!));
      if (denied.statusCode !== 403) wrong.push(`${key(r)} without ${r.permission} -> ${denied.statusCode}`);
      const allowed = await call(t, r, withKey.get(r.permission!));
      if (allowed.statusCode === 401 || allowed.statusCode === 403 || allowed.statusCode >= 500) wrong.push(`${key(r)} with ${r.permission} -> ${allowed.statusCode} ${allowed.body.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  }, 240_000);

  it('a signed-in user without any key reaches every sign-in-only route', async () => {
    await createStaff(t.app, { username: 'nokeys', password: PASSWORD, permissions: [] });
    const token = await loginAs(t.app, 'nokeys', PASSWORD);
    const wrong: string[] = [];
    for (const r of ordered(routes.filter((x) => !x.permission && !PUBLIC_ROUTES.has(key(x))))) {
      const res = await call(t, r, token);
      if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500) wrong.push(`${key(r)} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('admin passes every check (the decision centre refuses admin on purpose)', async () => {
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const wrong: string[] = [];
    for (const r of ordered(routes.filter((x) => !PUBLIC_ROUTES.has(key(x))))) {
      const res = await call(t, r, token);
      const refused = res.statusCode === 401 || res.statusCode === 403;
      if (ADMIN_REFUSED.has(key(r)) ? res.statusCode !== 403 : refused || res.statusCode >= 500) wrong.push(`${key(r)} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('hostile input on every route is a 4xx with a Chinese message, never a 500', async () => {
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const bodies: unknown[] = ['text', 42, [{}], [0, -1, 'x'], { id: 'abc', pid: -1, name: 'x'.repeat(5000), level: 1e20, roles: 'all', menus: [{ id: {} }], depts: [null] }, { __proto__: { admin: true }, id: 1e30 }];
    const queries = ['page=-1&size=abc', 'sort=id;drop table sys_user', 'pid=x&id=%00&orgId=1e99&menuId=-5', 'dictName=&enumName=' + 'x'.repeat(300), 'createTime=a&createTime=b&createTime=c', 'blurry=%25_%5C'];
    const wrong: string[] = [];
    for (const r of ordered(routes)) {
      const url = r.url.replace(/:[A-Za-z]+/g, 'abc');
      const attempts: Array<{ url: string; payload?: string }> = r.method === 'GET'
        ? queries.map((q) => ({ url: `${url}?${q}` }))
        : bodies.map((b) => ({ url, payload: JSON.stringify(b) }));
      for (const a of attempts) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: a.url,
          headers: { ...bearer(token), ...(a.payload !== undefined ? { 'content-type': 'application/json', submit_id: submitId() } : {}) },
          ...(a.payload !== undefined ? { payload: a.payload } : {}),
        });
        if (res.statusCode >= 500) wrong.push(`${key(r)} ${a.url} ${(a.payload ?? '').slice(0, 40)} -> ${res.statusCode}`);
        else if (res.statusCode >= 400 && !/[\u4e00-\u9fff]/.test(res.json().message)) wrong.push(`${key(r)} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 240_000);
});
