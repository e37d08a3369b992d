/**
 * Opens the database: embedded SQLite (better-sqlite3, WAL) in the data directory by default,
 * PostgreSQL when DATABASE_URL is set. Dates come back as 'YYYY-MM-DD HH:mm:ss' strings and
 * 64-bit integers as numbers on both, so the rest of the server sees one shape.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery, type Dialect, type LogEvent } from 'kysely';
import { metricsOn, type Config } from '../config.ts';
import type { Database, Tables } from '../types.ts';
import { attachWriteWatch } from './write-watch.ts';
import { MAX_USES, PreparedStatements } from './pg-prepared.ts';
import { timedDialect } from './statement-timing.ts';

const PG_TIMESTAMP = 1114;
const PG_TIMESTAMPTZ = 1184;
const PG_DATE = 1082;
const PG_INT8 = 20;
const PG_NUMERIC = 1700;

let pgParsersSet = false;
function setPgParsers(): void {
  if (pgParsersSet) return;
  pgParsersSet = true;
  // 'YYYY-MM-DD HH:mm:ss[.ffffff]' -> 'YYYY-MM-DD HH:mm:ss'
  pg.types.setTypeParser(PG_TIMESTAMP, (v: string) => v.slice(0, 19));
  pg.types.setTypeParser(PG_TIMESTAMPTZ, (v: string) => v.slice(0, 19));
  pg.types.setTypeParser(PG_DATE, (v: string) => v);
  pg.types.setTypeParser(PG_INT8, (v: string) => Number(v));
  pg.types.setTypeParser(PG_NUMERIC, (v: string) => Number(v));
}

/** Who hears of every statement Kysely runs (the metrics, the traces); set after the database opens. */
interface StatementObserver {
  fns: Array<(event: LogEvent) => void>;
}
const observers = new WeakMap<Database, StatementObserver>();

/**
 * Hands every statement's timing and failure to `fn` (one of several: the metrics and the traces).
 * Only a database opened with metrics or traces on times its statements (statement-timing.ts): with
 * both off its dialect is Kysely's own, untouched.
 */
export function observeStatements(database: Database, fn: (event: LogEvent) => void): void {
  observers.get(database)?.fns.push(fn);
}

/** The PostgreSQL pool's connections (all, idle) and the requests waiting for one; undefined on SQLite. */
export function poolState(database: Database): { total: number; idle: number; waiting: number } | undefined {
  const pool = pgPools.get(database);
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : undefined;
}

/** Opens the database; answers a settled promise (callers await it; connections are made on first use). */
export function openDatabase(config: Config): Promise<Database> {
  const observer: StatementObserver = { fns: [] };
  const timed =
    metricsOn(config) || config.tracesEndpoint
      ? (dialect: Dialect) =>
          timedDialect(dialect, (event: LogEvent) => {
            for (const fn of observer.fns) fn(event);
          })
      : (dialect: Dialect) => dialect;
  const opened = (database: Database) => {
    observers.set(database, observer);
    return Promise.resolve(database);
  };
  if (config.databaseUrl) {
    setPgParsers();
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.databasePoolSize,
      // a connection is replaced after this many checkouts, freeing its prepared statements (pg-prepared.ts)
      maxUses: MAX_USES,
      // while the database is down a request waits this long for a connection, then answers 503
      connectionTimeoutMillis: 5000,
      // no statement runs longer than DB_STATEMENT_TIMEOUT_SECONDS (set once per connection, at
      // its start, so it costs a query nothing): a stalled database cuts it with 57014, which
      // answers 503, before the request deadline would
      ...(config.dbStatementTimeoutMs > 0 ? { statement_timeout: config.dbStatementTimeoutMs } : {}),
    });
    // A client losing its connection (server restart, failover, database dropped) must not end
    // the process, whether it is idle in the pool or checked out by a query or a transaction:
    // the pool listens on idle clients, and every client gets a listener of its own as it is
    // made, so the error is logged; the query in flight fails (503) and the next one connects anew.
    pool.on('error', (err) => console.warn(`PostgreSQL idle connection lost: ${err.message}`));
    pool.on('connect', (client) => {
      client.on('error', (err) => console.warn(`PostgreSQL connection lost: ${err.message}`));
    });
    // the write watch: writeWatchOf(db) (write-watch.ts)
    // the SELECTs run again and again become named statements, planned once per connection (pg-prepared.ts)
    const kyselyPool = config.databasePreparedStatements ? new PreparedStatements().wrap(pool) : pool;
    const db = attachWriteWatch(
      (watch) => new Kysely<Tables>({ dialect: timed(new PostgresDialect({ pool: kyselyPool })), plugins: [watch] }),
    );
    const database: Database = { db, dialect: 'postgres', close: () => db.destroy() };
    pgPools.set(database, pool);
    return opened(database);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const sqlite = new SQLite(join(config.dataDir, 'console.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // deleted and overwritten values are zeroed where they lay, not left in free space: an erased
  // person (个人信息保护) needs no rebuild of the file
  sqlite.pragma('secure_delete = ON');
  const db = attachWriteWatch(
    (watch) => new Kysely<Tables>({ dialect: timed(new SqliteDialect({ database: reusingStatements(sqlite) })), plugins: [watch] }),
  );
  const database: Database = { db, dialect: 'sqlite', close: () => db.destroy() };
  sqliteHandles.set(database, { sqlite, file: join(config.dataDir, 'console.db') });
  return opened(database);
}

const sqliteHandles = new WeakMap<Database, { sqlite: SQLite.Database; file: string }>();
const pgPools = new WeakMap<Database, pg.Pool>();

/**
 * The rows of a compiled SELECT as arrays, each value at its column's place in the select list
 * (values converted as for row objects). For bulk reads (the xlsx export reads a million rows):
 * no object per row is built (SQLite: better-sqlite3's raw mode; PostgreSQL: pg's array rows),
 * which is a sixth of a SQLite export's CPU time and much of its garbage. Bypasses Kysely's
 * plugins, so only for reads.
 */
export async function rowArrays(database: Database, query: CompiledQuery): Promise<unknown[][]> {
  const handle = sqliteHandles.get(database);
  if (handle) return handle.sqlite.prepare(query.sql).raw(true).all(query.parameters) as unknown[][];
  const pool = pgPools.get(database);
  if (!pool) throw new Error('rowArrays: not a database opened by openDatabase');
  const result = await pool.query({ text: query.sql, values: [...query.parameters], rowMode: 'array' });
  return result.rows as unknown[][];
}

/** Reads row arrays (as `rowArrays`) for one long bulk read; `close` when done. */
export interface RowArrayReader {
  read(query: CompiledQuery): Promise<unknown[][]>;
  /** gives back what the reader holds (after its reads have settled) */
  close(): void;
}

/**
 * A reader for a bulk read of many batches (the xlsx export). On PostgreSQL it holds one
 * connection of the pool for its whole life instead of checking one out per batch; a read that
 * failed has the connection closed rather than given back. On SQLite, `rowArrays`.
 */
export async function rowArrayReader(database: Database): Promise<RowArrayReader> {
  if (sqliteHandles.has(database)) return { read: (query) => rowArrays(database, query), close: () => undefined };
  const pool = pgPools.get(database);
  if (!pool) throw new Error('rowArrayReader: not a database opened by openDatabase');
  const client = await pool.connect();
  let failure: Error | undefined;
  let closed = false;
  return {
    read: async (query) => {
      if (closed) throw new Error('rowArrayReader: closed');
      try {
        const result = await client.query({ text: query.sql, values: [...query.parameters], rowMode: 'array' });
        return result.rows as unknown[][];
      } catch (err) {
        failure ??= err as Error;
        throw err;
      }
    },
    close: () => {
      if (closed) return;
      closed = true;
      client.release(failure);
    },
  };
}

/**
 * The better-sqlite3 connection behind an SQLite database and its file (undefined on
 * PostgreSQL): backups copy it through SQLite's online backup API on this same connection, so
 * writes made meanwhile are carried into the copy instead of restarting it.
 */
export function sqliteHandleOf(database: Database): { sqlite: SQLite.Database; file: string } | undefined {
  return sqliteHandles.get(database);
}

const STATEMENT_CACHE_SIZE = 200;
const ROLLBACK = /^\s*rollback\b/i;
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

type KyselySqlite = ConstructorParameters<typeof SqliteDialect>[0]['database'];
type CachedStatement = ReturnType<Exclude<KyselySqlite, (...args: never[]) => unknown>['prepare']>;

/**
 * The SQLite handle as Kysely sees it, keeping the last STATEMENT_CACHE_SIZE prepared statements
 * by SQL text (Kysely would prepare every query anew). Calls on one statement never overlap:
 * better-sqlite3 runs them synchronously and Kysely uses its single connection one query at a
 * time. A streamed query (iterate) keeps its statement busy until the stream ends, so it always
 * gets a statement of its own.
 *
 * Rows are read as arrays (better-sqlite3's raw mode) and made into objects here: the same
 * objects (own properties in column order, a later column of the same name winning), but
 * better-sqlite3 builds an object property by property through V8's API, which costs about
 * twice as much (15 rows of a list page: 45 -> 29 µs CPU). A schema change through this handle
 * empties the cache, so no statement keeps the column names of a table as it was.
 *
 * A ROLLBACK (of a transaction or to a savepoint) when no transaction is open any more does
 * nothing: SQLite ends the transaction itself on some errors (SQLITE_FULL, SQLITE_IOERR,
 * SQLITE_NOMEM, a busy commit), and the rollback Kysely then sends would fail with "cannot
 * rollback - no transaction is active" and hide the error that matters.
 */
function reusingStatements(sqlite: SQLite.Database): KyselySqlite {
  const cache = new Map<string, CachedStatement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare(text: string): CachedStatement {
      // a schema change can change the columns of statements already prepared (rows are built from their names)
      if (SCHEMA_CHANGE.test(text)) cache.clear();
      const hit = cache.get(text);
      if (hit) {
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const stmt = sqlite.prepare(text);
      const rollback = ROLLBACK.test(text);
      let names = rowNames(stmt);
      if (names) stmt.raw(true);
      const wrapped: CachedStatement = {
        reader: stmt.reader,
        all: names
          ? (parameters) => {
              const rows = stmt.all(parameters) as unknown[][];
              // SQLite prepared the statement again after a schema change made elsewhere: read its columns again
              if (rows.length && rows[0].length !== names!.length) names = rowNames(stmt) ?? names;
              return rowObjects(rows, names!);
            }
          : (parameters) => stmt.all(parameters),
        run: rollback
          ? (parameters) => (sqlite.inTransaction ? stmt.run(parameters) : { changes: 0, lastInsertRowid: 0 })
          : (parameters) => stmt.run(parameters),
        iterate: (parameters) => {
          const own = sqlite.prepare(text);
          const columns = rowNames(own);
          return columns
            ? iterateObjects(own.raw(true).iterate(parameters) as IterableIterator<unknown[]>, columns)
            : own.iterate(parameters);
        },
      };
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(text, wrapped);
      return wrapped;
    },
  };
}

/** The result's column names when its rows can be built from arrays (a reader whose names are plain keys), else undefined. */
function rowNames(stmt: SQLite.Statement): string[] | undefined {
  if (!stmt.reader) return undefined;
  const names = stmt.columns().map((c) => c.name);
  // an assignment to __proto__ would set the prototype instead of a property
  return names.includes('__proto__') ? undefined : names;
}

function rowObject(row: unknown[], names: string[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let j = 0; j < names.length; j++) o[names[j]] = row[j];
  return o;
}

function rowObjects(rows: unknown[][], names: string[]): Record<string, unknown>[] {
  const out = new Array<Record<string, unknown>>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = rowObject(rows[i], names);
  return out;
}

function* iterateObjects(rows: IterableIterator<unknown[]>, names: string[]): IterableIterator<Record<string, unknown>> {
  for (const row of rows) yield rowObject(row, names);
}

/** Current time as the API shows it: 'YYYY-MM-DD HH:mm:ss' in local time. */
export function nowText(date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}
