/**
 * Health checks for load balancers and process managers (public, never rate-limited, never logged):
 *   GET /api/health        liveness: the process answers           -> 200 {status: 'UP'}
 *   GET /api/health/ready  readiness: the database answers in 2 s  -> 200 {status: 'UP', database: 'UP'}
 *                          otherwise 503 {status: 503, message: 数据库暂时不可用，请稍后再试, ...}
 * A stopping instance (SIGTERM) answers not ready, so the balancer moves traffic away first.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';
import { DATABASE_UNAVAILABLE } from './db/unavailable.ts';

const READY_TIMEOUT_MS = 2000;
export const STOPPING = '服务正在停止';

export function registerHealth(app: FastifyInstance): { stopping(): void } {
  let stopping = false;
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
      throw new ApiError(503, DATABASE_UNAVAILABLE);
    } finally {
      clearTimeout(timer);
    }
    return { status: 'UP', database: 'UP' };
  });
  return {
    stopping() {
      stopping = true;
    },
  };
}
