/**
 * An instance of an earlier version running beside a database that a newer version has migrated
 * (a column renamed or dropped by a reviewed migration, a table gone): its statements name what
 * is no longer there. Such a statement is not a fault of the request: the answer is 503 saying
 * the instance must be upgraded, never a 500 per request, and from the first one on the
 * instance answers not ready (health.ts), so the balancer sends the traffic to the instances
 * that are up to date. Additive steps (a new column or table) never reach here: the earlier
 * version does not name what it does not know.
 *
 * PostgreSQL: SQLSTATE 42703 undefined_column, 42P01 undefined_table. SQLite: "no such column",
 * "no such table", "has no column named".
 */
export const SCHEMA_MOVED_ON = '数据库结构已由新版本更新，本实例需要升级后重启，请稍后再试';

const SQLITE_MISSING = /no such column|no such table|has no column named/i;

export function isSchemaMovedOn(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '42703' || e.code === '42P01') return true;
  return typeof e.code === 'string' && e.code.startsWith('SQLITE_ERROR') && typeof e.message === 'string' && SQLITE_MISSING.test(e.message);
}

/** the databases (one per app) a statement found moved on: readiness answers 503 from then on */
const movedOn = new WeakSet<object>();

export function markSchemaMovedOn(database: object | undefined): void {
  if (database) movedOn.add(database);
}

export function schemaMovedOn(database: object | undefined): boolean {
  return !!database && movedOn.has(database);
}
