/**
 * The database part of a backup, written into a work folder:
 * - SQLite: a copy of the database file through SQLite's online backup API, on the server's own
 *   connection (writes made meanwhile go into the copy too, so it is one consistent state while
 *   requests are served); the copy is then counted table by table;
 * - PostgreSQL: every table of the schema read inside one REPEATABLE READ READ ONLY transaction
 *   (one snapshot, writers are not blocked) into tables/<name>.ndjson, one JSON array of the
 *   column values as PostgreSQL prints them per row. This stands in for pg_dump, whose version
 *   must match the server's and which the product cannot count on being installed; the values
 *   go back in through the same text input of each type, so nothing is lost in between.
 * Also the uploaded files kept on disk that the dumped file records name (uploads/<path>).
 */
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../../config.ts';
import type { Database } from '../../types.ts';
import { sqliteHandleOf } from '../../db/index.ts';
import { EVENT_TABLE } from '../../realtime/pubsub.ts';
import { LIMIT_TABLE } from '../../db/shared-limits.ts';
import type { ArchiveSource } from './archive.ts';
import type { ColumnInfo } from './manifest.ts';

/**
 * Tables of moment-to-moment plumbing, neither backed up nor touched by a restore: who has a
 * socket open now, the cross-instance message queue (its ids must keep growing) and the
 * per-address request counters.
 */
export const TRANSIENT_TABLES = new Set(['sys_socket_presence', EVENT_TABLE, LIMIT_TABLE]);

export const SQLITE_ENTRY = 'database/console.db';
export const tableEntry = (table: string) => `tables/${table}.ndjson`;
export const uploadEntry = (path: string) => `uploads/${path}`;
const TABLE_NAME = /^[A-Za-z0-9_]+$/;
const FETCH_ROWS = 2000;

export interface Dump {
  sources: ArchiveSource[];
  tables: Record<string, number>;
  columns?: Record<string, ColumnInfo[]>;
  uploads: { count: number; missing: string[] };
}

export const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The uploaded files on disk the dump names: archive sources, and the paths not found. */
function uploadSources(dataDir: string, paths: string[]): { sources: ArchiveSource[]; missing: string[] } {
  const sources: ArchiveSource[] = [];
  const missing: string[] = [];
  for (const rel of [...new Set(paths)].sort()) {
    const file = join(dataDir, 'uploads', rel);
    if (/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(rel) && !rel.split('/').includes('..') && existsSync(file))
      sources.push({ path: uploadEntry(rel), file });
    else missing.push(rel);
  }
  return { sources, missing };
}

const BUSY_RETRIES = 600;
const BUSY_WAIT_MS = 50;

/**
 * The online backup API's copy. Its first step, taken while the same connection is inside a
 * write transaction (a request's transaction between two statements), finds the source busy
 * before it knows the page count, and better-sqlite3 then reports a finished copy of 0 pages:
 * that copy is thrown away and the backup begins again a moment later. A busy step after the
 * first is simply taken again (better-sqlite3 does), so the copy never holds uncommitted data.
 */
async function copyDatabase(sqlite: SQLite.Database, file: string, bulk: boolean): Promise<void> {
  for (let attempt = 0; attempt < BUSY_RETRIES; attempt++) {
    const done = bulk ? await sqlite.backup(file, { progress: () => 1_000_000_000 }) : await sqlite.backup(file);
    if (done.totalPages > 0) return;
    await rm(file, { force: true });
    await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS));
  }
  throw new Error('the database stayed busy: no backup copy could be started');
}

/** SQLite: the online backup of the live database into `workDir`. `bulk` copies it in one step (another process's connection). */
export async function dumpSqlite(database: Database, dataDir: string, workDir: string, opts: { bulk?: boolean } = {}): Promise<Dump> {
  const handle = sqliteHandleOf(database);
  if (!handle) throw new Error('not an SQLite database');
  const file = join(workDir, 'console.db');
  await copyDatabase(handle.sqlite, file, opts.bulk ?? false);
  const copy = new SQLite(file);
  try {
    // a standalone file (no -wal beside it)
    copy.pragma('journal_mode = DELETE');
    const names = (
      copy.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).all() as Array<{
        name: string;
      }>
    )
      .map((r) => r.name)
      .filter((n) => !TRANSIENT_TABLES.has(n));
    const tables: Record<string, number> = {};
    for (const name of names) tables[name] = (copy.prepare(`select count(*) as n from ${quoteId(name)}`).get() as { n: number }).n;
    const paths = names.includes('sys_file')
      ? (copy.prepare(`select path from sys_file where storage = 'disk' and path is not null`).all() as Array<{ path: string }>).map(
          (r) => r.path,
        )
      : [];
    const uploads = uploadSources(dataDir, paths);
    return {
      sources: [{ path: SQLITE_ENTRY, file }, ...uploads.sources],
      tables,
      uploads: { count: uploads.sources.length, missing: uploads.missing },
    };
  } finally {
    copy.close();
  }
}

/** A PostgreSQL client that hands every value back as the text PostgreSQL prints. */
export function rawTextClient(databaseUrl: string): pg.Client {
  const asText = (value: string) => value;
  return new pg.Client({ connectionString: databaseUrl, types: { getTypeParser: () => asText } as unknown as pg.CustomTypesConfig });
}

/** PostgreSQL: every table of the current schema, read in one snapshot, into `workDir`/tables. */
export async function dumpPostgres(config: Config, workDir: string): Promise<Dump> {
  const client = rawTextClient(config.databaseUrl);
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const tableRows = await client.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p') order by 1`,
    );
    const names = tableRows.rows.map((r) => r.name).filter((n) => !TRANSIENT_TABLES.has(n));
    await mkdir(join(workDir, 'tables'), { recursive: true });
    const tables: Record<string, number> = {};
    const columns: Record<string, ColumnInfo[]> = {};
    const sources: ArchiveSource[] = [];
    for (const name of names) {
      if (!TABLE_NAME.test(name)) throw new Error(`table name not supported by the backup: ${name}`);
      const cols = await client.query<ColumnInfo>(
        `select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
          where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
        [quoteId(name)],
      );
      columns[name] = cols.rows;
      const file = join(workDir, 'tables', `${name}.ndjson`);
      const out = createWriteStream(file, { mode: 0o600 });
      let count = 0;
      await client.query(
        `declare backup_rows no scroll cursor for select ${cols.rows.map((c) => quoteId(c.name)).join(', ')} from ${quoteId(name)}`,
      );
      for (;;) {
        const batch = await client.query<unknown[]>({ text: `fetch ${FETCH_ROWS} from backup_rows`, rowMode: 'array' });
        if (batch.rows.length === 0) break;
        count += batch.rows.length;
        if (!out.write(batch.rows.map((r) => JSON.stringify(r)).join('\n') + '\n')) await once(out, 'drain');
      }
      await client.query('close backup_rows');
      out.end();
      await finished(out);
      tables[name] = count;
      sources.push({ path: tableEntry(name), file });
    }
    const paths = names.includes('sys_file')
      ? (await client.query<{ path: string }>(`select path from sys_file where storage = 'disk' and path is not null`)).rows.map(
          (r) => r.path,
        )
      : [];
    await client.query('commit');
    const uploads = uploadSources(config.dataDir, paths);
    return {
      sources: [...sources, ...uploads.sources],
      tables,
      columns,
      uploads: { count: uploads.sources.length, missing: uploads.missing },
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}
