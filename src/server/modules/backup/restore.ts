/**
 * Restoring a backup, proved before anything changes:
 *  1. the archive is read into a work folder beside the backups (uploaded files into a folder
 *     beside DATA_DIR/uploads), every entry's size and SHA-256 compared with the manifest;
 *  2. a fresh database is built from it and checked: SQLite, the backed-up file itself
 *     (integrity_check, then every table's row count against the manifest); PostgreSQL, a new
 *     schema holding every table, loaded from the dump and counted;
 *  3. the present state is saved as a backup (reason pre-restore);
 *  4. the swap, in one transaction on the live database: every table (but the transient ones,
 *     see dump.ts) is emptied and filled from the fresh copy; a table whose definition differs
 *     in the backup is made again as the backup defines it (SQLite), a table only the backup
 *     has is created; id sequences continue after the restored rows. Then the uploads folder is
 *     swapped by renaming.
 * Anything failing in 1-4 leaves the live database and files as they were (the transaction is
 * rolled back; the staged folders are removed). Other requests wait for the swap transaction
 * (SQLite: the one connection is held; PostgreSQL: the tables are locked) and then see the
 * restored data.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../types.ts';
import { ApiError } from '../../errors.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { ArchiveError, readArchive, unpackCap } from './archive.ts';
import { archiveKind } from './crypto.ts';
import { NO_KEY, readKeys, writeKey } from './keys.ts';
import { quoteId, rawTextClient, SQLITE_ENTRY, tableEntry, TRANSIENT_TABLES } from './dump.ts';
import { checkEntries, checkManifest, type ColumnInfo, type Manifest } from './manifest.ts';
import { assertRoomForBackup, writeBackup } from './create.ts';
import type { BackupInfo } from './store.ts';

export interface RestoreResult {
  /** the restored backup's manifest (time, version, counts) */
  manifest: Manifest;
  /** the backup of the state before the restore */
  before: BackupInfo;
  rows: number;
}

/** An archive of the older unencrypted format offered to the screen. */
export const PLAIN_REFUSED =
  '这是未加密的旧格式备份，不能从界面恢复；确需恢复时，请停止服务后在服务器上执行 npm run restore 文件名（见备份文档）';
export const NOT_A_BACKUP = '不是本系统的备份文件（既不是加密备份，也不是旧格式的备份）';

export interface RestoreOptions {
  /** accept an archive of the older unencrypted format (the command line, with a warning) */
  allowPlain?: boolean;
}

/** A restore refused (bad archive, or a check of the fresh database failed): 400, nothing changed. */
export const refused = (message: string) => new ApiError(400, `备份无法恢复，现有数据未改变：${message}`);

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
const dialectName = (d: string) => (d === 'postgres' ? 'PostgreSQL' : 'SQLite');

interface Stage {
  /** replaces the live tables' rows with the fresh database's, in one transaction */
  swap(): Promise<void>;
  discard(): Promise<void>;
}

/** Restores `archive` into the live database and upload folder (the caller holds the one-at-a-time turn). */
export async function restoreBackup(
  database: Database,
  config: Config,
  archive: string,
  stage: (text: string) => void = () => undefined,
  opts: RestoreOptions = {},
): Promise<RestoreResult> {
  // the pre-restore backup is encrypted like every other: no key, no restore
  if (!writeKey(config)) throw new ApiError(503, NO_KEY);
  const kind = await archiveKind(archive);
  if (kind === 'unknown') throw refused(NOT_A_BACKUP);
  if (kind === 'plain' && !opts.allowPlain) throw refused(PLAIN_REFUSED);
  if (kind === 'plain') stage('警告：这是未加密的旧格式备份，按旧格式恢复');
  const maxBytes = unpackCap((await stat(archive)).size, config.backupMaxUnpackedMb);
  await mkdir(config.backupDir, { recursive: true });
  // the pre-restore backup and the fresh database need room before anything is changed
  await assertRoomForBackup(config);
  const work = await mkdtemp(join(config.backupDir, '.restore-'));
  const uploadsStage = join(config.dataDir, `.uploads-restore-${randomBytes(6).toString('hex')}`);
  try {
    let manifest: Manifest;
    stage('正在校验备份文件');
    try {
      const read = await readArchive(
        archive,
        (path) => {
          if (path === SQLITE_ENTRY) return join(work, 'console.db');
          if (/^tables\/[A-Za-z0-9_]+\.ndjson$/.test(path)) return join(work, path);
          if (path.startsWith('uploads/')) return join(uploadsStage, path.slice('uploads/'.length));
          return null;
        },
        { keys: kind === 'plain' ? null : readKeys(config), maxBytes },
      );
      manifest = checkManifest(read.manifest);
      checkEntries(manifest, read.entries);
      if (manifest.dialect !== database.dialect)
        throw new ArchiveError(
          `该备份来自${dialectName(manifest.dialect)}数据库，当前系统使用${dialectName(database.dialect)}，不能直接恢复`,
        );
      const listed = new Set(manifest.files.map((f) => f.path));
      const needed = manifest.dialect === 'sqlite' ? [SQLITE_ENTRY] : Object.keys(manifest.tables).map(tableEntry);
      for (const path of needed) if (!listed.has(path)) throw new ArchiveError(`备份文件不完整：缺少 ${path}`);
    } catch (err) {
      if (err instanceof ArchiveError) throw refused(err.message);
      throw err;
    }
    stage('正在构建并核对新数据库');
    const fresh =
      database.dialect === 'sqlite'
        ? prepareSqlite(database, join(work, 'console.db'), manifest)
        : await preparePostgres(config, work, manifest);
    try {
      stage('正在把当前数据另存为备份');
      const before = await writeBackup(database, config, { reason: 'pre-restore' });
      stage('正在替换数据');
      try {
        await fresh.swap();
      } catch (err) {
        // rolled back: the live data is as it was
        if (err instanceof ApiError || isDatabaseUnavailable(err)) throw err;
        throw new ApiError(
          503,
          `恢复失败，现有数据未改变：数据库未能写入备份的数据（${clip((err as Error).message ?? String(err), 200)}）`,
        );
      }
      await swapUploads(config.dataDir, uploadsStage);
      return { manifest, before, rows: Object.values(manifest.tables).reduce((a, b) => a + b, 0) };
    } finally {
      await fresh.discard();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(uploadsStage, { recursive: true, force: true });
  }
}

/** DATA_DIR/uploads becomes the restored folder (renames on one file system; the old one is removed after). */
async function swapUploads(dataDir: string, staged: string): Promise<void> {
  const live = join(dataDir, 'uploads');
  const old = join(dataDir, `.uploads-before-restore-${randomBytes(6).toString('hex')}`);
  if (existsSync(live)) await rename(live, old);
  if (existsSync(staged)) await rename(staged, live);
  else await mkdir(live, { recursive: true });
  await rm(old, { recursive: true, force: true });
}

function countsMatch(manifest: Manifest, counted: Record<string, number>): void {
  for (const [table, rows] of Object.entries(manifest.tables)) {
    if (counted[table] === undefined) throw refused(`备份的数据库中缺少数据表 ${table}`);
    if (counted[table] !== rows) throw refused(`数据表 ${table} 有 ${counted[table]} 行，清单记录为 ${rows} 行`);
  }
  for (const table of Object.keys(counted)) if (manifest.tables[table] === undefined) throw refused(`清单未记录数据表 ${table}`);
}

// ---------------------------------------------------------------- SQLite

interface SqliteObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

function prepareSqlite(database: Database, file: string, manifest: Manifest): Stage {
  let fresh: SQLite.Database;
  try {
    fresh = new SQLite(file);
  } catch {
    throw refused('备份中的数据库文件无法打开');
  }
  try {
    const check = fresh.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw refused('备份中的数据库文件完整性检查未通过');
    const names = (
      fresh.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`).all() as Array<{ name: string }>
    )
      .map((r) => r.name)
      .filter((n) => !TRANSIENT_TABLES.has(n));
    const counted: Record<string, number> = {};
    for (const n of names) counted[n] = (fresh.prepare(`select count(*) as n from ${quoteId(n)}`).get() as { n: number }).n;
    countsMatch(manifest, counted);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw refused('备份中的数据库文件已损坏');
  } finally {
    fresh.close();
  }
  return { swap: () => swapSqlite(database.db, file), discard: () => Promise.resolve() };
}

async function objectsOf(conn: Db, schema: 'main' | 'restored'): Promise<SqliteObject[]> {
  const r = await sql<SqliteObject>`select type, name, tbl_name, sql from ${sql.raw(schema)}.sqlite_master`.execute(conn);
  return r.rows;
}

/** On the live connection (held for the whole swap): attach the fresh file, copy every table in one transaction. */
async function swapSqlite(db: Db, file: string): Promise<void> {
  await db.connection().execute(async (conn) => {
    await sql`attach database ${file} as restored`.execute(conn);
    try {
      await sql`begin immediate`.execute(conn);
      try {
        await sql`pragma defer_foreign_keys = on`.execute(conn);
        const isTable = (o: SqliteObject) => o.type === 'table' && !o.name.startsWith('sqlite_') && !TRANSIENT_TABLES.has(o.name);
        const live = new Map((await objectsOf(conn, 'main')).filter(isTable).map((o) => [o.name, o]));
        const fresh = await objectsOf(conn, 'restored');
        const freshTables = fresh.filter(isTable);
        for (const t of freshTables) {
          if (!/^create table /i.test(t.sql ?? '')) throw refused(`备份中的数据表 ${t.name} 定义无效`);
          const id = sql.id(t.name);
          const same = live.get(t.name)?.sql === t.sql;
          if (same) {
            await sql`delete from main.${id}`.execute(conn);
          } else {
            // defined otherwise in the backup (or not at all here): made again as the backup has it, indexes too
            await sql`drop table if exists main.${id}`.execute(conn);
            await sql.raw(t.sql!).execute(conn);
            for (const ix of fresh.filter((o) => o.type === 'index' && o.tbl_name === t.name && o.sql))
              await sql.raw(ix.sql!).execute(conn);
          }
          await sql`insert into main.${id} select * from restored.${id}`.execute(conn);
          live.delete(t.name);
        }
        // tables the backup does not have were empty then
        for (const name of live.keys()) await sql`delete from main.${sql.id(name)}`.execute(conn);
        if (fresh.some((o) => o.name === 'sqlite_sequence')) {
          const keep = [...TRANSIENT_TABLES];
          await sql`delete from main.sqlite_sequence where name not in (${sql.join(keep)})`.execute(conn);
          await sql`insert into main.sqlite_sequence (name, seq) select name, seq from restored.sqlite_sequence where name not in (${sql.join(keep)})`.execute(
            conn,
          );
        }
        await sql`commit`.execute(conn);
      } catch (err) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw err;
      }
    } finally {
      await sql`detach database restored`.execute(conn);
    }
  });
}

// ---------------------------------------------------------------- PostgreSQL

/** Rows per INSERT of the load: within PostgreSQL's 65535 parameters. */
const rowsPerInsert = (columns: number) => Math.max(1, Math.min(1000, Math.floor(30_000 / Math.max(1, columns))));

async function loadTable(client: pg.Client, schema: string, table: string, columns: ColumnInfo[], file: string): Promise<number> {
  const target = `${quoteId(schema)}.${quoteId(table)}`;
  const names = columns.map((c) => quoteId(c.name)).join(', ');
  const per = rowsPerInsert(columns.length);
  let batch: unknown[][] = [];
  let count = 0;
  const flush = async () => {
    if (!batch.length) return;
    const params: unknown[] = [];
    const tuples = batch.map((row) => `(${row.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`);
    await client.query(`insert into ${target} (${names}) values ${tuples.join(', ')}`, params);
    batch = [];
  };
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw refused(`数据表 ${table} 的数据格式错误`);
    }
    if (!Array.isArray(row) || row.length !== columns.length || !row.every((v) => v === null || typeof v === 'string'))
      throw refused(`数据表 ${table} 的数据格式错误`);
    batch.push(row);
    count++;
    if (batch.length >= per) await flush();
  }
  await flush();
  return count;
}

async function preparePostgres(config: Config, work: string, manifest: Manifest): Promise<Stage> {
  const client = rawTextClient(config.databaseUrl);
  await client.connect();
  const schema = `backup_restore_${randomBytes(6).toString('hex')}`;
  const discard = async () => {
    await client.query(`drop schema if exists ${quoteId(schema)} cascade`).catch(() => undefined);
    await client.end().catch(() => undefined);
  };
  try {
    await client.query(`create schema ${quoteId(schema)}`);
    const counted: Record<string, number> = {};
    for (const table of Object.keys(manifest.tables)) {
      const columns = manifest.columns![table];
      if (!/^[A-Za-z0-9_]+$/.test(table) || TRANSIENT_TABLES.has(table)) throw refused(`不能恢复的数据表 ${table}`);
      const defs = columns.map((c) => `${quoteId(c.name)} ${c.type}`).join(', ');
      try {
        await client.query(`create table ${quoteId(schema)}.${quoteId(table)} (${defs})`);
        counted[table] = await loadTable(client, schema, table, columns, join(work, tableEntry(table)));
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw refused(`数据表 ${table} 无法载入（${(err as Error).message}）`);
      }
    }
    countsMatch(manifest, counted);
  } catch (err) {
    await discard();
    throw err;
  }
  return { swap: () => swapPostgres(client, schema, manifest), discard };
}

async function swapPostgres(client: pg.Client, schema: string, manifest: Manifest): Promise<void> {
  const liveTables = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p')`,
  );
  // the tables every answer writes (the operation log, the duplicate-submit marks) are taken
  // last: while the swap waits for a lock someone else holds, it holds none of them, so requests
  // (its own 202 among them) are still answered
  const last = new Set(['sys_log', 'sys_submit_id']);
  const live = liveTables.rows
    .map((r) => r.name)
    .filter((n) => !TRANSIENT_TABLES.has(n))
    .sort((a, b) => Number(last.has(a)) - Number(last.has(b)) || a.localeCompare(b));
  await client.query('begin');
  try {
    if (live.length) await client.query(`truncate table ${live.map(quoteId).join(', ')}`);
    for (const table of Object.keys(manifest.tables)) {
      const from = `${quoteId(schema)}.${quoteId(table)}`;
      const backupColumns = manifest.columns![table].map((c) => c.name);
      let columns = backupColumns;
      if (live.includes(table)) {
        const have = await client.query<{ name: string }>(
          `select attname as name from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped`,
          [quoteId(table)],
        );
        const liveColumns = new Set(have.rows.map((r) => r.name));
        columns = backupColumns.filter((c) => liveColumns.has(c));
      } else {
        await client.query(`create table ${quoteId(table)} (like ${from})`);
      }
      const list = columns.map(quoteId).join(', ');
      await client.query(`insert into ${quoteId(table)} (${list}) overriding system value select ${list} from ${from}`);
    }
    // identity and serial columns continue after the restored ids
    const sequences = await client.query<{ table: string; column: string; seq: string }>(
      `select c.relname as table, a.attname as column, pg_get_serial_sequence(quote_ident(c.relname), a.attname) as seq
         from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
          and pg_get_serial_sequence(quote_ident(c.relname), a.attname) is not null`,
    );
    for (const s of sequences.rows) {
      if (TRANSIENT_TABLES.has(s.table)) continue;
      await client.query(
        `select setval($1::regclass, coalesce((select max(${quoteId(s.column)}) from ${quoteId(s.table)}), 0) + 1, false)`,
        [s.seq],
      );
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  }
}
