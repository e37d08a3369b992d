/**
 * The backups in BACKUP_DIR: their names, the list the screen shows, deleting one and keeping
 * the newest N. A backup's name says when and why it was made:
 *   backup-YYYYMMDD-HHmmss-SSS-<reason>.tar.gz.enc  (encrypted, see crypto.ts)
 *   backup-YYYYMMDD-HHmmss-SSS-<reason>.tar.gz      (the older unencrypted format: listed, restored only from the command line)
 * Work folders and unfinished archives start with a dot and are never listed.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKUP_REASONS, type BackupReason } from './manifest.ts';

export const BACKUP_NAME = /^backup-(\d{8})-(\d{6})-(\d{3})-(manual|schedule|cli|pre-restore|pre-migration)\.tar\.gz(\.enc)?$/;

export interface BackupInfo {
  name: string;
  size: number;
  /** 'YYYY-MM-DD HH:mm:ss' from the name */
  createdAt: string;
  reason: BackupReason;
  /** false for an archive of the older unencrypted format */
  encrypted: boolean;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The name of a backup made now for `reason`. */
export function backupName(reason: BackupReason, now = new Date()): string {
  const day = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `backup-${day}-${time}-${pad(now.getMilliseconds(), 3)}-${reason}.tar.gz.enc`;
}

export function isBackupName(name: string): boolean {
  return BACKUP_NAME.test(name);
}

function infoOf(name: string, size: number): BackupInfo | null {
  const m = BACKUP_NAME.exec(name);
  if (!m || !BACKUP_REASONS.includes(m[4] as BackupReason)) return null;
  const [d, t] = [m[1], m[2]];
  return {
    name,
    size,
    createdAt: `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)} ${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}`,
    reason: m[4] as BackupReason,
    encrypted: m[5] === '.enc',
  };
}

/** The backups in `dir`, newest first (an absent folder holds none). */
export async function listBackups(dir: string): Promise<BackupInfo[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: BackupInfo[] = [];
  for (const name of names) {
    if (!isBackupName(name)) continue;
    const s = await stat(join(dir, name)).catch(() => null);
    const info = s?.isFile() ? infoOf(name, s.size) : null;
    if (info) out.push(info);
  }
  // the name sorts by time (then reason)
  return out.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/** Deletes one backup; false when there is no such backup. */
export async function deleteBackup(dir: string, name: string): Promise<boolean> {
  if (!isBackupName(name)) return false;
  try {
    const s = await stat(join(dir, name));
    if (!s.isFile()) return false;
  } catch {
    return false;
  }
  await rm(join(dir, name), { force: true });
  return true;
}

/** Keeps the newest `keep` backups in `dir` and deletes the rest; answers the names deleted. */
export async function keepNewest(dir: string, keep: number): Promise<string[]> {
  const all = await listBackups(dir);
  const old = all.slice(keep);
  for (const b of old) await rm(join(dir, b.name), { force: true });
  return old.map((b) => b.name);
}
