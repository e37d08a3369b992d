/**
 * Clean-up jobs of the account area, for the scheduled-jobs registry:
 *   deleteOldLogs(db, retentionDays)  operation-log rows older than the retention (LOG_RETENTION_DAYS)
 *   purgeExpiredCodes(db)             verification codes past their use (re-exported from the codes)
 * Each answers how many rows it removed.
 */
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';

export { purgeExpiredCodes } from '../account/codes.ts';

export async function deleteOldLogs(db: Db, retentionDays: number, now: number = Date.now()): Promise<number> {
  if (!Number.isInteger(retentionDays) || retentionDays < 1)
    throw new Error(`retentionDays must be a positive integer, got ${retentionDays}`);
  const cutoff = nowText(new Date(now - retentionDays * 86_400_000));
  const r = await db.deleteFrom('sys_log').where('create_time', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
