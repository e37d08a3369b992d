/**
 * A hand-written screen's menu with its buttons (permission keys), created once on start
 * when missing (matched by permission key), like the generated resources' menus: a new menu
 * and its buttons are linked to the admin role; an administrator's later changes are kept.
 */
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { ADMIN_ROLE } from '../../auth/seed.ts';

export interface ScreenMenu {
  title: string;
  path: string;
  component: string;
  /** the key that opens the screen, e.g. brandTree:list */
  permission: string;
  icon?: string;
  sort: number;
  /** title of the sidebar directory to place it in (when that directory exists) */
  directory?: string;
  buttons: Array<{ title: string; permission: string }>;
}

export async function ensureScreenMenu(db: Db, menu: ScreenMenu): Promise<void> {
  const now = nowText();
  const created: number[] = [];
  let menuId: number;
  const have = await db.selectFrom('sys_menu').select('id').where('permission', '=', menu.permission).executeTakeFirst();
  if (have) menuId = Number(have.id);
  else {
    const dir = menu.directory
      ? await db.selectFrom('sys_menu').select('id').where('type', '=', 0).where('title', '=', menu.directory).executeTakeFirst()
      : undefined;
    const row = await db
      .insertInto('sys_menu')
      .values({
        pid: dir ? Number(dir.id) : null,
        type: 1,
        title: menu.title,
        name: menu.component,
        component: menu.component,
        path: menu.path,
        icon: menu.icon ?? null,
        menu_sort: menu.sort,
        permission: menu.permission,
        hidden: 0,
        cache: 0,
        i_frame: 0,
        create_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    menuId = Number(row.id);
    created.push(menuId);
  }
  for (const [i, b] of menu.buttons.entries()) {
    if (await db.selectFrom('sys_menu').select('id').where('permission', '=', b.permission).executeTakeFirst()) continue;
    const row = await db
      .insertInto('sys_menu')
      .values({
        pid: menuId,
        type: 2,
        title: b.title,
        menu_sort: i + 1,
        permission: b.permission,
        hidden: 0,
        cache: 0,
        i_frame: 0,
        create_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    created.push(Number(row.id));
  }
  if (!created.length) return;
  const role = await db.selectFrom('sys_role').select('id').where('name', '=', ADMIN_ROLE).executeTakeFirst();
  if (!role) return;
  for (const id of created) {
    await db
      .insertInto('sys_roles_menus')
      .values({ role_id: Number(role.id), menu_id: id })
      .onConflict((oc) => oc.columns(['role_id', 'menu_id']).doNothing())
      .execute();
  }
}
