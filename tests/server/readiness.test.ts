/**
 * Readiness tells the truth from the first second:
 * - the write probe's table exists once the app is built (made under the start lock with the
 *   other tables, never by the first readiness checks of instances started together);
 * - a probe that fails for another reason than storage (here its table is gone) answers 503
 *   saying so (就绪检查出错（非存储原因）, state ERROR, the code in `reasons`), not 存储不可写;
 * - such a failure is not kept for the probe's 5 s: once the cause is gone the next check is 200.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READINESS_PROBE_FAILED, STORAGE_NOT_WRITABLE } from '../../src/server/health.ts';
import { ensureHealthProbeTable, refusesWrites } from '../../src/server/disk/write-probe.ts';
import { errorOf, testApps, type TestApp } from './helpers.ts';

describe('which probe failures mean storage refuses writes', () => {
  it('read-only, permission and full answers do; a missing table, a duplicate or a lost connection do not', () => {
    for (const code of ['EROFS', 'EACCES', 'ENOSPC', 'SQLITE_READONLY', 'SQLITE_FULL', '25006', '53100', '42501'])
      expect(refusesWrites(Object.assign(new Error('x'), { code })), code).toBe(true);
    for (const code of ['42P01', '23505', 'ECONNRESET', '57P01', 'SQLITE_ERROR', undefined])
      expect(refusesWrites(Object.assign(new Error('x'), { code })), String(code)).toBe(false);
    expect(refusesWrites(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'EROFS' }) }))).toBe(true);
  });
});

describe.each(testApps())('readiness on %s', (dialect, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start();
  }, 60_000);
  afterAll(() => t?.close());

  const ready = () => t.app.inject({ method: 'GET', url: '/api/health/ready' });

  it('finds the write probe table made at start, before any readiness check', async () => {
    const { db } = t.app.database;
    const rows = await sql<{ n: number }>`select count(*) as n from sys_health_probe`.execute(db);
    expect(Number(rows.rows[0].n)).toBe(0);
    expect((await ready()).statusCode).toBe(200);
  });

  it('says a probe failed for another reason than storage, and checks again at once when it is fixed', async () => {
    const { db } = t.app.database;
    await sql`drop table sys_health_probe`.execute(db);
    // the last good probe is kept 5 s; wait for one that meets the missing table
    let res = await ready();
    const deadline = Date.now() + 10_000;
    while (res.statusCode === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      res = await ready();
    }
    const body = errorOf(res);
    expect(res.statusCode).toBe(503);
    expect(body.message).toBe(READINESS_PROBE_FAILED);
    expect(body.message).not.toBe(STORAGE_NOT_WRITABLE);
    expect(body).toMatchObject({
      database: 'ERROR',
      storage: 'UP',
      reasons: [dialect === 'postgres' ? 'database: 42P01' : 'database: SQLITE_ERROR'],
    });
    await ensureHealthProbeTable(t.app.database);
    // not kept for 5 s: the very next check probes again
    expect((await ready()).statusCode).toBe(200);
  }, 20_000);
});
