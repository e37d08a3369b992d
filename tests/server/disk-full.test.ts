/**
 * A full disk is an answer, not a 500:
 * - SQLite on a real full file system (a small tmpfs mounted for the test; skipped, saying why,
 *   where mounting is not permitted): writes answer 507 存储空间已满，请联系管理员清理后重试, the
 *   failed transaction's error is SQLITE_FULL itself (no "cannot rollback" after it), the admin
 *   still signs in (the session waits in memory and is stored once space returns), uploads kept
 *   on disk answer 507 and leave no partial file, imports and exports refuse to start (507
 *   存储空间不足，请联系管理员清理后重试) though they ran while the small volume had room; after
 *   space is freed everything works again;
 * - PostgreSQL: disk_full (53100) raised by the database itself, by a trigger on the tables a
 *   write and a sign-in touch, gives the same answers.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_FULL, isStorageFull } from '../../src/server/db/storage-full.ts';
import { describeError } from '../../src/server/errors.ts';
import { PROBE_EVERY_MS } from '../../src/server/disk/write-probe.ts';
import { loginAs } from './auth-helpers.ts';
import { fill, mountSmallVolume, unmountSmallVolume } from './small-volume.ts';
import { multipartFile, XLSX_TYPE } from './multipart.ts';
import { STORAGE_LOW } from '../../src/server/disk/free-space.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { elapse } from '../support/wait.ts';

const PG = process.env.TEST_DATABASE_URL;
const question = (n: number) => ({ userType: '员工', model: '系统', title: `磁盘满${n}`, content: '问'.repeat(1500) });
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(256 * 1024, 7)]);

const volume = mountSmallVolume(24);
if ('reason' in volume) console.warn(`full-disk test on SQLite skipped: ${volume.reason}`);

describe.skipIf('reason' in volume)('a full disk on SQLite (a real full tmpfs)', () => {
  const dir = 'dir' in volume ? volume.dir : '';
  let t: TestApp;
  let filler = '';
  beforeAll(async () => {
    const start = testApps().find(([n]) => n === 'sqlite')![1];
    // the default DISK_MIN_FREE_MB (100), capped at 5 % of this 24 MB volume
    t = await start({ dataDir: join(dir, 'data'), storage: 'disk', diskWarnFreeMb: 0 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    unmountSmallVolume(dir);
  });

  it('answers 507, signs the admin in, and recovers once space is freed', async () => {
    const before = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const exportOnce = () => t.app.inject({ method: 'GET', url: '/api/sysQuestion/download', headers: bearer(before) });
    const importOnce = () => {
      const body = multipartFile('问题反馈.xlsx', Buffer.from('not really a workbook'), XLSX_TYPE);
      return t.app.inject({ method: 'POST', url: '/api/sysQuestion/import', ...body, headers: { ...bearer(before), ...body.headers } });
    };
    // a small volume, mostly empty: imports and exports go ahead
    expect((await exportOnce()).statusCode).toBe(200);
    expect((await importOnce()).statusCode).toBe(400); // read, and found no workbook
    filler = fill(dir);

    // imports and exports refuse before any work
    for (const res of [await exportOnce(), await importOnce()]) {
      expect(res.statusCode).toBe(507);
      expect(errorOf(res).message).toBe(STORAGE_LOW);
    }

    // a transaction that runs out of space fails with SQLITE_FULL itself: the rollback after it adds no error
    const failed = await t.app.database.db
      .transaction()
      .execute(async (trx) => {
        await sql`create table if not exists disk_probe_test (v blob)`.execute(trx);
        await sql`insert into disk_probe_test values (randomblob(4 * 1024 * 1024))`.execute(trx);
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((failed as { code?: string } | undefined)?.code).toBe('SQLITE_FULL');
    expect(describeError(failed)).toMatchObject({ status: 507, message: STORAGE_FULL });

    // creates: once the database's slack is used up, every one is a 507 in the usual shape, none a 500
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/sysQuestion', payload: question(i), headers: bearer(before) });
      statuses.push(res.statusCode);
      if (res.statusCode !== 201) expect(errorOf(res)).toMatchObject({ status: 507, message: STORAGE_FULL });
    }
    expect(statuses).toContain(507);
    expect(statuses.filter((s) => s !== 201 && s !== 507)).toEqual([]);

    // an upload kept on disk: 507, and no partial file is left behind
    const upload = multipartFile('big.png', PNG, 'image/png');
    const up = await t.app.inject({ method: 'POST', url: '/api/pictures', ...upload, headers: { ...bearer(before), ...upload.headers } });
    expect(up.statusCode).toBe(507);
    expect(errorOf(up).message).toBe(STORAGE_FULL);
    const uploads = join(dir, 'data', 'uploads');
    const left = existsSync(uploads) ? readdirSync(uploads, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()) : [];
    expect(left).toEqual([]);

    // the admin signs in, and the session works, though its row could not be stored
    const during = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    expect((await t.app.inject({ method: 'GET', url: '/api/info', headers: bearer(during) })).statusCode).toBe(200);
    const stored = () => t.app.database.db.selectFrom('sys_session').select('id').where('id', '=', hashOf(during)).executeTakeFirst();
    expect(await stored()).toBeUndefined();

    // readiness says so, and why
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(errorOf(ready)).toMatchObject({ message: STORAGE_FULL, storage: 'NOT_WRITABLE' });
    expect(ready.json<{ reasons: string[] }>().reasons).toContain('data directory: ENOSPC');

    // space returns: the session is written, writes work again, the database is sound
    rmSync(filler);
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode, { timeout: 10_000, interval: 500 })
      .toBe(200);
    await expect.poll(stored, { timeout: 10_000, interval: 250 }).toBeDefined();
    const created = await t.app.inject({ method: 'POST', url: '/api/sysQuestion', payload: question(99), headers: bearer(during) });
    expect(created.statusCode).toBe(201);
    expect((await exportOnce()).statusCode).toBe(200);
    const up2 = await t.app.inject({ method: 'POST', url: '/api/pictures', ...upload, headers: { ...bearer(during), ...upload.headers } });
    expect(up2.statusCode).toBe(201);
    const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(t.app.database.db);
    expect(check.rows[0].integrity_check).toBe('ok');
  }, 60_000);
});

describe.runIf(!!PG)('a full disk on PostgreSQL (53100 disk_full raised by the database)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApps().find(([n]) => n === 'postgres')![1]();
  }, 60_000);
  afterAll(() => t?.close());

  const TRIGGERED = ['sys_question', 'sys_session', 'sys_file', 'sys_health_probe'];
  const setFull = async (full: boolean) => {
    const db = t.app.database.db;
    if (full) {
      await sql`create or replace function test_disk_full() returns trigger language plpgsql as $$
        begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`.execute(db);
      for (const table of TRIGGERED)
        await sql`create trigger test_disk_full before insert or update on ${sql.table(table)} for each row execute function test_disk_full()`.execute(
          db,
        );
    } else {
      for (const table of TRIGGERED) await sql`drop trigger if exists test_disk_full on ${sql.table(table)}`.execute(db);
    }
  };

  it('answers 507, signs the admin in, and recovers once space is freed', async () => {
    const before = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    // the storage probe's last answer is kept this long: it must run out for the next probe to look again
    await elapse(PROBE_EVERY_MS);
    await setFull(true);
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(errorOf(ready)).toMatchObject({ message: STORAGE_FULL, database: 'NOT_WRITABLE', reasons: ['database: 53100'] });

      const res = await t.app.inject({ method: 'POST', url: '/api/sysQuestion', payload: question(1), headers: bearer(before) });
      expect(res.statusCode).toBe(507);
      expect(errorOf(res).message).toBe(STORAGE_FULL);
      const upload = multipartFile('a.png', PNG, 'image/png');
      const up = await t.app.inject({ method: 'POST', url: '/api/pictures', ...upload, headers: { ...bearer(before), ...upload.headers } });
      expect(up.statusCode).toBe(507);
      const failed = await t.app.database.db
        .transaction()
        .execute((trx) => trx.insertInto('sys_question').values({ user_type: '员工', model: '系统', content: 'x' }).execute())
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect((failed as { code?: string }).code).toBe('53100');
      expect(isStorageFull(failed)).toBe(true);

      const during = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
      expect((await t.app.inject({ method: 'GET', url: '/api/info', headers: bearer(during) })).statusCode).toBe(200);
      await setFull(false);
      const stored = () => t.app.database.db.selectFrom('sys_session').select('id').where('id', '=', hashOf(during)).executeTakeFirst();
      await expect.poll(stored, { timeout: 10_000, interval: 250 }).toBeDefined();
      const created = await t.app.inject({ method: 'POST', url: '/api/sysQuestion', payload: question(2), headers: bearer(during) });
      expect(created.statusCode).toBe(201);
    } finally {
      await setFull(false);
    }
  }, 60_000);
});

describe('storage-full errors', () => {
  it('are told apart from other failures', () => {
    for (const e of [
      { code: 'SQLITE_FULL', message: 'database or disk is full' },
      { code: 'SQLITE_IOERR_WRITE', message: 'disk I/O error' },
      { code: '53100', message: 'could not extend file' },
      { code: 'ENOSPC', message: 'ENOSPC: no space left on device, write' },
      new Error('stream failed', { cause: { code: 'ENOSPC' } }),
    ])
      expect(describeError(e)).toMatchObject({ status: 507, message: STORAGE_FULL, internal: false });
    for (const e of [{ code: 'SQLITE_CONSTRAINT_UNIQUE' }, { code: 'SQLITE_IOERR_READ' }, new Error('boom'), { code: '23505' }])
      expect(describeError(e).status).not.toBe(507);
  });
});
