/**
 * SQLite's integrity check on restore: an archive whose manifest matches it in every size,
 * SHA-256 and row count, but whose database file is damaged inside (an index page whose keys no
 * longer match the table's rows, so every table still opens and counts as the manifest says),
 * is refused with a Chinese 400 before anything changes. Only PRAGMA integrity_check can tell;
 * taking it out of the restore makes this test fail. (SQLite only: a PostgreSQL backup holds
 * rows, not a database file, and is loaded and counted instead.)
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/server/modules/backup/manifest.ts';
import type { BackupInfo } from '../../src/server/modules/backup/store.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { archiveEntries, packArchive, restoreUpload, snapshot, TEST_BACKUP_KEY, uploadedFiles } from './backup-helpers.ts';

const sqliteOnly = testApps().filter(([dialect]) => dialect === 'sqlite');

/** The database file with bytes of one index's leaf page changed: `admin` in sys_user's username index becomes `admio`. */
function damageIndexPage(file: string): void {
  const db = new SQLite(file);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const index = db
    // the unique index of sys_user.username, its first unique column
    .prepare(`select name, rootpage from sqlite_master where type = 'index' and name = 'sqlite_autoindex_sys_user_1'`)
    .get() as { name: string; rootpage: number } | undefined;
  const pages = db.pragma('page_count', { simple: true }) as number;
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  db.close();
  if (!index) throw new Error('no index on sys_user.username');
  // a page inside the file, not its first or last
  expect(index.rootpage).toBeGreaterThan(1);
  expect(index.rootpage).toBeLessThan(pages);
  const bytes = readFileSync(file);
  const page = bytes.subarray((index.rootpage - 1) * pageSize, index.rootpage * pageSize);
  const at = page.indexOf('admin');
  expect(at, 'the username admin in the index page').toBeGreaterThan(0);
  page[at + 4] = 'o'.charCodeAt(0);
  writeFileSync(file, bytes);
  // still opens, and every table counts what it did
  const check = new SQLite(file, { readonly: true });
  try {
    expect(check.pragma('integrity_check', { simple: true })).not.toBe('ok');
  } finally {
    check.close();
  }
}

describe.each(sqliteOnly)('restore checks the integrity of the backed-up database on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await start({ storage: 'disk', jobsEnabled: false, backupKey: TEST_BACKUP_KEY });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(async () => t?.close());

  it('refuses an archive whose manifest matches a damaged database, and changes nothing', async () => {
    const made = await t.app.inject({ method: 'POST', url: '/api/backups', headers: bearer(admin) });
    expect(made.statusCode, made.body).toBe(200);
    const entries = await archiveEntries(t.config, readFileSync(join(t.config.backupDir, made.json<BackupInfo>().name)));
    const dbEntry = entries.find((e) => e.name === 'database/console.db')!;
    const file = join(tmpdir(), `damaged-${process.pid}-${Date.now()}.db`);
    writeFileSync(file, dbEntry.data);
    damageIndexPage(file);
    const damaged = readFileSync(file);
    expect(damaged.length).toBe(dbEntry.data.length);
    // the manifest made to match the damaged file: its size and SHA-256
    const manifest = JSON.parse(entries.at(-1)!.data.toString()) as Manifest;
    const listed = manifest.files.find((f) => f.path === 'database/console.db')!;
    listed.sha256 = createHash('sha256').update(damaged).digest('hex');
    listed.size = damaged.length;
    const archive = await packArchive(t.config, [
      ...entries.slice(0, -1).map((e) => (e.name === 'database/console.db' ? { ...e, data: damaged } : e)),
      { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) },
    ]);

    const before = await snapshot(t.app);
    const files = uploadedFiles(t.config.dataDir);
    const names = (await readdir(t.config.backupDir)).sort();
    const res = await restoreUpload(t.app, 'damaged.tar.gz', archive, admin);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).message).toBe('备份无法恢复，现有数据未改变：备份中的数据库文件完整性检查未通过');
    const after = await snapshot(t.app);
    delete before.sys_log;
    delete after.sys_log;
    expect(after).toEqual(before);
    expect(uploadedFiles(t.config.dataDir)).toEqual(files);
    // no pre-restore backup, no work folder
    expect((await readdir(t.config.backupDir)).sort()).toEqual(names);
  });
});
