/**
 * revisionMaintenance.purgeOldRevisions: deletes record revisions (历史记录) older than the days
 * kept, REVISION_RETENTION_DAYS (default 365) or the job's params, and with them the recycle
 * bin's records deleted that long ago. Like every scheduled job it runs once per firing across
 * instances (the run log's claim, see tables.ts).
 */
import { deleteOldRevisions } from '../../crud/history/revisions.ts';
import { registerJobFunction } from './registry.ts';

/** Params of purgeOldRevisions: empty (REVISION_RETENTION_DAYS) or the days to keep, 1-36500. */
export function checkRevisionDays(params: string): string | null {
  if (params === '') return null;
  return /^\d{1,5}$/.test(params) && Number(params) >= 1 && Number(params) <= 36_500
    ? null
    : `参数应为历史记录保留天数（1到36500的整数），收到：${params}`;
}

export function registerRevisionRetentionJob(): void {
  registerJobFunction(
    'revisionMaintenance',
    'purgeOldRevisions',
    async ({ database, config, params, now }) => {
      const problem = checkRevisionDays(params.trim());
      if (problem) throw new Error(problem);
      const days = params.trim() === '' ? config.revisionRetentionDays : Number(params.trim());
      return `删除${days}天前的历史记录及回收站数据 ${await deleteOldRevisions(database.db, days, now.getTime())} 条`;
    },
    {
      name: '清理历史记录',
      cron: '0 45 2 * * ?',
      remark: '每天2:45删除超过保留天数的数据历史记录和回收站数据（参数为空时用 REVISION_RETENTION_DAYS）',
    },
    { checkParams: checkRevisionDays },
  );
}
