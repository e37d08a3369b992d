/**
 * The manifest of a backup (manifest.json, the archive's last entry): what made it, when, from
 * which kind of database, the row count of every table, and every other entry with its size
 * and SHA-256. A restore checks the archive against it before touching anything.
 */
import type { Dialect } from '../../types.ts';
import { ArchiveError, type ArchiveEntry } from './archive.ts';

export const MANIFEST_FORMAT = 'dealer-console-backup';
export const MANIFEST_VERSION = 1;

/** Why a backup was made: from the screen, by the schedule, from the command line, or just before a restore. */
export type BackupReason = 'manual' | 'schedule' | 'cli' | 'pre-restore' | 'pre-migration';
export const BACKUP_REASONS: BackupReason[] = ['manual', 'schedule', 'cli', 'pre-restore', 'pre-migration'];

/** A PostgreSQL column as the dump wrote it: its name and type as `format_type` spells it. */
export interface ColumnInfo {
  name: string;
  type: string;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  formatVersion: number;
  /** the product version that wrote it (package.json) */
  appVersion: string;
  /** local time 'YYYY-MM-DD HH:mm:ss' and the exact instant */
  createdAt: string;
  createdAtIso: string;
  reason: BackupReason;
  dialect: Dialect;
  /** rows of every table in the dump */
  tables: Record<string, number>;
  /** PostgreSQL: the columns of every table (tables/<name>.ndjson holds one JSON array per row, in this order) */
  columns?: Record<string, ColumnInfo[]>;
  /** the uploaded files stored on disk that the dump's file records name, and those that were missing */
  uploads: { count: number; missing: string[] };
  /** every entry but the manifest */
  files: ArchiveEntry[];
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** a type as format_type prints it: words, an optional (n) or (p,s), optional [] */
const COLUMN_TYPE = /^[a-z][a-z0-9_]*( [a-z][a-z0-9_]*)*(\(\d+(,\d+)?\))?( [a-z][a-z0-9_]*)*(\[\])*$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the parsed manifest's shape; throws ArchiveError (a Chinese message) when it is not one the product wrote. */
export function checkManifest(raw: unknown): Manifest {
  if (!isObject(raw) || raw.format !== MANIFEST_FORMAT) throw new ArchiveError('不是本系统的备份文件（清单格式不符）');
  if (raw.formatVersion !== MANIFEST_VERSION) throw new ArchiveError(`不支持的备份格式版本：${String(raw.formatVersion)}`);
  if (raw.dialect !== 'sqlite' && raw.dialect !== 'postgres') throw new ArchiveError('备份清单中的数据库类型无效');
  if (!isObject(raw.tables) || !Object.values(raw.tables).every((n) => Number.isInteger(n) && (n as number) >= 0))
    throw new ArchiveError('备份清单中的数据表行数无效');
  if (
    !Array.isArray(raw.files) ||
    !raw.files.every(
      (f) =>
        isObject(f) &&
        typeof f.path === 'string' &&
        Number.isInteger(f.size) &&
        typeof f.sha256 === 'string' &&
        /^[0-9a-f]{64}$/.test(f.sha256),
    )
  )
    throw new ArchiveError('备份清单中的文件列表无效');
  if (Object.keys(raw.tables).some((t) => !IDENTIFIER.test(t))) throw new ArchiveError('备份清单中的数据表名称无效');
  if (raw.dialect === 'postgres') {
    const columns = raw.columns;
    if (!isObject(columns) || Object.keys(raw.tables).some((t) => !Array.isArray(columns[t])))
      throw new ArchiveError('备份清单缺少数据表的列信息');
    // names and types go into the staging tables' definitions: only what PostgreSQL's format_type writes
    for (const t of Object.keys(raw.tables)) {
      const list = columns[t] as unknown[];
      if (
        !list.every(
          (c) =>
            isObject(c) && typeof c.name === 'string' && IDENTIFIER.test(c.name) && typeof c.type === 'string' && COLUMN_TYPE.test(c.type),
        )
      )
        throw new ArchiveError(`备份清单中数据表 ${t} 的列信息无效`);
    }
  }
  if (typeof raw.createdAt !== 'string' || typeof raw.appVersion !== 'string') throw new ArchiveError('备份清单缺少版本或时间');
  return raw as unknown as Manifest;
}

/** Every entry the manifest lists was read whole (same size and SHA-256), and nothing else was. */
export function checkEntries(manifest: Manifest, read: Map<string, { size: number; sha256: string }>): void {
  for (const f of manifest.files) {
    const got = read.get(f.path);
    if (!got) throw new ArchiveError(`备份文件不完整：缺少 ${f.path}`);
    if (got.size !== f.size || got.sha256 !== f.sha256) throw new ArchiveError(`备份文件已损坏：${f.path} 的校验和不符`);
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const path of read.keys()) if (!listed.has(path)) throw new ArchiveError(`备份文件中有清单未列出的条目：${path}`);
}
