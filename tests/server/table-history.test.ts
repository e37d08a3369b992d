/**
 * Record history of the hand-written tables (users, roles, menus, departments, dictionaries and
 * their details, system settings) on SQLite and PostgreSQL: a revision per create, edit and
 * delete written in the change's transaction (none for a change that rolled back), field by
 * field, ids of other tables named; a user's phone and e-mail masked in history for a caller
 * without user:sensitive; 恢复到此版本 through the table's own edit (a value taken since answers
 * its 400 and changes nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, loginAs } from './auth-helpers.ts';
import { createCompany } from './dealer-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import { REVISION_TABLE } from '../../src/server/crud/history/revisions.ts';
import { trackChange } from '../../src/server/crud/history/table-revisions.ts';
import { USER_TABLE } from '../../src/server/modules/access/users.ts';
import type { Created, Page, Row } from '../support/answers.ts';

interface Entry {
  id: number;
  action: string;
  actorKind: string;
  actorName: string | null;
  time: string;
  changes: Array<{ field: string; title: string; old: unknown; new: unknown }>;
}
const PASSWORD = 'Admin_pass1';

describe.each(testApps())('record history of the hand-written tables on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let root: number;
  let deptId: number;
  let roleA: number;
  let roleB: number;
  let userId: number;

  const api = (token: string | undefined, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(token ? bearer(token) : {}), ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const history = async (path: string, id: number, token = admin) => {
    const res = await api(token, 'GET', `/${path}/${id}/history`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page<Entry>>().content;
  };
  const revisions = async (resource: string, id: number) =>
    Number(
      (
        await t.app.database.db
          .selectFrom(REVISION_TABLE)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('resource', '=', resource)
          .where('record_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const change = (e: Entry, field: string) => e.changes.find((c) => c.field === field);
  const userBody = async (id: number) => {
    const u = (await api(admin, 'GET', `/api/users?size=100`)).json<
      Page<Row & { id: number; username: string; nickName: string; roles: Array<{ id: number }> }>
    >();
    const row = u.content.find((r) => r.id === id)!;
    return { ...row, roles: row.roles.map((r) => ({ id: r.id })) };
  };

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    root = (await api(admin, 'GET', '/api/dept/lazy?pid=0')).json<Created[]>()[0].id;
    deptId = (await api(admin, 'POST', '/api/dept', { name: '历史部', pid: root, sort: 1, enabled: true })).json<Created>().id;
    roleA = (await api(admin, 'POST', '/api/roles', { name: '历史岗位甲', level: 3, dataScope: '本级', description: '' })).json<Created>()
      .id;
    roleB = (await api(admin, 'POST', '/api/roles', { name: '历史岗位乙', level: 3, dataScope: '本级', description: '' })).json<Created>()
      .id;
    const res = await api(admin, 'POST', '/api/users', {
      username: 'lishi',
      nickName: '李史',
      phone: '13800138001',
      email: 'lishi@example.com',
      sex: 1,
      enabled: true,
      deptId,
      orgId: root,
      roles: [{ id: roleA }],
    });
    expect(res.statusCode, res.body).toBe(201);
    userId = res.json<Created>().id;
  }, 60_000);
  afterAll(() => t?.close());

  it('users: a revision per create and edit, field by field, with departments and roles named', async () => {
    const body = await userBody(userId);
    const res = await api(admin, 'PUT', '/api/users', {
      ...body,
      nickName: '李历史',
      phone: '13900139002',
      roles: [{ id: roleA }, { id: roleB }],
    });
    expect(res.statusCode, res.body).toBe(204);
    const entries = await history('api/users', userId);
    expect(entries.map((e) => e.action)).toEqual(['update', 'create']);
    expect(entries[0]).toMatchObject({ actorKind: 'user', actorName: 'admin' });
    expect(entries[0].time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(change(entries[0], 'nickName')).toMatchObject({ title: '昵称', old: '李史', new: '李历史' });
    expect(change(entries[0], 'phone')).toMatchObject({ old: '13800138001', new: '13900139002' });
    expect(change(entries[0], 'roleIds')).toMatchObject({
      title: '岗位',
      old: `历史岗位甲（ID ${roleA}）`,
      new: `历史岗位甲（ID ${roleA}）、历史岗位乙（ID ${roleB}）`,
    });
    expect(entries[0].changes.map((c) => c.field).sort()).toEqual(['nickName', 'phone', 'roleIds']);
    expect(change(entries[1], 'deptId')).toMatchObject({ old: null, new: `历史部（ID ${deptId}）` });
    expect(change(entries[1], 'username')).toMatchObject({ new: 'lishi' });
    // the password is never in a revision; a reset shows as the default-password flag
    expect(JSON.stringify(entries)).not.toMatch(/password"/);
  });

  it('users: phone and e-mail masked in history for a caller without user:sensitive, in full with it', async () => {
    await createStaff(t.app, { username: 'hist_viewer', password: PASSWORD, permissions: ['user:list'], dataScope: '全部' });
    await createStaff(t.app, {
      username: 'hist_full',
      password: PASSWORD,
      permissions: ['user:list', 'user:sensitive'],
      dataScope: '全部',
    });
    const viewer = await loginAs(t.app, 'hist_viewer', PASSWORD);
    const full = await loginAs(t.app, 'hist_full', PASSWORD);
    const masked = await history('api/users', userId, viewer);
    expect(change(masked[0], 'phone')).toMatchObject({ old: '138****8001', new: '139****9002' });
    const created = masked.find((e) => e.action === 'create')!;
    expect(String(change(created, 'email')?.new)).not.toBe('lishi@example.com');
    expect(String(change(created, 'email')?.new)).toContain('*');
    expect(change((await history('api/users', userId, full))[0], 'phone')).toMatchObject({ old: '13800138001', new: '13900139002' });
    // without the list key: no history
    await createStaff(t.app, { username: 'hist_none', password: PASSWORD, permissions: ['menu:list'] });
    const none = await loginAs(t.app, 'hist_none', PASSWORD);
    expect((await api(none, 'GET', `/api/users/${userId}/history`)).statusCode).toBe(403);
  });

  it('a change that rolls back leaves no revision', async () => {
    const before = await revisions('sysUser', userId);
    await expect(
      t.app.database.db.transaction().execute((trx) =>
        trackChange(trx, t.app.database.dialect, USER_TABLE, undefined, 'update', [userId], async () => {
          await trx.updateTable('sys_user').set({ nick_name: '不会留下' }).where('id', '=', userId).execute();
          throw new Error('fails after the write');
        }),
      ),
    ).rejects.toThrow('fails after the write');
    expect(await revisions('sysUser', userId)).toBe(before);
    // a route's own refusal inside its transaction: a role still held by a user is not deleted
    const roleRevisions = await revisions('sysRole', roleA);
    const res = await api(admin, 'DELETE', '/api/roles', [roleA]);
    expect(res.statusCode).toBe(400);
    expect(await revisions('sysRole', roleA)).toBe(roleRevisions);
  });

  it('users: 恢复到此版本 goes through the edit; a user name taken since answers 400 and changes nothing', async () => {
    const entries = await history('api/users', userId);
    const created = entries.find((e) => e.action === 'create')!;
    const res = await api(admin, 'POST', `/api/users/${userId}/restore/${created.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const after = await history('api/users', userId);
    expect(after[0].action).toBe('restore');
    expect(change(after[0], 'nickName')).toMatchObject({ old: '李历史', new: '李史' });
    expect((await userBody(userId)).nickName).toBe('李史');
    // nothing left to restore
    const same = await api(admin, 'POST', `/api/users/${userId}/restore/${after[0].id}`);
    expect(same.statusCode).toBe(400);
    expect(errorOf(same).message).toBe('当前数据与该版本一致，无需恢复');
    // rename, then let someone else take the old name: restoring it is refused, nothing changes
    expect((await api(admin, 'PUT', '/api/users', { ...(await userBody(userId)), username: 'lishi2' })).statusCode).toBe(204);
    const renamed = await history('api/users', userId);
    const other = await api(admin, 'POST', '/api/users', {
      username: 'lishi',
      nickName: '另一个李史',
      sex: 1,
      enabled: true,
      deptId,
      orgId: root,
      roles: [{ id: roleA }],
    });
    expect(other.statusCode, other.body).toBe(201);
    const count = await revisions('sysUser', userId);
    const taken = await api(admin, 'POST', `/api/users/${userId}/restore/${renamed[1].id}`);
    expect(taken.statusCode).toBe(400);
    expect(errorOf(taken).message).toBe('用户名已存在');
    expect(await revisions('sysUser', userId)).toBe(count);
    expect((await userBody(userId)).username).toBe('lishi2');
    // restoring needs the edit key
    const viewer = await loginAs(t.app, 'hist_viewer', PASSWORD);
    expect((await api(viewer, 'POST', `/api/users/${userId}/restore/${renamed[1].id}`)).statusCode).toBe(403);
    // an unknown version
    expect((await api(admin, 'POST', `/api/users/${userId}/restore/99999999`)).statusCode).toBe(404);
  });

  it('roles: fields, departments and menus; restore brings them back as one change; delete leaves the history readable', async () => {
    const menus = (await t.app.database.db.selectFrom('sys_menu').select('id').orderBy('id').limit(2).execute()).map((m) => Number(m.id));
    const role = (
      await api(admin, 'POST', '/api/roles', {
        name: '历史岗位丙',
        level: 3,
        dataScope: '自定义',
        description: '旧',
        depts: [{ id: deptId }],
      })
    ).json<Created>().id;
    expect((await api(admin, 'PUT', '/api/roles/menu', { id: role, menus: menus.map((id) => ({ id })) })).statusCode).toBe(204);
    const edit = await api(admin, 'PUT', '/api/roles', { id: role, name: '历史岗位丁', level: 3, dataScope: '本级', description: '新' });
    expect(edit.statusCode, edit.body).toBe(204);
    const entries = await history('api/roles', role);
    expect(entries.map((e) => e.action)).toEqual(['update', 'update', 'create']);
    expect(change(entries[0], 'name')).toMatchObject({ title: '名称', old: '历史岗位丙', new: '历史岗位丁' });
    expect(change(entries[0], 'depts')).toMatchObject({ old: `历史部（ID ${deptId}）`, new: null });
    expect(String(change(entries[1], 'menus')?.new)).toContain(`（ID ${menus[0]}）`);
    // back to right after its creation: name, scope and departments back, menus gone, as one restore
    const res = await api(admin, 'POST', `/api/roles/${role}/restore/${entries[2].id}`);
    expect(res.statusCode, res.body).toBe(200);
    const after = await history('api/roles', role);
    expect(after[0].action).toBe('restore');
    expect(after[0].changes.map((c) => c.field).sort()).toEqual(['dataScope', 'depts', 'description', 'menus', 'name']);
    const stored = (await api(admin, 'GET', `/api/roles/${role}`)).json<Row & { menus: unknown[]; depts: unknown[] }>();
    expect(stored).toMatchObject({ name: '历史岗位丙', dataScope: '自定义', description: '旧' });
    expect(stored.menus).toEqual([]);
    expect((await api(admin, 'DELETE', '/api/roles', [role])).statusCode).toBe(200);
    const gone = await history('api/roles', role);
    expect(gone[0].action).toBe('delete');
    expect(change(gone[0], 'name')).toMatchObject({ old: '历史岗位丙', new: null });
  });

  it('dealer companies: the hand-written create and edit record their revisions, never the password', async () => {
    const id = await createCompany(t.app, admin, 'histdealer');
    const edit = await api(admin, 'PUT', '/api/system/dbcCompany', { id, compName: '历史经销商', password: 'NewPass@1' });
    expect(edit.statusCode, edit.body).toBe(204);
    const entries = await history('api/system/dbcCompany', id);
    expect(entries.map((e) => e.action)).toEqual(['update', 'create']);
    expect(change(entries[0], 'compName')).toMatchObject({ old: 'histdealer公司', new: '历史经销商' });
    expect(change(entries[1], 'username')).toMatchObject({ old: null, new: 'histdealer' });
    expect(JSON.stringify(entries)).not.toContain('NewPass');
    expect(JSON.stringify(entries)).not.toContain('Dealer@123');
  });

  it('menus, departments, dictionaries, their details and the settings record their changes and restore', async () => {
    // menu
    const menu = (
      await api(admin, 'POST', '/api/menus', { type: 1, title: '历史菜单', path: 'history-menu', component: 'x/index', pid: 0, sort: 5 })
    ).json<Created>();
    const menuEdit = await api(admin, 'PUT', '/api/menus', {
      id: menu.id,
      type: 1,
      title: '历史菜单二',
      path: 'history-menu',
      component: 'x/index',
      pid: 0,
      sort: 6,
    });
    expect(menuEdit.statusCode, menuEdit.body).toBe(204);
    const menuEntries = await history('api/menus', menu.id);
    expect(change(menuEntries[0], 'title')).toMatchObject({ title: '菜单标题', old: '历史菜单', new: '历史菜单二' });
    expect(change(menuEntries[0], 'menuSort')).toMatchObject({ old: 5, new: 6 });
    expect((await api(admin, 'POST', `/api/menus/${menu.id}/restore/${menuEntries[1].id}`)).statusCode).toBe(200);
    expect((await history('api/menus', menu.id))[0]).toMatchObject({ action: 'restore' });
    // department
    const dept = (await api(admin, 'POST', '/api/dept', { name: '历史部二', pid: root, sort: 3, enabled: true })).json<Created>().id;
    expect((await api(admin, 'PUT', '/api/dept', { id: dept, name: '历史部三', pid: deptId, sort: 3, enabled: false })).statusCode).toBe(
      204,
    );
    const deptEntries = await history('api/dept', dept);
    expect(change(deptEntries[0], 'name')).toMatchObject({ old: '历史部二', new: '历史部三' });
    expect(change(deptEntries[0], 'pid')).toMatchObject({ title: '上级部门', new: `历史部（ID ${deptId}）` });
    expect(change(deptEntries[0], 'enabled')).toMatchObject({ old: true, new: false });
    expect((await api(admin, 'POST', `/api/dept/${dept}/restore/${deptEntries[1].id}`)).statusCode).toBe(200);
    expect((await api(admin, 'DELETE', '/api/dept', [dept])).statusCode).toBe(200);
    expect((await history('api/dept', dept)).map((e) => e.action)).toEqual(['delete', 'restore', 'update', 'create']);
    // dictionary and a detail; deleting the dictionary records the detail's delete too
    const dict = (await api(admin, 'POST', '/api/dict', { name: 'history_dict', description: '旧描述' })).json<Created>().id;
    const detail = (await api(admin, 'POST', '/api/dictDetail', { dictId: dict, label: '甲', value: 'a', sort: 1 })).json<Created>().id;
    expect((await api(admin, 'PUT', '/api/dictDetail', { id: detail, dictId: dict, label: '乙', value: 'a', sort: 1 })).statusCode).toBe(
      204,
    );
    const other = (await api(admin, 'POST', '/api/dictDetail', { dictId: dict, label: '丙', value: 'c', sort: 2 })).json<Created>().id;
    expect((await api(admin, 'PUT', '/api/dictDetail', { id: other, dictId: dict, label: '丙', value: 'b', sort: 2 })).statusCode).toBe(
      204,
    );
    const detailEntries = await history('api/dictDetail', detail);
    expect(change(detailEntries[0], 'label')).toMatchObject({ old: '甲', new: '乙' });
    expect(change(detailEntries[1], 'dictId')).toMatchObject({ new: `history_dict（ID ${dict}）` });
    // the detail's value 'c' restored while free; 'b' taken since by nothing else: restore the other's first value
    const otherEntries = await history('api/dictDetail', other);
    expect((await api(admin, 'PUT', '/api/dictDetail', { id: detail, dictId: dict, label: '乙', value: 'c', sort: 1 })).statusCode).toBe(
      204,
    );
    const taken = await api(admin, 'POST', `/api/dictDetail/${other}/restore/${otherEntries[1].id}`);
    expect(taken.statusCode).toBe(400);
    expect(errorOf(taken).message).toBe('字典值已存在');
    expect((await api(admin, 'PUT', '/api/dict', { id: dict, name: 'history_dict', description: '新描述' })).statusCode).toBe(204);
    expect(change((await history('api/dict', dict))[0], 'description')).toMatchObject({ old: '旧描述', new: '新描述' });
    expect((await api(admin, 'DELETE', '/api/dict', [dict])).statusCode).toBe(200);
    expect((await history('api/dictDetail', detail))[0]).toMatchObject({ action: 'delete' });
    expect((await history('api/dict', dict))[0]).toMatchObject({ action: 'delete' });
    // settings: one record
    expect((await api(admin, 'PUT', '/api/system/sysConfig', { compName: '历史公司' })).statusCode).toBe(204);
    expect((await api(admin, 'PUT', '/api/system/sysConfig', { compName: '历史公司二' })).statusCode).toBe(204);
    const settings = await history('api/system/sysConfig', 1);
    expect(change(settings[0], 'compName')).toMatchObject({ title: '公司名称', old: '历史公司', new: '历史公司二' });
    expect((await api(admin, 'POST', `/api/system/sysConfig/1/restore/${settings[1].id}`)).statusCode).toBe(200);
    expect((await api(admin, 'GET', '/api/system/sysConfig')).json<Row>().compName).toBe('历史公司');
  });
});
