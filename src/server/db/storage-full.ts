/**
 * Whether an error means a write failed for lack of space: SQLite's SQLITE_FULL and its
 * SQLITE_IOERR_* write errors (what a full volume under the WAL gives), PostgreSQL's 53100
 * disk_full, and the file system's ENOSPC / EDQUOT (uploads kept on disk, export files).
 * Such errors answer 507 存储空间已满，请联系管理员清理后重试 instead of a 500.
 */
export const STORAGE_FULL = '存储空间已满，请联系管理员清理后重试';

const CODES = new Set(['SQLITE_FULL', '53100', 'ENOSPC', 'EDQUOT']);
/** SQLite I/O errors of a write that the volume refused (read errors are no space problem). */
const SQLITE_WRITE_IOERR = /^SQLITE_IOERR_(WRITE|FSYNC|DIR_FSYNC|TRUNCATE|SHMSIZE|SHMMAP|DELETE|MMAP)$|^SQLITE_IOERR$/;
const MESSAGES = [/database or disk is full/i, /no space left on device/i, /could not extend file/i, /disk quota exceeded/i];

export function isStorageFull(error: unknown, depth = 0): boolean {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (CODES.has(e.code) || SQLITE_WRITE_IOERR.test(e.code))) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (MESSAGES.some((m) => m.test(message))) return true;
  // a wrapped error (a stream's, a provider's) says it in its cause
  return depth < 3 && e.cause !== undefined && isStorageFull(e.cause, depth + 1);
}
