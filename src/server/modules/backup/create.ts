/**
 * Making a backup: the database dump and the uploaded files on disk, packed into one archive in
 * BACKUP_DIR with its manifest (see archive.ts, dump.ts, manifest.ts). The work folder beside it
 * is removed whatever happens; the archive appears under its name only when complete.
 * One backup or restore runs at a time in a process (a second one is refused with 409).
 */
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { Database } from '../../types.ts';
import { ApiError, conflict } from '../../errors.ts';
import { MIN_SHARE, STORAGE_LOW, thresholdBytes, volumeSpace } from '../../disk/free-space.ts';
import { nowText } from '../../db/index.ts';
import pkg from '../../../../package.json' with { type: 'json' };
import { writeArchive } from './archive.ts';
import { dumpPostgres, dumpSqlite } from './dump.ts';
import { MANIFEST_FORMAT, MANIFEST_VERSION, type BackupReason, type Manifest } from './manifest.ts';
import { backupName, type BackupInfo } from './store.ts';
import { NO_KEY, writeKey } from './keys.ts';

export const BUSY = '已有备份或恢复任务正在进行，请稍后再试';

let running: string | null = null;

/** Runs `task` as the one backup/restore of this process; refused (409) while another runs. */
export async function exclusively<T>(what: string, task: () => Promise<T>): Promise<T> {
  if (running) throw conflict(BUSY);
  running = what;
  try {
    return await task();
  } finally {
    running = null;
  }
}

/** Whether a backup or restore is running in this process. */
export function backupRunning(): boolean {
  return running !== null;
}

export interface BackupOptions {
  reason: BackupReason;
  /** SQLite: copy in one step (a separate process such as the command line, whose copy another writer would restart) */
  bulk?: boolean;
}

/** Writes a backup of `database` into config.backupDir (without taking the one-at-a-time turn: callers do). */
/**
 * 507 when the backup folder's volume cannot hold a copy of the database and the uploads on
 * disk beside the minimum free space (a backup that fills the disk would stop the product).
 */
export async function assertRoomForBackup(config: Config): Promise<void> {
  const space = await volumeSpace(config.backupDir);
  if (!space) return;
  const sizeOf = async (path: string) => (await stat(path).catch(() => null))?.size ?? 0;
  const need = (await sizeOf(join(config.dataDir, 'console.db'))) + (await sizeOf(join(config.dataDir, 'console.db-wal')));
  if (space.free < thresholdBytes(config.diskMinFreeMb, space.total, MIN_SHARE) + need) throw new ApiError(507, STORAGE_LOW);
}

export async function writeBackup(database: Database, config: Config, opts: BackupOptions): Promise<BackupInfo> {
  // never an archive in clear: without the operator's key no backup is written
  const key = writeKey(config);
  if (!key) throw new ApiError(503, NO_KEY);
  await mkdir(config.backupDir, { recursive: true });
  await assertRoomForBackup(config);
  const started = new Date();
  const name = backupName(opts.reason, started);
  const work = await mkdtemp(join(config.backupDir, '.work-'));
  try {
    const dump =
      database.dialect === 'sqlite'
        ? await dumpSqlite(database, config.dataDir, work, { bulk: opts.bulk })
        : await dumpPostgres(config, work);
    const size = await writeArchive(
      join(config.backupDir, name),
      dump.sources,
      (files): Manifest => ({
        format: MANIFEST_FORMAT,
        formatVersion: MANIFEST_VERSION,
        appVersion: pkg.version,
        createdAt: nowText(started),
        createdAtIso: started.toISOString(),
        reason: opts.reason,
        dialect: database.dialect,
        tables: dump.tables,
        ...(dump.columns ? { columns: dump.columns } : {}),
        uploads: dump.uploads,
        files,
      }),
      key,
    );
    return { name, size, createdAt: nowText(started), reason: opts.reason, encrypted: true };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A backup, one at a time. */
export function createBackup(database: Database, config: Config, opts: BackupOptions): Promise<BackupInfo> {
  return exclusively('backup', () => writeBackup(database, config, opts));
}
