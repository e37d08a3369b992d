/**
 * Unique rules (`x-unique`) in the database: one unique index per rule (`uq_<table>_<columns>`,
 * shared/column-types.ts), on SQLite and PostgreSQL alike.
 *
 * The plan (schema-plan.ts) reads the catalog: a rule whose index is missing is a new rule. When
 * no two rows share a value the start creates the index by itself; when some do, the change is
 * blocking: the plan and the refused start name the duplicate groups (the value, masked for an
 * `x-mask` property, and the ids), and only a committed migration applies it. Its choice
 * `duplicates`: `refuse` (fix the rows through the screens first), `null` (the later rows of
 * each group lose the value: the last property of the rule), `suffix` (the later rows' text gets
 * `-<id>`, cut to fit its maxLength: the last text property of the rule); the first row (lowest
 * id) of each group keeps its value. An index no rule asks for any more is dropped by the start.
 *
 * Empty values never collide (NULL is distinct in both databases' unique indexes), and deleted
 * records leave the table, so the index covers every row there is (column-types.ts).
 */
import { sql } from 'kysely';
import { mask } from '../../shared/masks.ts';
import { UNIQUE_INDEX_PREFIX, uniqueIndexes } from '../../shared/column-types.ts';
import type { FieldType, MaskKind, ResourceSpec } from '../../shared/resource-spec.ts';
import type { Db, Dialect } from '../types.ts';

/** What the migration does with rows sharing a value (see above). */
export type DuplicateChoice = 'refuse' | 'null' | 'suffix';

/** A property of a unique rule as the migration step records it. */
export interface UniqueField {
  name: string;
  column: string;
  type: FieldType;
  format?: string;
  maxLength?: number;
  /** a personal property: its values are shown masked in messages */
  mask?: MaskKind;
}

export interface UniqueStep {
  entity: string;
  table: string;
  kind: 'uniqueAdded';
  /** the rule's properties joined by + (names the migration file and the messages) */
  property: string;
  index: string;
  fields: UniqueField[];
  duplicates: DuplicateChoice;
}

/** A change of the unique rules, in the shape of schema-plan.ts's Change. */
export interface UniqueChange {
  entity: string;
  table: string;
  property: string;
  kind: 'uniqueAdded' | 'uniqueRemoved';
  auto: boolean;
  blocking: boolean;
  zh: string;
  en: string;
  rows: number;
  ids: unknown[];
  effect: string;
  step?: UniqueStep;
}

export interface DuplicateGroup {
  /** the shared values, one per column of the rule */
  values: unknown[];
  /** the first ids of the group, lowest first */
  ids: unknown[];
  rows: number;
}

export interface Duplicates {
  /** groups of rows sharing a value, and the rows in them */
  groups: number;
  rows: number;
  /** the first groups (by their lowest id) */
  first: DuplicateGroup[];
}

/** How many groups, and ids per group, a message names. */
const FIRST = 10;

const groupsEn = (n: number) => `${n} group${n === 1 ? '' : 's'}`;

const allSet = (columns: string[]) =>
  sql.join(
    columns.map((c) => sql`${sql.ref(c)} is not null`),
    sql` and `,
  );

/** The groups of rows sharing the values of `columns` (rows with any of them empty aside). */
export async function duplicates(db: Db, table: string, idColumn: string, columns: string[]): Promise<Duplicates> {
  const t = sql.table(table);
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  const counted = await sql<{ g: number | string; r: number | string | null }>`select count(*) as g, sum(n) as r from (
    select count(*) as n from ${t} where ${allSet(columns)} group by ${cols} having count(*) > 1) d`.execute(db);
  const groups = Number(counted.rows[0]?.g ?? 0);
  if (!groups) return { groups: 0, rows: 0, first: [] };
  const id = sql.ref(idColumn);
  const named = sql.join(columns.map((c, i) => sql`${sql.ref(c)} as ${sql.ref(`v${i}`)}`));
  const heads = await sql<Record<string, unknown>>`select ${named}, count(*) as n from ${t} where ${allSet(columns)}
    group by ${cols} having count(*) > 1 order by min(${id}) limit ${sql.lit(FIRST)}`.execute(db);
  const first: DuplicateGroup[] = [];
  for (const h of heads.rows) {
    const values = columns.map((_c, i) => h[`v${i}`]);
    const same = sql.join(
      columns.map((c, i) => sql`${sql.ref(c)} = ${values[i]}`),
      sql` and `,
    );
    const ids = await sql<{ id: unknown }>`select ${id} as id from ${t} where ${same} order by ${id} limit ${sql.lit(FIRST)}`.execute(db);
    first.push({ values, ids: ids.rows.map((r) => r.id), rows: Number(h.n) });
  }
  return { groups, rows: Number(counted.rows[0]?.r ?? 0), first };
}

/** Our unique indexes on `table` (the `uq_` ones), by name. */
export async function liveUniqueIndexes(db: Db, dialect: Dialect, table: string): Promise<Set<string>> {
  const prefix = UNIQUE_INDEX_PREFIX;
  const r =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes
          where schemaname = current_schema() and tablename = ${table} and substr(indexname, 1, ${prefix.length}) = ${prefix}`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'index' and tbl_name = ${table} and substr(name, 1, ${prefix.length}) = ${prefix}`.execute(db);
  return new Set(r.rows.map((x) => x.name));
}

/** A value as a message shows it: masked for a personal property. */
function shown(field: Pick<UniqueField, 'mask'>, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return field.mask ? mask(field.mask, text) : text;
}

/** The groups as the refusal lists them: “3” id 1, 4；“7” id 2, 5 (zh) and "3" (id 1, 4); "7" (id 2, 5) (en). */
export function groupsText(d: Duplicates, fields: Array<Pick<UniqueField, 'mask'>>): { zh: string; en: string } {
  const value = (g: DuplicateGroup) => g.values.map((v, i) => shown(fields[i], v)).join(' / ');
  const ids = (g: DuplicateGroup) => g.ids.map(String).join(', ');
  const more = d.groups > d.first.length;
  return {
    zh:
      d.first.map((g) => `“${value(g)}” id ${ids(g)}${g.rows > g.ids.length ? ` …（共 ${g.rows} 行）` : ''}`).join('；') +
      (more ? `；…（共 ${d.groups} 组）` : ''),
    en:
      d.first.map((g) => `"${value(g)}" (id ${ids(g)}${g.rows > g.ids.length ? ` … of ${g.rows} rows` : ''})`).join('; ') +
      (more ? `; … (${groupsEn(d.groups)})` : ''),
  };
}

/** The unique rules of `spec` that have no index yet, and our indexes no rule asks for any more. */
export async function planUnique(
  db: Db,
  dialect: Dialect,
  spec: ResourceSpec,
  liveColumns: ReadonlyMap<string, unknown>,
  idColumn: string | undefined,
): Promise<UniqueChange[]> {
  const base = { entity: spec.name, table: spec.table };
  const live = await liveUniqueIndexes(db, dialect, spec.table);
  const out: UniqueChange[] = [];
  const wanted = uniqueIndexes(spec);
  for (const u of wanted) {
    if (live.has(u.name)) continue;
    const property = u.properties.join('+');
    const fields: UniqueField[] = u.properties.map((n) => {
      const f = spec.fields.find((x) => x.name === n)!;
      return {
        name: f.name,
        column: f.column,
        type: f.type,
        ...(f.format ? { format: f.format } : {}),
        ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}),
        ...(f.mask ? { mask: f.mask } : {}),
      };
    });
    const step: UniqueStep = { ...base, kind: 'uniqueAdded', property, index: u.name, fields, duplicates: 'refuse' };
    const zh = `新增唯一规则（${u.properties.join('、')}）`;
    const en = `new unique rule on ${u.properties.join(' + ')}`;
    // a property new to the table holds no values yet: its index comes with its column
    const d =
      idColumn && u.columns.every((c) => liveColumns.has(c))
        ? await duplicates(db, spec.table, idColumn, u.columns)
        : { groups: 0, rows: 0, first: [] };
    if (!d.groups) {
      out.push({
        ...base,
        property,
        kind: 'uniqueAdded',
        auto: true,
        blocking: false,
        zh,
        en,
        rows: 0,
        ids: [],
        effect: 'none: no two rows share a value; the unique index is created',
        step,
      });
      continue;
    }
    const text = groupsText(d, fields);
    out.push({
      ...base,
      property,
      kind: 'uniqueAdded',
      auto: false,
      blocking: true,
      zh: `${zh}：${d.groups} 组重复值 ${text.zh}`,
      en: `${en}: ${groupsEn(d.groups)} of duplicates ${text.en}`,
      rows: d.rows,
      ids: d.first.flatMap((g) => g.ids).slice(0, FIRST),
      effect: `${d.rows} rows in ${groupsEn(d.groups)} share a value: the index cannot be made until all but one row of each group change`,
      step,
    });
  }
  for (const name of live) {
    if (wanted.some((u) => u.name === name)) continue;
    out.push({
      ...base,
      property: name.slice(UNIQUE_INDEX_PREFIX.length + spec.table.length + 1),
      kind: 'uniqueRemoved',
      auto: true,
      blocking: false,
      zh: `唯一规则已删除（索引 ${name} 随之删除）`,
      en: `unique rule removed (index ${name} dropped)`,
      rows: 0,
      ids: [],
      effect: 'none: values may repeat from now on',
    });
  }
  return out;
}

/** Creates the indexes of the rules that have none and drops ours no rule asks for (the plan found no duplicates). */
export async function ensureUniqueIndexes(db: Db, dialect: Dialect, spec: ResourceSpec): Promise<void> {
  const live = await liveUniqueIndexes(db, dialect, spec.table);
  const wanted = uniqueIndexes(spec);
  for (const u of wanted) {
    if (!live.has(u.name)) await db.schema.createIndex(u.name).ifNotExists().unique().on(spec.table).columns(u.columns).execute();
  }
  for (const name of live) if (!wanted.some((u) => u.name === name)) await db.schema.dropIndex(name).ifExists().execute();
}

/** Why a unique step cannot apply, for the migration's refusal. */
export class UniqueStepRefused extends Error {
  constructor(
    readonly zh: string,
    readonly en: string,
    readonly rows: number,
    readonly ids: unknown[],
  ) {
    super(en);
  }
}

/** The rows after the first (lowest id) of each group sharing a value, with the value of `column`. */
async function laterRows(db: Db, table: string, idColumn: string, columns: string[], column: string) {
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  const id = sql.ref(idColumn);
  const r = await sql<{ id: unknown; v: unknown }>`select id, v from (
      select ${id} as id, ${sql.ref(column)} as v, row_number() over (partition by ${cols} order by ${id}) as rn
      from ${sql.table(table)} where ${allSet(columns)}) x
    where rn > 1 order by id`.execute(db);
  return r.rows;
}

/**
 * Applies a unique step: the duplicates resolved as the step chooses, then the index. Throws
 * UniqueStepRefused when rows still share a value (choice `refuse`, or a suffixed value that is
 * taken too).
 */
export async function applyUniqueStep(db: Db, dialect: Dialect, step: UniqueStep, idColumn: string | undefined): Promise<void> {
  if ((await liveUniqueIndexes(db, dialect, step.table)).has(step.index)) return;
  const columns = step.fields.map((f) => f.column);
  const found = idColumn ? await duplicates(db, step.table, idColumn, columns) : { groups: 0, rows: 0, first: [] };
  if (found.groups && idColumn) {
    if (step.duplicates === 'null' || step.duplicates === 'suffix') {
      const target =
        step.duplicates === 'null'
          ? step.fields[step.fields.length - 1]
          : [...step.fields].reverse().find((f) => f.type === 'string' && !f.format);
      if (!target)
        throw new UniqueStepRefused(
          '规则中没有文本属性，无法加后缀（duplicates 为 suffix）',
          'no text property to suffix (duplicates: suffix)',
          found.rows,
          [],
        );
      const t = sql.table(step.table);
      for (const row of await laterRows(db, step.table, idColumn, columns, target.column)) {
        let value: unknown = null;
        if (step.duplicates === 'suffix') {
          const tail = `-${String(row.id)}`;
          const chars = [...String(row.v)];
          const room = target.maxLength === undefined ? chars.length : Math.max(0, target.maxLength - tail.length);
          value = chars.slice(0, room).join('') + tail;
        }
        await sql`update ${t} set ${sql.ref(target.column)} = ${value} where ${sql.ref(idColumn)} = ${row.id}`.execute(db);
      }
    }
    const left = step.duplicates === 'refuse' ? found : await duplicates(db, step.table, idColumn, columns);
    if (left.groups) {
      const text = groupsText(left, step.fields);
      const how = step.duplicates === 'refuse' ? 'duplicates 为 refuse' : `按 ${step.duplicates} 处理后仍有重复`;
      const howEn = step.duplicates === 'refuse' ? 'duplicates: refuse' : `still after ${step.duplicates}`;
      throw new UniqueStepRefused(
        `${left.groups} 组重复值（${how}）：${text.zh}`,
        `${groupsEn(left.groups)} of duplicates (${howEn}): ${text.en}`,
        left.rows,
        left.first.flatMap((g) => g.ids).slice(0, FIRST),
      );
    }
  }
  await db.schema.createIndex(step.index).ifNotExists().unique().on(step.table).columns(columns).execute();
}
