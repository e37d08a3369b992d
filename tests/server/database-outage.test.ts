/**
 * Surviving the database:
 * - liveness and readiness answer (public);
 * - PostgreSQL ending the connections (what a restart or failover does: 57P01 on idle and
 *   checked-out clients alike) ends no process; the query in flight is a 503 数据库暂时不可用，请稍后再试
 *   and the next request works on a new connection;
 * - three instances started at once on an empty database all come up, with one copy of the
 *   first-start data (they take turns under an advisory lock), and all three are ready from their
 *   first readiness check, asked of all three at the same moment;
 * - a start on a missing or unreachable database says so in one line naming DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { DATABASE_UNAVAILABLE } from '../../src/server/db/unavailable.ts';
import { describeError } from '../../src/server/errors.ts';
import { databaseStartError } from '../../src/server/start-errors.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { loginAs } from './auth-helpers.ts';
import { until } from '../support/wait.ts';

const PG = process.env.TEST_DATABASE_URL;

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

describe.each(testApps())('health checks on %s', (_name, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start();
  }, 60_000);
  afterAll(() => t?.close());

  it('answer without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'UP' });
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).json()).toEqual({
      status: 'UP',
      database: 'UP',
      storage: 'UP',
    });
    t.app.health.stopping();
    const draining = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(draining.statusCode).toBe(503);
  });
});

describe.runIf(!!PG)('PostgreSQL going away', () => {
  let t: TestApp;
  let dbName: string;
  beforeAll(async () => {
    t = await testApps().find(([n]) => n === 'postgres')![1]();
    dbName = new URL(t.config.databaseUrl).pathname.slice(1);
  }, 60_000);
  afterAll(() => t?.close());

  const terminate = () =>
    admin((c) =>
      c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]),
    );

  it('ends no process: the query in flight is a 503, idle and checked-out clients reconnect', async () => {
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    // one query in flight, others idle in the pool
    await Promise.all([1, 2, 3].map(() => sql`select 1`.execute(t.app.database.db)));
    const inFlight = sql`select pg_sleep(5)`.execute(t.app.database.db).then(
      () => undefined,
      (e: unknown) => e,
    );
    const inTransaction = t.app.database.db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await sql`select pg_sleep(5)`.execute(trx);
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // both statements are running on the server before it ends the connections
    await until(
      () =>
        admin(async (c) => {
          const r = await c.query<{ n: string }>(
            "select count(*) as n from pg_stat_activity where datname = $1 and query like '%pg_sleep(5)%' and state = 'active'",
            [dbName],
          );
          return Number(r.rows[0].n) === 2;
        }),
      'the two pg_sleep statements to be running',
    );
    await terminate();
    const [err, trxErr] = await Promise.all([inFlight, inTransaction]);
    expect(describeError(err)).toMatchObject({ status: 503, message: DATABASE_UNAVAILABLE });
    expect(describeError(trxErr)).toMatchObject({ status: 503, message: DATABASE_UNAVAILABLE });
    // the pool drops the ended idle clients as their errors arrive; then requests get new connections
    await until(
      async () => (await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode === 200,
      'readiness to answer 200 again',
    );
    const list = await t.app.inject({ method: 'GET', url: '/api/sysQuestion', headers: bearer(token) });
    expect(list.statusCode).toBe(200);
  }, 30_000);
});

describe.runIf(!!PG)('instances started together on an empty database', () => {
  const name = `test_start_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dirs: string[] = [];
  afterAll(async () => {
    await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('all three come up, with one copy of the first-start data, and are ready at once', async () => {
    await admin((c) => c.query(`create database ${name}`));
    const u = new URL(PG!);
    u.pathname = `/${name}`;
    const configs = [0, 1, 2].map(() => {
      const dataDir = mkdtempSync(join(tmpdir(), 'start-together-'));
      dirs.push(dataDir);
      return loadConfig(
        {},
        {
          dataDir,
          databaseUrl: u.toString(),
          captchaEnabled: false,
          seedDemo: true,
          adminInitialPassword: ADMIN_PASSWORD,
          logLevel: 'warn',
          serveWeb: false,
          jobsEnabled: false,
        },
      );
    });
    const started = await Promise.allSettled(configs.map((c) => buildApp(c)));
    const apps = started
      .filter((s): s is PromiseFulfilledResult<Awaited<ReturnType<typeof buildApp>>> => s.status === 'fulfilled')
      .map((s) => s.value);
    try {
      expect(started.map((s) => (s.status === 'rejected' ? String((s.reason as Error).message) : 'up'))).toEqual(['up', 'up', 'up']);
      const db = apps[0].database.db;
      const count = async (table: string, column: string, value: string) =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where(column, '=', value)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count('sys_user', 'username', 'admin')).toBe(1);
      expect(await count('sys_user', 'username', 'hr01')).toBe(1);
      expect(await count('sys_role', 'name', '人事专员')).toBe(1);
      expect(await count('dbc_company', 'username', 'jxs001')).toBe(1);
      // the first readiness check of each, together: the write probe's table was made under the start lock
      const ready = await Promise.all(apps.map((a) => a.inject({ method: 'GET', url: '/api/health/ready' })));
      expect(ready.map((r) => `${r.statusCode} ${r.body}`)).toEqual(apps.map(() => `200 {"status":"UP","database":"UP","storage":"UP"}`));
    } finally {
      for (const a of apps) await a.close();
    }
  }, 120_000);
});

describe('a start that fails on the database', () => {
  it('names DATABASE_URL and what is wrong in one line', async () => {
    const refused = loadConfig(
      {},
      {
        dataDir: mkdtempSync(join(tmpdir(), 'start-error-')),
        databaseUrl: 'postgres://postgres@127.0.0.1:1/nothing',
        serveWeb: false,
        logLevel: 'warn',
      },
    );
    const err = await buildApp(refused).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(databaseStartError(err, refused.databaseUrl)).toBe(
      'DATABASE_URL: no PostgreSQL server answers at 127.0.0.1:1/nothing (connection refused)',
    );
    expect(databaseStartError({ code: '3D000' }, 'postgres://u@db.example:5433/shop')).toBe(
      'DATABASE_URL: the database does not exist at db.example:5433/shop (create it first: createdb)',
    );
    expect(databaseStartError({ code: '28P01' }, 'postgres://u@db:5432/shop')).toBe(
      'DATABASE_URL: the server at db:5432/shop refused the user or password',
    );
    expect(databaseStartError(new Error('boom'), 'postgres://u@db/shop')).toBeUndefined();
    if (PG) {
      const u = new URL(PG);
      u.pathname = '/no_such_database_here';
      const missing = loadConfig(
        {},
        { dataDir: mkdtempSync(join(tmpdir(), 'start-error-')), databaseUrl: u.toString(), serveWeb: false, logLevel: 'warn' },
      );
      const e = await buildApp(missing).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(databaseStartError(e, missing.databaseUrl)).toMatch(/^DATABASE_URL: the database does not exist at /);
    }
  }, 60_000);
});
