/**
 * Menus of the account area's console screens, placed in 系统管理 (created when missing):
 * 操作日志 (/logs, log:list) and 发件箱 (/outbox, outbox:list). Added once; an administrator's
 * later changes are kept. Run inside the area's set-up transaction (several instances may start at once).
 */
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { LOG_PERMISSION } from '../logs/log-routes.ts';
import { OUTBOX_PERMISSION } from './outbox-routes.ts';

export const ACCOUNT_MENUS = [
  { title: '操作日志', path: 'logs', component: 'logs', permission: LOG_PERMISSION, icon: 'log', sort: 80 },
  { title: '发件箱', path: 'outbox', component: 'outbox', permission: OUTBOX_PERMISSION, icon: 'email', sort: 81 },
];
const DIRECTORY = { title: '系统管理', path: 'system', icon: 'system', sort: 90 };

export async function seedAccountMenus(db: Db): Promise<void> {
  const now = nowText();
  {
    const trx = db;
    let dir = await trx.selectFrom('sys_menu').select('id').where('type', '=', 0).where('title', '=', DIRECTORY.title).executeTakeFirst();
    if (!dir) {
      dir = await trx
        .insertInto('sys_menu')
        .values({
          pid: null,
          type: 0,
          title: DIRECTORY.title,
          name: DIRECTORY.title,
          path: DIRECTORY.path,
          icon: DIRECTORY.icon,
          menu_sort: DIRECTORY.sort,
          hidden: 0,
          cache: 0,
          i_frame: 0,
          create_time: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    }
    for (const m of ACCOUNT_MENUS) {
      const have = await trx.selectFrom('sys_menu').select('id').where('permission', '=', m.permission).executeTakeFirst();
      if (have) continue;
      await trx
        .insertInto('sys_menu')
        .values({
          pid: Number(dir.id),
          type: 1,
          title: m.title,
          name: m.component,
          component: m.component,
          path: m.path,
          icon: m.icon,
          menu_sort: m.sort,
          permission: m.permission,
          hidden: 0,
          cache: 0,
          i_frame: 0,
          create_time: now,
        })
        .execute();
    }
  }
}
