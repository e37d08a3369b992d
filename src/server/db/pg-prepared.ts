/**
 * Named (server-side prepared) statements for the SELECTs the server runs again and again on
 * PostgreSQL, as JDBC's driver does after five runs of a statement.
 *
 * Kysely sends every query as an unnamed statement: PostgreSQL parses, analyses and plans its
 * text on every run. For a list page (`... where id in (select id ... limit 15 offset 500)`) the
 * plan costs as much as running it (EXPLAIN ANALYZE at 1,000,000 rows: planning 0.13-0.17 ms,
 * execution 0.13-0.16 ms). A named statement is parsed once per connection, and after five runs
 * PostgreSQL keeps a generic plan when it costs no more than the custom ones (plan_cache_mode
 * `auto`): the same page then costs 160 instead of 335 µs of PostgreSQL CPU per run.
 *
 * Which statements: a SELECT (or WITH ... SELECT) text seen HOT_AFTER times in this process is
 * given a name (`k<n>`, one per text). Texts holding `*` other than `count(*)` are left unnamed:
 * PostgreSQL refuses to run a prepared `select *` after a migration adds a column ("cached plan
 * must not change result type"), while an explicit column list keeps its result type. Writes
 * are never named (their texts vary with the number of rows, and they are not planned twice).
 *
 * Bounds: at most TEXTS_MAX texts are counted (the oldest forgotten first), and a connection
 * holds at most PER_CONNECTION_MAX named statements; past that its new texts run unnamed, as
 * before. Connections are replaced after MAX_USES checkouts (the pool's `maxUses`), which frees
 * their statements on the server. When a column's type changes under a named statement
 * (`0A000`), every text is named anew and each connection deallocates its old statements at
 * its next checkout.
 *
 * A connection pooler in transaction mode that does not track prepared statements (PgBouncer
 * before 1.21) cannot carry named statements: DB_PREPARED_STATEMENTS=false turns them off.
 */
import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

/** runs of a text before it is named */
export const HOT_AFTER = 3;
/** texts whose runs are counted */
const TEXTS_MAX = 2_000;
/** named statements per connection */
export const PER_CONNECTION_MAX = 200;
/** checkouts of a connection before the pool replaces it */
export const MAX_USES = 50_000;

const SELECT = /^\s*(select|with)\b/i;

interface Seen {
  runs: number;
  name?: string;
}

export class PreparedStatements {
  private seen = new Map<string, Seen>();
  private nextName = 1;
  /** the named statements each connection holds */
  private held = new WeakMap<pg.PoolClient, Set<string>>();
  /** bumped when a changed column type makes every prepared statement stale */
  private generation = 0;
  /** the generation each connection's statements were prepared in */
  private preparedIn = new WeakMap<pg.PoolClient, number>();

  /** The name `text` runs under on this connection, or undefined to run it unnamed. */
  nameFor(client: pg.PoolClient, text: string): string | undefined {
    let seen = this.seen.get(text);
    if (!seen) {
      if (!SELECT.test(text) || text.replace(/count\(\*\)/gi, '').includes('*')) return undefined;
      if (this.seen.size >= TEXTS_MAX) this.seen.delete(this.seen.keys().next().value!);
      seen = { runs: 0 };
      this.seen.set(text, seen);
    }
    if (!seen.name) {
      if (++seen.runs < HOT_AFTER) return undefined;
      seen.name = `k${this.nextName++}`;
    }
    let held = this.held.get(client);
    if (!held) this.held.set(client, (held = new Set()));
    if (!held.has(seen.name)) {
      if (held.size >= PER_CONNECTION_MAX) return undefined;
      held.add(seen.name);
    }
    return seen.name;
  }

  /** Every text gets a new name, and each connection drops its old statements at its next checkout. */
  staleAll(): void {
    this.seen.clear();
    this.generation++;
  }

  /**
   * A connection whose statements are stale deallocates them (one round trip, once per
   * connection and event), so they stop holding server memory and its bound counts only the
   * statements it can still use.
   */
  private async dropStale(client: pg.PoolClient): Promise<void> {
    const preparedIn = this.preparedIn.get(client);
    if (preparedIn === this.generation) return;
    this.preparedIn.set(client, this.generation);
    if (preparedIn === undefined || !this.held.get(client)?.size) return;
    try {
      await client.query('DEALLOCATE ALL');
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
    this.held.delete(client);
  }

  /** `pool` as Kysely sees it: its clients' queries run under their names once hot. */
  wrap(pool: pg.Pool): PostgresPool {
    const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
    return {
      connect: async () => {
        const client = await pool.connect();
        await this.dropStale(client);
        let wrapper = wrappers.get(client);
        if (!wrapper) {
          const query = async (text: string, values: readonly unknown[]) => {
            const name = this.nameFor(client, text);
            if (!name) return client.query(text, [...values]);
            try {
              return await client.query({ name, text, values: [...values] });
            } catch (err) {
              // a column's type changed under a prepared statement (a migration by another
              // instance): every text gets a new name, so each connection prepares it anew
              if ((err as { code?: string }).code === '0A000') this.staleAll();
              throw err;
            }
          };
          wrapper = {
            // a cursor (streamed query) passes through as it is
            query: ((first: string | object, values?: readonly unknown[]) =>
              typeof first === 'string'
                ? query(first, values ?? [])
                : client.query(first as never)) as unknown as PostgresPoolClient['query'],
            release: () => client.release(),
          };
          wrappers.set(client, wrapper);
        }
        return wrapper;
      },
      end: () => pool.end(),
    };
  }
}
