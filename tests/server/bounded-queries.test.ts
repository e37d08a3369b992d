/**
 * Bounded queries on PostgreSQL: every pool connection carries statement_timeout
 * (DB_STATEMENT_TIMEOUT_SECONDS, by default 5 s below REQUEST_TIMEOUT_SECONDS), so a query the
 * database stalls (a lock it waits for, a slow statement) is cut (57014) and answered 503
 * 数据库暂时不可用，请稍后再试 before the request deadline; the configuration of the new
 * variables is checked at start.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { DATABASE_UNAVAILABLE } from '../../src/server/db/unavailable.ts';
import { describeError } from '../../src/server/errors.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';

const PG = process.env.TEST_DATABASE_URL;

describe('DB_STATEMENT_TIMEOUT_SECONDS, SHUTDOWN_GRACE_SECONDS and the disk thresholds', () => {
  it('default below the request deadline and refuse what would not be', () => {
    expect(loadConfig({}).dbStatementTimeoutMs).toBe(55_000);
    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: '5' }).dbStatementTimeoutMs).toBe(4500);
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_SECONDS: '2.5' }).dbStatementTimeoutMs).toBe(2500);
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_SECONDS: '0' }).dbStatementTimeoutMs).toBe(0);
    expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_SECONDS: '60' })).toThrow(/must be below REQUEST_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_SECONDS: 'soon' })).toThrow(ConfigError);
    expect(loadConfig({}).shutdownGraceMs).toBe(15_000);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '30' }).shutdownGraceMs).toBe(30_000);
    expect(loadConfig({})).toMatchObject({ diskWarnFreeMb: 500, diskMinFreeMb: 100 });
    expect(() => loadConfig({ DISK_WARN_FREE_MB: '50', DISK_MIN_FREE_MB: '100' })).toThrow(/DISK_WARN_FREE_MB/);
    expect(() => loadConfig({ DISK_MIN_FREE_MB: '-1' })).toThrow(ConfigError);
    expect(loadConfig({ DISK_WARN_FREE_MB: '0', DISK_MIN_FREE_MB: '0' })).toMatchObject({ diskWarnFreeMb: 0, diskMinFreeMb: 0 });
  });
});

describe.runIf(!!PG)('a stalled PostgreSQL', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await testApps().find(([n]) => n === 'postgres')![1]({ dbStatementTimeoutMs: 500 });
    token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('cuts a slow statement with 57014, answered 503', async () => {
    const shown = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(t.app.database.db);
    expect(shown.rows[0].statement_timeout).toBe('500ms');
    const err = await sql`select pg_sleep(3)`.execute(t.app.database.db).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as { code?: string }).code).toBe('57014');
    expect(describeError(err)).toMatchObject({ status: 503, message: DATABASE_UNAVAILABLE, internal: false });
  });

  it('answers a request whose query waits on a lock 503 within the statement timeout, and 200 once it is free', async () => {
    const locker = new pg.Client({ connectionString: t.config.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table sys_question in access exclusive mode');
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: '/api/sysQuestion', headers: bearer(token) });
      expect(res.statusCode).toBe(503);
      expect(errorOf(res).message).toBe(DATABASE_UNAVAILABLE);
      expect(Date.now() - started).toBeLessThan(3000);
      await locker.query('rollback');
      expect((await t.app.inject({ method: 'GET', url: '/api/sysQuestion', headers: bearer(token) })).statusCode).toBe(200);
    } finally {
      await locker.end();
    }
  });
});
