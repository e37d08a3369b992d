/**
 * Limits counted in the database, so that every instance on one PostgreSQL shares them (three
 * instances must not allow three times the chat, sign-in, code or registration limit). SQLite
 * has one server per file: its limits stay in memory (@fastify/rate-limit's own store).
 *
 * `sys_limit_counter` holds one row per key and fixed window: the number of hits and when the
 * window ends (epoch ms by the database's clock, the same for every instance). A hit is one
 * upsert: a fresh window starts at 1, a running one is incremented. Rows of ended windows are
 * deleted now and then.
 *
 * - databaseRateLimitStore: a store for @fastify/rate-limit (every route's `config.rateLimit`
 *   and `app.rateLimit(...)` guards: chat flood, SMS and e-mail codes, registration, member
 *   look-up, captchas ...). Each route has its own counters (named by method and URL).
 * - DatabaseLoginThrottle: the sign-in brake per address (see auth/login-throttle.ts).
 * An unreachable database makes the request answer 503 (the error is not swallowed).
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database, Db } from '../types.ts';
import { ensureTables, type TableDef } from '../auth/tables.ts';
import { plainText } from '../../shared/text.ts';
import { LeasedCounters } from './leased-limits.ts';

export const LIMIT_TABLE = 'sys_limit_counter';
const PRUNE_EVERY_MS = 60_000;

export const LIMIT_TABLES: TableDef[] = [
  {
    name: LIMIT_TABLE,
    columns: [
      { name: 'counter_key', type: 'varchar(128)', primaryKey: true },
      { name: 'hits', type: 'int', notNull: true },
      /** epoch ms (database clock) when the window ends */
      { name: 'reset_at', type: 'bigint', notNull: true },
    ],
    indexes: [{ name: 'sys_limit_counter_reset', columns: ['reset_at'] }],
  },
];

/** Creates the counter table (PostgreSQL only), under an advisory lock: instances may start together. */
export async function ensureLimitTables(database: Database): Promise<void> {
  if (database.dialect !== 'postgres') return;
  await createLimitTables(database.db);
}

async function createLimitTables(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('dealer-console:limit-setup'))`.execute(trx);
    await ensureTables(trx, 'postgres', LIMIT_TABLES);
  });
}

/** 42P01 undefined_table: an app put together without ensureLimitTables (tests of one area). */
const isMissingTable = (err: unknown) => (err as { code?: string })?.code === '42P01';

/** Keys longer than the column are hashed (an IPv6 address and a long URL together). */
function storedKey(key: string): string {
  return key.length <= 128 ? key : `h:${createHash('sha256').update(key).digest('hex')}`;
}

const NOW_MS = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

export class SharedCounters {
  private lastPrune = 0;

  constructor(private readonly db: Db) {}

  /** Runs `fn`, creating the table first when it is missing. */
  private async withTable<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!isMissingTable(err)) throw err;
      await createLimitTables(this.db);
      return fn();
    }
  }

  /** Counts `n` hits (one by default) of `key` in its window of `windowMs`; answers the hits so far and the ms left. */
  hit(key: string, windowMs: number, n = 1): Promise<{ hits: number; ttl: number }> {
    return this.withTable(() => this.hitNow(key, windowMs, n));
  }

  private async hitNow(key: string, windowMs: number, n: number): Promise<{ hits: number; ttl: number }> {
    const window = Math.max(1, Math.trunc(windowMs));
    const count = Math.max(1, Math.trunc(n));
    const { rows } = await sql<{ hits: number; ttl: number }>`
      insert into ${sql.table(LIMIT_TABLE)} as c (counter_key, hits, reset_at)
      values (${storedKey(key)}, ${count}, ${NOW_MS} + ${window})
      on conflict (counter_key) do update set
        hits = case when c.reset_at <= ${NOW_MS} then ${count} else c.hits + ${count} end,
        reset_at = case when c.reset_at <= ${NOW_MS} then excluded.reset_at else c.reset_at end
      returning hits, reset_at - ${NOW_MS} as ttl`.execute(this.db);
    void this.prune();
    return { hits: Number(rows[0].hits), ttl: Math.max(0, Number(rows[0].ttl)) };
  }

  /** The hits of `key` in its running window (0 when none), without counting one. */
  peek(key: string): Promise<{ hits: number; ttl: number }> {
    return this.withTable(() => this.peekNow(key));
  }

  private async peekNow(key: string): Promise<{ hits: number; ttl: number }> {
    const { rows } = await sql<{ hits: number; ttl: number }>`
      select hits, reset_at - ${NOW_MS} as ttl from ${sql.table(LIMIT_TABLE)}
      where counter_key = ${storedKey(key)} and reset_at > ${NOW_MS}`.execute(this.db);
    return rows[0] ? { hits: Number(rows[0].hits), ttl: Number(rows[0].ttl) } : { hits: 0, ttl: 0 };
  }

  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await sql`delete from ${sql.table(LIMIT_TABLE)} where reset_at < ${NOW_MS} - 60000`.execute(this.db).catch(() => undefined);
  }
}

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;
interface RouteOptions {
  routeInfo?: { method?: unknown; url?: unknown };
  /** a guard counting in leases (leased-limits.ts): the per-user read and export budgets */
  sharedLease?: boolean;
}

/**
 * A store class for @fastify/rate-limit counting in `sys_limit_counter`. `counters` is read
 * when the first request comes (the database opens after the plugin is registered).
 */
export function databaseRateLimitStore(counters: () => SharedCounters) {
  let unnamed = 0;
  return class DatabaseRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = 'rl:',
    ) {}

    incr(key: string, cb: Callback, timeWindow: number): void {
      counters()
        .hit(`${this.prefix}${key}`, timeWindow)
        .then(
          ({ hits, ttl }) => cb(null, { current: hits, ttl }),
          (err: Error) => cb(err),
        );
    }

    read(key: string, cb: Callback): void {
      counters()
        .peek(`${this.prefix}${key}`)
        .then(
          ({ hits, ttl }) => cb(null, { current: hits, ttl }),
          (err: Error) => cb(err),
        );
    }

    /** Each route (or each `app.rateLimit` guard, in registration order: the same on every instance) counts apart. */
    child(routeOptions: RouteOptions & object): DatabaseRateLimitStore | LeasedRateLimitStore {
      const info = routeOptions.routeInfo;
      const method = Array.isArray(info?.method) ? info.method.join(',') : plainText(info?.method ?? '');
      const name = typeof info?.url === 'string' && info.url ? `${method} ${info.url}` : `guard${++unnamed}`;
      if (routeOptions.sharedLease) return new LeasedRateLimitStore(new LeasedCounters(counters), `rl:${name}:`);
      return new DatabaseRateLimitStore(undefined, `rl:${name}:`);
    }
  };
}

/** The same counters taken in leases (leased-limits.ts): most hits are answered from memory. */
class LeasedRateLimitStore {
  constructor(
    private readonly leases: LeasedCounters,
    private readonly prefix: string,
  ) {}

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.leases.hit(`${this.prefix}${key}`, timeWindow, max).then(
      (res) => cb(null, res),
      (err: Error) => cb(err),
    );
  }

  child(): LeasedRateLimitStore {
    return this;
  }
}
