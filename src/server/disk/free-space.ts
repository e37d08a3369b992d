/**
 * Free space of DATA_DIR (the SQLite database, uploads on disk, export files): one statfs call,
 * cheap enough to ask before every import and export.
 * - assertFreeSpace: imports and exports refuse to start with 507 存储空间不足，请联系管理员清理后重试
 *   when less than the minimum (plus what the work itself will write) is free.
 * The thresholds are DISK_MIN_FREE_MB and DISK_WARN_FREE_MB, each capped at a share of the
 * volume (MIN_SHARE, WARN_SHARE of its size), so that a small volume (a 40 MB data disk) is not
 * refused or warned about while it is mostly empty.
 */
import { statfs } from 'node:fs/promises';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';

export const STORAGE_LOW = '存储空间不足，请联系管理员清理后重试';
export const MIB = 1024 * 1024;
export const MIN_SHARE = 0.05;
export const WARN_SHARE = 0.1;

export interface VolumeSpace {
  /** bytes an unprivileged writer may still use */
  free: number;
  /** size of the volume, bytes */
  total: number;
}

/** Free and total bytes of the volume of `dir`; null when they cannot be told. */
export async function volumeSpace(dir: string): Promise<VolumeSpace | null> {
  try {
    const s = await statfs(dir);
    return { free: Number(s.bavail) * Number(s.bsize), total: Number(s.blocks) * Number(s.bsize) };
  } catch {
    return null;
  }
}

/** A threshold in MiB (0 = none) as bytes, capped at `share` of the volume. */
export const thresholdBytes = (mb: number, total: number, share: number): number => (mb <= 0 ? 0 : Math.min(mb * MIB, total * share));

/** Throws 507 STORAGE_LOW when DATA_DIR has less than the minimum (DISK_MIN_FREE_MB, capped) + `needBytes` free. */
export async function assertFreeSpace(config: Config, needBytes = 0): Promise<void> {
  if (config.diskMinFreeMb <= 0) return;
  const space = await volumeSpace(config.dataDir);
  if (space && space.free < thresholdBytes(config.diskMinFreeMb, space.total, MIN_SHARE) + needBytes) throw new ApiError(507, STORAGE_LOW);
}
