/**
 * Menu administration (sys_menu; type 0 directory, 1 menu (a screen), 2 button (a key)):
 *   GET    api/menus?pid=&blurry=       {content, totalElements}: the menus under pid (0 = roots),
 *                                       or every match of blurry (title, path, permission) (menu:list)
 *   GET    api/menus/getMenusByPid?pid= the children of pid, for the lazy tree table (signed in)
 *   GET    api/menus/list               the whole tree for the role-menu editor (signed in)
 *   GET    api/menus/findUserByMenu?menuId=  the users holding the menu through a role (menu:list)
 *   POST   api/menus                    create (menu:add)
 *   PUT    api/menus                    update; no cycles (menu:edit)
 *   DELETE api/menus                    [ids]: the menus, everything below them and their role
 *                                       links (menu:del)
 * Every change clears the access cache so keys and sidebars follow at once.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TABLE_HISTORY } from '../../../shared/table-history.ts';
import type { RevisionAction } from '../../crud/history/revisions.ts';
import { registerTableHistory } from '../../crud/history/table-history-routes.ts';
import { registerTableBin } from '../../crud/history/table-recycle-bin.ts';
import { idListsBy, trackChange, type TrackedTable } from '../../crud/history/table-revisions.ts';
import { sql } from 'kysely';
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { invalidateAccess } from '../../auth/access.ts';
import {
  assertForm,
  bool,
  deleteIds,
  escapeLike,
  integer,
  objectBody,
  onlyKeys,
  optionalId,
  optionalText,
  queryValue,
  requiredId,
  requiredText,
  type Body,
} from './input.ts';

export const MENU_CYCLE = '上级菜单不能为自己或自己的下级';
import { MENU_FORM } from '../../../shared/admin-forms.ts';
import type { MenuRow as BuiltMenuRow } from '../menus/build.ts';

export interface MenuView {
  id: number;
  pid: number;
  type: number;
  title: string;
  label: string;
  name: string | null;
  component: string | null;
  path: string | null;
  icon: string | null;
  sort: number;
  menuSort: number;
  permission: string | null;
  hidden: boolean;
  cache: boolean;
  iFrame: boolean;
  createTime: string | null;
  hasChildren: boolean;
  leaf: boolean;
  subCount: number;
  children?: MenuView[];
}

/** A sys_menu row as the database returns it: the built menu's columns (flags are 0/1 on SQLite, booleans on PostgreSQL), with the key and time. */
type MenuRow = Omit<BuiltMenuRow, 'hidden' | 'cache' | 'i_frame'> & {
  permission: string | null;
  hidden: number | boolean;
  cache: number | boolean;
  i_frame: number | boolean;
  create_time: string | null;
};

function view(r: MenuRow, subCount: number): MenuView {
  return {
    id: Number(r.id),
    pid: r.pid === null || r.pid === undefined ? 0 : Number(r.pid),
    type: Number(r.type),
    title: r.title,
    label: r.title,
    name: r.name ?? null,
    component: r.component ?? null,
    path: r.path ?? null,
    icon: r.icon ?? null,
    sort: Number(r.menu_sort),
    menuSort: Number(r.menu_sort),
    permission: r.permission ?? null,
    hidden: Boolean(r.hidden),
    cache: Boolean(r.cache),
    iFrame: Boolean(r.i_frame),
    createTime: r.create_time ?? null,
    hasChildren: subCount > 0,
    leaf: subCount === 0,
    subCount,
  };
}

async function allMenus(db: Db): Promise<MenuRow[]> {
  return db.selectFrom('sys_menu').selectAll().orderBy('menu_sort').orderBy('id').$castTo<MenuRow>().execute();
}

function counts(rows: Array<Pick<MenuRow, 'pid'>>): Map<number, number> {
  const m = new Map<number, number>();
  for (const r of rows) if (r.pid !== null) m.set(Number(r.pid), (m.get(Number(r.pid)) ?? 0) + 1);
  return m;
}

/** The ids below `roots` (roots included). */
function descendants(rows: Array<Pick<MenuRow, 'id' | 'pid'>>, roots: number[]): Set<number> {
  const kids = new Map<number, number[]>();
  for (const r of rows) if (r.pid !== null) kids.set(Number(r.pid), [...(kids.get(Number(r.pid)) ?? []), Number(r.id)]);
  const out = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(kids.get(id) ?? []));
  }
  return out;
}

function parsePid(query: unknown): number | null {
  const text = queryValue(query, 'pid') ?? '0';
  if (!/^\d{1,16}$/.test(text)) throw badRequest('参数pid必须是不小于0的整数');
  return Number(text) || null;
}

/** sys_menu as record history tracks it (its columns). */
export const MENU_TABLE: TrackedTable = {
  spec: TABLE_HISTORY.menu,
  bin: true,
  // the roles granting the menu (their links go with a deleted menu and come back with it)
  extra: async (db, ids) =>
    idListsBy(
      ids,
      (await db.selectFrom('sys_roles_menus').select(['menu_id', 'role_id']).where('menu_id', 'in', ids).execute()).map((r) => [
        r.menu_id,
        r.role_id,
      ]),
      'roles',
    ),
};

export function registerMenuAdmin(app: FastifyInstance): void {
  const db = app.database.db;
  const dialect = app.database.dialect;

  app.get('/api/menus', { preHandler: app.requirePermission('menu:list') }, async (request) => {
    onlyKeys(request.query, ['pid', 'blurry', 'page', 'size', 'sort']);
    const rows = await allMenus(db);
    const n = counts(rows);
    const blurry = queryValue(request.query, 'blurry');
    let chosen: MenuRow[];
    if (blurry) {
      const like = `%${escapeLike(blurry)}%`;
      chosen = await db
        .selectFrom('sys_menu')
        .selectAll()
        .where(
          sql<boolean>`(title like ${like} escape '\\' or path like ${like} escape '\\' or permission like ${like} escape '\\' or component like ${like} escape '\\')`,
        )
        .orderBy('menu_sort')
        .orderBy('id')
        .$castTo<MenuRow>()
        .execute();
    } else {
      const pid = parsePid(request.query);
      chosen = rows.filter((r) => (r.pid === null ? null : Number(r.pid)) === pid);
    }
    return { content: chosen.map((r) => view(r, n.get(Number(r.id)) ?? 0)), totalElements: chosen.length };
  });

  app.get('/api/menus/getMenusByPid', { preHandler: app.requireAnyPermission(['menu:list', 'roles:list']) }, async (request) => {
    onlyKeys(request.query, ['pid']);
    const pid = parsePid(request.query);
    const rows = await allMenus(db);
    const n = counts(rows);
    return rows.filter((r) => (r.pid === null ? null : Number(r.pid)) === pid).map((r) => view(r, n.get(Number(r.id)) ?? 0));
  });

  app.get('/api/menus/list', { preHandler: app.requireAnyPermission(['menu:list', 'roles:list']) }, async (request) => {
    onlyKeys(request.query, []);
    const rows = await allMenus(db);
    const n = counts(rows);
    const ids = new Set(rows.map((r) => Number(r.id)));
    const byParent = new Map<number | null, MenuRow[]>();
    for (const r of rows) {
      const p = r.pid !== null && ids.has(Number(r.pid)) ? Number(r.pid) : null;
      byParent.set(p, [...(byParent.get(p) ?? []), r]);
    }
    const build = (r: MenuRow, seen: Set<number>): MenuView => {
      const v = view(r, n.get(Number(r.id)) ?? 0);
      const kids = seen.has(v.id) ? [] : (byParent.get(v.id) ?? []);
      if (kids.length) v.children = kids.map((k) => build(k, new Set(seen).add(v.id)));
      return v;
    };
    return (byParent.get(null) ?? []).map((r) => build(r, new Set()));
  });

  app.get('/api/menus/findUserByMenu', { preHandler: app.requirePermission('menu:list') }, async (request) => {
    onlyKeys(request.query, ['menuId', 'id']);
    const menuId = requiredId(queryValue(request.query, 'menuId') ?? queryValue(request.query, 'id'), '请选择菜单');
    if (!(await db.selectFrom('sys_menu').select('id').where('id', '=', menuId).executeTakeFirst())) throw notFound('菜单不存在');
    const rows = await db
      .selectFrom('sys_roles_menus as rm')
      .innerJoin('sys_users_roles as ur', 'ur.role_id', 'rm.role_id')
      .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
      .select(['u.id', 'u.username', 'u.nick_name'])
      .distinct()
      .where('rm.menu_id', '=', menuId)
      .orderBy('u.id')
      .$castTo<{ id: number; username: string; nick_name: string | null }>()
      .execute();
    return rows.map((r) => ({ id: Number(r.id), username: r.username, nickName: r.nick_name ?? '' }));
  });

  const readMenu = async (body: Body, id?: number) => {
    const type = integer(body, 'type', '菜单类型', 0, 2, 1);
    // the form's fields, as the screen checks them (路由地址 and 权限标识 by type, 外链 http(s))
    assertForm(MENU_FORM, body);
    const iFrame = bool(body, 'iFrame', '外链', false);
    const m = {
      type,
      title: requiredText(body, 'title', '菜单标题', 100),
      pid: optionalId(body.pid, '上级菜单不正确'),
      name: optionalText(body, 'name', '组件名称', 100),
      component: optionalText(body, 'component', '组件路径', 255),
      path: optionalText(body, 'path', '路由地址', 255),
      icon: optionalText(body, 'icon', '菜单图标', 100),
      sort: integer(body, body.menuSort !== undefined && body.sort === undefined ? 'menuSort' : 'sort', '菜单排序', 0, 999999, 999),
      permission: optionalText(body, 'permission', '权限标识', 100),
      hidden: bool(body, 'hidden', '菜单可见', false),
      cache: bool(body, 'cache', '菜单缓存', false),
      iFrame: type === 2 ? false : iFrame,
    };
    if (m.permission !== null) {
      let q = db.selectFrom('sys_menu').select('id').where('permission', '=', m.permission);
      if (id !== undefined) q = q.where('id', '!=', id);
      if (await q.executeTakeFirst()) throw badRequest('权限标识已存在', { field: 'permission' });
    }
    if (m.pid !== null) {
      const parent = await db.selectFrom('sys_menu').select(['id', 'type']).where('id', '=', m.pid).executeTakeFirst();
      if (!parent) throw badRequest('上级菜单不存在');
      if (Number(parent.type) === 2) throw badRequest('按钮下不能再添加菜单');
    }
    return m;
  };

  const row = (m: Awaited<ReturnType<typeof readMenu>>) => ({
    pid: m.pid,
    type: m.type,
    title: m.title,
    name: m.name,
    component: m.component,
    path: m.type === 2 ? m.path : m.path,
    icon: m.icon,
    menu_sort: m.sort,
    permission: m.permission,
    hidden: m.hidden ? 1 : 0,
    cache: m.cache ? 1 : 0,
    i_frame: m.iFrame ? 1 : 0,
  });

  app.post('/api/menus', { preHandler: app.requirePermission('menu:add') }, async (request, reply) => {
    const m = await readMenu(objectBody(request.body));
    const now = nowText();
    const created = await db.transaction().execute((trx) =>
      trackChange(
        trx,
        dialect,
        MENU_TABLE,
        request,
        'create',
        [],
        () =>
          trx
            .insertInto('sys_menu')
            .values({ ...row(m), create_time: now, update_time: now })
            .returning('id')
            .executeTakeFirstOrThrow(),
        (r) => [Number(r.id)],
      ),
    );
    invalidateAccess();
    const stored = await db
      .selectFrom('sys_menu')
      .selectAll()
      .where('id', '=', Number(created.id))
      .$castTo<MenuRow>()
      .executeTakeFirstOrThrow();
    return reply.status(201).send(view(stored, 0));
  });

  app.put('/api/menus', { preHandler: app.requirePermission('menu:edit') }, async (request, reply) => {
    const body = objectBody(request.body);
    await editMenu(request, body, requiredId(body.id, 'ID不能为空'), 'update');
    return reply.status(204).send();
  });

  /** The edit of a menu: its checks, then the write and its revision. */
  const editMenu = async (request: FastifyRequest, body: Body, id: number, action: RevisionAction) => {
    const rows = await allMenus(db);
    if (!rows.some((r) => Number(r.id) === id)) throw notFound('菜单不存在');
    const m = await readMenu(body, id);
    if (m.pid !== null && descendants(rows, [id]).has(m.pid)) throw badRequest(MENU_CYCLE);
    if (m.type === 2 && rows.some((r) => r.pid !== null && Number(r.pid) === id)) throw badRequest('该菜单存在下级，不能改为按钮');
    await db.transaction().execute((trx) =>
      trackChange(trx, dialect, MENU_TABLE, request, action, [id], () =>
        trx
          .updateTable('sys_menu')
          .set({ ...row(m), update_time: nowText() })
          .where('id', '=', id)
          .execute(),
      ),
    );
    invalidateAccess();
  };

  registerTableHistory(app, {
    key: 'menu',
    table: MENU_TABLE,
    restore: (request, id, state) => editMenu(request, { ...state, id, pid: state.pid ?? 0 }, id, 'restore'),
  });

  // 回收站: a menu comes back with the roles that granted it (those still there), through the
  // checks of a create (a key taken since, a parent that is a button); menus deleted below it
  // come back with it when chosen together (parents first)
  registerTableBin(app, {
    key: 'menu',
    table: MENU_TABLE,
    optionalLinks: ['roles'],
    check: async (_request, { state }) => {
      if (typeof state.permission === 'string' && state.permission) {
        const taken = await db.selectFrom('sys_menu').select('id').where('permission', '=', state.permission).executeTakeFirst();
        if (taken) throw badRequest('权限标识已存在', { field: 'permission' });
      }
      if (state.pid) {
        const parent = await db.selectFrom('sys_menu').select('type').where('id', '=', Number(state.pid)).executeTakeFirst();
        if (parent && Number(parent.type) === 2) throw badRequest('按钮下不能再添加菜单');
      }
    },
    insert: async (trx, { id, state, createTime }) => {
      await trx
        .insertInto('sys_menu')
        .values({
          id,
          pid: state.pid ?? null,
          type: state.type ?? 1,
          title: state.title,
          name: state.name,
          component: state.component,
          path: state.path,
          icon: state.icon,
          menu_sort: state.menuSort ?? 999,
          permission: state.permission,
          hidden: state.hidden ? 1 : 0,
          cache: state.cache ? 1 : 0,
          i_frame: state.iFrame ? 1 : 0,
          create_time: createTime,
          update_time: nowText(),
        })
        .execute();
      for (const r of (state.roles as number[] | null) ?? [])
        await trx.insertInto('sys_roles_menus').values({ role_id: r, menu_id: id }).execute();
    },
    afterRestore: () => invalidateAccess(),
  });

  app.delete('/api/menus', { preHandler: app.requirePermission('menu:del') }, async (request, reply) => {
    const ids = deleteIds(request.body);
    await db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('sys_menu').select(['id', 'pid']).execute();
      const known = new Set(rows.map((r) => Number(r.id)));
      if (ids.some((id) => !known.has(id))) throw notFound('菜单不存在');
      const all = [...descendants(rows, ids)];
      // every menu deleted (those below included) gets its delete revision
      await trackChange(trx, dialect, MENU_TABLE, request, 'delete', all, async () => {
        for (let i = 0; i < all.length; i += 500) {
          const chunk = all.slice(i, i + 500);
          await trx.deleteFrom('sys_roles_menus').where('menu_id', 'in', chunk).execute();
          await trx.deleteFrom('sys_menu').where('id', 'in', chunk).execute();
        }
      });
    });
    invalidateAccess();
    return reply.status(200).send();
  });
}
