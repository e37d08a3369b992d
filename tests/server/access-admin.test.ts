/**
 * Rules of the access administration on SQLite and PostgreSQL: users (default password,
 * enable/disable, reset, self and admin protection, own lock time), role levels, menus CRUD and
 * the access cache, the department tree, dictionaries and the business dictionary tree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import { DEFAULT_USER_PASSWORD, INSURERS, BUSINESS_CATEGORIES } from '../../src/server/modules/access/index.ts';
import type { Created, Page, Row } from '../support/answers.ts';
import { ADMIN_SCREENS } from '../../src/server/modules/access/seed.ts';
import { SYSTEM_SCREENS } from '../../src/web/staff/pages/system/index.ts';

const PASSWORD = 'Admin_pass1';

/** a user as the user administration lists it */
interface UserRow extends Row {
  id: number;
  username: string;
  roles: Array<{ id: number }>;
}

/** GET /api/info */
interface Info {
  user: Row;
  permissions: string[];
}

/** a node of the menu, department or dictionary trees */
interface TreeNode extends Row {
  id: number;
  name: string;
  title: string;
  path: string;
  children: TreeNode[];
}

describe.each(testApps())('access administration on %s', (_name, start) => {
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
  const roleId = async (name: string) =>
    Number((await t.app.database.db.selectFrom('sys_role').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id);

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    root = (await api(admin, 'GET', '/api/dept/lazy?pid=0')).json<Created[]>()[0].id;
  }, 60_000);
  afterAll(() => t?.close());

  describe('users', () => {
    let deptId: number;
    let clerkRole: number;
    beforeAll(async () => {
      deptId = (await api(admin, 'POST', '/api/dept', { name: '销售部', pid: root, sort: 1, enabled: true })).json<Created>().id;
      const role = await api(admin, 'POST', '/api/roles', { name: '销售顾问', level: 3, dataScope: '本级', description: '' });
      expect(role.statusCode, role.body).toBe(201);
      clerkRole = role.json<Created>().id;
    });

    it('a new user gets the default password and the default-password flag', async () => {
      const res = await api(admin, 'POST', '/api/users', {
        username: 'zhangsan',
        nickName: '张三',
        phone: '13800138000',
        sex: 1,
        enabled: true,
        deptId,
        orgId: root,
        roles: [{ id: clerkRole }],
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        username: 'zhangsan',
        defPassword: true,
        roles: [{ name: '销售顾问' }],
        dept: { id: deptId, name: '销售部' },
      });
      const token = await loginAs(t.app, 'zhangsan', DEFAULT_USER_PASSWORD);
      const info = (await api(token, 'GET', '/api/info')).json<Info>();
      expect(info.user.defPassword).toBe(true);
    });

    it('bad input is a 400 in Chinese and writes nothing', async () => {
      const cases: Array<[unknown, string]> = [
        [{ username: 'lisi', nickName: '李四', deptId, orgId: root, roles: [] }, '请选择岗位'],
        [{ username: 'lisi', nickName: '李四', deptId, roles: [{ id: clerkRole }] }, '请选择公司'],
        [{ username: 'lisi', nickName: '李四', phone: '123', deptId, orgId: root, roles: [{ id: clerkRole }] }, '请输入正确的11位手机号码'],
        [{ username: 'zhangsan', nickName: '重名', deptId, orgId: root, roles: [{ id: clerkRole }] }, '用户名已存在'],
        [{ username: 'lisi', nickName: '', deptId, orgId: root, roles: [{ id: clerkRole }] }, '昵称不能为空'],
        [{ username: 'lisi', nickName: '李四', deptId: 99999, orgId: root, roles: [{ id: clerkRole }] }, '部门不存在'],
        [[1, 2], '请求内容必须是JSON对象'],
      ];
      for (const [body, message] of cases) {
        const res = await api(admin, 'POST', '/api/users', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorOf(res).message).toBe(message);
      }
      expect((await api(admin, 'GET', '/api/users?blurry=lisi')).json<Page>().totalElements).toBe(0);
    });

    it('lists with blurry, dept, enabled and createTime filters; bad filters are 400', async () => {
      const byDept = (await api(admin, 'GET', `/api/users?deptId=${root}&size=100`)).json<Page<UserRow>>();
      expect(byDept.content.map((u) => u.username)).toEqual(expect.arrayContaining(['admin', 'zhangsan']));
      expect((await api(admin, 'GET', `/api/users?deptId=${deptId}`)).json<Page<UserRow>>().content.map((u) => u.username)).toEqual([
        'zhangsan',
      ]);
      expect((await api(admin, 'GET', '/api/users?blurry=张')).json<Page>().totalElements).toBe(1);
      expect((await api(admin, 'GET', '/api/users?enabled=false')).json<Page>().totalElements).toBe(0);
      expect((await api(admin, 'GET', '/api/users?createTime=2000-01-01&createTime=2000-01-02')).json<Page>().totalElements).toBe(0);
      expect((await api(admin, 'GET', '/api/users?createTime=2000-01-01&createTime=2999-01-02')).json<Page>().totalElements).toBe(2);
      for (const q of ['enabled=maybe', 'createTime=x&createTime=y', 'sort=password,asc', 'deptId=abc', 'hack=1', 'size=0']) {
        const res = await api(admin, 'GET', `/api/users?${q}`);
        expect(res.statusCode, q).toBe(400);
      }
    });

    it('disable and enable: a disabled user cannot sign in and loses the session', async () => {
      const token = await loginAs(t.app, 'zhangsan', DEFAULT_USER_PASSWORD);
      const u = (await api(admin, 'GET', '/api/users?blurry=zhangsan')).json<Page<UserRow>>().content[0];
      const body = { ...u, roles: u.roles.map((r) => ({ id: r.id })), enabled: false };
      expect((await api(admin, 'PUT', '/api/users', body)).statusCode).toBe(204);
      expect((await api(token, 'GET', '/api/info')).statusCode).toBe(401);
      await expect(loginAs(t.app, 'zhangsan', DEFAULT_USER_PASSWORD)).rejects.toThrow();
      expect((await api(admin, 'PUT', '/api/users', { ...body, enabled: true })).statusCode).toBe(204);
      await loginAs(t.app, 'zhangsan', DEFAULT_USER_PASSWORD);
    });

    it('reset password returns to the default one with the flag', async () => {
      const u = (await api(admin, 'GET', '/api/users?blurry=zhangsan')).json<Page<UserRow>>().content[0];
      await t.app.database.db.updateTable('sys_user').set({ is_def_password: 0 }).where('id', '=', u.id).execute();
      const wrong = await api(admin, 'POST', `/api/users/resetPass?userName=admin&userid=${u.id}`);
      expect(wrong.statusCode).toBe(400);
      const res = await api(admin, 'POST', `/api/users/resetPass?userName=zhangsan&userid=${u.id}`);
      expect(res.statusCode).toBe(200);
      const row = await t.app.database.db.selectFrom('sys_user').select('is_def_password').where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(Boolean(row.is_def_password)).toBe(true);
      await loginAs(t.app, 'zhangsan', DEFAULT_USER_PASSWORD);
    });

    it('never deletes yourself or admin', async () => {
      const adminId = (await api(admin, 'GET', '/api/users?blurry=admin')).json<Page<UserRow>>().content[0].id;
      const self = await api(admin, 'DELETE', '/api/users', [adminId]);
      expect(self.statusCode).toBe(400);
      expect(errorOf(self).message).toBe('不能删除自己');
      await createStaff(t.app, { username: 'deleter', password: PASSWORD, permissions: ['user:del'], dataScope: '全部' });
      const deleter = await loginAs(t.app, 'deleter', PASSWORD);
      const res = await api(deleter, 'DELETE', '/api/users', [adminId]);
      expect(res.statusCode).toBe(403);
      expect((await api(admin, 'GET', '/api/users?blurry=admin')).json<Page>().totalElements).toBe(1);
    });

    it('a user edits their own lock time without user:edit; 0-999 minutes only; nobody else', async () => {
      const id = await createStaff(t.app, { username: 'locker', password: PASSWORD, permissions: [] });
      const token = await loginAs(t.app, 'locker', PASSWORD);
      const info = (await api(token, 'GET', '/api/info')).json<Info>().user;
      const res = await api(token, 'PUT', '/api/users', { id, lockTime: 30, orgId: info.orgId, deptId: info.deptId });
      expect(res.statusCode, res.body).toBe(204);
      expect((await api(token, 'GET', '/api/info')).json<Info>().user.lockTime).toBe(30);
      for (const lockTime of [-1, 1000, 'abc', 1.5]) {
        const bad = await api(token, 'PUT', '/api/users', { id, lockTime, orgId: info.orgId, deptId: info.deptId });
        expect(bad.statusCode, String(lockTime)).toBe(400);
      }
      const adminId = (await api(admin, 'GET', '/api/users?blurry=admin')).json<Page<UserRow>>().content[0].id;
      expect((await api(token, 'PUT', '/api/users', { id: adminId, lockTime: 1, orgId: root, deptId: root })).statusCode).toBe(403);
      expect((await api(token, 'PUT', '/api/users', { id, lockTime: 1, nickName: 'x' })).statusCode).toBe(403);
    });

    it('a user without a role gets ROLE_SYSTEM_DEFAULT', async () => {
      const id = await createStaff(t.app, { username: 'norole', password: PASSWORD, permissions: [] });
      await t.app.database.db.deleteFrom('sys_users_roles').where('user_id', '=', id).execute();
      const token = await loginAs(t.app, 'norole', PASSWORD);
      expect((await api(token, 'GET', '/api/info')).json<Info>().permissions).toEqual(['ROLE_SYSTEM_DEFAULT']);
    });
  });

  describe('role levels', () => {
    let manager: string;
    beforeAll(async () => {
      const id = await createStaff(t.app, {
        username: 'manager',
        password: PASSWORD,
        permissions: ['roles:add', 'roles:edit', 'roles:del', 'user:add', 'user:edit', 'user:list'],
        dataScope: '全部',
      });
      await t.app.database.db.updateTable('sys_role').set({ level: 2 }).where('name', '=', 'manager的岗位').execute();
      expect(id).toBeGreaterThan(0);
      manager = await loginAs(t.app, 'manager', PASSWORD);
    });

    it('cannot create or edit a role above its own level', async () => {
      const high = await api(manager, 'POST', '/api/roles', { name: '总经理', level: 1, dataScope: '全部' });
      expect(high.statusCode).toBe(403);
      expect(errorOf(high).message).toBe('角色权限不足，你的角色级别：2，低于操作的角色级别：1');
      const ok = await api(manager, 'POST', '/api/roles', { name: '主管', level: 2, dataScope: '本级' });
      expect(ok.statusCode, ok.body).toBe(201);
      const edit = await api(manager, 'PUT', '/api/roles', { id: await roleId('admin'), name: 'admin', level: 1, dataScope: '全部' });
      expect(edit.statusCode).toBe(403);
      const raise = await api(manager, 'PUT', '/api/roles', { id: ok.json<Created>().id, name: '主管', level: 1, dataScope: '本级' });
      expect(raise.statusCode).toBe(403);
    });

    it('cannot grant a role above its own level', async () => {
      const res = await api(manager, 'POST', '/api/users', {
        username: 'boss',
        nickName: '老板',
        deptId: root,
        orgId: root,
        roles: [{ id: await roleId('admin') }],
      });
      expect(res.statusCode).toBe(403);
      const ok = await api(manager, 'POST', '/api/users', {
        username: 'staff2',
        nickName: '员工',
        deptId: root,
        orgId: root,
        roles: [{ id: await roleId('主管') }],
      });
      expect(ok.statusCode, ok.body).toBe(201);
    });

    it('自定义 needs departments; a role in use cannot be deleted', async () => {
      const res = await api(admin, 'POST', '/api/roles', { name: '区域经理', level: 3, dataScope: '自定义', depts: [] });
      expect(errorOf(res).message).toBe('请选择数据权限');
      const bad = await api(admin, 'POST', '/api/roles', { name: '区域经理', level: 3, dataScope: '部分' });
      expect(bad.statusCode).toBe(400);
      const del = await api(admin, 'DELETE', '/api/roles', [await roleId('主管')]);
      expect(del.statusCode).toBe(400);
      expect(errorOf(del).message).toBe('所选角色存在用户关联，请解除关联再试！');
    });
  });

  describe('menus', () => {
    it('CRUD with validation, cycles refused, delete takes the children, keys follow at once', async () => {
      const dir = await api(admin, 'POST', '/api/menus', { type: 0, title: '测试目录', path: 'test', sort: 50 });
      expect(dir.statusCode, dir.body).toBe(201);
      const screen = await api(admin, 'POST', '/api/menus', {
        type: 1,
        title: '测试页',
        path: 'test/page',
        component: 'test/page/index',
        pid: dir.json<Created>().id,
      });
      expect(screen.statusCode, screen.body).toBe(201);
      const button = await api(admin, 'POST', '/api/menus', {
        type: 2,
        title: '测试新增',
        permission: 'testPage:add',
        pid: screen.json<Created>().id,
      });
      expect(button.statusCode, button.body).toBe(201);
      for (const [body, message] of [
        [{ type: 2, title: '无键' }, '权限标识不能为空'],
        [{ type: 1, title: '无路径' }, '路由地址不能为空'],
        [{ type: 1, title: '外链', path: 'ftp://x', iFrame: true }, '外链必须以http://或者https://开头'],
        [{ type: 2, title: '重复', permission: 'testPage:add' }, '权限标识已存在'],
        [{ type: 1, title: '按钮下', path: 'x', pid: button.json<Created>().id }, '按钮下不能再添加菜单'],
        [{ type: 5, title: 'x', path: 'x' }, '菜单类型必须在0到2之间'],
      ] as Array<[object, string]>) {
        const res = await api(admin, 'POST', '/api/menus', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(errorOf(res).message).toBe(message);
      }
      const toButton = await api(admin, 'PUT', '/api/menus', {
        id: screen.json<Created>().id,
        type: 2,
        title: '测试页',
        permission: 'testPage:list',
        pid: dir.json<Created>().id,
      });
      expect(errorOf(toButton).message).toBe('该菜单存在下级，不能改为按钮');
      const cycle = await api(admin, 'PUT', '/api/menus', {
        id: dir.json<Created>().id,
        type: 0,
        title: '测试目录',
        path: 'test',
        pid: screen.json<Created>().id,
      });
      expect(errorOf(cycle).message).toBe('上级菜单不能为自己或自己的下级');

      // a role with the button: the key works at once, and is gone at once after the delete
      const role = (await api(admin, 'POST', '/api/roles', { name: '测试岗位', level: 3, dataScope: '本级' })).json<Created>();
      const user = await api(admin, 'POST', '/api/users', {
        username: 'tester',
        nickName: '测试',
        deptId: root,
        orgId: root,
        roles: [{ id: role.id }],
      });
      expect(user.statusCode, user.body).toBe(201);
      const token = await loginAs(t.app, 'tester', DEFAULT_USER_PASSWORD);
      expect((await api(token, 'GET', '/api/info')).json<Info>().permissions).not.toContain('testPage:add');
      expect(
        (
          await api(admin, 'PUT', '/api/roles/menu', {
            id: role.id,
            menus: [{ id: dir.json<Created>().id }, { id: screen.json<Created>().id }, { id: button.json<Created>().id }],
          })
        ).statusCode,
      ).toBe(204);
      expect((await api(token, 'GET', '/api/info')).json<Info>().permissions).toContain('testPage:add');
      const build = (await api(token, 'GET', '/api/menus/build')).json<Array<{ meta?: { title: string } }>>();
      expect(build.map((m) => m.meta?.title)).toContain('测试目录');
      expect(
        (await api(admin, 'GET', `/api/menus/findUserByMenu?menuId=${button.json<Created>().id}`)).json<UserRow[]>().map((u) => u.username),
      ).toEqual(['tester']);
      const children = (await api(admin, 'GET', `/api/menus/getMenusByPid?pid=${dir.json<Created>().id}`)).json<Row[]>();
      expect(children).toMatchObject([{ title: '测试页', hasChildren: true, pid: dir.json<Created>().id }]);
      expect((await api(admin, 'GET', `/api/menus?pid=${screen.json<Created>().id}`)).json()).toMatchObject({
        totalElements: 1,
        content: [{ permission: 'testPage:add' }],
      });

      expect((await api(admin, 'DELETE', '/api/menus', [dir.json<Created>().id])).statusCode).toBe(200);
      expect((await api(token, 'GET', '/api/info')).json<Info>().permissions).not.toContain('testPage:add');
      const left = await t.app.database.db
        .selectFrom('sys_menu')
        .select('id')
        .where('id', 'in', [dir.json<Created>().id, screen.json<Created>().id, button.json<Created>().id])
        .execute();
      expect(left).toEqual([]);
    });

    it('the demo data holds a menu for every administration screen in 系统管理', async () => {
      const tree = (await api(admin, 'GET', '/api/menus/list')).json<TreeNode[]>();
      const system = tree.find((m) => m.title === '系统管理');
      // generated from the console's own list of its 系统管理 screens and the server's seeded ones
      const screens = [...new Set([...SYSTEM_SCREENS.map((s) => s.path.replace(/^\//, '')), ...ADMIN_SCREENS.map((s) => s.path)])];
      expect(screens.length).toBeGreaterThanOrEqual(9);
      const shown = new Set(system?.children.map((m) => m.path));
      expect(screens.filter((path) => !shown.has(path))).toEqual([]);
      expect(tree.map((m) => m.path)).toEqual(expect.arrayContaining(['usage', 'DecisionCenter/index']));
    });
  });

  describe('departments', () => {
    it('tree with pid 0 roots, lazy children, ids below, no cycles, delete refused with children or users', async () => {
      const a = (await api(admin, 'POST', '/api/dept', { name: '华东', pid: 0, sort: 5 })).json<Created>();
      expect(a.pid).toBe(0);
      const b = (await api(admin, 'POST', '/api/dept', { name: '上海', pid: a.id, sort: 1 })).json<Created>();
      const c = (await api(admin, 'POST', '/api/dept', { name: '浦东', pid: b.id, sort: 1 })).json<Created>();
      const lazy = (await api(admin, 'GET', `/api/dept/lazy?pid=${a.id}`)).json<Row[]>();
      expect(lazy).toMatchObject([{ id: b.id, name: '上海', pid: a.id, hasChildren: true }]);
      expect((await api(admin, 'GET', '/api/dept/lazy?pid=0')).json<TreeNode[]>().map((d) => d.name)).toEqual(
        expect.arrayContaining(['华东']),
      );
      expect((await api(admin, 'GET', `/api/dept/getIdsByPid?id=${a.id}`)).json()).toEqual([a.id, b.id, c.id].sort((x, y) => x - y));
      expect((await api(admin, 'GET', '/api/dept/getIdNameAndPid')).json()).toEqual(
        expect.arrayContaining([{ id: a.id, name: '华东', pid: 0 }]),
      );
      const cycle = await api(admin, 'PUT', '/api/dept', { id: a.id, name: '华东', pid: c.id });
      expect(errorOf(cycle).message).toBe('上级部门不能为自己或自己的下级部门');
      const self = await api(admin, 'PUT', '/api/dept', { id: a.id, name: '华东', pid: a.id });
      expect(self.statusCode).toBe(400);
      const withChildren = await api(admin, 'DELETE', '/api/dept', [b.id]);
      expect(errorOf(withChildren).message).toBe('所选部门存在下级部门，请先删除下级部门');
      await createStaff(t.app, { username: 'pudong', password: PASSWORD, permissions: [], deptId: c.id });
      const withUsers = await api(admin, 'DELETE', '/api/dept', [c.id]);
      expect(errorOf(withUsers).message).toBe('所选部门存在用户关联，请解除关联后再试');
      // a record of a schema pointing at the department (a posting's 所属部门) keeps it too
      const posting = await api(admin, 'POST', '/api/staffunZp', {
        deptId: c.id,
        job: '门岗位',
        money: '6000-9000元/月',
        address: '郑州市金水区',
        jobNum: 3,
        jobZz: '接待到店客户',
        jobYq: '大专以上学历',
        enabled: true,
      });
      expect(posting.statusCode, posting.body).toBe(201);
      await t.app.database.db.deleteFrom('sys_user').where('username', '=', 'pudong').execute();
      const withPosting = await api(admin, 'DELETE', '/api/dept', [c.id]);
      expect(errorOf(withPosting).message).toBe('所选部门存在人事招聘信息关联，请解除关联后再试');
      const created = await api(admin, 'POST', '/api/dept', { name: '', pid: a.id });
      expect(errorOf(created).message).toBe('部门名称不能为空');
      const d = (await api(admin, 'POST', '/api/dept', { name: '临时', pid: a.id })).json<Created>();
      expect((await api(admin, 'DELETE', '/api/dept', [d.id])).statusCode).toBe(200);
      const tree = (await api(admin, 'GET', '/api/dept/getDeptList')).json<TreeNode[]>();
      const east = tree.find((x) => x.name === '华东');
      expect(east?.children[0].children[0].name).toBe('浦东');
    });
  });

  describe('dictionaries', () => {
    it('seeds the categories and the insurer abbreviations of the business dictionary', async () => {
      const categories = (await api(admin, 'GET', '/api/busidict/list/0')).json<Page<TreeNode>>();
      expect(categories.content.map((c) => c.name)).toEqual(BUSINESS_CATEGORIES.map((c) => c.name));
      const insurers = (await api(admin, 'GET', `/api/busidict/options/${encodeURIComponent('承保公司')}`)).json<
        Array<{ label: string }>
      >();
      expect(insurers.map((o) => o.label)).toEqual(INSURERS);
      expect(INSURERS).toEqual(['人保', '平安', '人寿', '太平洋', '大地', '阳光', '太平', '中华联合', '天安', '渤海', '大家', '永安']);
      const jy = categories.content.find((c) => c.name === '驾意险公司');
      expect((await api(admin, 'GET', `/api/busidict/optionsChilds/${jy!.id}`)).json()).toHaveLength(12);
      expect((await api(admin, 'GET', `/api/busidict/options/${encodeURIComponent('不存在')}`)).statusCode).toBe(404);
    });

    it('business dictionary add, update, cycle and delete rules', async () => {
      const cat = (await api(admin, 'GET', '/api/busidict/list/0')).json<Page<TreeNode>>().content.find((c) => c.name === '分期公司')!;
      const add = await api(admin, 'POST', '/api/busidict/add', { pid: cat.id, code: 'pa', name: '平安银行', value: 'pa' });
      expect(add.statusCode, add.body).toBe(201);
      const dup = await api(admin, 'POST', '/api/busidict/add', { pid: cat.id, code: 'pa', name: '重复' });
      expect(errorOf(dup).message).toBe('同一上级下编码已存在');
      const child = (
        await api(admin, 'POST', '/api/busidict/add', { pid: add.json<Created>().id, code: 'pa1', name: '一级' })
      ).json<Created>();
      const cycle = await api(admin, 'POST', '/api/busidict/update', {
        id: add.json<Created>().id,
        pid: child.id,
        code: 'pa',
        name: '平安银行',
      });
      expect(cycle.statusCode).toBe(400);
      expect(
        (
          await api(admin, 'POST', '/api/busidict/update', {
            id: add.json<Created>().id,
            pid: cat.id,
            code: 'pa',
            name: '平安银行股份',
            enabled: false,
          })
        ).statusCode,
      ).toBe(204);
      expect((await api(admin, 'GET', `/api/busidict/options/${encodeURIComponent('分期公司')}`)).json()).toEqual([]);
      const refused = await api(admin, 'DELETE', '/api/busidict', [add.json<Created>().id]);
      expect(errorOf(refused).message).toBe('所选字典存在下级，请先删除下级');
      expect((await api(admin, 'DELETE', '/api/busidict', [add.json<Created>().id, child.id])).statusCode).toBe(200);
    });

    it('dictionaries from x-dict with their details; CRUD; public only when marked', async () => {
      const models = (await api(admin, 'GET', '/api/dictDetail?dictName=question_model&page=0&size=9999&sort=sort,asc')).json<Page>();
      expect(models.content.map((d) => d.label)).toEqual(['系统', '销售', '售后', '人事', '行政', '服务', '客户', '市场', '其他']);
      expect((await api(admin, 'GET', '/api/dictDetail?code=user_type&isStat=1&enabled=true')).json<Page>().totalElements).toBe(2);
      const dict = await api(admin, 'POST', '/api/dict', { name: 'car_color', description: '车身颜色' });
      expect(dict.statusCode, dict.body).toBe(201);
      expect(errorOf(await api(admin, 'POST', '/api/dict', { name: 'car_color' })).message).toBe('字典名称已存在');
      const white = await api(admin, 'POST', '/api/dictDetail', {
        dict: { id: dict.json<Created>().id },
        label: '白色',
        value: 'white',
        sort: 1,
      });
      expect(white.statusCode, white.body).toBe(201);
      expect(errorOf(await api(admin, 'POST', '/api/dictDetail', { dictName: 'car_color', label: '白', value: 'white' })).message).toBe(
        '字典值已存在',
      );
      expect((await api(undefined, 'GET', '/api/public?enumName=car_color')).statusCode).toBe(404);
      expect(
        (await api(admin, 'PUT', '/api/dict', { id: dict.json<Created>().id, name: 'car_color', description: '车身颜色', isPublic: true }))
          .statusCode,
      ).toBe(204);
      expect((await api(undefined, 'GET', '/api/public?enumName=car_color')).json()).toEqual([{ value: 'white', label: '白色' }]);
      expect((await api(admin, 'DELETE', '/api/dict', [dict.json<Created>().id])).statusCode).toBe(200);
      expect((await api(admin, 'GET', '/api/dictDetail?dictName=car_color')).json<Page>().totalElements).toBe(0);
      expect((await api(admin, 'GET', '/api/dictDetail')).statusCode).toBe(400);
    });
  });
});
