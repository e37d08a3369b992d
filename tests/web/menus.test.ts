import { describe, expect, it } from 'vitest';
import { mayOpen, screenRoutes, sidebarEntries, type MenuNode } from '../../src/web/staff/shell/menus.ts';
import { isMenuScreen } from '../../src/web/staff/shell/MenuGuard.tsx';

const tree: MenuNode[] = [
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
        name: 'sysQuestion',
        path: 'sysQuestion',
        hidden: false,
        component: 'sysQuestion',
        meta: { title: '问题反馈', icon: null, noCache: true },
      },
      { name: 'secret', path: 'staffunZp', hidden: true, component: 'staffunZp', meta: { title: '隐藏的招聘', icon: null, noCache: true } },
    ],
  },
  {
    path: '/',
    hidden: false,
    component: 'Layout',
    children: [
      {
        name: 'DC',
        path: 'DecisionCenter/index',
        hidden: false,
        component: 'DecisionCenter/index',
        meta: { title: '数据决策中心', icon: 'chart', noCache: true },
      },
    ],
  },
  {
    path: '/',
    hidden: false,
    component: 'Layout',
    children: [
      { name: 'BI', path: 'https://bi.example.com', hidden: false, component: 'x', meta: { title: '外部报表', icon: null, noCache: true } },
    ],
  },
];

describe('menus from api/menus/build', () => {
  it('sidebar: directories with their screens, root screens unwrapped, hidden ones left out, outside links marked', () => {
    expect(sidebarEntries(tree)).toEqual([
      {
        kind: 'directory',
        title: '系统管理',
        icon: 'system',
        children: [{ kind: 'screen', title: '问题反馈', icon: null, route: '/sysQuestion', external: false, children: [] }],
      },
      { kind: 'screen', title: '数据决策中心', icon: 'chart', route: '/DecisionCenter/index', external: false, children: [] },
      { kind: 'screen', title: '外部报表', icon: null, route: 'https://bi.example.com', external: true, children: [] },
    ]);
  });

  it('routes: every screen, hidden included; a narrowed list belongs to its screen', () => {
    const routes = screenRoutes(tree);
    expect([...routes.keys()]).toEqual(['/sysQuestion', '/staffunZp', '/DecisionCenter/index']);
    expect(mayOpen('/sysQuestion', routes)).toBe(true);
    expect(mayOpen('/sysQuestion:销售', routes)).toBe(true);
    expect(mayOpen('/dashboard', routes)).toBe(true);
    expect(mayOpen('/redirect/anything', routes)).toBe(true);
    expect(mayOpen('/someOther', new Map())).toBe(false);
  });

  it('only screens the console has are refused; unknown paths are left to the 404 route', () => {
    expect(isMenuScreen('/sysQuestion')).toBe(true);
    expect(isMenuScreen('/sysQuestion:销售')).toBe(true);
    expect(isMenuScreen('/DecisionCenter/index')).toBe(true);
    expect(isMenuScreen('/no-such-screen')).toBe(false);
    expect(isMenuScreen('/dashboard')).toBe(false);
  });
});
