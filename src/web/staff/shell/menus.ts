/**
 * The signed-in user's menu tree (GET api/menus/build), loaded once per session, and what the
 * console derives from it: the sidebar entries, the routes the user may open (others show the
 * no-permission page) and the titles of tabs, breadcrumb and menu search.
 *
 * Screens are opened at '/' + their own path (a resource name such as 'sysQuestion', or a page
 * path such as 'DecisionCenter/index'); directories only group them in the sidebar.
 */
import { useEffect, useState } from 'react';
import { request } from '../../common/http.ts';
import { getToken } from '../../common/token.ts';
import { takeEarly } from '../../common/early.ts';
import { registerMenuTitles } from './titles.ts';

export interface MenuNode {
  name?: string;
  path: string;
  hidden: boolean;
  redirect?: string;
  component: string;
  alwaysShow?: boolean;
  meta?: { title: string; icon: string | null; noCache: boolean } | null;
  children?: MenuNode[];
}

export interface SidebarEntry {
  /** a directory groups entries; a screen has a route */
  kind: 'directory' | 'screen';
  title: string;
  icon: string | null;
  /** the screen's route ('/sysQuestion'), or an outside address for an iFrame menu */
  route?: string;
  external?: boolean;
  children: SidebarEntry[];
}

const isExternal = (path: string) => /^https?:\/\//i.test(path);

/** Sidebar entries of a build tree: Layout wrappers dissolve, hidden menus are left out. */
export function sidebarEntries(tree: MenuNode[]): SidebarEntry[] {
  const out: SidebarEntry[] = [];
  for (const node of tree) {
    if (node.hidden) continue;
    if (!node.meta) {
      // the Layout wrapper of a root screen
      out.push(...sidebarEntries(node.children ?? []));
      continue;
    }
    const isDirectory = node.component === 'Layout' || node.component === 'ParentView';
    if (isDirectory) {
      out.push({ kind: 'directory', title: node.meta.title, icon: node.meta.icon, children: sidebarEntries(node.children ?? []) });
    } else {
      const external = isExternal(node.path);
      out.push({
        kind: 'screen',
        title: node.meta.title,
        icon: node.meta.icon,
        route: external ? node.path : `/${node.path.replace(/^\/+/, '')}`,
        external,
        children: [],
      });
    }
  }
  return out;
}

/** Every screen route of the tree (hidden ones included: they may be opened, just not listed). */
export function screenRoutes(tree: MenuNode[]): Map<string, string> {
  const routes = new Map<string, string>();
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      const directory = !n.meta || n.component === 'Layout' || n.component === 'ParentView';
      if (!directory && n.meta && !isExternal(n.path)) routes.set(`/${n.path.replace(/^\/+/, '')}`, n.meta.title);
      walk(n.children ?? []);
    }
  };
  walk(tree);
  return routes;
}

/**
 * Whether a path may be opened: pages every user has (home, personal centre, error pages,
 * the refresh detour) always; a screen only when the user's menus hold it. `/x:param` and
 * `/x/...` belong to the screen `/x`.
 */
export const ALWAYS_OPEN = [
  '/',
  '/dashboard',
  '/user/center',
  '/401',
  '/403',
  '/404',
  '/developing',
  '/usage',
  '/explain',
  '/UserCzwd',
  '/help',
  '/jobDescription',
];

export function mayOpen(path: string, routes: Map<string, string>): boolean {
  if (ALWAYS_OPEN.includes(path) || path.startsWith('/redirect/')) return true;
  if (routes.has(path)) return true;
  const first = `/${path.split('/')[1] ?? ''}`.split(':')[0];
  return routes.has(first);
}

let loaded: Promise<MenuNode[]> | null = null;
let loadedFor: string | null = null;
/** the tree `loaded` resolved to, so screens mounted after it arrived render with it at once */
let settled: MenuNode[] | null = null;

/** The session's menus when they have already arrived, else null. */
export function peekMenus(): MenuNode[] | null {
  return loaded && loadedFor === getToken() ? settled : null;
}

/** The menus of the current session (loaded again when the token changes: another user signed in). */
export function loadMenus(): Promise<MenuNode[]> {
  const token = getToken();
  if (loaded && loadedFor !== token) loaded = null;
  if (!loaded) {
    loadedFor = token;
    settled = null;
    const ask = () => request<MenuNode[]>('/api/menus/build', { quiet: true }).then(({ data }) => data);
    // the page may have asked already (index.html, signed-in visits): that answer, else ask now
    const early = takeEarly<MenuNode[]>('menus');
    const load = (early ? early.catch(ask) : ask()).then((data) => {
      const tree = Array.isArray(data) ? data : [];
      registerMenuTitles(screenRoutes(tree));
      if (loaded === load) settled = tree;
      return tree;
    });
    loaded = load;
    load.catch(() => {
      if (loaded === load) loaded = null;
    });
  }
  return loaded;
}

/** Forget the loaded menus (sign-out, role change). */
export function resetMenus(): void {
  loaded = null;
  settled = null;
}

export function useMenus(): { tree: MenuNode[] | null; error: boolean } {
  const [state, setState] = useState<{ tree: MenuNode[] | null; error: boolean }>(() => ({ tree: peekMenus(), error: false }));
  useEffect(() => {
    let live = true;
    loadMenus().then(
      (tree) => live && setState((old) => (old.tree === tree ? old : { tree, error: false })),
      () => live && setState({ tree: null, error: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
