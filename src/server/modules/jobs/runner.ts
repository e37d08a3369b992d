/**
 * One run of a job: the log row is written first (for a scheduled firing that insert is the
 * claim: a second instance inserting the same job and firing time hits the unique index and
 * does not run), then the registered function runs, then the row gets its duration and
 * outcome. A job whose bean/method is not registered (any more) is logged as failed.
 */
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { nowText } from '../../db/index.ts';
import { flag } from '../../auth/tables.ts';
import { findJobFunction } from './registry.ts';
import { JOB_LOG_TABLE } from './tables.ts';

export interface JobRow {
  id: number;
  name: string;
  bean: string;
  method: string;
  params: string;
  cron: string;
  paused: boolean;
}

export interface RunOutcome {
  logId: number;
  success: boolean;
  /** result text, or the error message of a failed run */
  message: string;
  time: number;
}

export const INSTANCE_ID = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

/** Unique-index violation on either database. */
function isDuplicate(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/**
 * Runs the job once. `fireTime` (epoch ms) marks a scheduled firing: answers null when
 * another instance already claimed it.
 */
export async function runJob(app: FastifyInstance, job: JobRow, fireTime: number | null): Promise<RunOutcome | null> {
  const db = app.database.db;
  const started = new Date();
  let logId: number;
  try {
    const row = await db
      .insertInto(JOB_LOG_TABLE)
      .values({
        job_id: job.id,
        job_name: job.name,
        bean_name: job.bean,
        method_name: job.method,
        params: job.params || null,
        fire_time: fireTime,
        run_kind: fireTime === null ? 'manual' : 'schedule',
        start_time: nowText(started),
        instance: INSTANCE_ID,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    logId = Number(row.id);
  } catch (err) {
    if (fireTime !== null && isDuplicate(err)) return null;
    throw err;
  }

  let success = true;
  let message: string;
  let detail: string | null = null;
  const registered = findJobFunction(job.bean, job.method);
  try {
    if (!registered) throw new Error(`未注册的任务方法：${job.bean}.${job.method}`);
    const result = await registered.fn({
      database: app.database,
      config: app.config,
      params: job.params ?? '',
      log: app.log,
      now: started,
    });
    message = typeof result === 'string' ? result : '';
  } catch (err) {
    success = false;
    message = err instanceof Error ? err.message : String(err);
    detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    app.log.warn({ job: job.id, err }, 'scheduled job failed');
  }
  const time = Date.now() - started.getTime();
  app.metrics?.jobRan(registered ? `${job.bean}.${job.method}` : 'unregistered', success, time);
  await db
    .updateTable(JOB_LOG_TABLE)
    .set({ time, is_success: flag(success), result: clip(message, 500) || null, exception_detail: detail ? clip(detail, 8000) : null })
    .where('id', '=', logId)
    .execute();
  return { logId, success, message, time };
}
