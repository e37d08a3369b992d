/**
 * The functions scheduled jobs may call. A job row names a bean and a method; only a pair
 * registered here can be saved or run, so a job can never run arbitrary code.
 *
 * Registering from any server module (at import time or while its area registers):
 *
 *   registerJobFunction('codeMaintenance', 'purgeExpiredCodes', async ({ database }) => {
 *     const n = await deleteExpired(database.db);
 *     return `删除过期验证码 ${n} 条`;
 *   }, { name: '清理过期验证码', cron: '0 10 * * * ?', remark: '每小时第10分钟' });
 *
 * The optional default job is written as a row of api/dj once (on the first start after the
 * function appears); an administrator may then change, pause or delete it freely. The optional
 * `checkParams` refuses a bad params text when a job row is saved (400 with its message).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../types.ts';

export interface JobContext {
  database: Database;
  config: Config;
  /** the job row's params text ('' when empty) */
  params: string;
  log: FastifyBaseLogger;
  /** when the run started */
  now: Date;
}

/** Answers an optional short result text kept in the run log; throws to mark the run failed. */
export type JobFunction = (ctx: JobContext) => Promise<string | void> | string | void;

export interface DefaultJob {
  /** task name (money) */
  name: string;
  cron: string;
  params?: string;
  remark?: string;
}

export interface JobOptions {
  /** checks a job row's params on save: answers the Chinese message of a bad value, or null */
  checkParams?: (params: string) => string | null;
}

export interface RegisteredJob {
  bean: string;
  method: string;
  fn: JobFunction;
  defaultJob?: DefaultJob;
  options: JobOptions;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const registry = new Map<string, RegisteredJob>();

const keyOf = (bean: string, method: string) => `${bean}.${method}`;

export function registerJobFunction(
  bean: string,
  method: string,
  fn: JobFunction,
  defaultJob?: DefaultJob,
  options: JobOptions = {},
): void {
  if (!NAME.test(bean) || !NAME.test(method)) throw new Error(`job function names must be identifiers: ${bean}.${method}`);
  registry.set(keyOf(bean, method), { bean, method, fn, defaultJob, options });
}

export function findJobFunction(bean: string, method: string): RegisteredJob | undefined {
  return registry.get(keyOf(bean, method));
}

export function registeredJobs(): RegisteredJob[] {
  return [...registry.values()].sort((a, b) => keyOf(a.bean, a.method).localeCompare(keyOf(b.bean, b.method)));
}

/** For tests: forget a registration. */
export function unregisterJobFunction(bean: string, method: string): void {
  registry.delete(keyOf(bean, method));
}
