/**
 * Free space of DATA_DIR (the SQLite database, uploads on disk, export files): one statfs call,
 * cheap enough to ask before every import and export.
 * - assertFreeSpace: imports and exports refuse to start with 507 存储空间不足，请联系管理员清理后重试
 *   when less than DISK_MIN_FREE_MB (plus what the work itself will write) is free.
 */
import { statfs } from 'node:fs/promises';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';

export const STORAGE_LOW = '存储空间不足，请联系管理员清理后重试';
export const MIB = 1024 * 1024;

/** Bytes an unprivileged writer may still use on the volume of `dir`; null when it cannot be told. */
export async function freeBytes(dir: string): Promise<number | null> {
  try {
    const s = await statfs(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/** Throws 507 STORAGE_LOW when DATA_DIR has less than DISK_MIN_FREE_MB + `needBytes` free. */
export async function assertFreeSpace(config: Config, needBytes = 0): Promise<void> {
  if (config.diskMinFreeMb <= 0) return;
  const free = await freeBytes(config.dataDir);
  if (free !== null && free < config.diskMinFreeMb * MIB + needBytes) throw new ApiError(507, STORAGE_LOW);
}
