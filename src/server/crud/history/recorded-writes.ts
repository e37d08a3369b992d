/**
 * Writes of a schema's table by hand-written modules (sales leads, applicants, the roster's
 * 入职, dealer customers and members, the server's own notices...), with what the generic routes
 * do around every write, in the caller's transaction: the pinyin keys of marked fields and a
 * revision (who, when, which action, field by field), so the record's 历史记录 holds every
 * change whichever route made it. `tests/unit/recorded-writes-coverage.test.ts` fails when a
 * module writes a schema's table without one of these (or writeRevisions).
 */
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import type { Database, Db } from '../../types.ts';
import { diffRecords, snapshotChanges, writeRevisions, type RevisionActor, type RevisionRow } from './revisions.ts';
import { rewritePinyinKeys, writePinyinKeys } from '../pinyin/pinyin-search.ts';
import { idField, recordToRow, rowToRecord } from '../values.ts';

type Dialect = Database['dialect'];
type Row = Record<string, unknown>;

const columnsOf = (spec: ResourceSpec) => spec.fields.map((f) => f.column);

/** Inserts one record (property names), its pinyin keys and a `create` revision; answers the stored record. */
export async function insertRecorded(trx: Db, spec: ResourceSpec, dialect: Dialect, actor: RevisionActor, values: Row): Promise<Row> {
  const row = await trx
    .insertInto(spec.table)
    .values(recordToRow(spec, values, dialect))
    .returning(columnsOf(spec))
    .executeTakeFirstOrThrow();
  await writePinyinKeys(trx, spec, [row]);
  const record = rowToRecord(spec, row);
  await writeRevisions(trx, dialect, spec, actor, [
    { recordId: Number(record[idField(spec).name]), action: 'create', changes: snapshotChanges(spec, record, 'new') },
  ]);
  return record;
}

/**
 * Sets `values` (property names) on the records `ids`, rewrites their pinyin keys and writes one
 * revision per record that changed (`status` for the moves of a state machine); answers how many
 * rows were updated. The rows are read first (locked on PostgreSQL) for the old values.
 */
export async function updateRecorded(
  trx: Db,
  spec: ResourceSpec,
  dialect: Dialect,
  actor: RevisionActor,
  ids: number[],
  values: Row,
  action: 'update' | 'status' = 'update',
): Promise<number> {
  return updateColumnsRecorded(trx, spec, dialect, actor, ids, recordToRow(spec, values, dialect), action);
}

/** updateRecorded with the values given by column (the row form the database stores). */
export async function updateColumnsRecorded(
  trx: Db,
  spec: ResourceSpec,
  dialect: Dialect,
  actor: RevisionActor,
  ids: number[],
  row: Row,
  action: 'update' | 'status' = 'update',
): Promise<number> {
  if (!ids.length) return 0;
  const id = idField(spec);
  let read = trx.selectFrom(spec.table).select(columnsOf(spec)).where(id.column, 'in', ids);
  if (dialect === 'postgres') read = read.forUpdate();
  const before = await read.execute();
  const result = await trx.updateTable(spec.table).set(row).where(id.column, 'in', ids).executeTakeFirst();
  for (const one of ids) await rewritePinyinKeys(trx, spec, one, row);
  const revisions: RevisionRow[] = [];
  for (const old of before) {
    const changes = diffRecords(spec, rowToRecord(spec, old), rowToRecord(spec, { ...old, ...row }));
    if (Object.keys(changes).length) revisions.push({ recordId: Number(old[id.column]), action, changes });
  }
  await writeRevisions(trx, dialect, spec, actor, revisions);
  return Number(result.numUpdatedRows);
}

/** A notice or record the server writes by itself (no person asked for it). */
export const SYSTEM_ACTOR: RevisionActor = { kind: 'system', name: null };
