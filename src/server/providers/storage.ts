/**
 * Where uploaded files live. The record of every file (name, type, size, who, when) is a row
 * of `sys_file`; the content is either in that row (`database`, the default: every instance on
 * one PostgreSQL serves every file, and a backup of the database holds them) or under
 * DATA_DIR/uploads (`disk`, for a single server or a shared volume). Files are served by a
 * random key, never by a path the client chose.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, Db } from '../types.ts';
import { ensureTables, type TableDef } from '../auth/tables.ts';
import { nowText } from '../db/index.ts';

export const FILE_TABLE: TableDef = {
  name: 'sys_file',
  columns: [
    { name: 'id', type: 'id' },
    { name: 'file_key', type: 'varchar(64)', notNull: true, unique: true },
    { name: 'name', type: 'varchar(255)', notNull: true },
    { name: 'content_type', type: 'varchar(100)', notNull: true },
    { name: 'size', type: 'bigint', notNull: true },
    /** what the upload was for: picture, file, momentImage, sopImage, voice, video */
    { name: 'kind', type: 'varchar(20)', notNull: true },
    /** database or disk */
    { name: 'storage', type: 'varchar(10)', notNull: true },
    /** disk: path under DATA_DIR/uploads */
    { name: 'path', type: 'varchar(255)' },
    /** database: the content */
    { name: 'data', type: 'bytes' },
    { name: 'create_user', type: 'varchar(64)' },
    { name: 'create_time', type: 'time' },
  ],
};

export interface NewFile {
  name: string;
  contentType: string;
  kind: string;
  content: Buffer;
  user?: string;
}

export interface StoredFile {
  id: number;
  key: string;
  name: string;
  contentType: string;
  size: number;
  kind: string;
  createTime: string;
}

export interface StorageProvider {
  readonly kind: 'database' | 'disk';
  put(file: NewFile): Promise<StoredFile>;
  /** the file and its content by key; null when there is none */
  get(key: string): Promise<{ file: StoredFile; content: Buffer } | null>;
}

const COLUMNS = ['id', 'file_key', 'name', 'content_type', 'size', 'kind', 'storage', 'path', 'create_time'] as const;

/** A sys_file row (COLUMNS). */
interface FileRow {
  id: number;
  file_key: string;
  name: string;
  content_type: string;
  size: number;
  kind: string;
  storage: string;
  path: string | null;
  create_time: string | Date | null;
}

function toStored(row: FileRow): StoredFile {
  const t = row.create_time;
  return {
    id: Number(row.id),
    key: String(row.file_key),
    name: String(row.name),
    contentType: String(row.content_type),
    size: Number(row.size),
    kind: String(row.kind),
    createTime: t instanceof Date ? nowText(t) : String(t ?? ''),
  };
}

async function insertRow(
  db: Db,
  file: NewFile,
  storage: 'database' | 'disk',
  key: string,
  extra: { path?: string; data?: Buffer },
): Promise<StoredFile> {
  const row = await db
    .insertInto('sys_file')
    .values({
      file_key: key,
      name: file.name.slice(0, 255),
      content_type: file.contentType,
      size: file.content.length,
      kind: file.kind,
      storage,
      path: extra.path ?? null,
      data: extra.data ?? null,
      create_user: file.user ?? null,
      create_time: nowText(),
    })
    .returning([...COLUMNS])
    .executeTakeFirstOrThrow();
  return toStored(row);
}

export function newFileKey(): string {
  return randomBytes(16).toString('hex');
}

export function databaseStorage(database: Database): StorageProvider {
  return {
    kind: 'database',
    put: (file) => insertRow(database.db, file, 'database', newFileKey(), { data: file.content }),
    async get(key) {
      const row = await database.db
        .selectFrom('sys_file')
        .select([...COLUMNS, 'data'])
        .where('file_key', '=', key)
        .executeTakeFirst();
      if (!row) return null;
      const content = row.storage === 'disk' ? null : Buffer.from(row.data as Uint8Array);
      if (!content) return null;
      return { file: toStored(row), content };
    },
  };
}

/** Content under `dir` (DATA_DIR/uploads/yyyy-mm/<key>); files written by the database provider are still served from their rows. */
export function diskStorage(database: Database, dir: string): StorageProvider {
  const fromDatabase = databaseStorage(database);
  return {
    kind: 'disk',
    async put(file) {
      const key = newFileKey();
      const month = nowText().slice(0, 7);
      await mkdir(join(dir, month), { recursive: true });
      const rel = `${month}/${key}`;
      // a write the volume refused half-way (ENOSPC, answered 507), or a row that could not be
      // stored, leaves no file behind to fill the volume further
      try {
        await writeFile(join(dir, rel), file.content);
        return await insertRow(database.db, file, 'disk', key, { path: rel });
      } catch (err) {
        await rm(join(dir, rel), { force: true }).catch(() => undefined);
        throw err;
      }
    },
    async get(key) {
      const row = await database.db
        .selectFrom('sys_file')
        .select([...COLUMNS])
        .where('file_key', '=', key)
        .executeTakeFirst();
      if (!row) return null;
      if (row.storage !== 'disk') return fromDatabase.get(key);
      try {
        return { file: toStored(row), content: await readFile(join(dir, String(row.path))) };
      } catch {
        return null;
      }
    },
  };
}

export async function createStorage(database: Database, opts: { kind: 'database' | 'disk'; dataDir: string }): Promise<StorageProvider> {
  await ensureTables(database.db, database.dialect, [FILE_TABLE]);
  return opts.kind === 'disk' ? diskStorage(database, join(opts.dataDir, 'uploads')) : databaseStorage(database);
}
