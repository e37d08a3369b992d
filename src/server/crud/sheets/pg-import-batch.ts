/**
 * PostgreSQL: one batch of an import (`insertAll`) as ONE statement: the rows, their `import`
 * revisions and the pinyin keys of every marked field, written by data-modifying CTEs
 *
 *   with ins as (insert into t (...) select ... from json_populate_recordset(null::t, $rows) returning id, <marked>),
 *        rev as (insert into sys_revision ... select ... from ins),
 *        k0  as (insert into t_name_py (key, row_id) select d.k, ins.id from ins join unnest($texts, $keys) d(t, k) on d.t = ins.name order by 1),
 *        ...
 *   select count(*) from ins
 *
 * What it replaces, per batch of 166 roster rows: four statements (the rows as a multi-row
 * INSERT of 2,000 parameters built by the query builder, the revisions, one key INSERT per
 * marked field with its key rows and ids as arrays), so 2,400 round trips per 100,000 rows.
 * Here a batch is a thousand rows, the statement's text is constant, the rows travel as one JSON
 * value typed by the table's own row type (no type map to keep), and a field's keys travel as
 * the keys of its DISTINCT texts (a title repeated on every row is sent once, not once per row):
 * PostgreSQL pairs them with the new ids by joining on the stored text. The keys are inserted in
 * key order, so consecutive inserts into the (key, row_id) B-tree touch the same pages.
 *
 * Stored rows, keys and revisions are the same as the general path's (pinyin-key-rows.ts,
 * revisions.ts); the statement is atomic like the transaction around it. A batch whose rows do
 * not fit a JSON value as the driver would bind them (a value that is not a string, number,
 * boolean or null; a text holding half of a surrogate pair) or that leaves out, in some rows only,
 * a column with a default (the multi-row INSERT writes DEFAULT there, a JSON row NULL) is not
 * built: the caller takes the general path.
 */
import { sql } from 'kysely';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { pinyinStoredKeys } from '../pinyin/pinyin-keys.ts';
import { pinyinTable, type PinyinKeyMemo } from '../pinyin/pinyin-search.ts';
import { REVISION_TABLE, type RevisionActor } from '../history/revisions.ts';
import { idField } from '../values.ts';

type Row = Record<string, unknown>;

/** A batch ready to send: the rows as JSON, and per marked field its distinct texts' keys as (text, key) pairs. */
export interface PgImportBatch {
  columns: string[];
  rows: string;
  keys: Array<{ field: FieldSpec; texts: string[]; keys: string[] }>;
}

/** how JSON.stringify writes a surrogate that is not half of a pair */
const LONE_SURROGATE = /\\ud[89a-f]/;

const plain = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * The batch of these rows (column names, as recordToRow gives them), or null when they must go
 * through the general path (see the module comment).
 */
export function pgImportBatch(spec: ResourceSpec, rows: Row[], marked: FieldSpec[], memo: PinyinKeyMemo): PgImportBatch | null {
  const present = new Map<string, number>();
  for (const r of rows) {
    for (const c in r) {
      const v = r[c];
      if (v === undefined) continue;
      if (!plain(v) || (typeof v === 'number' && !Number.isFinite(v))) return null;
      present.set(c, (present.get(c) ?? 0) + 1);
    }
  }
  const byColumn = new Map(spec.fields.map((f) => [f.column, f]));
  for (const [c, n] of present) {
    const f = byColumn.get(c);
    if (!f || f.auto === 'id') return null;
    // left out of some rows only: NULL in a JSON row, DEFAULT in a multi-row INSERT
    if (n < rows.length && f.default !== undefined) return null;
  }
  const keys = marked.map((field) => {
    const known = memo.field(field);
    const texts: string[] = [];
    const list: string[] = [];
    const seen = new Set<string>();
    for (const r of rows) {
      const text = r[field.column];
      if (typeof text !== 'string' || !text || seen.has(text)) continue;
      seen.add(text);
      let stored = known.get(text);
      if (!stored) known.set(text, (stored = pinyinStoredKeys(text, field.pinyin)));
      for (const key of stored) {
        texts.push(text);
        list.push(key);
      }
    }
    return { field, texts, keys: list };
  });
  if (!present.size) return null;
  const json = JSON.stringify(rows);
  // a lone surrogate: JSON escapes it and PostgreSQL refuses the escape, where the driver's UTF-8
  // stores U+FFFD (so does the general path)
  if (LONE_SURROGATE.test(json)) return null;
  return { columns: [...present.keys()], rows: json, keys };
}

/** Writes a batch built by pgImportBatch (rows, `import` revisions, keys); answers the rows written. */
export async function insertPgImportBatch(trx: Db, spec: ResourceSpec, batch: PgImportBatch, actor: RevisionActor): Promise<number> {
  const table = sql.table(spec.table);
  const id = sql.ref(idField(spec).column);
  const columns = sql.join(batch.columns.map((c) => sql.ref(c)));
  const returned = sql.join([id, ...batch.keys.map((k) => sql.ref(k.field.column))]);
  const keyWrites = batch.keys.map(
    (k, i) => sql`, ${sql.ref(`k${i}`)} as (
      insert into ${sql.table(pinyinTable(spec, k.field))} (key, row_id)
      select d.k, ins.${id} from ins join unnest(${k.texts}::text[], ${k.keys}::text[]) as d(t, k) on d.t = ins.${sql.ref(k.field.column)}
      order by 1, 2)`,
  );
  const r = await sql<{ n: string }>`with ins as (
      insert into ${table} (${columns}) select ${columns} from json_populate_recordset(null::${table}, ${batch.rows}::json)
      returning ${returned}
    ), rev as (
      insert into ${sql.table(REVISION_TABLE)} (resource, record_id, action, actor_kind, actor_name, create_time, in_bin)
      select ${spec.name}, ins.${id}, 'import', ${actor.kind}, ${actor.name}, ${nowText()}::timestamp, false from ins
    )${sql.join(keyWrites, sql``)}
    select count(*) as n from ins`.execute(trx);
  return Number(r.rows[0]?.n ?? 0);
}
