/**
 * The erasure ledger across `npm run restore` (scripts/restore.ts), on SQLite and PostgreSQL, as
 * privacy.test.ts proves it across the 备份管理 screen's restore:
 * - a person entered in the roster, the feedback and the dealer members (each edited, one record
 *   of each in the recycle bin) and as a user; a backup; the person erased through the API; the
 *   instance stopped and the older backup restored on the command line: the restored tables (rows,
 *   revisions, log, pinyin keys) hold neither the ID number, the mobile nor the name, and the
 *   script says per table what it erased again;
 * - a present database that is absent or empty has no ledger to carry: the restore is refused,
 *   changing nothing, unless --without-ledger says to go on without it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import type { Config } from '../../src/server/config.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { script, TEST_BACKUP_KEY } from './backup-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { enterPerson, PERSON, personInRows } from './privacy-helpers.ts';

/** A backup of `t` through the screen's route; answers its file. */
async function backupNow(t: TestApp, token: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/backups', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return join(t.config.backupDir, res.json<{ name: string }>().name);
}

/** Runs `sql` on the PostgreSQL server of the tests (database `name`, or the server's own). */
async function onServer<T>(query: string, name?: string): Promise<T[]> {
  const u = new URL(process.env.TEST_DATABASE_URL!);
  if (name) u.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    return (await client.query(query)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.each(testApps())('the erasure ledger across npm run restore on %s', (dialect, start) => {
  const apps: TestApp[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const a of apps) await a.close();
    for (const c of cleanups) await c();
  });

  it('erases again in the restored tables a person erased after the backup was made', async () => {
    const t = await start({ backupKey: TEST_BACKUP_KEY, jobsEnabled: false });
    apps.push(t);
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    for (const name of ['staff', 'sysQuestion', 'dbcMember']) await enterPerson(t.app, token, resourceByName[name]);
    await createStaff(t.app, { username: 'person01', password: 'Person@2024', permissions: [], phone: PERSON.mobile });
    expect(await personInRows(t.app)).toEqual(expect.arrayContaining([expect.stringContaining(PERSON.idNumber)]));
    const older = await backupNow(t, token);

    const erased = await t.app.inject({
      method: 'POST',
      url: '/api/privacy/erase',
      headers: bearer(token),
      payload: { idNumber: PERSON.idNumber, mobile: PERSON.mobile, reason: '本人依第四十七条申请删除' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await personInRows(t.app)).toEqual([]);

    // the command line restores into a stopped instance
    await t.app.close();
    const out = await script('restore.ts', t.config, [older]);
    console.log(out.stdout);
    expect(out.stdout).toMatch(/restored \d+ rows of \d+ tables/);
    const restored = await t.reopen();
    expect(await personInRows(restored)).toEqual([]);
    // the rest of the backup is back
    const staff = await restored.database.db
      .selectFrom('staff')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(staff.n)).toBeGreaterThan(0);
    // what was erased again, per table
    expect(out.stdout).toContain('已带入删除登记 2 条，按登记再次删除了');
    expect(out.stdout).toContain('staff（员工花名册）：匿名化 1 条，回收站 1 条');
    expect(out.stdout).toMatch(/sys_question（.+）：匿名化 1 条，回收站 1 条/);
    expect(out.stdout).toMatch(/dbc_member（.+）：删除 1 条，回收站 1 条/);
    expect(out.stdout).toMatch(/sys_user（.+）：匿名化 1 条/);
  }, 600_000);

  it('refuses, changing nothing, when the present database is absent or empty, unless --without-ledger', async () => {
    const source = await start({ backupKey: TEST_BACKUP_KEY, jobsEnabled: false });
    apps.push(source);
    const archive = await backupNow(source, await loginAs(source.app, 'admin', ADMIN_PASSWORD));

    // no database file (SQLite), a database without tables (PostgreSQL)
    const dataDir = mkdtempSync(join(tmpdir(), 'restore-empty-'));
    cleanups.push(() => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })));
    let databaseUrl = '';
    const tables = async () =>
      dialect === 'sqlite'
        ? existsSync(join(dataDir, 'console.db'))
          ? -1
          : 0
        : Number(
            (await onServer<{ n: string }>(`select count(*) as n from information_schema.tables where table_schema = 'public'`, name))[0].n,
          );
    const name = `test_restore_empty_${randomBytes(4).toString('hex')}`;
    if (dialect === 'postgres') {
      await onServer(`create database ${name}`);
      cleanups.push(() => onServer(`drop database if exists ${name} with (force)`));
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
    }
    const target: Config = { ...source.config, dataDir, databaseUrl };

    const refused = await script('restore.ts', target, [archive]).then(
      () => null,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toContain('未恢复，现有数据未改变：无法读取当前数据库中的删除登记');
    expect(refused?.stderr).toContain(dialect === 'sqlite' ? '不存在' : '当前数据库是空的');
    expect(refused?.stderr).toContain('--without-ledger');
    expect(await tables()).toBe(0);

    const out = await script('restore.ts', target, [archive, '--without-ledger']);
    expect(out.stdout).toContain('按 --without-ledger 不带删除登记恢复');
    expect(out.stdout).toMatch(/restored \d+ rows of \d+ tables/);
    expect(await tables()).not.toBe(0);
  }, 600_000);
});
