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
 *                            the write probe failing for another reason (not storage)
 *                                                   -> 就绪检查出错（非存储原因），请查看服务日志,
 *                                                      database/storage: 'ERROR', reasons: ['database: 42P01']
 * A stopping instance (SIGTERM) answers not ready, so the balancer moves traffic away first; so
 * does one whose statements found the database migrated by a newer version (数据库结构已由新版本更新…).
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { DATABASE_UNAVAILABLE } from './db/unavailable.ts';
import { STORAGE_FULL } from './db/storage-full.ts';
import { WriteProbe } from './disk/write-probe.ts';
import { SCHEMA_MOVED_ON, schemaMovedOn } from './db/schema-moved-on.ts';

const READY_TIMEOUT_MS = 2000;
export const STOPPING = '服务正在停止';
export const STORAGE_NOT_WRITABLE = '存储不可写，请联系管理员';
export const READINESS_PROBE_FAILED = '就绪检查出错（非存储原因），请查看服务日志';

export interface Health {
  /** readiness answers 503 服务正在停止 from now on */
  stopping(): void;
  /** whether readiness would answer 200 now (the metrics' readiness gauge) */
  ready(): Promise<boolean>;
}

export function registerHealth(app: FastifyInstance): Health {
  let stopping = false;
  const probe = new WriteProbe(() => app.database, app.config);
  app.get('/api/health', () => ({ status: 'UP' }));
  app.get('/api/health/ready', () => readiness());
  /** the readiness answer, or the ApiError saying why not */
  async function readiness() {
    if (stopping) throw new ApiError(503, STOPPING);
    // a newer version migrated the database under this instance (db/schema-moved-on.ts)
    if (schemaMovedOn(app.database)) throw new ApiError(503, SCHEMA_MOVED_ON, { database: 'SCHEMA_MOVED_ON' });
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
      const refused = writes.database === 'NOT_WRITABLE' || writes.storage === 'NOT_WRITABLE';
      if (!refused) app.log.warn({ reasons: writes.reasons }, 'readiness write probe failed (not for storage)');
      throw new ApiError(503, writes.full ? STORAGE_FULL : refused ? STORAGE_NOT_WRITABLE : READINESS_PROBE_FAILED, {
        database: writes.database,
        storage: writes.storage,
        reasons: writes.reasons,
      });
    }
    return { status: 'UP', database: 'UP', storage: 'UP' };
  }
  return {
    stopping() {
      stopping = true;
    },
    ready: () =>
      readiness().then(
        () => true,
        () => false,
      ),
  };
}
