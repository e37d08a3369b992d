/**
 * totalElements for list pages without counting a million rows on every request.
 *
 * Strategy:
 * 1. Ask the database how many rows match, but stop at COUNT_CAP + 1:
 *      SELECT count(*) FROM (SELECT 1 FROM t WHERE ... LIMIT 10001)
 *    This costs at most 10,001 index/row visits, so any filter with a small result (the usual
 *    case for a search) is counted exactly, every time.
 * 2. When the cap is hit, the exact count(*) is computed once and cached, keyed by database +
 *    table + normalised filter. The cache entry carries the table's write version (an
 *    in-process counter bumped by every create, update, delete and import on that table), so a
 *    write through this instance invalidates it at once; a short TTL (5 s on PostgreSQL) bounds
 *    the staleness caused by writes from other instances sharing the database. The embedded
 *    SQLite database has one server, so there the TTL (60 s) only covers outside tools.
 * 3. Concurrent requests for the same missing entry share one counting query.
 * A fresh cached entry is used directly (the capped count is skipped), so a hot big list costs
 * one page query per request.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../types.ts';

export const COUNT_CAP = 10_000;
export const COUNT_TTL_MS = 5_000;
export const SQLITE_COUNT_TTL_MS = 60_000;
const MAX_ENTRIES = 500;

interface Entry {
  count: number;
  version: number;
  at: number;
}

interface TableState {
  version: number;
  cache: Map<string, Entry>;
  pending: Map<string, Promise<number>>;
}

const states = new WeakMap<Database, Map<string, TableState>>();

function stateOf(database: Database, table: string): TableState {
  let tables = states.get(database);
  if (!tables) {
    tables = new Map();
    states.set(database, tables);
  }
  let s = tables.get(table);
  if (!s) {
    s = { version: 0, cache: new Map(), pending: new Map() };
    tables.set(table, s);
  }
  return s;
}

/** Called after every committed write to a table. */
export function tableChanged(database: Database, table: string): void {
  const s = stateOf(database, table);
  s.version++;
  s.cache.clear();
}

/**
 * The number of rows of `filtered` (a SELECT ... FROM table WHERE ... without order/limit).
 * `filterKey` must identify the WHERE clause exactly.
 */
export async function countMatching(
  database: Database,
  table: string,
  filterKey: string,
  filtered: SelectQueryBuilder<any, any, any>,
  now = Date.now(),
): Promise<number> {
  const s = stateOf(database, table);
  const hit = s.cache.get(filterKey);
  const ttl = database.dialect === 'postgres' ? COUNT_TTL_MS : SQLITE_COUNT_TTL_MS;
  if (hit && hit.version === s.version && now - hit.at < ttl) return hit.count;

  const capped = filtered.clearSelect().select(sql`1`.as('one')).limit(COUNT_CAP + 1);
  const small = await database.db
    .selectFrom(capped.as('capped'))
    .select(sql<number | string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(small.n);
  if (n <= COUNT_CAP) return n;

  const running = s.pending.get(filterKey);
  if (running) return running;
  const version = s.version;
  const job = (async () => {
    const row = await filtered.clearSelect().select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const count = Number(row.n);
    if (s.version === version) {
      if (s.cache.size >= MAX_ENTRIES) s.cache.delete(s.cache.keys().next().value!);
      s.cache.set(filterKey, { count, version, at: Date.now() });
    }
    return count;
  })();
  s.pending.set(filterKey, job);
  try {
    return await job;
  } finally {
    s.pending.delete(filterKey);
  }
}
