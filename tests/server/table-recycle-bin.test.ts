/**
 * 回收站 of the hand-written tables (users, roles, menus, departments, dictionaries and their
 * details) on SQLite and PostgreSQL: a delete puts the record in the bin with who and when; 恢复
 * brings one or many back with their ids and their link rows as the delete revision recorded
 * them (a user's roles, a role's departments and menus, the roles granting a menu); a restore
 * that would break a reference (a department deleted since) or a unique value (a user name taken
 * since) answers a Chinese 4xx and changes nothing; 彻底删除 removes the record and its history;
 * phones and e-mails masked for a caller without user:sensitive; the bin needs the delete key;
 * the retention job's delete takes old bin entries with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, loginAs } from './auth-helpers.ts';
import { createCompany, dealerLogin } from './dealer-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import { deleteOldRevisions, REVISION_TABLE } from '../../src/server/crud/history/revisions.ts';
import type { Created, Page } from '../support/answers.ts';

interface BinItem {
  id: number;
  revisionId: number;
  deleteUser: string | null;
  actorKind: string;
  deleteTime: string;
  record: Record<string, unknown>;
}
const PASSWORD = 'Admin_pass1';

describe.each(testApps())('回收站 of the hand-written tables on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let root: number;

  const api = (token: string | undefined, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(token ? bearer(token) : {}), ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const created = async (url: string, body: unknown) => {
    const res = await api(admin, 'POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Created>().id;
  };
  const bin = async (path: string, token = admin) => {
    const res = await api(token, 'GET', `/${path}/recycleBin?size=100`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page<BinItem>>();
  };
  const ok = async (method: string, url: string, payload?: unknown) => {
    const res = await api(admin, method, url, payload);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };
  const exists = async (table: string, id: number) =>
    !!(await t.app.database.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());
  const revisionCount = async (resource: string, id: number) =>
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

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    root = (await api(admin, 'GET', '/api/dept/lazy?pid=0')).json<Created[]>()[0].id;
  }, 60_000);
  afterAll(() => t?.close());

  it('users: deleted with who and when; restored with the id and roles, disabled, with no known password; masks without user:sensitive', async () => {
    const dept = await created('/api/dept', { name: '回收部', pid: root, sort: 1, enabled: true });
    const roleA = await created('/api/roles', { name: '回收岗位甲', level: 3, dataScope: '本级', description: '' });
    const roleB = await created('/api/roles', { name: '回收岗位乙', level: 3, dataScope: '本级', description: '' });
    const user = {
      username: 'huishou',
      nickName: '回收',
      phone: '13800138111',
      email: 'huishou@example.com',
      sex: 0,
      enabled: true,
      deptId: dept,
      orgId: root,
      roles: [{ id: roleA }, { id: roleB }],
    };
    const id = await created('/api/users', user);
    await ok('DELETE', '/api/users', [id]);
    expect(await exists('sys_user', id)).toBe(false);

    const page = await bin('api/users');
    const item = page.content.find((i) => i.id === id)!;
    expect(item).toMatchObject({ deleteUser: 'admin', actorKind: 'user' });
    expect(item.deleteTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(item.record).toMatchObject({ id, username: 'huishou', phone: '13800138111', deptId: `回收部（ID ${dept}）` });
    expect(item.record.roleIds).toBe(`回收岗位甲（ID ${roleA}）、回收岗位乙（ID ${roleB}）`);
    expect(JSON.stringify(item)).not.toMatch(/password"/);

    // a holder of user:del without user:sensitive sees the phone and e-mail masked
    await createStaff(t.app, { username: 'bin_masked', password: PASSWORD, permissions: ['user:list', 'user:del'], dataScope: '全部' });
    const masked = await loginAs(t.app, 'bin_masked', PASSWORD);
    const seen = (await bin('api/users', masked)).content.find((i) => i.id === id)!;
    expect(seen.record.phone).toBe('138****8111');
    expect(String(seen.record.email)).toContain('*');
    // no delete key: no bin
    await createStaff(t.app, { username: 'bin_lister', password: PASSWORD, permissions: ['user:list', 'user:edit'], dataScope: '全部' });
    const lister = await loginAs(t.app, 'bin_lister', PASSWORD);
    expect((await api(lister, 'GET', '/api/users/recycleBin')).statusCode).toBe(403);
    expect((await api(lister, 'POST', '/api/users/recycleBin/restore', [id])).statusCode).toBe(403);
    expect((await api(lister, 'DELETE', '/api/users/recycleBin', [id])).statusCode).toBe(403);
    // the delete key alone does not open it either: the bin needs the list key with it
    await createStaff(t.app, { username: 'bin_deleter', password: PASSWORD, permissions: ['user:del'], dataScope: '全部' });
    const deleter = await loginAs(t.app, 'bin_deleter', PASSWORD);
    expect((await api(deleter, 'GET', '/api/users/recycleBin')).statusCode).toBe(403);
    expect((await api(deleter, 'POST', '/api/users/recycleBin/restore', [id])).statusCode).toBe(403);

    const res = await ok('POST', '/api/users/recycleBin/restore', [id]);
    expect(res.json()).toEqual({ count: 1 });
    const back = await t.app.database.db.selectFrom('sys_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(back).toMatchObject({ username: 'huishou', nick_name: '回收', phone: '13800138111', email: 'huishou@example.com' });
    expect(Number(back.sex)).toBe(0);
    expect(Boolean(back.is_def_password)).toBe(true);
    // it comes back disabled, with a password nobody knows: the initial one does not open it
    expect(Number(back.enabled)).toBe(0);
    const roles = await t.app.database.db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', id).execute();
    expect(roles.map((r) => Number(r.role_id)).sort((a, b) => a - b)).toEqual([roleA, roleB].sort((a, b) => a - b));
    await expect(loginAs(t.app, 'huishou', 'Abc123456')).rejects.toThrow();
    // out of the bin; the history shows delete then restore
    expect((await bin('api/users')).content.some((i) => i.id === id)).toBe(false);
    const history = (await api(admin, 'GET', `/api/users/${id}/history`)).json<Page<{ action: string }>>().content;
    expect(history.map((e) => e.action).slice(0, 3)).toEqual(['restore', 'delete', 'create']);
    // once back, not in the bin: 404
    const again = await api(admin, 'POST', '/api/users/recycleBin/restore', [id]);
    expect(again.statusCode).toBe(404);
    expect(errorOf(again).message).toBe(`回收站中没有该数据（ID ${id}）`);
  });

  it('users: a user name taken since or a department deleted since refuses the restore and changes nothing', async () => {
    const dept = await created('/api/dept', { name: '将删部', pid: root, sort: 1, enabled: true });
    const role = await created('/api/roles', { name: '冲突岗位', level: 3, dataScope: '本级', description: '' });
    const base = { nickName: '冲突', sex: 1, enabled: true, orgId: root, roles: [{ id: role }] };
    const taken = await created('/api/users', { ...base, username: 'chongtu', deptId: root });
    const gone = await created('/api/users', { ...base, username: 'bumen', deptId: dept });
    await ok('DELETE', '/api/users', [taken, gone]);
    await created('/api/users', { ...base, username: 'chongtu', deptId: root });
    await ok('DELETE', '/api/dept', [dept]);

    const revisionsBefore = await revisionCount('sysUser', taken);
    const nameRes = await api(admin, 'POST', '/api/users/recycleBin/restore', [taken]);
    expect(nameRes.statusCode).toBe(400);
    expect(errorOf(nameRes).message).toBe(`无法恢复（ID ${taken}）：用户名已存在`);
    const deptRes = await api(admin, 'POST', '/api/users/recycleBin/restore', [gone]);
    expect(deptRes.statusCode).toBe(400);
    expect(errorOf(deptRes).message).toBe(`「部门」引用的部门（ID ${dept}）已被删除，无法恢复，请先恢复或修改相关数据`);
    // all or nothing: one refused record keeps the other out too
    const both = await api(admin, 'POST', '/api/users/recycleBin/restore', [gone, taken]);
    expect(both.statusCode).toBe(400);
    expect(await exists('sys_user', taken)).toBe(false);
    expect(await exists('sys_user', gone)).toBe(false);
    expect(await revisionCount('sysUser', taken)).toBe(revisionsBefore);
    expect((await bin('api/users')).content.map((i) => i.id)).toEqual(expect.arrayContaining([taken, gone]));

    // the department back from its own bin, then the user can come back
    await ok('POST', '/api/dept/recycleBin/restore', [dept]);
    expect((await ok('POST', '/api/users/recycleBin/restore', [gone])).json()).toEqual({ count: 1 });
    expect(await exists('sys_user', gone)).toBe(true);
  });

  it('roles: back with their departments and menus; a name taken since refuses; 彻底删除 removes the history', async () => {
    const dept = await created('/api/dept', { name: '角色范围部', pid: root, sort: 1, enabled: true });
    const menu = await created('/api/menus', { type: 2, title: '回收按钮', permission: 'binTest:run', pid: null, sort: 1 });
    const role = await created('/api/roles', {
      name: '回收角色',
      level: 3,
      dataScope: '自定义',
      description: '说明',
      depts: [{ id: dept }],
    });
    await ok('PUT', '/api/roles/menu', { id: role, menus: [{ id: menu }] });
    await ok('DELETE', '/api/roles', [role]);
    const item = (await bin('api/roles')).content.find((i) => i.id === role)!;
    expect(item.record).toMatchObject({
      name: '回收角色',
      dataScope: '自定义',
      depts: `角色范围部（ID ${dept}）`,
      menus: `回收按钮（ID ${menu}）`,
    });
    await ok('POST', '/api/roles/recycleBin/restore', [role]);
    const view = (await api(admin, 'GET', `/api/roles/${role}`)).json<{
      name: string;
      depts: Array<{ id: number }>;
      menus: Array<{ id: number }>;
    }>();
    expect(view.name).toBe('回收角色');
    expect(view.depts.map((d) => d.id)).toEqual([dept]);
    expect(view.menus.map((m) => m.id)).toEqual([menu]);

    // deleted again, its name taken by a new role: refused
    await ok('DELETE', '/api/roles', [role]);
    const other = await created('/api/roles', { name: '回收角色', level: 3, dataScope: '本级', description: '' });
    const res = await api(admin, 'POST', '/api/roles/recycleBin/restore', [role]);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe(`无法恢复（ID ${role}）：角色名称已存在`);
    expect(await exists('sys_role', role)).toBe(false);
    // 彻底删除: out of the bin, its history gone
    expect((await ok('DELETE', '/api/roles/recycleBin', [role])).json()).toEqual({ count: 1 });
    expect(await revisionCount('sysRole', role)).toBe(0);
    expect((await bin('api/roles')).content.some((i) => i.id === role)).toBe(false);
    expect((await api(admin, 'DELETE', '/api/roles/recycleBin', [role])).statusCode).toBe(404);
    expect((await api(admin, 'GET', `/api/roles/${other}`)).statusCode).toBe(200);
  });

  it('menus: a menu and the menus deleted below it come back together, parents first, with the roles that granted them', async () => {
    const dir = await created('/api/menus', { type: 0, title: '回收目录', path: 'bin-dir', pid: null, sort: 1 });
    const screen = await created('/api/menus', { type: 1, title: '回收页面', path: 'bin-page', component: 'x/index', pid: dir, sort: 1 });
    const button = await created('/api/menus', { type: 2, title: '回收页面按钮', permission: 'binPage:run', pid: screen, sort: 1 });
    const role = await created('/api/roles', { name: '菜单回收角色', level: 3, dataScope: '本级', description: '' });
    await ok('PUT', '/api/roles/menu', { id: role, menus: [{ id: dir }, { id: screen }, { id: button }] });
    await ok('DELETE', '/api/menus', [dir]);
    const ids = (await bin('api/menus')).content.map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining([dir, screen, button]));
    // the button alone: its parent is gone
    const alone = await api(admin, 'POST', '/api/menus/recycleBin/restore', [button]);
    expect(alone.statusCode).toBe(400);
    expect(errorOf(alone).message).toBe(`「上级菜单」引用的菜单（ID ${screen}）已被删除，无法恢复，请先恢复或修改相关数据`);
    // children listed before their parents: still restored in order
    expect((await ok('POST', '/api/menus/recycleBin/restore', [button, screen, dir])).json()).toEqual({ count: 3 });
    const rows = await t.app.database.db.selectFrom('sys_menu').select(['id', 'pid']).where('id', 'in', [dir, screen, button]).execute();
    expect(new Map(rows.map((r) => [Number(r.id), r.pid === null ? null : Number(r.pid)]))).toEqual(
      new Map([
        [dir, null],
        [screen, dir],
        [button, screen],
      ]),
    );
    const granted = await t.app.database.db.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', role).execute();
    expect(granted.map((g) => Number(g.menu_id)).sort((a, b) => a - b)).toEqual([dir, screen, button].sort((a, b) => a - b));
  });

  it('dictionaries and details: a detail waits for its dictionary; a value taken since refuses; the retention job empties old entries', async () => {
    const dict = await created('/api/dict', { name: 'bin_dict', description: '回收字典', isPublic: false });
    const detail = await created('/api/dictDetail', { dict: { id: dict }, label: '甲', value: 'a', sort: 1, enabled: true });
    await ok('DELETE', '/api/dict', [dict]);
    expect((await bin('api/dictDetail')).content.find((i) => i.id === detail)?.record).toMatchObject({
      dictId: `（ID ${dict}）`,
      label: '甲',
      value: 'a',
    });
    const early = await api(admin, 'POST', '/api/dictDetail/recycleBin/restore', [detail]);
    expect(early.statusCode).toBe(400);
    expect(errorOf(early).message).toBe(`「所属字典」引用的字典（ID ${dict}）已被删除，无法恢复，请先恢复或修改相关数据`);
    await ok('POST', '/api/dict/recycleBin/restore', [dict]);
    await created('/api/dictDetail', { dict: { id: dict }, label: '乙', value: 'a', sort: 2, enabled: true });
    const taken = await api(admin, 'POST', '/api/dictDetail/recycleBin/restore', [detail]);
    expect(taken.statusCode).toBe(400);
    expect(errorOf(taken).message).toBe(`无法恢复（ID ${detail}）：字典值已存在`);

    // retention: bin entries older than the days kept go with their revisions
    await t.app.database.db
      .updateTable(REVISION_TABLE)
      .set({ create_time: '2000-01-01 00:00:00' })
      .where('resource', '=', 'sysDictDetail')
      .where('record_id', '=', detail)
      .execute();
    expect(await deleteOldRevisions(t.app.database.db, 365, Date.now())).toBeGreaterThan(0);
    expect((await bin('api/dictDetail')).content.some((i) => i.id === detail)).toBe(false);
  });

  it('departments: a caller outside the scope neither sees nor restores them', async () => {
    const company = await created('/api/dept', { name: '另一公司', pid: root, sort: 1, enabled: true });
    const mine = await created('/api/dept', { name: '我的部门', pid: company, sort: 1, enabled: true });
    const theirs = await created('/api/dept', { name: '别的部门', pid: root, sort: 2, enabled: true });
    await ok('DELETE', '/api/dept', [theirs]);
    await createStaff(t.app, {
      username: 'bin_scoped',
      password: PASSWORD,
      permissions: ['dept:del', 'dept:list'],
      deptId: company,
      dataScope: '本级',
    });
    const scoped = await loginAs(t.app, 'bin_scoped', PASSWORD);
    expect((await bin('api/dept', scoped)).content.some((i) => i.id === theirs)).toBe(false);
    expect((await api(scoped, 'POST', '/api/dept/recycleBin/restore', [theirs])).statusCode).toBe(404);
    expect(await exists('sys_dept', theirs)).toBe(false);
    // one below its own company: seen and restored
    await ok('DELETE', '/api/dept', [mine]);
    expect((await bin('api/dept', scoped)).content.map((i) => i.id)).toEqual([mine]);
    expect((await api(scoped, 'POST', '/api/dept/recycleBin/restore', [mine])).statusCode).toBe(200);
    expect(await exists('sys_dept', mine)).toBe(true);
  });

  it('dealer companies (a generated entity with a hand-written create): back with the id and without a password; a login name taken since refuses', async () => {
    const company = await createCompany(t.app, admin, 'bindealer');
    await ok('DELETE', '/api/system/dbcCompany', [company]);
    const item = (await bin('api/system/dbcCompany')).content.find((i) => i.id === company)!;
    expect(item.record).toMatchObject({ username: 'bindealer', compName: 'bindealer公司' });
    expect(JSON.stringify(item)).not.toMatch(/password|\$2[aby]\$/);
    await ok('POST', '/api/system/dbcCompany/recycleBin/restore', [company]);
    expect(await exists('dbc_company', company)).toBe(true);
    // no revision holds the password: it signs in only once staff set a new one
    const login = await dealerLogin(t.app, 'bindealer');
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
    expect(login.statusCode).toBeLessThan(500);
    await ok('DELETE', '/api/system/dbcCompany', [company]);
    await createCompany(t.app, admin, 'bindealer');
    const res = await api(admin, 'POST', '/api/system/dbcCompany/recycleBin/restore', [company]);
    // the schema's unique rule (x-unique), as the engine checks it for every restore
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toContain('登录账号“bindealer”已存在');
    expect(await exists('dbc_company', company)).toBe(false);
  });
});
