/**
 * Revisions of records (历史记录): one row in sys_revision per change of a record, written by the
 * repository's write functions inside the transaction of the change itself, so a change that
 * rolls back leaves no revision. A row holds the resource, the record's id, the action, who
 * (a staff user, a dealer, an applicant, or the system) and when, and `changes`: JSON
 * `{property: [old, new]}` with values as the API shows them (record form, money in yuan).
 *
 *   create   the values given ([null, value] for each non-empty property)
 *   update   the properties whose value changed (server-set times and users left out)
 *   status   the same, written by a state-machine screen's status move
 *   restore  back to an earlier revision ([old, new] as an update), or out of the recycle bin (null)
 *   delete   the whole record as it was ([value, null]); `in_bin` marks it as in the recycle bin
 *   import   nothing (null): an import of 100,000 rows writes one small row per record in one
 *            statement per batch; the values as imported are derived on reading (history.ts)
 *
 * Retention (revision-retention job, REVISION_RETENTION_DAYS) deletes rows older than the days
 * kept, the recycle bin's deleted records with them.
 */
import { sql } from 'kysely';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { ensureTables, type TableDef } from '../../auth/tables.ts';
import { nowText } from '../../db/index.ts';
import type { Database, Db, Dialect } from '../../types.ts';

export const REVISION_TABLE = 'sys_revision';

/**
 * Properties a revision may record that no schema field shows, with their titles (history.ts
 * lists them after the fields): a password that changed, recorded as PASSWORD_CHANGED, never its value.
 */
export const RECORDED_ONLY: Record<string, string> = { password: '登录密码' };
/** The change of a password as a revision holds it: that it changed, never the old or new value. */
export const PASSWORD_CHANGED: Changes = { password: [null, '已修改'] };

export type RevisionAction = 'create' | 'update' | 'delete' | 'import' | 'restore' | 'status';
export type ActorKind = 'user' | 'dealer' | 'applicant' | 'system';

/** Who made a change, as a revision records it. */
export interface RevisionActor {
  kind: ActorKind;
  name: string | null;
}

/** property -> [old, new] */
export type Changes = Record<string, [unknown, unknown]>;

export const REVISION_TABLES: TableDef[] = [
  {
    name: REVISION_TABLE,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'resource', type: 'varchar(64)', notNull: true },
      { name: 'record_id', type: 'bigint', notNull: true },
      { name: 'action', type: 'varchar(16)', notNull: true },
      { name: 'actor_kind', type: 'varchar(16)', notNull: true, default: 'system' },
      { name: 'actor_name', type: 'varchar(64)' },
      { name: 'create_time', type: 'time', notNull: true },
      { name: 'changes', type: 'text' },
      /** a delete revision whose record is in the recycle bin (not restored, not purged) */
      { name: 'in_bin', type: 'bool', notNull: true, default: false },
    ],
    indexes: [
      { name: 'sys_revision_record', columns: ['resource', 'record_id', 'id'] },
      { name: 'sys_revision_bin', columns: ['resource', 'in_bin', 'id'] },
      { name: 'sys_revision_time', columns: ['create_time'] },
    ],
  },
];

export async function ensureRevisionTables(database: Database): Promise<void> {
  await ensureTables(database.db, database.dialect, REVISION_TABLES);
}

/** The server-set properties a revision leaves out of an update (times, users; the id). */
function tracked(spec: ResourceSpec): FieldSpec[] {
  return spec.fields.filter((f) => !f.auto);
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null) || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The changed properties between two record-form value sets (only the properties in `after`). */
export function diffRecords(spec: ResourceSpec, before: Record<string, unknown>, after: Record<string, unknown>): Changes {
  const out: Changes = {};
  for (const f of tracked(spec)) {
    if (!(f.name in after)) continue;
    const a = before[f.name] ?? null;
    const b = after[f.name] ?? null;
    if (!same(a, b)) out[f.name] = [a, b];
  }
  return out;
}

/** A whole record as [value, null] (delete) or [null, value] (create) pairs, its id and empty values left out. */
export function snapshotChanges(spec: ResourceSpec, record: Record<string, unknown>, side: 'old' | 'new'): Changes {
  const out: Changes = {};
  for (const f of spec.fields) {
    if (f.auto === 'id') continue;
    const v = record[f.name];
    if (v === undefined || v === null || v === '') continue;
    out[f.name] = side === 'old' ? [v, null] : [null, v];
  }
  return out;
}

const flagValue = (dialect: Dialect, on: boolean) => (dialect === 'postgres' ? on : on ? 1 : 0);

export interface RevisionRow {
  recordId: number;
  action: RevisionAction;
  changes: Changes | null;
  inBin?: boolean;
}

/** Rows per INSERT: 9 parameters each, well under both databases' limits. */
const PER_INSERT = 500;

/** Writes revisions of one resource (in the caller's transaction). */
export async function writeRevisions(
  trx: Db,
  dialect: Dialect,
  spec: Pick<ResourceSpec, 'name'>,
  actor: RevisionActor,
  rows: RevisionRow[],
): Promise<void> {
  if (!rows.length) return;
  const time = nowText();
  for (let i = 0; i < rows.length; i += PER_INSERT) {
    await trx
      .insertInto(REVISION_TABLE)
      .values(
        rows.slice(i, i + PER_INSERT).map((r) => ({
          resource: spec.name,
          record_id: r.recordId,
          action: r.action,
          actor_kind: actor.kind,
          actor_name: actor.name,
          create_time: time,
          changes: r.changes ? JSON.stringify(r.changes) : null,
          in_bin: flagValue(dialect, !!r.inBin),
        })),
      )
      .execute();
  }
}

/**
 * Records coming back from the recycle bin: their bin entries (delete revisions) leave the bin and
 * each record gets a `restore` revision, in the caller's transaction.
 */
export async function recordRestored(
  trx: Db,
  dialect: Dialect,
  spec: Pick<ResourceSpec, 'name'>,
  actor: RevisionActor,
  binRevisionIds: number[],
  recordIds: number[],
): Promise<void> {
  for (let i = 0; i < binRevisionIds.length; i += PER_INSERT)
    await trx
      .updateTable(REVISION_TABLE)
      .set({ in_bin: flagValue(dialect, false) })
      .where('id', 'in', binRevisionIds.slice(i, i + PER_INSERT))
      .execute();
  await writeRevisions(
    trx,
    dialect,
    spec,
    actor,
    recordIds.map((recordId) => ({ recordId, action: 'restore', changes: null })),
  );
}

/**
 * One `import` revision for each of these record ids, in a single statement: the ids travel as
 * one JSON array parameter and the database expands it, so a batch of a thousand imported rows
 * costs one more statement, not a thousand parameters.
 */
export async function writeImportRevisions(
  trx: Db,
  dialect: Dialect,
  spec: Pick<ResourceSpec, 'name'>,
  actor: RevisionActor,
  ids: number[],
): Promise<void> {
  if (!ids.length) return;
  const time = nowText();
  const list = JSON.stringify(ids);
  const table = sql.table(REVISION_TABLE);
  const columns = sql`(resource, record_id, action, actor_kind, actor_name, create_time, in_bin)`;
  if (dialect === 'postgres') {
    await sql`insert into ${table} ${columns}
      select ${spec.name}, v::bigint, 'import', ${actor.kind}, ${actor.name}, ${time}::timestamp, false
      from jsonb_array_elements_text(${list}::jsonb) as t(v)`.execute(trx);
  } else {
    await sql`insert into ${table} ${columns}
      select ${spec.name}, value, 'import', ${actor.kind}, ${actor.name}, ${time}, 0 from json_each(${list})`.execute(trx);
  }
}

/**
 * The recycle bin's purge: a deleted record's values live on in its revisions only, so they go
 * with them (in one transaction, 500 ids a statement).
 */
export async function purgeRevisions(database: Database, resource: string, ids: number[]): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < ids.length; i += 500)
      await trx
        .deleteFrom(REVISION_TABLE)
        .where('resource', '=', resource)
        .where('record_id', 'in', ids.slice(i, i + 500))
        .execute();
  });
}

/** Deletes revisions older than `days` days (the recycle bin's entries with them); answers how many. */
export async function deleteOldRevisions(db: Db, days: number, now: number): Promise<number> {
  const before = nowText(new Date(now - days * 24 * 60 * 60 * 1000));
  const r = await db.deleteFrom(REVISION_TABLE).where('create_time', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The revision's actor from a write's actor (none: the system). */
export function revisionActor(actor: { username: string; kind?: ActorKind } | undefined): RevisionActor {
  return actor ? { kind: actor.kind ?? 'user', name: actor.username.slice(0, 64) } : { kind: 'system', name: null };
}

/**
 * Updates one row and answers the values its written columns held before (undefined when there
 * is no such row): a read by primary key, then the write. For SQLite, whose transactions on the
 * app's one connection run one at a time (PostgreSQL: updateWithRevisionPg).
 */
export async function updateReturningOld(
  trx: Db,
  table: string,
  idCol: string,
  id: number,
  row: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const before = await trx.selectFrom(table).select(Object.keys(row)).where(idCol, '=', id).executeTakeFirst();
  if (before) await trx.updateTable(table).set(row).where(idCol, '=', id).execute();
  return before;
}

/** Marks a `changes` object keyed by column with stored values (written by PostgreSQL itself). */
export const COLUMN_CHANGES = '$columns';

/**
 * PostgreSQL: an update of one row and its revision in a single statement (no transaction round
 * trips): the old row is locked and read by the update's own CTE, the changed columns are
 * compared in SQL, and the revision (`{column: [old, new]}` with stored values, marked
 * COLUMN_CHANGES; read back through the spec by history.ts) is inserted only when a tracked
 * column changed. Answers whether the row exists.
 */
export async function updateWithRevisionPg(
  db: Db,
  spec: ResourceSpec,
  idCol: string,
  id: number,
  row: Record<string, unknown>,
  actor: RevisionActor,
  action: RevisionAction,
): Promise<boolean> {
  const columns = Object.keys(row);
  const trackedColumns = new Set(tracked(spec).map((f) => f.column));
  const compared = columns.filter((c) => trackedColumns.has(c));
  const table = sql.table(spec.table);
  const key = sql.ref(idCol);
  const set = sql.join(columns.map((c) => sql`${sql.ref(c)} = ${row[c]}`));
  const returned = compared.length
    ? sql.join(compared.map((c, i) => sql`old.${sql.ref(c)} as ${sql.ref(`o${i}`)}, t.${sql.ref(c)} as ${sql.ref(`n${i}`)}`))
    : sql`t.${key}`;
  const pairs = compared.length
    ? sql.join(
        compared.map(
          (c, i) =>
            sql`${c}::text, case when ${sql.ref(`o${i}`)} is distinct from ${sql.ref(`n${i}`)} then jsonb_build_array(${sql.ref(`o${i}`)}, ${sql.ref(`n${i}`)}) end`,
        ),
      )
    : sql``;
  const r = await sql<{ n: string }>`with old as (
      select ${sql.join([key, ...compared.map((c) => sql.ref(c))])} from ${table} where ${key} = ${id} for update
    ), upd as (
      update ${table} as t set ${set} from old where t.${key} = old.${key} returning ${returned}
    ), changed as (
      select jsonb_strip_nulls(jsonb_build_object(${pairs})) as c from upd
    ), rev as (
      insert into ${sql.table(REVISION_TABLE)} (resource, record_id, action, actor_kind, actor_name, create_time, changes, in_bin)
      select ${spec.name}, ${id}, ${action}, ${actor.kind}, ${actor.name}, ${nowText()}::timestamp,
        (c || jsonb_build_object(${COLUMN_CHANGES}::text, true))::text, false
      from changed where c <> '{}'::jsonb
    )
    select count(*) as n from upd`.execute(db);
  return Number(r.rows[0]?.n ?? 0) > 0;
}

/**
 * PostgreSQL, the common case of an edit: the route has just read the record (`old`, record form),
 * so the changed fields are known before the write. The update and its revision go in one plain
 * statement (`WITH upd AS (UPDATE … WHERE id = … AND <each written column is still its old value>)
 * INSERT … SELECT FROM upd`): no locking read, no JSON built in SQL, and a plan as cheap as the
 * update's own. When a written column no longer holds the value read (another edit came in
 * between) or the row is gone, nothing is written and this answers false: the caller then takes
 * updateWithRevisionPg, which reads the old values under a row lock. Answers true when written.
 */
export async function updateWithKnownOldPg(
  db: Db,
  spec: ResourceSpec,
  idCol: string,
  id: number,
  row: Record<string, unknown>,
  oldRow: Record<string, unknown>,
  changes: Changes,
  actor: RevisionActor,
  action: RevisionAction,
): Promise<boolean> {
  const trackedColumns = new Set(tracked(spec).map((f) => f.column));
  const table = sql.table(spec.table);
  const key = sql.ref(idCol);
  const set = sql.join(Object.keys(row).map((c) => sql`${sql.ref(c)} = ${row[c]}`));
  const guard = Object.keys(row)
    .filter((c) => trackedColumns.has(c))
    .map((c) => sql` and ${sql.ref(c)} is not distinct from ${oldRow[c] ?? null}`);
  const where = sql`${key} = ${id}${sql.join(guard, sql``)}`;
  if (!Object.keys(changes).length) {
    const r = await sql`update ${table} set ${set} where ${where}`.execute(db);
    return Number(r.numAffectedRows ?? 0) > 0;
  }
  const r = await sql<{ record_id: string }>`with upd as (update ${table} set ${set} where ${where} returning ${key})
    insert into ${sql.table(REVISION_TABLE)} (resource, record_id, action, actor_kind, actor_name, create_time, changes, in_bin)
    select ${spec.name}, ${id}, ${action}, ${actor.kind}, ${actor.name}, ${nowText()}::timestamp, ${JSON.stringify(changes)}, false from upd
    returning record_id`.execute(db);
  return r.rows.length > 0;
}
