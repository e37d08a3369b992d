/**
 * What people are told: after a restore every signed-in user (a system message, 系统消息, and
 * the realtime INFO that makes every open console show it); when a scheduled backup fails, the
 * same channel with a message addressed to the administrators. The system message channel has
 * no audience of its own (every signed-in user reads it), so the failure message says only
 * that it failed and where an administrator looks (备份管理, the job log), never the details.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { resourceByName } from '../../../generated/resources.ts';
import { insertRecorded, SYSTEM_ACTOR } from '../../crud/history/recorded-writes.ts';

export const RESTORED_TITLE = '系统数据已从备份恢复';
export const BACKUP_FAILED_TITLE = '自动备份失败，请系统管理员处理';

async function systemMessage(database: Database, title: string, msg: string, url: string | null): Promise<void> {
  // as a system message made on the screen: its title's pinyin keys and its revision come with it
  await database.db.transaction().execute((trx) =>
    insertRecorded(trx, resourceByName.sysSocket, database.dialect, SYSTEM_ACTOR, {
      title,
      msg,
      url,
      type: 1,
      sort: 0,
      enabled: true,
      createTime: nowText(),
    }),
  );
}

/** A system message to everyone, then the INFO that makes open consoles show it. */
export async function announce(
  app: FastifyInstance | undefined,
  database: Database,
  title: string,
  msg: string,
  url: string | null = null,
): Promise<void> {
  await systemMessage(database, title, msg, url);
  await app?.hub?.push({ kind: 'layout' }, { msgType: 'INFO', msg: `您有新的系统消息：${title}` });
}

export function restoredMessage(restoredAt: string, name: string, before: string): string {
  return `系统数据已恢复到 ${restoredAt} 的备份（${name}），恢复前的数据已另存为备份 ${before}。此后录入的数据不在其中；如页面显示异常，请刷新页面或重新登录。`;
}

export function failedMessage(time: string): string {
  return `${time} 的自动备份没有完成。请系统管理员在“系统管理 > 备份管理”和定时任务的执行日志中查看原因。`;
}
