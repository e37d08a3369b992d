/**
 * The roster editor's user picker (GET /api/users/pick) is opened by the roster's own keys:
 * hr01 (人事专员, staff:list/add/edit, no user:list) gets brief users without phones or
 * e-mails, while /api/users stays closed to it; a role without any key of a screen that picks
 * users gets 403. The roster's x-ref names the picker path the web reads references from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { DEMO_PASSWORD } from '../../src/server/modules/demo/roles.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { bearer, testApps, type TestApp } from './helpers.ts';

describe.each(testApps())('user picker of the roster editor on %s', (_dialect, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start({ seedDemo: true });
  });
  afterAll(async () => t?.close());

  it('the roster schema points its 系统账号 select at the picker', () => {
    const field = resourceByName.staff.fields.find((f) => f.name === 'userId');
    expect(field?.ref).toMatchObject({ resource: 'users', path: 'api/users/pick' });
  });

  it('hr01 picks users with the roster keys, sees no contacts, and still cannot list users', async () => {
    const token = await loginAs(t.app, 'hr01', DEMO_PASSWORD);
    const res = await t.app.inject({ method: 'GET', url: '/api/users/pick?page=0&size=99999', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ content: Array<Record<string, unknown>>; totalElements: number }>();
    expect(body.totalElements).toBeGreaterThan(0);
    expect(body.content.length).toBe(body.totalElements);
    for (const u of body.content) {
      expect(Object.keys(u).sort()).toEqual(['deptId', 'enabled', 'id', 'nickName', 'orgId', 'username']);
    }
    expect(body.content.map((u) => u.username)).toContain('hr01');
    const one = body.content[0];
    const byId = await t.app.inject({ method: 'GET', url: `/api/users/pick?id=${String(one.id)}&page=0&size=1`, headers: bearer(token) });
    expect(byId.json<{ content: unknown[] }>().content).toEqual([one]);
    const users = await t.app.inject({ method: 'GET', url: '/api/users?page=0&size=10', headers: bearer(token) });
    expect(users.statusCode).toBe(403);
  });

  it('a role with only staff:edit opens it; one without a picking key gets 403; bad ids answer 400', async () => {
    await createStaff(t.app, { username: 'editonly', password: 'Passw0rd!x', permissions: ['staff:edit'], dataScope: '全部' });
    await createStaff(t.app, { username: 'nopick', password: 'Passw0rd!x', permissions: ['sysQuestion:list'] });
    const edit = await loginAs(t.app, 'editonly', 'Passw0rd!x');
    const none = await loginAs(t.app, 'nopick', 'Passw0rd!x');
    expect((await t.app.inject({ method: 'GET', url: '/api/users/pick', headers: bearer(edit) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/pick', headers: bearer(none) })).statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'GET', url: '/api/users/pick?id=x', headers: bearer(edit) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('用户编号不正确');
  });
});
