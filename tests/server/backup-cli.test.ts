/**
 * The command line, on SQLite and PostgreSQL: `npm run backup` (scripts/backup.ts) backs up an
 * instance while it serves; `npm run restore FILE` (scripts/restore.ts) restores the archive into
 * a stopped, fresh instance, which then holds every table and file as the first one had them.
 * BACKUP_DIR and BACKUP_KEEP are checked when the configuration is read.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { testApps, type TestApp } from './helpers.ts';
import { fillEverything, script, snapshot, TEST_BACKUP_KEY, uploadedFiles } from './backup-helpers.ts';

describe('backup settings', () => {
  it('BACKUP_DIR defaults to DATA_DIR/backups and may not be the data or uploads folder', () => {
    expect(loadConfig({ DATA_DIR: '/srv/console' }).backupDir).toBe('/srv/console/backups');
    expect(loadConfig({ DATA_DIR: '/srv/console', BACKUP_DIR: '/mnt/backups' }).backupDir).toBe('/mnt/backups');
    for (const dir of ['/srv/console', '/srv/console/uploads', '/srv/console/uploads/x', '/srv']) {
      expect(() => loadConfig({ DATA_DIR: '/srv/console', BACKUP_DIR: dir })).toThrow(ConfigError);
    }
    expect(loadConfig({}).backupKeep).toBe(7);
    expect(() => loadConfig({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
    expect(() => loadConfig({ BACKUP_KEEP: 'many' })).toThrow(/BACKUP_KEEP/);
  });
});

describe.each(testApps())('npm run backup / restore on %s', (_dialect, start) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close();
  });

  it('backs up a serving instance and restores it into a fresh stopped one', async () => {
    const source = await start({ storage: 'disk', jobsEnabled: false, backupKey: TEST_BACKUP_KEY });
    apps.push(source);
    await fillEverything(source.app);
    const out = await script('backup.ts', source.config);
    expect(out.stdout).toMatch(/backup written: .*backup-\d{8}-\d{6}-\d{3}-cli\.tar\.gz\.enc \(\d+ bytes\)/);
    const [name] = readdirSync(source.config.backupDir).filter((n) => n.endsWith('-cli.tar.gz.enc'));
    // npm run backup:decrypt gives the gzip-compressed tar inside
    const clear = join(source.config.dataDir, 'clear.tar.gz');
    await script('backup-decrypt.ts', source.config, [join(source.config.backupDir, name), clear]);
    expect(readFileSync(clear).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    rmSync(clear);
    const state = await snapshot(source.app);
    const files = uploadedFiles(source.config.dataDir);

    const target = await start({ storage: 'disk', jobsEnabled: false, backupKey: TEST_BACKUP_KEY });
    apps.push(target);
    await target.app.close();
    const restored = await script('restore.ts', target.config, [join(source.config.backupDir, name)]);
    expect(restored.stdout).toContain('正在替换数据');
    expect(restored.stdout).toMatch(/restored \d+ rows of \d+ tables and 3 uploaded files/);
    const reopened = await target.reopen();
    // (refusals of damaged archives, the same code, are proved in backup.test.ts)
    const after = await snapshot(reopened);
    for (const [table, rows] of Object.entries(state)) {
      // the restore's notice to everyone, with its pinyin keys and revision, comes after the backup
      if (['sys_socket', 'sys_socket_title_py', 'sys_revision'].includes(table))
        expect(after[table], table).toEqual(expect.arrayContaining(rows));
      else expect(after[table], table).toEqual(rows);
    }
    expect(uploadedFiles(target.config.dataDir)).toEqual(files);
    expect(readdirSync(target.config.backupDir).some((n) => n.endsWith('-pre-restore.tar.gz.enc'))).toBe(true);
  }, 300_000);
});
