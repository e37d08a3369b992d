/**
 * A notice to the administrators from the server itself (free space running low, and the like):
 * - stored as a system message (系统消息推送) that is switched off, so it stays listed for
 *   those who manage system messages without appearing in every staff member's bell;
 * - pushed at once, as an INFO, to the signed-in admin and holders of `sysSocket:list`.
 * Neither may fail the caller: what cannot be stored or pushed is logged.
 */
import type { FastifyInstance } from 'fastify';
import { nowText } from '../../db/index.ts';
import { resourceByName } from '../../../generated/resources.ts';
import { insertRecorded, SYSTEM_ACTOR } from '../../crud/history/recorded-writes.ts';
import { staffHolding } from '../../auth/permission-holders.ts';
import { ADMIN_USERNAME } from '../../auth/seed.ts';

export const ADMIN_NOTICE_KEY = 'sysSocket:list';

export async function notifyAdmins(app: FastifyInstance, title: string, msg: string): Promise<void> {
  const { db, dialect } = app.database;
  try {
    // as a system message made on the screen: its title's pinyin keys and its revision come with it
    await db.transaction().execute((trx) =>
      insertRecorded(trx, resourceByName.sysSocket, dialect, SYSTEM_ACTOR, {
        title: title.slice(0, 100),
        msg,
        type: 1,
        sort: 0,
        enabled: false,
        createTime: nowText(),
      }),
    );
  } catch (err) {
    app.log.warn({ err }, 'admin notice not stored');
  }
  if (!app.hasDecorator('hub')) return;
  try {
    const admin = await db.selectFrom('sys_user').select('id').where('username', '=', ADMIN_USERNAME).executeTakeFirst();
    const holders = await staffHolding(db, ADMIN_NOTICE_KEY);
    const users = [...new Set([...(admin ? [Number(admin.id)] : []), ...holders.map((h) => h.id)])];
    if (users.length) await app.hub.push({ kind: 'layout', users }, { msgType: 'INFO', msg: `${title}：${msg}` });
  } catch (err) {
    app.log.warn({ err }, 'admin notice not pushed');
  }
}
