/**
 * GET /api/menus/build: the signed-in user's visible menu tree, in the shape the console's
 * router reads (eladmin's MenuVo):
 *
 *   { name, path, hidden, redirect?, component, alwaysShow?, meta: { title, icon, noCache }, children? }
 *
 * - which menus: directories (type 0) and screens (type 1) linked to the user's roles, plus
 *   the directories above them; admin sees every one. Buttons (type 2) are permission keys,
 *   never menus.
 * - a directory: component 'Layout' at the root, 'ParentView' below; redirect 'noredirect';
 *   alwaysShow true; path '/<path>' at the root.
 * - a screen at the root is wrapped like eladmin does: { path: '/', component: 'Layout',
 *   children: [ the screen with path <path> ] }, so every screen sits inside the layout.
 * - an iFrame menu keeps its external address as path.
 * Sorted by sort, then id. Disabled parents hide their children (a child of a hidden menu is
 * still built, hidden with it).
 */
import type { Db } from '../../types.ts';

export interface MenuRow {
  id: number;
  pid: number | null;
  type: number;
  title: string;
  name: string | null;
  component: string | null;
  path: string | null;
  icon: string | null;
  menu_sort: number;
  hidden: boolean;
  cache: boolean;
  i_frame: boolean;
}

export interface MenuVo {
  name?: string;
  path: string;
  hidden: boolean;
  redirect?: string;
  component: string;
  alwaysShow?: boolean;
  meta?: { title: string; icon: string | null; noCache: boolean };
  children?: MenuVo[];
}

const asRow = (r: Record<string, unknown>): MenuRow => ({
  id: Number(r.id),
  pid: r.pid === null || r.pid === undefined || Number(r.pid) === 0 ? null : Number(r.pid),
  type: Number(r.type),
  title: String(r.title),
  name: (r.name as string | null) ?? null,
  component: (r.component as string | null) ?? null,
  path: (r.path as string | null) ?? null,
  icon: (r.icon as string | null) ?? null,
  menu_sort: Number(r.menu_sort ?? 999),
  hidden: Boolean(r.hidden),
  cache: Boolean(r.cache),
  i_frame: Boolean(r.i_frame),
});

/** The menu rows (types 0 and 1) a user sees: their roles' menus and every ancestor of those. */
export async function visibleMenuRows(db: Db, userId: number, isAdmin: boolean): Promise<MenuRow[]> {
  const all = (await db.selectFrom('sys_menu').selectAll().where('type', 'in', [0, 1]).execute()).map(asRow);
  if (isAdmin) return all;
  const linked = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'ur.role_id')
    .select('rm.menu_id')
    .distinct()
    .where('ur.user_id', '=', userId)
    .execute();
  const byId = new Map(all.map((m) => [m.id, m]));
  const keep = new Set<number>();
  for (const { menu_id } of linked) {
    let cur = byId.get(Number(menu_id));
    // walk up to the root; a cycle in bad data stops at the first repeat
    while (cur && !keep.has(cur.id)) {
      keep.add(cur.id);
      cur = cur.pid === null ? undefined : byId.get(cur.pid);
    }
  }
  return all.filter((m) => keep.has(m.id));
}

const meta = (m: MenuRow) => ({ title: m.title, icon: m.icon, noCache: !m.cache });
const clean = (p: string | null) => (p ?? '').replace(/^\/+/, '');

/** Builds the tree of `rows` (already filtered to what the user sees). */
export function buildMenuTree(rows: MenuRow[]): MenuVo[] {
  const children = new Map<number | null, MenuRow[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const r of rows) {
    // an orphan (its parent not visible or gone) is shown at the root
    const parent = r.pid !== null && ids.has(r.pid) ? r.pid : null;
    const list = children.get(parent) ?? [];
    list.push(r);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.menu_sort - b.menu_sort || a.id - b.id);

  const visit = (m: MenuRow, root: boolean, seen: Set<number>): MenuVo => {
    const kids = seen.has(m.id) ? [] : (children.get(m.id) ?? []);
    const nextSeen = new Set(seen).add(m.id);
    const path = m.i_frame ? (m.path ?? '') : root ? `/${clean(m.path)}` : clean(m.path);
    if (m.type === 0) {
      return {
        name: m.name || m.title,
        path,
        hidden: m.hidden,
        redirect: 'noredirect',
        component: root ? 'Layout' : 'ParentView',
        alwaysShow: true,
        meta: meta(m),
        children: kids.map((k) => visit(k, false, nextSeen)),
      };
    }
    const screen: MenuVo = {
      name: m.name || m.title,
      path: root && !m.i_frame ? clean(m.path) : path,
      hidden: m.hidden,
      component: m.component || clean(m.path),
      meta: meta(m),
    };
    if (kids.length) screen.children = kids.map((k) => visit(k, false, nextSeen));
    if (!root) return screen;
    return { path: '/', hidden: m.hidden, component: 'Layout', children: [screen] };
  };
  return (children.get(null) ?? []).map((m) => visit(m, true, new Set()));
}
