/**
 * Backups and restores check the free space of BACKUP_DIR before they start, on SQLite and
 * PostgreSQL, with BACKUP_DIR on a small tmpfs of the test's own filled to the last byte:
 * - 立即备份 and a restore answer 507 存储空间不足，请联系管理员清理后重试 and write nothing
 *   (no archive, no work folder, no pre-restore backup; the data is unchanged);
 * - the scheduled backup fails, its run is logged as failed, and the administrators are told
 *   (the stored notice, and an INFO on the signed-in admin's open socket);
 * - once space is freed, backups work again.
 * (Skipped, saying why, where mounting is not permitted.)
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_LOW } from '../../src/server/disk/free-space.ts';
import { BACKUP_FAILED_TITLE } from '../../src/server/modules/backup/notices.ts';
import type { BackupInfo } from '../../src/server/modules/backup/store.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import { stepUpPassword, TEST_BACKUP_KEY } from './backup-helpers.ts';
import { fill, mountSmallVolume, unmountSmallVolume } from './small-volume.ts';
import { listen, openSocket } from './ws-helpers.ts';

describe.each(testApps())('backups on a full backup volume on %s', (_name, start) => {
  const volume = mountSmallVolume(32, 'backup-volume-');
  if ('reason' in volume) console.warn(`backup free-space test skipped: ${volume.reason}`);
  const dir = 'dir' in volume ? volume.dir : '';
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    if (!dir) return;
    t = await start({ backupDir: join(dir, 'backups'), diskWarnFreeMb: 0, backupKey: TEST_BACKUP_KEY });
    token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (dir) unmountSmallVolume(dir);
  });

  it.skipIf(!dir)(
    'refuses backups and restores with 507 before writing anything, and tells the administrators of a failed schedule',
    async () => {
      const backupNow = () => t.app.inject({ method: 'POST', url: '/api/backups', headers: bearer(token) });
      const first = await backupNow();
      expect(first.statusCode, first.body).toBe(200);
      const made = first.json<BackupInfo>();
      const names = () => readdirSync(join(dir, 'backups')).sort();
      const messages = async () =>
        (await t.app.database.db.selectFrom('sys_socket').select('title').execute()).map((r) => String(r.title)).sort();
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/sysSocket',
        headers: { ...bearer(token), submit_id: submitId() },
        payload: { title: 'after the backup', type: 1, enabled: true },
      });
      expect(added.statusCode, added.body).toBe(201);

      const filler = fill(dir);
      try {
        const listed = names();
        const before = await messages();

        const refused = await backupNow();
        expect(refused.statusCode, refused.body).toBe(507);
        expect(errorOf(refused).message).toBe(STORAGE_LOW);

        // a restore would first save the present state: refused before anything changes
        const restore = await t.app.inject({
          method: 'POST',
          url: `/api/backups/${made.name}/restore`,
          headers: bearer(token),
          payload: { password: await stepUpPassword(t.app) },
        });
        expect(restore.statusCode, restore.body).toBe(507);
        expect(errorOf(restore).message).toBe(STORAGE_LOW);
        expect(await messages()).toEqual(before);
        expect(names()).toEqual(listed);

        // the schedule: the run fails, is logged, and the signed-in admin hears of it at once
        const socket = await openSocket(`${await listen(t.app)}/webSocket/${token}`);
        try {
          const job = await t.app.database.db
            .selectFrom('sys_job')
            .select('id')
            .where('method_name', '=', 'scheduledBackup')
            .executeTakeFirstOrThrow();
          const run = await t.app.inject({ method: 'PUT', url: `/api/jobs/exec/${String(job.id)}`, headers: bearer(token) });
          expect(run.statusCode, run.body).toBe(200);
          expect(run.json<{ success: boolean; message: string }>()).toMatchObject({ success: false });
          const info = await socket.next((m) => m.msgType === 'INFO' && m.msg.startsWith(BACKUP_FAILED_TITLE));
          expect(info.msg).toContain('备份管理');
        } finally {
          socket.close();
        }
        const told = await t.app.database.db.selectFrom('sys_socket').select('enabled').where('title', '=', BACKUP_FAILED_TITLE).execute();
        expect(told).toHaveLength(1);
        const list = await t.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(token) });
        expect(list.json<{ lastScheduled: { success: boolean } }>().lastScheduled.success).toBe(false);
        expect(names()).toEqual(listed);
      } finally {
        rmSync(filler);
      }

      const again = await backupNow();
      expect(again.statusCode, again.body).toBe(200);
      expect(names()).toContain(again.json<BackupInfo>().name);
    },
    60_000,
  );
});
