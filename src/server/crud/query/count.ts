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
 *    write through this instance invalidates it at once: the next request counts again.
 * 3. An entry older than its lifetime (5 s on PostgreSQL, where other instances may write; 10
 *    minutes on the embedded SQLite database, which only this server writes) is still served,
 *    while ONE recount runs in the background and replaces it (stale-while-revalidate), so no
 *    request waits for a big count except the first one after a write or a long idle period
 *    (an entry older than MAX_STALE_MS is not served).
 * 4. Concurrent requests for the same missing entry share one counting query; a count started
 *    before a write is never shared with requests after it.
 * 5. A filter whose last count was at most half the cap is counted next time by a plain
 *    count(*), exact and cheaper than the capped one; past half the cap it goes back to step 1.
 * A cached entry is used directly (the capped count is skipped), so a hot big list costs one
 * page query per request.
 * 6. A capped count that still took SLOW_CAPPED_MS or more (a pinyin prefix reads thousands of
 *    keys to find a few thousand rows) is kept like an exact one, under the same rules
 *    (PostgreSQL only: on SQLite rule 7 keeps it, exactly). A caller may lower that bar
 *    (`keepFromMs`): a pinyin search keeps every count, since its keys only change by writes
 *    through this server.
 * On PostgreSQL a filter counted by the plain count(*) has it asked in the page's own statement
 * (countsWithPage), so a small filtered list costs one statement per request.
 * 7. On SQLite a count up to the cap is kept with the database's change stamp (db/change-stamp.ts,
 *    taken before counting) and answered again while the stamp reads the same: any row written
 *    since, by this app or by anything else on the file, changes the stamp and the next request
 *    counts again. So the total stays exact on every request and costs one 3 µs statement while
 *    nothing changed (a plain count of 2,600 index entries: about 80 µs).
 */
import { sql, type CompiledQuery } from 'kysely';
import type { Database, TableQuery } from '../../types.ts';
import { changeStamp } from '../../db/change-stamp.ts';

export const COUNT_CAP = 10_000;
export const COUNT_TTL_MS = 5_000;
export const SQLITE_COUNT_TTL_MS = 600_000;
/** an entry older than this is recounted before it is used */
export const MAX_STALE_MS = 15 * 60_000;
const MAX_ENTRIES = 500;
/** a capped count at least this slow is cached too (rule 6) */
export const SLOW_CAPPED_MS = 5;
/** a result up to this size is counted next time by a plain count(*) */
const SMALL_COUNT = COUNT_CAP / 2;

interface Entry {
  count: number;
  version: number;
  at: number;
}

/** a count kept with the change stamp read before it was counted (rule 7) */
interface StampedEntry {
  count: number;
  version: number;
  stamp: string;
}

interface Job {
  version: number;
  promise: Promise<number>;
}

interface TableState {
  version: number;
  cache: Map<string, Entry>;
  pending: Map<string, Job>;
  /** the compiled capped count by filter key (its SQL and parameters depend on nothing else) */
  capped: Map<string, CompiledQuery>;
  /** the compiled plain count by filter key, for filters whose last count was small (see countMatching) */
  plain: Map<string, CompiledQuery>;
  /** exact counts by filter key with the database's change stamp (SQLite, rule 7) */
  stamped: Map<string, StampedEntry>;
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
    s = { version: 0, cache: new Map(), pending: new Map(), capped: new Map(), plain: new Map(), stamped: new Map() };
    tables.set(table, s);
  }
  return s;
}

/** The table's write counter on this instance (changes with every committed write through the app). */
export function tableVersion(database: Database, table: string): number {
  return stateOf(database, table).version;
}

/** How long a cached answer about a table may be trusted without a write seen on this instance. */
export function cacheLifetimeMs(database: Database): number {
  return database.dialect === 'sqlite' ? SQLITE_COUNT_TTL_MS : COUNT_TTL_MS;
}

/** Called after every committed write to a table. */
export function tableChanged(database: Database, table: string): void {
  const s = stateOf(database, table);
  s.version++;
  s.cache.clear();
  s.stamped.clear();
}

function keepStamped(s: TableState, filterKey: string, entry: StampedEntry): void {
  s.stamped.delete(filterKey);
  if (s.stamped.size >= MAX_ENTRIES) s.stamped.delete(s.stamped.keys().next().value!);
  s.stamped.set(filterKey, entry);
}

function remember(s: TableState, filterKey: string, entry: Entry): void {
  s.cache.delete(filterKey);
  if (s.cache.size >= MAX_ENTRIES) s.cache.delete(s.cache.keys().next().value!);
  s.cache.set(filterKey, entry);
}

/** The exact count, shared by everyone asking for it at the same table version. */
function exactCount<O>(s: TableState, filterKey: string, filtered: TableQuery<O>): Promise<number> {
  const running = s.pending.get(filterKey);
  if (running && running.version === s.version) return running.promise;
  const version = s.version;
  const job: Job = { version, promise: Promise.resolve(0) };
  job.promise = (async () => {
    await Promise.resolve();
    try {
      const row = await filtered
        .clearSelect()
        .select(sql<number | string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      const count = Number(row.n);
      if (s.version === version) remember(s, filterKey, { count, version, at: Date.now() });
      return count;
    } finally {
      if (s.pending.get(filterKey) === job) s.pending.delete(filterKey);
    }
  })();
  s.pending.set(filterKey, job);
  return job.promise;
}

/**
 * PostgreSQL: whether this filter's total is counted by a plain count(*) on every request (its
 * last count was small, rule 5). The list then asks for it in the page's own statement
 * (repository.ts, `listPage`): one round trip instead of two, and the total and the page read in
 * one snapshot. SQLite keeps such totals with its change stamp instead (rule 7).
 */
export function countsWithPage(database: Database, table: string, filterKey: string): boolean {
  return database.dialect === 'postgres' && stateOf(database, table).plain.has(filterKey);
}

/** A total counted in the page's statement, kept as the plain count's would be (rule 5). */
export function countedWithPage(database: Database, table: string, filterKey: string, n: number): void {
  if (n > SMALL_COUNT) stateOf(database, table).plain.delete(filterKey);
}

/** Settles when no count of this table is running (tests). */
export async function countsSettled(database: Database, table: string): Promise<void> {
  const s = stateOf(database, table);
  while (s.pending.size) await Promise.allSettled([...s.pending.values()].map((j) => j.promise));
}

/**
 * The number of rows of `filteredQuery` (a SELECT ... FROM table WHERE ... without order/limit,
 * or a function building it when needed). `filterKey` must identify the WHERE clause exactly.
 */
export async function countMatching<O>(
  database: Database,
  table: string,
  filterKey: string,
  filteredQuery: TableQuery<O> | (() => TableQuery<O>),
  now = Date.now(),
  /** a capped count that took at least this long is kept (rule 6) */
  keepFromMs = SLOW_CAPPED_MS,
): Promise<number> {
  // built only when a count has to run: a cached count needs no query
  const filtered = () => (typeof filteredQuery === 'function' ? filteredQuery() : filteredQuery);
  const s = stateOf(database, table);
  // read before counting: a write while the count runs changes it, so that count is not reused
  const stamp = changeStamp(database);
  if (stamp !== undefined) {
    const known = s.stamped.get(filterKey);
    if (known && known.stamp === stamp && known.version === s.version) return known.count;
  }
  const hit = s.cache.get(filterKey);
  const ttl = database.dialect === 'postgres' ? COUNT_TTL_MS : SQLITE_COUNT_TTL_MS;
  if (hit && hit.version === s.version && now - hit.at < Math.max(ttl, MAX_STALE_MS)) {
    if (now - hit.at >= ttl && !s.pending.has(filterKey)) {
      // stale: answer it now and refresh it once in the background
      exactCount(s, filterKey, filtered()).catch(() => {
        // the entry stays as it was; the next request after the lifetime tries again
      });
    }
    return hit.count;
  }

  // a filter whose last count was well under the cap is counted by a plain count(*): as exact,
  // and cheaper than the capped count's subquery (SQLite: 80 against 117 µs for 2,600 index
  // entries); should the result have grown past the cap meanwhile, that count is the exact one
  const plain = keepFromMs > 0 ? s.plain.get(filterKey) : undefined;
  if (plain) {
    const version = s.version;
    const { rows } = await database.db.executeQuery<{ n: number | string }>(plain);
    const n = Number(rows[0].n);
    if (n > SMALL_COUNT) s.plain.delete(filterKey);
    if (stamp !== undefined && n <= COUNT_CAP && s.version === version) keepStamped(s, filterKey, { count: n, version, stamp });
    return n;
  }

  let compiled = s.capped.get(filterKey);
  if (!compiled) {
    const capped = filtered()
      .clearSelect()
      .select(sql`1`.as('one'))
      // a literal on PostgreSQL: with its filter values also literals (pg-literals.ts) the count has no parameters and keeps its plan
      .limit(database.dialect === 'postgres' ? sql.lit(COUNT_CAP + 1) : COUNT_CAP + 1);
    compiled = database.db
      .selectFrom(capped.as('capped'))
      .select(sql<number | string>`count(*)`.as('n'))
      .compile();
    if (s.capped.size >= MAX_ENTRIES) s.capped.delete(s.capped.keys().next().value!);
    s.capped.set(filterKey, compiled);
  }
  const version = s.version;
  const started = performance.now();
  const { rows } = await database.db.executeQuery<{ n: number | string }>(compiled);
  const n = Number(rows[0].n);
  if (n <= SMALL_COUNT) {
    if (s.plain.size >= MAX_ENTRIES) s.plain.delete(s.plain.keys().next().value!);
    s.plain.set(
      filterKey,
      filtered()
        .clearSelect()
        .select(sql<number | string>`count(*)`.as('n'))
        .compile(),
    );
  }
  if (n <= COUNT_CAP) {
    if (stamp !== undefined && s.version === version) keepStamped(s, filterKey, { count: n, version, stamp });
    if (stamp === undefined && performance.now() - started >= keepFromMs && s.version === version)
      remember(s, filterKey, { count: n, version, at: now });
    return n;
  }
  return exactCount(s, filterKey, filtered());
}
