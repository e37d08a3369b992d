/**
 * Erasing a person (PIPL art. 47): what findPerson found is removed or anonymized by each
 * schema's `x-erase`, in one transaction:
 *   delete     the record, every revision of it (its history and its recycle-bin entry) and its
 *              pinyin keys
 *   anonymize  the listed properties set to null, the same properties blanked in every revision
 *              of the record, their pinyin keys removed; a record already deleted (only in
 *              revisions: the recycle bin) loses its revisions
 * The hand-written tables follow their own rule (a user account keeps its name and roles
 * without phone, ID number, e-mail, nickname and avatar); uploaded files named by an erased
 * record are deleted; the identifiers are replaced by their mask in the operation log and in any
 * other revision that still holds them; their keyed hash goes into the erasure ledger.
 * On SQLite the connection runs with `secure_delete` on and the erasure ends with a WAL
 * checkpoint, so the erased values are not left in free space; on PostgreSQL the touched tables
 * are rewritten (secureErase).
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { mask } from '../../../shared/masks.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { nowText, sqliteHandleOf } from '../../db/index.ts';
import { REVISION_TABLE } from '../../crud/history/revisions.ts';
import { pinyinTable } from '../../crud/pinyin/pinyin-search.ts';
import { tableChanged } from '../../crud/index.ts';
import type { Database, Db } from '../../types.ts';
import { findPerson, type FindResult, type FoundGroup, type Subject } from './find.ts';
import { HANDWRITTEN_TABLES, storedVariants } from './sources.ts';
import { LEDGER_TABLE, SECRET_TABLE } from './tables.ts';
import { subjectHash } from './requests.ts';

/** What was done in one place. */
export interface EraseLine {
  resource: string;
  title: string;
  table: string;
  /** 删除 | 匿名化 */
  action: string;
  records: number;
  /** records that were only in revisions (recycle bin) and are gone now */
  binEntries: number;
  revisionsRemoved: number;
  revisionsBlanked: number;
  pinyinKeys: number;
  files: number;
}

export interface EraseReport {
  lines: EraseLine[];
  logLines: number;
  otherRevisions: number;
  ledger: number;
  count: number;
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const FILE_URL = /\/api\/files\/([A-Za-z0-9_-]{8,64})/g;

async function chunks<T>(items: T[], fn: (chunk: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += 500) await fn(items.slice(i, i + 500));
}

/** Replaces every identifier in a text by its mask. */
export function maskedText(text: string, subjects: Subject[]): string {
  let out = text;
  for (const s of subjects) for (const v of storedVariants(s.kind, s.value)) out = out.split(v).join(mask(s.kind, v));
  return out;
}

/** Revisions of these records: removed, or with the named properties set to null. */
async function scrubRevisions(trx: Db, resource: string, removeIds: number[], blankIds: number[], blank: Set<string>) {
  let removed = 0;
  let blanked = 0;
  await chunks(removeIds, async (ids) => {
    const r = await trx.deleteFrom(REVISION_TABLE).where('resource', '=', resource).where('record_id', 'in', ids).executeTakeFirst();
    removed += Number(r.numDeletedRows);
  });
  await chunks(blankIds, async (ids) => {
    const rows = await trx
      .selectFrom(REVISION_TABLE)
      .select(['id', 'changes'])
      .where('resource', '=', resource)
      .where('record_id', 'in', ids)
      .execute();
    for (const row of rows) {
      if (typeof row.changes !== 'string') continue;
      const changes = JSON.parse(row.changes) as Record<string, [unknown, unknown]>;
      let touched = false;
      for (const key of Object.keys(changes)) {
        if (!blank.has(key)) continue;
        changes[key] = [null, null];
        touched = true;
      }
      if (!touched) continue;
      await trx
        .updateTable(REVISION_TABLE)
        .set({ changes: JSON.stringify(changes) })
        .where('id', '=', row.id)
        .execute();
      blanked++;
    }
  });
  return { removed, blanked };
}

async function deleteFiles(trx: Db, dataDir: string, records: Array<Record<string, unknown>>): Promise<{ count: number; paths: string[] }> {
  const keys = new Set<string>();
  for (const r of records)
    for (const v of Object.values(r)) if (typeof v === 'string') for (const m of v.matchAll(FILE_URL)) keys.add(m[1]);
  if (!keys.size) return { count: 0, paths: [] };
  const rows = await trx
    .selectFrom('sys_file')
    .select(['file_key', 'storage', 'path'])
    .where('file_key', 'in', [...keys])
    .execute();
  await trx
    .deleteFrom('sys_file')
    .where('file_key', 'in', [...keys])
    .execute();
  const paths = rows.filter((r) => r.storage === 'disk' && typeof r.path === 'string').map((r) => join(dataDir, 'uploads', String(r.path)));
  return { count: rows.length, paths };
}

/**
 * Erases the records of one schema by its x-erase (or, for entries owned by an applicant without
 * a rule of their own, by the owner's): the live records, their revisions, the recycle-bin
 * entries (`deletedIds`), their pinyin keys and the files they name. Answers what was done and
 * the files to unlink once the transaction has committed.
 */
export async function eraseSchemaGroup(
  trx: Db,
  spec: ResourceSpec,
  group: Pick<FoundGroup, 'records' | 'deletedIds'>,
  owner: ResourceSpec | undefined,
  dataDir: string,
) {
  const rule = spec.personal?.erase ?? owner?.personal?.erase ?? { mode: 'delete' as const, fields: [] };
  const ids = group.records.map((r) => Number(r.id));
  const files = await deleteFiles(trx, dataDir, group.records);
  const line: EraseLine = {
    resource: spec.name,
    title: spec.title,
    table: spec.table,
    action: rule.mode === 'delete' ? '删除' : '匿名化',
    records: ids.length,
    binEntries: group.deletedIds.length,
    revisionsRemoved: 0,
    revisionsBlanked: 0,
    pinyinKeys: 0,
    files: files.count,
  };
  const pinyinFields = spec.fields.filter((f) => f.pinyin && (rule.mode === 'delete' || rule.fields.includes(f.name)));
  const all = [...ids, ...group.deletedIds];
  await chunks(all, async (chunk) => {
    for (const f of pinyinFields) {
      const r = await trx.deleteFrom(pinyinTable(spec, f)).where('row_id', 'in', chunk).executeTakeFirst();
      line.pinyinKeys += Number(r.numDeletedRows);
    }
  });
  if (rule.mode === 'delete') {
    await chunks(ids, async (chunk) => void (await trx.deleteFrom(spec.table).where('id', 'in', chunk).execute()));
    const r = await scrubRevisions(trx, spec.name, all, [], new Set());
    line.revisionsRemoved = r.removed;
  } else {
    const set = Object.fromEntries(spec.fields.filter((f) => rule.fields.includes(f.name)).map((f) => [f.column, null]));
    await chunks(ids, async (chunk) => void (await trx.updateTable(spec.table).set(set).where('id', 'in', chunk).execute()));
    const r = await scrubRevisions(trx, spec.name, group.deletedIds, ids, new Set(rule.fields));
    line.revisionsRemoved = r.removed;
    line.revisionsBlanked = r.blanked;
  }
  return { line, paths: files.paths };
}

async function eraseTableGroup(trx: Db, group: FoundGroup, subjects: Subject[], dataDir: string) {
  const t = HANDWRITTEN_TABLES.find((x) => x.name === group.resource)!;
  const files = await deleteFiles(trx, dataDir, group.records);
  const line: EraseLine = {
    resource: t.name,
    title: t.title,
    table: t.table,
    action: t.erase.mode === 'delete' ? '删除' : '匿名化',
    records: group.records.length,
    binEntries: group.deletedIds.length,
    revisionsRemoved: 0,
    revisionsBlanked: 0,
    pinyinKeys: 0,
    files: files.count,
  };
  if (!t.idColumn) {
    for (const [column, kind] of Object.entries(t.columns)) {
      const values = subjects.filter((s) => s.kind === kind).flatMap((s) => storedVariants(s.kind, s.value));
      if (values.length) await trx.deleteFrom(t.table).where(column, 'in', values).execute();
    }
    return { line, paths: files.paths };
  }
  const idColumn = t.idColumn;
  const ids = group.records.map((r) => Number(r[idColumn]));
  if (t.erase.mode === 'delete') {
    await chunks(ids, async (chunk) => void (await trx.deleteFrom(t.table).where(idColumn, 'in', chunk).execute()));
  } else {
    const set = Object.fromEntries(t.erase.fields.map((c) => [c, null]));
    await chunks(ids, async (chunk) => void (await trx.updateTable(t.table).set(set).where(idColumn, 'in', chunk).execute()));
  }
  for (const [table, column] of Object.entries(t.extras ?? {}))
    await chunks(ids, async (chunk) => void (await trx.deleteFrom(table).where(column, 'in', chunk).execute()));
  const blank = new Set([...t.erase.fields, ...t.erase.fields.map(camel)]);
  const r = await scrubRevisions(
    trx,
    t.name,
    t.erase.mode === 'delete' ? [...ids, ...group.deletedIds] : group.deletedIds,
    t.erase.mode === 'delete' ? [] : ids,
    blank,
  );
  line.revisionsRemoved = r.removed;
  line.revisionsBlanked = r.blanked;
  return { line, paths: files.paths };
}

/** One log line with the subjects' identifiers masked in place (its free-text columns); false when it is gone. */
export async function maskLogLine(trx: Db, id: number, subjects: Subject[]): Promise<boolean> {
  const row = await trx.selectFrom('sys_log').select(['params', 'exception_detail', 'description']).where('id', '=', id).executeTakeFirst();
  if (!row) return false;
  const text = (v: unknown) => (typeof v === 'string' ? maskedText(v, subjects) : null);
  await trx
    .updateTable('sys_log')
    .set({ params: text(row.params), exception_detail: text(row.exception_detail), description: text(row.description) })
    .where('id', '=', id)
    .execute();
  return true;
}

/** Log lines and other revisions that still hold an identifier: the identifier masked in place. */
async function maskLeftovers(trx: Db, subjects: Subject[], found: FindResult): Promise<{ logLines: number; otherRevisions: number }> {
  let logLines = 0;
  for (const log of found.logs) if (await maskLogLine(trx, log.id, subjects)) logLines++;
  let otherRevisions = 0;
  const values = subjects.flatMap((s) => storedVariants(s.kind, s.value));
  const rows = await trx
    .selectFrom(REVISION_TABLE)
    .select(['id', 'changes'])
    .where((eb) => eb.or(values.map((v) => eb(sql`changes`, 'like', `%${v}%`))))
    .execute();
  for (const row of rows) {
    if (typeof row.changes !== 'string') continue;
    await trx
      .updateTable(REVISION_TABLE)
      .set({ changes: maskedText(row.changes, subjects) })
      .where('id', '=', row.id)
      .execute();
    otherRevisions++;
  }
  return { logLines, otherRevisions };
}

/** Records the identifiers' keyed hashes in the ledger (once each); answers how many it holds of them. */
export async function addToLedger(db: Db, secret: string, subjects: Subject[]): Promise<number> {
  for (const s of subjects) {
    await db
      .insertInto(LEDGER_TABLE)
      .values({ hash: subjectHash(secret, s), subject_kind: s.kind, create_time: nowText() })
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }
  return subjects.length;
}

/** pi_secret's row that says the SQLite file was rebuilt once with `secure_delete` on. */
const REBUILT = 'sqlite_rebuilt';

/**
 * Runs an erasure in one transaction, then makes sure the erased values are not left in the
 * database's free space. SQLite's connection keeps `secure_delete` on, so what the erasure deletes
 * or overwrites is zeroed in place and a WAL checkpoint takes the old page images out of the log;
 * only a file written before that (with old copies of values in its free space) is rebuilt, by one
 * VACUUM on its first erasure. On PostgreSQL the touched tables are rewritten (rewriteTables).
 * `work` answers its result, the files to unlink after the commit and the tables it touched (their
 * cached counts are forgotten). A transaction that fails changed nothing: nothing follows it.
 */
export async function secureErase<T>(
  database: Database,
  work: (trx: Db) => Promise<{ result: T; paths: string[]; touched: string[] }>,
): Promise<T> {
  const done = await database.db.transaction().execute(work);
  const touched = new Set(done.touched);
  for (const t of touched) tableChanged(database, t);
  for (const p of done.paths) await unlink(p).catch(() => undefined);
  const handle = sqliteHandleOf(database);
  if (handle) {
    if (!(await rebuiltOnce(database.db))) {
      handle.sqlite.exec('VACUUM');
      await database.db.insertInto(SECRET_TABLE).values({ name: REBUILT, value: nowText() }).execute();
    }
    handle.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  }
  if (database.dialect === 'postgres') await rewriteTables(database.db, [...touched, REVISION_TABLE, 'sys_log']);
  return done.result;
}

/**
 * PostgreSQL keeps a deleted or updated row's bytes in the page's free space after a plain
 * vacuum (it compacts pages, it does not clear them): the tables the erasure touched, with their
 * pinyin side tables, are rewritten (VACUUM FULL: a new file, the old one removed at the next
 * checkpoint, indexes rebuilt). Each takes its table's exclusive lock for the time of the copy.
 * The write-ahead log is switched to a new segment before the checkpoint; the old segments and
 * any archive are the server's settings' business (docs/personal-information.md).
 */
async function rewriteTables(db: Db, tables: string[]): Promise<void> {
  const all = new Set(tables);
  for (const t of tables) {
    const side = await sql<{ name: string }>`select tablename as name from pg_tables
      where schemaname = current_schema() and tablename like ${`${t.replace(/_/g, '\\_')}\\_%\\_py`}`.execute(db);
    for (const r of side.rows) all.add(r.name);
  }
  await db.connection().execute(async (conn) => {
    // a long read (an export) holding a table must not queue every other request on it behind the
    // rewrite's lock: after REWRITE_LOCK_WAIT the table is left as it is (its free space is
    // reused by later writes, and the next erasure or retention run rewrites it)
    await sql`set lock_timeout = ${sql.lit(REWRITE_LOCK_WAIT)}`.execute(conn);
    try {
      for (const t of all) await sql`vacuum full ${sql.table(t)}`.execute(conn).catch(() => undefined);
    } finally {
      await sql`reset lock_timeout`.execute(conn).catch(() => undefined);
    }
    // the log segment holding the erased values is closed, and the checkpoint lets the server
    // remove it (with wal_recycle = off and no archive it is deleted, not kept for reuse)
    await sql`select pg_switch_wal()`.execute(conn).catch(() => undefined);
    await sql`checkpoint`.execute(conn).catch(() => undefined);
  });
}

/** How long a table's rewrite waits for its lock before it leaves the table as it is. */
const REWRITE_LOCK_WAIT = '10s';

async function rebuiltOnce(db: Db): Promise<boolean> {
  const row = await db.selectFrom(SECRET_TABLE).select('name').where('name', '=', REBUILT).executeTakeFirst();
  return row !== undefined;
}

/** The schema whose records own this one's (`ownedByApplicant`), if any. */
export function ownerSpec(specs: ResourceSpec[], spec: ResourceSpec): ResourceSpec | undefined {
  const ref = spec.fields.find((f) => f.name === spec.ownedByApplicant)?.ref?.resource;
  return ref ? specs.find((s) => s.name === ref) : undefined;
}

/** Erases everything findPerson finds for these identifiers; answers the report. */
export async function erasePerson(
  database: Database,
  specs: ResourceSpec[],
  subjects: Subject[],
  opts: { secret: string; dataDir: string },
): Promise<EraseReport> {
  return secureErase(database, async (trx) => {
    const paths: string[] = [];
    const touched: string[] = [];
    const found = await findPerson({ ...database, db: trx }, specs, subjects);
    const lines: EraseLine[] = [];
    for (const group of found.groups) {
      const spec = specs.find((s) => s.name === group.resource);
      const done =
        group.source === 'table'
          ? await eraseTableGroup(trx, group, subjects, opts.dataDir)
          : await eraseSchemaGroup(trx, spec!, group, ownerSpec(specs, spec!), opts.dataDir);
      lines.push(done.line);
      paths.push(...done.paths);
      touched.push(group.table);
      // files kept in the database: their bytes were in sys_file's rows
      if (done.line.files) touched.push('sys_file');
    }
    const left = await maskLeftovers(trx, subjects, found);
    const ledger = await addToLedger(trx, opts.secret, subjects);
    const count = lines.reduce((n, l) => n + l.records + l.binEntries, 0);
    return { result: { lines, ...left, ledger, count }, paths, touched };
  });
}
