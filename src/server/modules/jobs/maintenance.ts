/**
 * The maintenance jobs the product ships, registered like any other job function and seeded
 * once as rows of api/dj:
 * - authMaintenance.purgeExpiredCaptchas: deletes sign-in captchas past their expiry;
 * - authMaintenance.purgeExpiredSessions: deletes sessions past their expiry (idle or remember-me end);
 * - authMaintenance.passwordAgeReminders: records one reminder per user whose password is 80 to 89
 *   days old (before the 90-day prompt and the 100-day refusal); the console shows the signed-in
 *   user their reminder (GET api/jobs/passwordReminder) until they change the password;
 * - jobMaintenance.purgeJobLogs: deletes run-log rows older than the days in params (default 30);
 * - revisionMaintenance.purgeOldRevisions: record history older than REVISION_RETENTION_DAYS (revision-retention.ts).
 */
import { purgeExpiredCodes } from '../account/codes.ts';
import { deleteOldLogs } from '../logs/retention.ts';
import { deleteExpiredDownloads } from '../../realtime/downloads.ts';
import { sql } from 'kysely';
import { nowText } from '../../db/index.ts';
import { registerJobFunction } from './registry.ts';
import { JOB_LOG_TABLE } from './tables.ts';
import { PASSWORD_REMINDER_TABLE } from './reminders.ts';
import { registerRevisionRetentionJob } from './revision-retention.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const REMINDER_FROM_DAYS = 80;
export const REMINDER_UNTIL_DAYS = 89;

/** Whole days from a 'YYYY-MM-DD HH:mm:ss' time to now. */
function ageDays(resetTime: string, now: Date): number {
  const t = new Date(resetTime.replace(' ', 'T'));
  return Math.floor((now.getTime() - t.getTime()) / DAY_MS);
}

/** Params of purgeJobLogs: empty (30) or the days to keep, 1-3650. */
export function checkKeepDays(params: string): string | null {
  if (params === '') return null;
  return /^\d{1,4}$/.test(params) && Number(params) >= 1 && Number(params) <= 3650
    ? null
    : `参数应为日志保留天数（1到3650的整数），收到：${params}`;
}

export function registerMaintenanceJobs(): void {
  registerRevisionRetentionJob();
  registerJobFunction(
    'authMaintenance',
    'purgeExpiredCaptchas',
    async ({ database, now }) => {
      const r = await database.db.deleteFrom('sys_captcha').where('expires', '<', now.getTime()).executeTakeFirst();
      return `删除过期验证码 ${Number(r.numDeletedRows)} 条`;
    },
    { name: '清理过期验证码', cron: '0 */10 * * * ?', remark: '每10分钟删除已过期的登录验证码' },
  );

  registerJobFunction(
    'authMaintenance',
    'purgeExpiredSessions',
    async ({ database, now }) => {
      const r = await database.db.deleteFrom('sys_session').where('expires', '<', now.getTime()).executeTakeFirst();
      return `删除过期会话 ${Number(r.numDeletedRows)} 条`;
    },
    { name: '清理过期会话', cron: '0 5 * * * ?', remark: '每小时第5分钟删除已过期的登录会话' },
  );

  registerJobFunction(
    'authMaintenance',
    'passwordAgeReminders',
    async ({ database, now }) => {
      const db = database.db;
      // candidates by a coarse time window, then the exact day count in code (same on both databases)
      const from = nowText(new Date(now.getTime() - (REMINDER_UNTIL_DAYS + 1) * DAY_MS));
      const until = nowText(new Date(now.getTime() - REMINDER_FROM_DAYS * DAY_MS));
      const users = await db
        .selectFrom('sys_user')
        .select(['id', 'pwd_reset_time'])
        .where('enabled', '=', database.dialect === 'postgres' ? sql<boolean>`true` : 1)
        .where('pwd_reset_time', '>=', from)
        .where('pwd_reset_time', '<=', until)
        .execute();
      let added = 0;
      for (const u of users) {
        const resetTime = String(u.pwd_reset_time);
        const days = ageDays(resetTime, now);
        if (days < REMINDER_FROM_DAYS || days > REMINDER_UNTIL_DAYS) continue;
        const r = await db
          .insertInto(PASSWORD_REMINDER_TABLE)
          .values({ user_id: u.id, pwd_reset_time: resetTime, days, create_time: nowText(now) })
          .onConflict((oc) => oc.columns(['user_id', 'pwd_reset_time']).doNothing())
          .executeTakeFirst();
        added += Number(r.numInsertedOrUpdatedRows ?? 0);
      }
      return `新增密码到期提醒 ${added} 条`;
    },
    { name: '密码到期提醒', cron: '0 30 8 * * ?', remark: '每天8:30提醒密码已使用80至89天的用户修改密码' },
  );

  registerJobFunction(
    'jobMaintenance',
    'purgeJobLogs',
    async ({ database, params, now }) => {
      const problem = checkKeepDays(params.trim());
      if (problem) throw new Error(problem);
      const days = params.trim() === '' ? 30 : Number(params.trim());
      const before = nowText(new Date(now.getTime() - days * DAY_MS));
      const r = await database.db.deleteFrom(JOB_LOG_TABLE).where('start_time', '<', before).executeTakeFirst();
      return `删除${days}天前的任务日志 ${Number(r.numDeletedRows)} 条`;
    },
    { name: '清理任务日志', cron: '0 0 3 * * ?', params: '30', remark: '每天3点删除超过保留天数（参数）的任务执行日志' },
    { checkParams: checkKeepDays },
  );

  registerJobFunction(
    'codeMaintenance',
    'purgeExpiredCodes',
    async ({ database, now }) => `删除过期的短信和邮箱验证码 ${await purgeExpiredCodes(database.db, now.getTime())} 条`,
    { name: '清理过期短信和邮箱验证码', cron: '0 15 * * * ?', remark: '每小时第15分钟删除已过期的短信和邮箱验证码' },
  );

  registerJobFunction(
    'logMaintenance',
    'deleteOldLogs',
    async ({ database, config, params, now }) => {
      const days = params.trim() === '' ? config.logRetentionDays : Number(params.trim());
      if (!Number.isInteger(days) || days < 1) throw new Error(`参数应为保留天数（正整数），收到：${params}`);
      return `删除${days}天前的操作日志 ${await deleteOldLogs(database.db, days, now.getTime())} 条`;
    },
    { name: '清理操作日志', cron: '0 30 2 * * ?', remark: '每天2:30删除超过保留天数的操作日志（参数为空时用 LOG_RETENTION_DAYS）' },
  );

  registerJobFunction(
    'downloadMaintenance',
    'deleteExpiredDownloads',
    async ({ database, now }) => `删除过期的导出文件 ${await deleteExpiredDownloads(database, now.getTime())} 个`,
    { name: '清理过期导出文件', cron: '0 */10 * * * ?', remark: '每10分钟删除已过下载期限的后台导出文件' },
  );
}
