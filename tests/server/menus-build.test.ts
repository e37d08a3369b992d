import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildMenuTree, type MenuRow } from '../../src/server/modules/menus/build.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';

/** a node of the menu tree api/menus/build answers */
interface MenuNode {
  path: string;
  component: string;
  meta?: { title: string };
  children: MenuNode[];
}

const row = (r: Partial<MenuRow> & Pick<MenuRow, 'id' | 'title'>): MenuRow => ({
  pid: null,
  type: 1,
  name: null,
  component: null,
  path: null,
  icon: null,
  menu_sort: 999,
  hidden: false,
  cache: false,
  i_frame: false,
  ...r,
});

describe('menu tree shape', () => {
  it('directories: Layout at the root, ParentView below, noredirect, alwaysShow; root screens wrapped in Layout', () => {
    const tree = buildMenuTree([
      row({ id: 1, type: 0, title: '系统管理', path: 'system', icon: 'system', menu_sort: 2 }),
      row({ id: 2, pid: 1, type: 0, title: '日志', path: 'logs', menu_sort: 1 }),
      row({ id: 3, pid: 2, title: '操作日志', path: 'log', component: 'monitor/log/index', cache: true }),
      row({ id: 4, title: '数据决策中心', path: 'DecisionCenter/index', component: 'DecisionCenter/index', menu_sort: 1 }),
      row({ id: 5, title: '外部报表', path: 'https://bi.example.com', i_frame: true, menu_sort: 3 }),
    ]);
    expect(tree).toEqual([
      {
        path: '/',
        hidden: false,
        component: 'Layout',
        children: [
          {
            name: '数据决策中心',
            path: 'DecisionCenter/index',
            hidden: false,
            component: 'DecisionCenter/index',
            meta: { title: '数据决策中心', icon: null, noCache: true },
          },
        ],
      },
      {
        name: '系统管理',
        path: '/system',
        hidden: false,
        redirect: 'noredirect',
        component: 'Layout',
        alwaysShow: true,
        meta: { title: '系统管理', icon: 'system', noCache: true },
        children: [
          {
            name: '日志',
            path: 'logs',
            hidden: false,
            redirect: 'noredirect',
            component: 'ParentView',
            alwaysShow: true,
            meta: { title: '日志', icon: null, noCache: true },
            children: [
              {
                name: '操作日志',
                path: 'log',
                hidden: false,
                component: 'monitor/log/index',
                meta: { title: '操作日志', icon: null, noCache: false },
              },
            ],
          },
        ],
      },
      {
        path: '/',
        hidden: false,
        component: 'Layout',
        children: [
          {
            name: '外部报表',
            path: 'https://bi.example.com',
            hidden: false,
            component: 'https://bi.example.com',
            meta: { title: '外部报表', icon: null, noCache: true },
          },
        ],
      },
    ]);
  });

  it('an orphan goes to the root; a parent cycle does not loop', () => {
    const tree = buildMenuTree([
      row({ id: 7, pid: 99, title: '孤儿', path: 'orphan' }),
      row({ id: 8, pid: 9, type: 0, title: 'A' }),
      row({ id: 9, pid: 8, type: 0, title: 'B' }),
    ]);
    expect(tree.map((t) => t.children?.[0]?.name ?? t.name)).toEqual(['孤儿']);
  });
});

describe.each(testApps())('GET /api/menus/build on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let clerk: Record<string, string>;

  const titles = (tree: Array<{ meta?: { title: string }; children?: unknown[] }>): unknown[] =>
    tree.map((n) => (n.meta ? { [n.meta.title]: titles((n.children ?? []) as never) } : titles((n.children ?? []) as never))).flat();

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    await createStaff(app, { username: 'clerk', password: 'Clerk@2024', permissions: ['sysQuestion:list', 'sysQuestion:add'] });
    clerk = bearer(await loginAs(app, 'clerk', 'Clerk@2024'));
  });
  afterAll(async () => t?.close());

  it('admin sees every directory and screen, no buttons', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/menus/build', headers: admin });
    expect(res.statusCode).toBe(200);
    // generated from the menu table: every directory (type 0) and screen (type 1) is in the tree, no button (type 2) is
    const shown: string[] = [];
    const walk = (nodes: MenuNode[]): void => {
      for (const n of nodes) {
        if (n.meta) shown.push(n.meta.title);
        walk(n.children ?? []);
      }
    };
    walk(res.json<MenuNode[]>());
    const menus = await app.database.db.selectFrom('sys_menu').select(['title', 'type']).execute();
    const wanted = menus.filter((m) => Number(m.type) !== 2).map((m) => String(m.title));
    expect(wanted.length).toBeGreaterThan(30);
    expect(wanted.filter((title) => !shown.includes(title))).toEqual([]);
    const buttons = new Set(menus.filter((m) => Number(m.type) === 2).map((m) => String(m.title)));
    expect(shown.filter((title) => buttons.has(title))).toEqual([]);
    expect(shown).toHaveLength(wanted.length);
    const system = res.json<MenuNode[]>().find((n) => n.meta?.title === '系统管理');
    expect(system).toMatchObject({ path: '/system', component: 'Layout', alwaysShow: true, redirect: 'noredirect' });
    const systemScreens = system!.children.map((c) => [c.path, c.component]);
    expect(systemScreens.slice(0, 6)).toEqual([
      ['system/user', 'system/user/index'],
      ['system/role', 'system/role/index'],
      ['system/menu', 'system/menu/index'],
      ['system/dept', 'system/dept/index'],
      ['system/dict', 'system/dict/index'],
      ['system/busidict', 'system/busidict/index'],
    ]);
    expect(systemScreens).toEqual(
      expect.arrayContaining([
        ['sysQuestion', 'sysQuestion'],
        ['logs', 'logs'],
        ['outbox', 'outbox'],
        ['sysSocket', 'sysSocket'],
        ['UserCzwd', 'UserCzwd'],
        ['dj', 'dj'],
        ['brandTree', 'brandTree'],
      ]),
    );
  });

  it('a role-limited user sees only its screens and the directories above them', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/menus/build', headers: clerk });
    expect(res.statusCode).toBe(200);
    expect(titles(res.json())).toEqual([{ 系统管理: [{ 问题反馈: [] }] }]);
  });

  it('no token: 401', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/menus/build' })).statusCode).toBe(401);
  });
});
