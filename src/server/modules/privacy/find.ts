/**
 * Finding a person everywhere: every record of every schema holding an identifier of the kind
 * typed (an `x-mask: id` or `phone` property), the records that are gone but kept in revisions
 * (edited away, in the recycle bin), the entries owned by a found applicant, the hand-written
 * tables with personal columns (users, outbox, verification codes) and the operation-log lines
 * that hold the identifier. Values are stored in clear, so the match is on the stored value
 * (the indexed column where there is one); revisions hold JSON, matched as text.
 */
import { sql } from 'kysely';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { rowToRecord } from '../../crud/values.ts';
import { REVISION_TABLE } from '../../crud/history/revisions.ts';
import { toStoredRevision, type StoredRevision } from '../../crud/history/history.ts';
import type { Database, Db } from '../../types.ts';
import { HANDWRITTEN_TABLES, identifierFields, personalSpecs, storedVariants, type HandwrittenTable, type SubjectKind } from './sources.ts';

/** One identifier of the person, normalized (normalizeSubject). */
export interface Subject {
  kind: SubjectKind;
  value: string;
}

/** The records of one schema or table that hold the person's data. */
export interface FoundGroup {
  resource: string;
  title: string;
  table: string;
  /** `schema` (from schemas/), `table` (hand-written), `owned` (entries of a found applicant) */
  source: 'schema' | 'table' | 'owned';
  /** live records, full values (record form for schemas, columns for tables) */
  records: Array<Record<string, unknown>>;
  /** ids of records that exist only in revisions (deleted: in the recycle bin or purged) */
  deletedIds: number[];
  /** every revision of the records found and of the deleted ones, newest first */
  revisions: StoredRevision[];
}

export interface FoundLog {
  id: number;
  username: string | null;
  description: string | null;
  method: string | null;
  params: string | null;
  createTime: string;
}

export interface FindResult {
  groups: FoundGroup[];
  logs: FoundLog[];
  /** records, deleted records and log lines together */
  count: number;
}

/** At most this many records per schema and log lines: a request naming more is not about one person. */
export const FIND_MAX = 2000;

const likeText = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The revisions of `resource` whose changes hold one of the values. */
async function revisionsHolding(db: Db, resource: string, values: string[]): Promise<Array<Record<string, unknown>>> {
  if (!values.length) return [];
  return db
    .selectFrom(REVISION_TABLE)
    .selectAll()
    .where('resource', '=', resource)
    .where((eb) => eb.or(values.map((v) => eb(sql`changes`, 'like', sql`${likeText(`"${v}"`)} escape '\\'`))))
    .orderBy('id', 'desc')
    .limit(FIND_MAX)
    .execute();
}

async function revisionsOfIds(db: Db, resource: string, ids: number[], spec?: ResourceSpec): Promise<StoredRevision[]> {
  const out: StoredRevision[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom(REVISION_TABLE)
      .selectAll()
      .where('resource', '=', resource)
      .where('record_id', 'in', ids.slice(i, i + 500))
      .orderBy('id', 'desc')
      .execute();
    out.push(...rows.map((r) => toStoredRevision(r, spec)));
  }
  return out.sort((a, b) => b.id - a.id);
}

function valuesOf(subjects: Subject[], kind: SubjectKind): string[] {
  return subjects.filter((s) => s.kind === kind).flatMap((s) => storedVariants(s.kind, s.value));
}

async function findInSpec(database: Database, spec: ResourceSpec, subjects: Subject[]): Promise<FoundGroup | null> {
  const { db } = database;
  const byId = new Map<number, Record<string, unknown>>();
  const revisionRecordIds = new Set<number>();
  for (const kind of ['id', 'phone'] as const) {
    const values = valuesOf(subjects, kind);
    if (!values.length) continue;
    for (const f of identifierFields(spec, kind)) {
      const rows = await db.selectFrom(spec.table).selectAll().where(f.column, 'in', values).limit(FIND_MAX).execute();
      for (const row of rows) {
        const record = rowToRecord(spec, row);
        byId.set(Number(record.id), record);
      }
    }
    if (identifierFields(spec, kind).length)
      for (const r of await revisionsHolding(db, spec.name, values)) revisionRecordIds.add(Number(r.record_id));
  }
  return groupOf(database, spec, [...byId.values()], revisionRecordIds, 'schema');
}

async function groupOf(
  database: Database,
  spec: ResourceSpec,
  records: Array<Record<string, unknown>>,
  revisionRecordIds: Set<number>,
  source: FoundGroup['source'],
): Promise<FoundGroup | null> {
  const live = new Set(records.map((r) => Number(r.id)));
  // a record found through its revisions that still exists but no longer holds the value
  const others = [...revisionRecordIds].filter((id) => !live.has(id));
  const existing = new Set<number>();
  for (let i = 0; i < others.length; i += 500) {
    const rows = await database.db
      .selectFrom(spec.table)
      .selectAll()
      .where('id', 'in', others.slice(i, i + 500))
      .execute();
    for (const row of rows) {
      const record = rowToRecord(spec, row);
      records.push(record);
      existing.add(Number(record.id));
    }
  }
  const deletedIds = others.filter((id) => !existing.has(id)).sort((a, b) => a - b);
  if (!records.length && !deletedIds.length) return null;
  records.sort((a, b) => Number(a.id) - Number(b.id));
  const revisions = await revisionsOfIds(database.db, spec.name, [...records.map((r) => Number(r.id)), ...deletedIds], spec);
  return { resource: spec.name, title: spec.title, table: spec.table, source, records, deletedIds, revisions };
}

/** Entries owned by a found applicant (`ownedByApplicant`), live or only in revisions. */
async function ownedEntries(database: Database, specs: ResourceSpec[], owners: FoundGroup): Promise<FoundGroup[]> {
  const ownerIds = [...owners.records.map((r) => Number(r.id)), ...owners.deletedIds];
  const out: FoundGroup[] = [];
  if (!ownerIds.length) return out;
  for (const spec of specs) {
    if (!spec.ownedByApplicant) continue;
    const field = spec.fields.find((f) => f.name === spec.ownedByApplicant)!;
    if (field.ref?.resource !== owners.resource) continue;
    const rows = await database.db.selectFrom(spec.table).selectAll().where(field.column, 'in', ownerIds).limit(FIND_MAX).execute();
    // a deleted entry: its delete revision holds the owner as {"staffunId":[<id>,null]}
    const fromRevisions = new Set<number>();
    for (let i = 0; i < ownerIds.length; i += 100) {
      const revs = await database.db
        .selectFrom(REVISION_TABLE)
        .select('record_id')
        .where('resource', '=', spec.name)
        .where((eb) =>
          eb.or(ownerIds.slice(i, i + 100).map((id) => eb(sql`changes`, 'like', sql`${likeText(`"${field.name}":[${id},`)} escape '\\'`))),
        )
        .limit(FIND_MAX)
        .execute();
      for (const r of revs) fromRevisions.add(Number(r.record_id));
    }
    const group = await groupOf(
      database,
      spec,
      rows.map((row) => rowToRecord(spec, row)),
      fromRevisions,
      'owned',
    );
    if (group) out.push(group);
  }
  return out;
}

async function findInTable(database: Database, t: HandwrittenTable, subjects: Subject[]): Promise<FoundGroup | null> {
  const { db } = database;
  const rows: Array<Record<string, unknown>> = [];
  const seen = new Set<string>();
  const revisionIds = new Set<number>();
  for (const [column, kind] of Object.entries(t.columns)) {
    if (kind !== 'id' && kind !== 'phone') continue;
    const values = valuesOf(subjects, kind);
    if (!values.length) continue;
    for (const row of await db.selectFrom(t.table).selectAll().where(column, 'in', values).limit(FIND_MAX).execute()) {
      const key = t.idColumn ? String(row[t.idColumn]) : JSON.stringify(row);
      if (seen.has(key)) continue;
      seen.add(key);
      const { password: _password, code_hash: _code, ...rest } = row as Record<string, unknown>;
      rows.push(rest);
    }
    if (t.idColumn) for (const r of await revisionsHolding(db, t.name, values)) revisionIds.add(Number(r.record_id));
  }
  const live = new Set(rows.map((r) => Number(r[t.idColumn ?? 'id'])));
  const deletedIds = [...revisionIds].filter((id) => !live.has(id)).sort((a, b) => a - b);
  if (!rows.length && !deletedIds.length) return null;
  const revisions = t.idColumn ? await revisionsOfIds(db, t.name, [...live, ...deletedIds].filter(Number.isFinite)) : [];
  return { resource: t.name, title: t.title, table: t.table, source: 'table', records: rows, deletedIds, revisions };
}

/** Operation-log lines whose parameters or error text hold one of the identifiers in full. */
export async function findInLog(db: Db, subjects: Subject[]): Promise<FoundLog[]> {
  const values = subjects.flatMap((s) => storedVariants(s.kind, s.value));
  const rows = await db
    .selectFrom('sys_log')
    .select(['id', 'username', 'description', 'method', 'params', 'create_time'])
    .where((eb) =>
      eb.or(
        values.flatMap((v) => [
          eb(sql`params`, 'like', sql`${likeText(v)} escape '\\'`),
          eb(sql`exception_detail`, 'like', sql`${likeText(v)} escape '\\'`),
          eb(sql`description`, 'like', sql`${likeText(v)} escape '\\'`),
        ]),
      ),
    )
    .orderBy('id', 'desc')
    .limit(FIND_MAX)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    username: (r.username as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    method: (r.method as string | null) ?? null,
    params: (r.params as string | null) ?? null,
    createTime: String(r.create_time),
  }));
}

/** Every trace of the person named by these identifiers. */
export async function findPerson(database: Database, specs: ResourceSpec[], subjects: Subject[]): Promise<FindResult> {
  const groups: FoundGroup[] = [];
  for (const spec of personalSpecs(specs)) {
    const group = await findInSpec(database, spec, subjects);
    if (!group) continue;
    groups.push(group);
  }
  for (const owners of [...groups]) {
    for (const owned of await ownedEntries(database, specs, owners)) {
      const same = groups.find((g) => g.resource === owned.resource);
      if (!same) groups.push(owned);
      else mergeInto(same, owned);
    }
  }
  for (const t of HANDWRITTEN_TABLES) {
    const group = await findInTable(database, t, subjects);
    if (group) groups.push(group);
  }
  const logs = await findInLog(database.db, subjects);
  const count = groups.reduce((n, g) => n + g.records.length + g.deletedIds.length, 0) + logs.length;
  return { groups, logs, count };
}

function mergeInto(into: FoundGroup, more: FoundGroup): void {
  const ids = new Set(into.records.map((r) => Number(r.id)));
  for (const r of more.records) if (!ids.has(Number(r.id))) into.records.push(r);
  into.deletedIds = [...new Set([...into.deletedIds, ...more.deletedIds])].sort((a, b) => a - b);
  const revIds = new Set(into.revisions.map((r) => r.id));
  for (const r of more.revisions) if (!revIds.has(r.id)) into.revisions.push(r);
  into.revisions.sort((a, b) => b.id - a.id);
}
