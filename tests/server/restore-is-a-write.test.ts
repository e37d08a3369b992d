/**
 * A restore is a write (docs/history.md): from the recycle bin it keeps the schema's rules as they
 * are now (a record stored before a rule changed does not come back broken); to a version it
 * answers the same whether or not masked fields differ; a restored account comes back disabled
 * with no known password, and nobody restores an account whose roles hold keys they do not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVISION_TABLE } from '../../src/server/crud/history/revisions.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created } from '../support/answers.ts';

const Q = '/api/sysQuestion';
const PASSWORD = 'Restore_pass1';

describe.each(testApps())('a restore is a write on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;

  const call = (token: string, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(token), ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const create = async (body: Record<string, unknown>) => {
    const res = await call(admin, 'POST', Q, { userType: '员工', model: '系统', content: '内容', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json<Created>().id);
  };

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('from the bin: a record that breaks a rule of the schema now answers 400 naming it and stays in the bin', async () => {
    const id = await create({ title: '规则之前', mobile: '13912345678' });
    expect((await call(admin, 'DELETE', Q, [id])).statusCode).toBe(200);
    // stored before the rule: a mobile that is not one, a title past the 100 characters allowed now
    const { db } = t.app.database;
    const row = await db
      .selectFrom(REVISION_TABLE)
      .select(['id', 'changes'])
      .where('record_id', '=', id)
      .where('action', '=', 'delete')
      .executeTakeFirstOrThrow();
    const changes = JSON.parse(String(row.changes)) as Record<string, [unknown, unknown]>;
    changes.mobile = ['not-a-phone', null];
    await db
      .updateTable(REVISION_TABLE)
      .set({ changes: JSON.stringify(changes) })
      .where('id', '=', row.id)
      .execute();
    const res = await call(admin, 'POST', `${Q}/recycleBin/restore`, [id]);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).message).toMatch(new RegExp(`^无法恢复（ID ${id}）：`));
    expect((await call(admin, 'GET', `${Q}?id=${id}`)).statusCode).toBe(404);
    changes.mobile = ['13912345678', null];
    changes.title = ['长'.repeat(101), null];
    await db
      .updateTable(REVISION_TABLE)
      .set({ changes: JSON.stringify(changes) })
      .where('id', '=', row.id)
      .execute();
    expect((await call(admin, 'POST', `${Q}/recycleBin/restore`, [id])).statusCode).toBe(400);
    const bin = (await call(admin, 'GET', `${Q}/recycleBin?size=100`)).json<{ content: Array<{ id: number }> }>();
    expect(bin.content.some((e) => e.id === id)).toBe(true);
  });

  it('to a version: when only masked fields differ, the same 400 as when nothing differs, and nothing is written', async () => {
    await createStaff(t.app, {
      username: 'restore_masked',
      password: PASSWORD,
      permissions: ['sysQuestion:list', 'sysQuestion:edit'],
      dataScope: '全部',
    });
    const masked = await loginAs(t.app, 'restore_masked', PASSWORD);
    const id = await create({ title: '同一标题', mobile: '13912345678' });
    const history = async () =>
      (await call(admin, 'GET', `${Q}/${id}/history`)).json<{ content: Array<{ id: number; action: string }> }>().content;
    const first = (await history()).find((e) => e.action === 'create')!.id;
    // nothing differs
    const same = await call(masked, 'POST', `${Q}/${id}/restore/${first}`);
    // only the masked mobile differs
    expect((await call(admin, 'PUT', Q, { id, mobile: '13800138000' })).statusCode).toBe(204);
    const onlyMasked = await call(masked, 'POST', `${Q}/${id}/restore/${first}`);
    expect(`${onlyMasked.statusCode} ${errorOf(onlyMasked).message}`).toBe(`${same.statusCode} ${errorOf(same).message}`);
    expect(onlyMasked.statusCode).toBe(400);
    const now = (await call(admin, 'GET', `${Q}?id=${id}`)).json<{ content: Array<Record<string, unknown>> }>().content[0];
    expect(now.mobile).toBe('13800138000');
    // a visible field differing: restored, and the answer names what changed, the mobile not among it
    expect((await call(admin, 'PUT', Q, { id, title: '新标题' })).statusCode).toBe(204);
    const res = await call(masked, 'POST', `${Q}/${id}/restore/${first}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ changes: Array<{ field: string }> }>().changes.map((c) => c.field)).toEqual(['title']);
  });

  it('a restored account comes back disabled with no known password; keys above the restorer refuse it', async () => {
    const root = Number(
      (await t.app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).executeTakeFirstOrThrow()).id,
    );
    const role = async (name: string, menus: string[]) => {
      const res = await call(admin, 'POST', '/api/roles', { name, level: 3, dataScope: '全部', description: '' });
      expect(res.statusCode, res.body).toBe(201);
      const roleId = Number(res.json<Created>().id);
      const ids = await t.app.database.db.selectFrom('sys_menu').select('id').where('permission', 'in', menus).execute();
      expect((await call(admin, 'PUT', '/api/roles/menu', { id: roleId, menus: ids.map((m) => ({ id: Number(m.id) })) })).statusCode).toBe(
        204,
      );
      return roleId;
    };
    const strong = await role('强岗位', ['user:list', 'user:del', 'backup:list']);
    const user = async (username: string, roleId: number) => {
      const res = await call(admin, 'POST', '/api/users', {
        username,
        nickName: username,
        sex: 0,
        enabled: true,
        deptId: root,
        orgId: root,
        roles: [{ id: roleId }],
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = Number(res.json<Created>().id);
      expect((await call(admin, 'DELETE', '/api/users', [id])).statusCode).toBe(200);
      return id;
    };
    const strongUser = await user('restore_strong', strong);
    await createStaff(t.app, { username: 'restorer', password: PASSWORD, permissions: ['user:list', 'user:del'], dataScope: '全部' });
    const restorer = await loginAs(t.app, 'restorer', PASSWORD);
    // its role grants backup:list, which the restorer does not hold
    const refused = await call(restorer, 'POST', '/api/users/recycleBin/restore', [strongUser]);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(await t.app.database.db.selectFrom('sys_user').select('id').where('id', '=', strongUser).executeTakeFirst()).toBeUndefined();
    // a role within the restorer's keys comes back, disabled, with no password anyone knows
    const weak = await role('弱岗位', ['user:list']);
    const weakUser = await user('restore_weak', weak);
    const back = await call(restorer, 'POST', '/api/users/recycleBin/restore', [weakUser]);
    expect(back.statusCode, back.body).toBe(200);
    const row = await t.app.database.db.selectFrom('sys_user').selectAll().where('id', '=', weakUser).executeTakeFirstOrThrow();
    expect(Number(row.enabled)).toBe(0);
    await expect(loginAs(t.app, 'restore_weak', 'Abc123456')).rejects.toThrow();
  });
});
