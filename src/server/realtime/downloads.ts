/**
 * Files made in the background (long exports) waiting for their requester to download them.
 * They live in the database (`sys_download_file` + 1 MB chunks in `sys_download_chunk`), so any
 * instance on the same PostgreSQL can serve them and memory stays flat while a file is written
 * or read. A file expires after DOWNLOAD_TTL_MINUTES; deleteExpiredDownloads removes expired
 * files (run by the scheduled jobs, and opportunistically when a new file is made).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../types.ts';
import { nowText } from '../db/index.ts';
import { flag } from '../auth/tables.ts';

export const CHUNK_BYTES = 1024 * 1024;
export const DOWNLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface DownloadFile {
  id: string;
  userId: number;
  fileName: string;
  mime: string;
  size: number;
  complete: boolean;
  expires: number;
  /** the resource whose personal data the file holds in full, or null (masked or none) */
  personalResource: string | null;
}

export interface DownloadWriter {
  id: string;
  write(data: Buffer): Promise<void>;
  /** writes what is left and makes the file downloadable */
  finish(): Promise<DownloadFile>;
  /** deletes what was written */
  abort(): Promise<void>;
}

export async function createDownload(
  database: Database,
  info: { userId: number; fileName: string; mime: string; ttlMs: number; now?: number; personalResource?: string | null },
): Promise<DownloadWriter> {
  const { db } = database;
  const now = info.now ?? Date.now();
  const id = randomUUID();
  await deleteExpiredDownloads(database, now).catch(() => 0);
  await db
    .insertInto('sys_download_file')
    .values({
      id,
      user_id: info.userId,
      file_name: info.fileName.slice(0, 255),
      mime: info.mime,
      size: 0,
      complete: flag(false),
      create_time: nowText(new Date(now)),
      expires: now + info.ttlMs,
      personal_resource: info.personalResource ?? null,
    })
    .execute();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  let size = 0;
  const flush = async (all: boolean) => {
    while (pendingBytes >= CHUNK_BYTES || (all && pendingBytes > 0)) {
      const joined = Buffer.concat(pending);
      const piece = joined.subarray(0, CHUNK_BYTES);
      const rest = joined.subarray(piece.length);
      await db.insertInto('sys_download_chunk').values({ file_id: id, seq: seq++, data: piece }).execute();
      pending = rest.length ? [Buffer.from(rest)] : [];
      pendingBytes = rest.length;
    }
  };
  return {
    id,
    async write(data) {
      pending.push(data);
      pendingBytes += data.length;
      size += data.length;
      if (pendingBytes >= CHUNK_BYTES) await flush(false);
    },
    async finish() {
      await flush(true);
      await db
        .updateTable('sys_download_file')
        .set({ complete: flag(true), size })
        .where('id', '=', id)
        .execute();
      return {
        id,
        userId: info.userId,
        fileName: info.fileName,
        mime: info.mime,
        size,
        complete: true,
        expires: now + info.ttlMs,
        personalResource: info.personalResource ?? null,
      };
    },
    async abort() {
      await db.deleteFrom('sys_download_chunk').where('file_id', '=', id).execute();
      await db.deleteFrom('sys_download_file').where('id', '=', id).execute();
    },
  };
}

export async function findDownload(database: Database, id: string): Promise<DownloadFile | undefined> {
  if (!DOWNLOAD_ID.test(id)) return undefined;
  const row = await database.db.selectFrom('sys_download_file').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: String(row.id),
    userId: Number(row.user_id),
    fileName: String(row.file_name),
    mime: String(row.mime),
    size: Number(row.size),
    complete: Boolean(row.complete),
    expires: Number(row.expires),
    personalResource: row.personal_resource === null || row.personal_resource === undefined ? null : String(row.personal_resource),
  };
}

/** The file's content, one chunk at a time. */
export async function* downloadChunks(database: Database, id: string): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const row = await database.db
      .selectFrom('sys_download_chunk')
      .select('data')
      .where('file_id', '=', id)
      .where('seq', '=', seq)
      .executeTakeFirst();
    if (!row) return;
    yield Buffer.from(row.data as Uint8Array);
  }
}

/**
 * Deletes every expired download file with its content; answers how many files went.
 * Exported for the scheduled jobs (run it every few minutes on one instance).
 */
export async function deleteExpiredDownloads(database: Database, now = Date.now()): Promise<number> {
  const { db } = database;
  const expired = await db.selectFrom('sys_download_file').select('id').where('expires', '<=', now).execute();
  if (!expired.length) return 0;
  const ids = expired.map((r) => String(r.id));
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_download_chunk').where('file_id', 'in', batch).execute();
      await trx.deleteFrom('sys_download_file').where('id', 'in', batch).execute();
    });
  }
  return ids.length;
}
