/**
 * Health checks for load balancers and process managers (public, never rate-limited, never logged):
 *   GET /api/health        liveness: the process answers           -> 200 {status: 'UP'}
 *   GET /api/health/ready  readiness: the database answers in 2 s and takes a write, and so does
 *                          the file storage (disk/write-probe.ts, probed at most every 5 s)
 *                            -> 200 {status: 'UP', database: 'UP', storage: 'UP'}
 *                          otherwise 503 in the usual error shape, saying why:
 *                            database not answering -> 数据库暂时不可用，请稍后再试, database: 'DOWN'
 *                            a write refused        -> 存储空间已满，请联系管理员清理后重试 (no space)
 *                                                      or 存储不可写，请联系管理员 (anything else),
 *                                                      database/storage: 'NOT_WRITABLE', reasons: ['database: SQLITE_FULL', ...]
 * A stopping instance (SIGTERM) answers not ready, so the balancer moves traffic away first.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { DATABASE_UNAVAILABLE } from './db/unavailable.ts';
import { STORAGE_FULL } from './db/storage-full.ts';
import { WriteProbe } from './disk/write-probe.ts';

const READY_TIMEOUT_MS = 2000;
export const STOPPING = '服务正在停止';
export const STORAGE_NOT_WRITABLE = '存储不可写，请联系管理员';

export function registerHealth(app: FastifyInstance): { stopping(): void } {
  let stopping = false;
  const probe = new WriteProbe(() => app.database, app.config);
  app.get('/api/health', () => ({ status: 'UP' }));
  app.get('/api/health/ready', async () => {
    if (stopping) throw new ApiError(503, STOPPING);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        sql`select 1`.execute(app.database.db),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
        }),
      ]);
    } catch {
      throw new ApiError(503, DATABASE_UNAVAILABLE, { database: 'DOWN' });
    } finally {
      clearTimeout(timer);
    }
    const writes = await probe.check();
    if (writes.database !== 'UP' || writes.storage !== 'UP') {
      throw new ApiError(503, writes.full ? STORAGE_FULL : STORAGE_NOT_WRITABLE, {
        database: writes.database,
        storage: writes.storage,
        reasons: writes.reasons,
      });
    }
    return { status: 'UP', database: 'UP', storage: 'UP' };
  });
  return {
    stopping() {
      stopping = true;
    },
  };
}
