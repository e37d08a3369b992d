/**
 * The erasure ledger across restores: before a restore the ledger (hashes only) and its secret
 * are read from the database being replaced; after it they are written into the restored one,
 * and every identifier still stored there whose hash is in the ledger is erased again, so a
 * person erased after the backup was made stays erased. Also run by the retention job's start.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { ensureTables } from '../../auth/tables.ts';
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

/** Erases again every stored identifier the ledger holds; answers the reports. */
export async function applyLedger(database: Database, specs: ResourceSpec[], dataDir: string): Promise<EraseReport[]> {
  const secret = await ledgerSecret(database);
  const hashes = new Set((await database.db.selectFrom(LEDGER_TABLE).select('hash').execute()).map((r) => String(r.hash)));
  if (!hashes.size) return [];
  const matches = (await storedIdentifiers(database, specs)).filter((s) => hashes.has(subjectHash(secret, s)));
  const reports: EraseReport[] = [];
  for (const s of matches) reports.push(await erasePerson(database, specs, [s], { secret, dataDir }));
  return reports;
}

/** Writes the carried ledger into the restored database and applies it. */
export async function restoreLedger(app: FastifyInstance, specs: ResourceSpec[], carried: CarriedLedger): Promise<EraseReport[]> {
  const database = app.database;
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
  return applyLedger(database, specs, app.config.dataDir);
}
