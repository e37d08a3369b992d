/**
 * Statement timing (db/statement-timing.ts), which the metrics and the traces hear from: a
 * statement that succeeds, one that fails (with its error, so the metrics count its code) and a
 * streamed one are each reported once, after they settle, and the caller gets the statement's own
 * answer or error. With metrics and traces off the dialect is not wrapped and nothing is reported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql, type LogEvent } from 'kysely';
import { loadConfig } from '../../src/server/config.ts';
import { observeStatements, openDatabase } from '../../src/server/db/index.ts';
import pg from 'pg';
import type { Database, Dialect } from '../../src/server/types.ts';
import { testDialects, withSearchPath } from './auth-helpers.ts';

const opened: Array<{ database: Database; dir: string; drop?: () => Promise<void> }> = [];

/** On PostgreSQL, a schema of its own in TEST_DATABASE_URL's database, dropped after the test. */
async function pgSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL ?? '';
  const schema = `timing_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const run = async (text: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(text);
    await c.end();
  };
  await run(`create schema ${schema}`);
  return { url: withSearchPath(base, schema), drop: () => run(`drop schema if exists ${schema} cascade`) };
}

async function open(dialect: Dialect, metricsToken: string): Promise<{ database: Database; events: LogEvent[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'statement-timing-'));
  const place = dialect === 'postgres' ? await pgSchema() : undefined;
  const database = await openDatabase(loadConfig({}, { dataDir: dir, databaseUrl: place?.url ?? '', metricsToken, tracesEndpoint: '' }));
  opened.push({ database, dir, drop: place?.drop });
  const events: LogEvent[] = [];
  observeStatements(database, (event) => events.push(event));
  await sql`create table t (id integer primary key ${sql.raw(dialect === 'postgres' ? 'generated always as identity' : '')}, name text not null)`.execute(
    database.db,
  );
  events.length = 0;
  return { database, events };
}

afterEach(async () => {
  for (const { database, dir, drop } of opened.splice(0)) {
    await database.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe.each(testDialects)('statement timing on %s', (dialect) => {
  it('reports a statement that succeeds, with its duration, after the caller has its rows', async () => {
    const { database, events } = await open(dialect, 'metrics-token-for-the-test');
    await sql`insert into t (name) values (${'a'}), (${'b'})`.execute(database.db);
    const rows = await database.db
      .selectFrom('t' as never)
      .selectAll()
      .execute();
    expect(rows).toHaveLength(2);
    await expect.poll(() => events.length).toBe(2);
    expect(events.map((e) => e.level)).toEqual(['query', 'query']);
    expect(events[1].query.sql).toMatch(/^select \* from "t"/);
    expect(events[1].queryDurationMillis).toBeGreaterThanOrEqual(0);
  });

  it('reports a failed statement with its error, and the caller gets the same error', async () => {
    const { database, events } = await open(dialect, 'metrics-token-for-the-test');
    const failed = await sql`insert into t (name) values (${null})`.execute(database.db).catch((err: unknown) => err);
    expect((failed as { code?: string }).code).toBe(dialect === 'postgres' ? '23502' : 'SQLITE_CONSTRAINT_NOTNULL');
    await expect.poll(() => events.length).toBe(1);
    expect(events[0].level).toBe('error');
    expect(events[0].level === 'error' && events[0].error).toBe(failed);
  });

  // (the PostgreSQL dialect has no cursor: the product streams on SQLite only, rowArrayReader reads PostgreSQL in batches)
  it.skipIf(dialect === 'postgres')('reports a streamed statement once, when the stream ends', async () => {
    const { database, events } = await open(dialect, 'metrics-token-for-the-test');
    await sql`insert into t (name) values ('a'), ('b'), ('c')`.execute(database.db);
    await expect.poll(() => events.length).toBe(1);
    let n = 0;
    for await (const row of database.db
      .selectFrom('t' as never)
      .selectAll()
      .stream(1))
      if (row) n++;
    expect(n).toBe(3);
    await expect.poll(() => events.length).toBe(2);
    expect(events[1]).toMatchObject({ level: 'query', isStream: true });
  });

  it.skipIf(dialect === 'postgres')('reports a stream its reader stops early, once', async () => {
    const { database, events } = await open(dialect, 'metrics-token-for-the-test');
    await sql`insert into t (name) values ('a'), ('b'), ('c')`.execute(database.db);
    await expect.poll(() => events.length).toBe(1);
    for await (const row of database.db
      .selectFrom('t' as never)
      .selectAll()
      .stream(1))
      if (row) break;
    await expect.poll(() => events.length).toBe(2);
    expect(events[1]).toMatchObject({ level: 'query', isStream: true });
  });

  it('a report that throws fails neither the statement nor the process', async () => {
    const { database, events } = await open(dialect, 'metrics-token-for-the-test');
    observeStatements(database, () => {
      throw new Error('a broken observer');
    });
    const result = await sql<{ n: number }>`select 1 as n`.execute(database.db);
    expect(Number(result.rows[0].n)).toBe(1);
    const failed = await sql`insert into t (name) values (${null})`.execute(database.db).catch((err: unknown) => err);
    expect((failed as { code?: string }).code).toBe(dialect === 'postgres' ? '23502' : 'SQLITE_CONSTRAINT_NOTNULL');
    // the observer before the broken one heard both
    await expect.poll(() => events.map((e) => e.level)).toEqual(['query', 'error']);
  });

  it("reports nothing with metrics and traces off (the dialect is Kysely's own)", async () => {
    const { database, events } = await open(dialect, '');
    await sql`insert into t (name) values ('a')`.execute(database.db);
    const failed = await sql`insert into t (name) values (${null})`.execute(database.db).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(Error);
    // the statements above have settled; a report would have been made in the same turn
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
  });
});
