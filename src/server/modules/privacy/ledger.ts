/**
 * The erasure ledger across restores: before a restore the ledger (hashes only) and its secret
 * are read from the database being replaced; after it they are written into the restored one,
 * and every identifier still stored there whose hash is in the ledger is erased again, so a
 * person erased after the backup was made stays erased. Both restore paths do this: the 备份管理
 * screen (a restore hook) and `npm run restore`, which refuses when the database it replaces
 * cannot be read, unless told to go on without the ledger.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { ensureTables } from '../../auth/tables.ts';
import type { Config } from '../../config.ts';
import { openDatabase } from '../../db/index.ts';
import { databaseStartError } from '../../start-errors.ts';
import { REVISION_TABLE } from '../../crud/history/revisions.ts';
import type { Database } from '../../types.ts';
import { erasePerson, type EraseReport } from './erase.ts';
import type { Subject } from './find.ts';
import { forgetSecret, ledgerSecret, subjectHash } from './requests.ts';
import { HANDWRITTEN_TABLES, identifierFields, normalizeSubject, personalSpecs, SUBJECT_KINDS, type SubjectKind } from './sources.ts';
import { LEDGER_TABLE, PRIVACY_TABLES, SECRET_TABLE } from './tables.ts';

export interface CarriedLedger {
  /** the secret stored in the database (null when none was made, or PI_LEDGER_SECRET is used) */
  secret: string | null;
  rows: Array<{ hash: string; subject_kind: string; create_time: string }>;
}

export async function readLedger(database: Database): Promise<CarriedLedger> {
  // the stored secret only: none is made here, and one set in the environment is never written down
  const stored = await database.db.selectFrom(SECRET_TABLE).select('value').where('name', '=', 'ledger').executeTakeFirst();
  const secret = stored ? String(stored.value) : null;
  const rows = await database.db.selectFrom(LEDGER_TABLE).select(['hash', 'subject_kind', 'create_time']).execute();
  return {
    secret,
    rows: rows.map((r) => ({ hash: String(r.hash), subject_kind: String(r.subject_kind), create_time: String(r.create_time) })),
  };
}

/** The database a command-line restore replaces is absent or cannot be read: its ledger is unknown. */
export class LedgerUnreadable extends Error {}

/** Which of these tables the database holds. */
async function presentTables(database: Database, names: string[]): Promise<Set<string>> {
  const rows =
    database.dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name in (${sql.join(names)})`.execute(
          database.db,
        )
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_name in (${sql.join(names)})`.execute(database.db);
  return new Set(rows.rows.map((r) => r.name));
}

/**
 * The ledger of the database that `npm run restore` is about to replace, read before anything is
 * built or changed there. A database of a version before the ledger (the product's tables without
 * the ledger's) answers an empty ledger: nobody was erased in it. Throws LedgerUnreadable when the
 * database is absent, empty (none of the product's tables) or cannot be read: damage elsewhere in
 * it does not matter while the ledger itself reads.
 */
export async function readCurrentLedger(config: Config): Promise<CarriedLedger> {
  const file = join(config.dataDir, 'console.db');
  if (!config.databaseUrl && !existsSync(file)) throw new LedgerUnreadable(`当前数据库文件 ${file} 不存在`);
  let database: Database | undefined;
  try {
    database = await openDatabase(config);
    const present = await presentTables(database, ['sys_user', LEDGER_TABLE, SECRET_TABLE]);
    if (!present.has('sys_user')) throw new LedgerUnreadable('当前数据库是空的，没有本系统的数据表');
    if (!present.has(LEDGER_TABLE) || !present.has(SECRET_TABLE)) return { secret: null, rows: [] };
    return await readLedger(database);
  } catch (err) {
    if (err instanceof LedgerUnreadable) throw err;
    const detail = databaseStartError(err, config.databaseUrl) ?? (err instanceof Error ? err.message : String(err));
    throw new LedgerUnreadable(`当前数据库无法读取：${detail}`, { cause: err });
  } finally {
    await database?.close().catch(() => undefined);
  }
}

/** Every identifier stored anywhere a look-up searches (records, revisions, hand-written tables). */
async function storedIdentifiers(database: Database, specs: ResourceSpec[]): Promise<Subject[]> {
  const { db } = database;
  const seen = new Map<string, Subject>();
  const add = (kind: SubjectKind, raw: unknown) => {
    if (typeof raw !== 'string' || !raw) return;
    const value = normalizeSubject(kind, raw);
    if (value) seen.set(`${kind}:${value}`, { kind, value });
  };
  for (const spec of personalSpecs(specs)) {
    for (const kind of SUBJECT_KINDS) {
      const fields = identifierFields(spec, kind);
      if (!fields.length) continue;
      for (const f of fields) {
        const rows = await db.selectFrom(spec.table).select(f.column).distinct().where(f.column, 'is not', null).execute();
        for (const r of rows) add(kind, (r as Record<string, unknown>)[f.column]);
      }
      const revs = await db
        .selectFrom(REVISION_TABLE)
        .select('changes')
        .where('resource', '=', spec.name)
        .where('changes', 'is not', null)
        .execute();
      for (const r of revs) {
        const changes = JSON.parse(String(r.changes)) as Record<string, [unknown, unknown]>;
        for (const f of fields) for (const v of changes[f.name] ?? []) add(kind, v);
      }
    }
  }
  for (const t of HANDWRITTEN_TABLES) {
    for (const [column, kind] of Object.entries(t.columns)) {
      if (kind !== 'id' && kind !== 'phone') continue;
      const rows = await db.selectFrom(t.table).select(column).distinct().where(column, 'is not', null).execute();
      for (const r of rows) add(kind, (r as Record<string, unknown>)[column]);
    }
  }
  return [...seen.values()];
}

const LEDGER_BATCH = 200;

/** Erases again every stored identifier the ledger holds; answers the reports. */
export async function applyLedger(database: Database, specs: ResourceSpec[], dataDir: string): Promise<EraseReport[]> {
  const secret = await ledgerSecret(database);
  const hashes = new Set((await database.db.selectFrom(LEDGER_TABLE).select('hash').execute()).map((r) => String(r.hash)));
  if (!hashes.size) return [];
  const matches = (await storedIdentifiers(database, specs)).filter((s) => hashes.has(subjectHash(secret, s)));
  // a few hundred identifiers an erasure: one transaction and one checkpoint each, not one per person
  const reports: EraseReport[] = [];
  for (let i = 0; i < matches.length; i += LEDGER_BATCH)
    reports.push(await erasePerson(database, specs, matches.slice(i, i + LEDGER_BATCH), { secret, dataDir }));
  return reports;
}

/**
 * Writes the carried ledger into the restored database and applies it: run by both restore
 * paths, the 备份管理 screen's (a restore hook) and `npm run restore`.
 */
export async function restoreLedger(
  database: Database,
  specs: ResourceSpec[],
  dataDir: string,
  carried: CarriedLedger,
): Promise<EraseReport[]> {
  // nobody was ever erased: the restored database stays exactly as it was backed up
  if (!carried.rows.length && carried.secret === null) return [];
  await ensureTables(database.db, database.dialect, PRIVACY_TABLES);
  forgetSecret(database);
  if (carried.secret !== null) {
    await database.db.deleteFrom(SECRET_TABLE).where('name', '=', 'ledger').execute();
    await database.db.insertInto(SECRET_TABLE).values({ name: 'ledger', value: carried.secret }).execute();
  }
  for (let i = 0; i < carried.rows.length; i += 200)
    await database.db
      .insertInto(LEDGER_TABLE)
      .values(carried.rows.slice(i, i + 200))
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  return applyLedger(database, specs, dataDir);
}

/** What a restore erased again, per table, in Chinese (the command line prints it). */
export function reErasedText(carried: CarriedLedger, reports: EraseReport[]): string[] {
  if (!carried.rows.length) return ['删除登记为空：没有需要再次删除的个人信息'];
  if (!reports.length) return [`已带入删除登记 ${carried.rows.length} 条；恢复的数据中没有已删除人员的个人信息`];
  const tables = new Map<string, { title: string; action: string; records: number; binEntries: number }>();
  let logLines = 0;
  for (const report of reports) {
    logLines += report.logLines;
    for (const line of report.lines) {
      const t = tables.get(line.table) ?? { title: line.title, action: line.action, records: 0, binEntries: 0 };
      t.records += line.records;
      t.binEntries += line.binEntries;
      tables.set(line.table, t);
    }
  }
  const people = reports.reduce((n, r) => n + r.ledger, 0);
  const out = [`已带入删除登记 ${carried.rows.length} 条，按登记再次删除了 ${people} 个身份证号或手机号的个人信息：`];
  for (const [table, t] of [...tables].sort(([a], [b]) => a.localeCompare(b))) {
    if (!t.records && !t.binEntries) continue;
    out.push(`  ${table}（${t.title}）：${t.action} ${t.records} 条${t.binEntries ? `，回收站 ${t.binEntries} 条` : ''}`);
  }
  if (logLines) out.push(`  操作日志：${logLines} 行中的标识已遮蔽`);
  return out;
}
