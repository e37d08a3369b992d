/**
 * Pinyin search of the fields a schema marks `x-pinyin` (the rule: shared/pinyin.ts).
 *
 * Each marked field has a side table `<table>_<column>_py (key, row_id)` holding one row per key
 * of the row's text (张三: zhangsan, zs|zhang-san---; see pinyin-keys.ts), primary key
 * (key, row_id). A pinyin query is then a few index ranges over the keys, `key >= 'zs' and
 * key < 'zt'` (a mixed query also checks a LIKE pattern within its ranges), and the list's
 * condition is `id IN (those ranges)`: no scan of the table on SQLite or PostgreSQL. On PostgreSQL the key
 * column uses the "C" collation so that the range is a byte range whatever the database's locale.
 *
 * The keys are written in the same transaction as the row (create, update, import, delete: see
 * repository.ts). At start the migrator creates the side tables and computes the keys of rows
 * stored before the field was marked (or before the rule's version changed), a batch at a time,
 * remembering how far it got in `schema_pinyin` so that an interrupted start resumes.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { PINYIN_RULE_VERSION } from '../../../shared/pinyin.ts';
import { pinyinKeyRanges, pinyinStoredKeys, pinyinSyllables, type KeyRange } from './pinyin-keys.ts';
import type { Database, Db, Dialect } from '../../types.ts';
import { idField } from '../values.ts';
import { insertKeyRows, type KeyRow } from './pinyin-key-rows.ts';

export const PINYIN_MARKER_TABLE = 'schema_pinyin';
const FILL_BATCH = 2000;

export function pinyinFields(spec: ResourceSpec): FieldSpec[] {
  return spec.fields.filter((f) => f.pinyin);
}

/** The side table of a marked field. */
export function pinyinTable(spec: Pick<ResourceSpec, 'table'>, field: Pick<FieldSpec, 'column'>): string {
  return `${spec.table}_${field.column}_py`;
}

/**
 * The blurry condition of a marked field when `text` is a pinyin query (Latin letters, digits,
 * spaces), else null (then the field is matched as a substring, as any text field).
 */
export function pinyinCondition(spec: ResourceSpec, field: FieldSpec, text: string): Expression<SqlBool> | null {
  if (!field.pinyin) return null;
  return pinyinSetCondition(spec, [field], text);
}

/** The keys of one range: `key >= from and key < to`, and one of its LIKE patterns when it has some. */
function inRange(r: KeyRange): Expression<SqlBool> {
  const range = sql<SqlBool>`key >= ${r.from} and key < ${r.to}`;
  if (!r.like.length) return range;
  return sql<SqlBool>`${range} and (${sql.join(
    r.like.map((p) => sql`key like ${p}`),
    sql` or `,
  )})`;
}

/**
 * The blurry condition of several marked fields at once, as one index-driven set of ids:
 * `id IN (range of A UNION range of B)`. Both databases read the key ranges and then the rows by
 * id (SQLite walks the set in id order, so an id-ordered page needs no sort); an `OR` of one
 * `IN` per field made SQLite scan the whole table instead. Null when `text` is not pinyin.
 */
export function pinyinSetCondition(spec: ResourceSpec, fields: FieldSpec[], text: string): Expression<SqlBool> | null {
  const ranges = pinyinKeyRanges(text);
  if (!ranges || !fields.length) return null;
  const selects = fields.flatMap((f) => ranges.map((r) => sql`select row_id from ${sql.table(pinyinTable(spec, f))} where ${inRange(r)}`));
  return sql<SqlBool>`${sql.ref(idField(spec).column)} in (${sql.join(selects, sql` union `)})`;
}

/**
 * The same condition as a probe per row: `(select 1 from A where row_id = t.id and key in range
 * limit 1) is not null or ...`, an index-only look-up on (row_id, key) for each row the page
 * walks in id order. Chosen for the page of a common prefix (zhang: 8 % of the rows), where the
 * set form would read every matching key to show ten rows; a scalar subquery, so that
 * PostgreSQL does not hash the whole range instead.
 */
export function pinyinProbeCondition(spec: ResourceSpec, fields: FieldSpec[], text: string): Expression<SqlBool> | null {
  const ranges = pinyinKeyRanges(text);
  if (!ranges || !fields.length) return null;
  const outer = sql.ref(`${spec.table}.${idField(spec).column}`);
  const anyRange =
    ranges.length === 1
      ? inRange(ranges[0])
      : sql`(${sql.join(
          ranges.map((r) => sql`(${inRange(r)})`),
          sql` or `,
        )})`;
  const probes = fields.map(
    (f) => sql`(select 1 from ${sql.table(pinyinTable(spec, f))} where row_id = ${outer} and ${anyRange} limit 1) is not null`,
  );
  return sql<SqlBool>`(${sql.join(probes, sql` or `)})`;
}

/** keys in a page's ranges from which the page walks the table instead (see pinyinPagePlan) */
export const PROBE_FROM_KEYS = 10_000;
const PLAN_TTL_MS = 60_000;
const PLAN_CACHE_MAX = 2000;
const planCache = new Map<string, { walk: boolean; at: number }>();

/** Whether the ranges of `key` over these fields hold at least PROBE_FROM_KEYS keys (counted up to that). */
export async function commonPrefix(
  database: Database,
  spec: ResourceSpec,
  fields: FieldSpec[],
  key: string,
  probeFrom: number,
): Promise<boolean> {
  const cacheKey = `${spec.table}|${fields.map((f) => f.column).join(',')}|${key}|${probeFrom}`;
  const now = Date.now();
  const hit = planCache.get(cacheKey);
  if (hit && now - hit.at < PLAN_TTL_MS) return hit.walk;
  let seen = 0;
  const ranges = pinyinKeyRanges(key) ?? [];
  count: for (const f of fields) {
    for (const r of ranges) {
      const row = await sql<{ n: number | string }>`select count(*) as n from (select 1 from ${sql.table(pinyinTable(spec, f))}
        where ${inRange(r)} limit ${probeFrom - seen}) x`.execute(database.db);
      seen += Number(row.rows[0]?.n ?? 0);
      if (seen >= probeFrom) break count;
    }
  }
  const walk = seen >= probeFrom;
  if (planCache.size >= PLAN_CACHE_MAX) planCache.delete(planCache.keys().next().value!);
  planCache.set(cacheKey, { walk, at: now });
  return walk;
}

/**
 * The keys of rows just inserted: `rows` carry the id and the marked columns. With the dialect
 * the keys go in one statement per field (pinyin-key-rows.ts); `known` keeps the keys of texts
 * already read across calls (an import passes one for all its batches).
 */
export async function writePinyinKeys(
  db: Db,
  spec: ResourceSpec,
  rows: Record<string, unknown>[],
  dialect?: Dialect,
  known?: PinyinKeyMemo,
): Promise<void> {
  const id = idField(spec).column;
  for (const f of pinyinFields(spec)) {
    const keys: KeyRow[] = [];
    // an import repeats its titles (岗位, 车型) row after row: each text is read once
    const memo = known?.field(f) ?? new Map<string, string[]>();
    for (const r of rows) {
      const text = r[f.column];
      if (typeof text !== 'string' || !text) continue;
      let stored = memo.get(text);
      if (!stored) memo.set(text, (stored = pinyinStoredKeys(text, f.pinyin)));
      for (const key of stored) keys.push({ key, row_id: Number(r[id]) });
    }
    await insertKeyRows(db, pinyinTable(spec, f), keys, dialect);
  }
}

/** texts of one field remembered by a PinyinKeyMemo before it starts again (bounds its memory) */
const MEMO_TEXTS = 20_000;

/** The stored keys of the texts an import has read so far, per marked field. */
export class PinyinKeyMemo {
  private readonly fields = new Map<string, Map<string, string[]>>();

  field(f: FieldSpec): Map<string, string[]> {
    let m = this.fields.get(f.column);
    if (!m || m.size >= MEMO_TEXTS) this.fields.set(f.column, (m = new Map<string, string[]>()));
    return m;
  }
}

/** After an update that wrote `row` (column -> new value, null when cleared) to the row `id`. */
export async function rewritePinyinKeys(db: Db, spec: ResourceSpec, id: number, row: Record<string, unknown>): Promise<void> {
  for (const f of pinyinFields(spec)) {
    if (!(f.column in row)) continue;
    const table = pinyinTable(spec, f);
    await db.deleteFrom(table).where('row_id', '=', id).execute();
    const text = row[f.column];
    if (typeof text === 'string' && text)
      await insertKeyRows(
        db,
        table,
        pinyinStoredKeys(text, f.pinyin).map((key) => ({ key, row_id: id })),
      );
  }
}

/** Before the rows `ids` of `spec` are deleted. */
export async function deletePinyinKeys(db: Db, spec: ResourceSpec, ids: number[]): Promise<void> {
  for (const f of pinyinFields(spec)) await db.deleteFrom(pinyinTable(spec, f)).where('row_id', 'in', ids).execute();
}

/** Before the rows of `spec` whose `column` is one of `values` are deleted (cascading deletes). */
export async function deletePinyinKeysWhere(db: Db, spec: ResourceSpec, column: string, values: number[]): Promise<void> {
  const id = idField(spec).column;
  for (const f of pinyinFields(spec)) {
    await db
      .deleteFrom(pinyinTable(spec, f))
      .where('row_id', 'in', db.selectFrom(spec.table).select(id).where(column, 'in', values))
      .execute();
  }
}

interface Marker {
  version: number;
  done_upto: number | string;
  complete: boolean | number;
}

/**
 * Creates the side tables of the marked fields and computes the keys of the rows that have none
 * yet (part of the migration; runs inside its lock or transaction).
 */
export async function ensurePinyinTables(db: Db, dialect: Dialect, spec: ResourceSpec): Promise<void> {
  const fields = pinyinFields(spec);
  if (!fields.length) return;
  // the syllables a mixed query is split into, read once now rather than by the first search
  pinyinSyllables();
  const bool = dialect === 'postgres' ? 'boolean' : 'integer';
  await sql`create table if not exists ${sql.table(PINYIN_MARKER_TABLE)} (table_name text not null, column_name text not null,
    version integer not null, done_upto bigint not null, complete ${sql.raw(bool)} not null, primary key (table_name, column_name))`.execute(
    db,
  );
  for (const f of fields) {
    const table = pinyinTable(spec, f);
    if (dialect === 'postgres') {
      await sql`create table if not exists ${sql.table(table)} (key text collate "C" not null, row_id bigint not null, primary key (key, row_id))`.execute(
        db,
      );
    } else {
      await sql`create table if not exists ${sql.table(table)} (key text not null, row_id integer not null, primary key (key, row_id)) without rowid`.execute(
        db,
      );
    }
    if (dialect === 'postgres') {
      // (row_id, key): the per-row probe of a page walking the table (pinyinProbeCondition) reads
      // the index alone; it also serves deleting a row's keys, which the former row_id index did
      await db.schema.createIndex(`${table}_row_key`).ifNotExists().on(table).columns(['row_id', 'key']).execute();
      await db.schema.dropIndex(`${table}_row`).ifExists().execute();
    } else {
      // in a WITHOUT ROWID table an index on row_id holds the key as well
      await db.schema.createIndex(`${table}_row`).ifNotExists().on(table).column('row_id').execute();
    }
    await fillPinyinKeys(db, dialect, spec, f);
  }
}

async function fillPinyinKeys(db: Db, dialect: Dialect, spec: ResourceSpec, field: FieldSpec): Promise<void> {
  const marker = db.selectFrom(PINYIN_MARKER_TABLE).where('table_name', '=', spec.table).where('column_name', '=', field.column);
  let m = await marker.select(['version', 'done_upto', 'complete']).$castTo<Marker>().executeTakeFirst();
  if (m && Number(m.version) === PINYIN_RULE_VERSION && (m.complete === true || m.complete === 1)) return;
  if (!m || Number(m.version) !== PINYIN_RULE_VERSION) {
    // new field, or keys of another version of the rule: every row again, from the start
    await db.deleteFrom(PINYIN_MARKER_TABLE).where('table_name', '=', spec.table).where('column_name', '=', field.column).execute();
    await db
      .insertInto(PINYIN_MARKER_TABLE)
      .values({
        table_name: spec.table,
        column_name: field.column,
        version: PINYIN_RULE_VERSION,
        done_upto: 0,
        complete: dialect === 'postgres' ? false : 0,
      })
      .execute();
    m = { version: PINYIN_RULE_VERSION, done_upto: 0, complete: false };
  }
  const id = idField(spec).column;
  const side = pinyinTable(spec, field);
  let upto = Number(m.done_upto);
  for (;;) {
    const rows = await db.selectFrom(spec.table).select([id, field.column]).where(id, '>', upto).orderBy(id).limit(FILL_BATCH).execute();
    const last = rows.length ? Number(rows[rows.length - 1][id]) : upto;
    await inBatch(db, dialect, async () => {
      if (rows.length) {
        await db.deleteFrom(side).where('row_id', '>', upto).where('row_id', '<=', last).execute();
        await writePinyinKeys(db, spec, rows, dialect);
      }
      await db
        .updateTable(PINYIN_MARKER_TABLE)
        .set({ done_upto: last, ...(rows.length < FILL_BATCH ? { complete: dialect === 'postgres' ? true : 1 } : {}) })
        .where('table_name', '=', spec.table)
        .where('column_name', '=', field.column)
        .execute();
    });
    if (rows.length < FILL_BATCH) return;
    upto = last;
  }
}

/**
 * One batch of the fill: its own transaction on PostgreSQL (the migration holds a connection,
 * not a transaction), so the marker never runs ahead of the keys; on SQLite the migration is
 * one transaction already.
 */
async function inBatch(db: Db, dialect: Dialect, work: () => Promise<void>): Promise<void> {
  if (dialect !== 'postgres') return work();
  await sql`begin`.execute(db);
  try {
    await work();
    await sql`commit`.execute(db);
  } catch (e) {
    await sql`rollback`.execute(db);
    throw e;
  }
}
