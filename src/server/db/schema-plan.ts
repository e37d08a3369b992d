/**
 * The difference between the entity schemas and the live database, and what it does to the rows
 * present. Both `npm run schema:plan` and every start read it: a start applies the changes that
 * cannot lose, strand or reject a row (`auto`), refuses while a change that could (`blocking`)
 * has no committed migration, and keeps removed properties and entities (neither).
 *
 * What the database is now comes from two places: the catalog (tables, columns, their declared
 * types; on PostgreSQL the truth about types and lengths) and the shape of every entity as last
 * applied, kept in `schema_snapshot` (what the catalog cannot say: enums, required properties,
 * and on SQLite, whose declared types are not enforced, the type and the length in force).
 * A database from before the snapshot existed is read from its catalog alone.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FieldType, ResourceSpec } from '../../shared/resource-spec.ts';
import { snakeCase } from '../../shared/resource-spec.ts';
import { columnDefault, isPrimaryKey, MAX_VARCHAR, type ColumnSource } from '../../shared/column-types.ts';
import type { Db, Dialect } from '../types.ts';
import { planUnique, type UniqueStep } from './unique-plan.ts';

export const SNAPSHOT_TABLE = 'schema_snapshot';

/** What the database needs to know of one property. */
export interface FieldShape {
  name: string;
  column: string;
  type: FieldType;
  format?: string;
  maxLength?: number;
  money?: boolean;
  auto?: string;
  required: boolean;
  default?: unknown;
  enum?: unknown[];
}

export interface EntityShape {
  name: string;
  table: string;
  /** the permission module (`x-entity.permission`); shapes kept before it was recorded lack it */
  permission?: string;
  fields: FieldShape[];
  /** properties removed from the schema whose columns are kept (until a plan drops them) */
  removed?: FieldShape[];
}

export function shapeOf(spec: ResourceSpec): EntityShape {
  const props = ((spec.schema as { properties?: Record<string, { enum?: unknown[] }> }).properties ?? {}) as Record<
    string,
    { enum?: unknown[] } | undefined
  >;
  return {
    name: spec.name,
    table: spec.table,
    permission: spec.permission,
    fields: spec.fields.map((f) => {
      const shape: FieldShape = { name: f.name, column: f.column, type: f.type, required: f.required };
      if (f.format) shape.format = f.format;
      if (f.maxLength !== undefined) shape.maxLength = f.maxLength;
      if (f.money) shape.money = true;
      if (f.auto) shape.auto = f.auto;
      if (f.default !== undefined) shape.default = f.default;
      const e = props[f.name]?.enum;
      if (Array.isArray(e)) shape.enum = e;
      return shape;
    }),
  };
}

/** The storage kind of a column, as both databases can be asked about it. */
export type StoreKind = 'int' | 'real' | 'text' | 'bool' | 'timestamp' | 'date' | 'other';
export interface ColumnState {
  kind: StoreKind;
  /** text only: the longest value; undefined = no limit */
  maxLength?: number;
}

export function stateOfShape(f: Pick<FieldShape, 'type' | 'format' | 'maxLength' | 'money'>): ColumnState {
  switch (f.type) {
    case 'integer':
      return { kind: 'int' };
    case 'number':
      return { kind: f.money ? 'int' : 'real' };
    case 'boolean':
      return { kind: 'bool' };
    case 'string':
      if (f.format === 'date-time') return { kind: 'timestamp' };
      if (f.format === 'date') return { kind: 'date' };
      return { kind: 'text', maxLength: f.maxLength !== undefined && f.maxLength <= MAX_VARCHAR ? f.maxLength : undefined };
  }
}

function stateOfDeclared(declared: string): ColumnState {
  const t = declared.trim().toLowerCase();
  const v = /^(?:character varying|varchar)\s*\((\d+)\)$/.exec(t);
  if (v) return { kind: 'text', maxLength: Number(v[1]) };
  if (t === 'text' || t === 'character varying' || t === 'varchar' || t === '') return { kind: 'text' };
  if (['bigint', 'integer', 'int', 'smallint', 'int8', 'int4', 'int2'].includes(t)) return { kind: 'int' };
  if (['double precision', 'real', 'float8', 'float4', 'numeric', 'double'].includes(t)) return { kind: 'real' };
  if (t === 'boolean') return { kind: 'bool' };
  if (t.startsWith('timestamp')) return { kind: 'timestamp' };
  if (t === 'date') return { kind: 'date' };
  return { kind: 'other' };
}

export interface LiveColumn {
  name: string;
  declared: string;
  state: ColumnState;
}

/** The table's columns from the catalog, or null when there is no such table. */
export async function liveColumns(db: Db, dialect: Dialect, table: string): Promise<Map<string, LiveColumn> | null> {
  const out = new Map<string, LiveColumn>();
  if (dialect === 'postgres') {
    const r = await sql<{ column_name: string; data_type: string; character_maximum_length: number | null }>`
      select column_name, data_type, character_maximum_length from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db);
    for (const c of r.rows) {
      const declared = c.character_maximum_length ? `varchar(${c.character_maximum_length})` : c.data_type;
      out.set(c.column_name, { name: c.column_name, declared, state: stateOfDeclared(declared) });
    }
  } else {
    const r = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${table})`.execute(db);
    for (const c of r.rows) out.set(c.name, { name: c.name, declared: c.type, state: stateOfDeclared(c.type) });
  }
  return out.size ? out : null;
}

export async function ensureSnapshotTable(db: Db): Promise<void> {
  await sql`create table if not exists ${sql.table(SNAPSHOT_TABLE)} (
    entity varchar(200) primary key, table_name varchar(200) not null, shape text not null, applied_at varchar(19) not null)`.execute(db);
}

export async function readSnapshots(db: Db, dialect: Dialect): Promise<Map<string, EntityShape>> {
  if (!(await liveColumns(db, dialect, SNAPSHOT_TABLE))) return new Map();
  const r = await sql<{ entity: string; shape: string }>`select entity, shape from ${sql.table(SNAPSHOT_TABLE)}`.execute(db);
  return new Map(r.rows.map((x) => [x.entity, JSON.parse(x.shape) as EntityShape]));
}

export async function writeSnapshot(db: Db, shape: EntityShape, at: string): Promise<void> {
  await sql`delete from ${sql.table(SNAPSHOT_TABLE)} where entity = ${shape.name}`.execute(db);
  await sql`insert into ${sql.table(SNAPSHOT_TABLE)} (entity, table_name, shape, applied_at)
    values (${shape.name}, ${shape.table}, ${JSON.stringify(shape)}, ${at})`.execute(db);
}

/**
 * The shape to keep after a start: the schema's, and the properties it no longer has whose
 * columns are still there (kept until a plan drops them, which needs to know they were ours).
 */
export async function shapeToKeep(db: Db, dialect: Dialect, spec: ResourceSpec, old: EntityShape | undefined): Promise<EntityShape> {
  const shape = shapeOf(spec);
  const gone = [...(old?.fields ?? []), ...(old?.removed ?? [])].filter((f) => !shape.fields.some((x) => x.column === f.column));
  if (!gone.length) return shape;
  const live = await liveColumns(db, dialect, spec.table);
  const removed = gone.filter((f) => live?.has(f.column));
  return removed.length ? { ...shape, removed } : shape;
}

export async function deleteSnapshot(db: Db, entity: string): Promise<void> {
  await sql`delete from ${sql.table(SNAPSHOT_TABLE)} where entity = ${entity}`.execute(db);
}

// ---------------------------------------------------------------------------------------------
// Migration steps (written by the plan into migrations/*.json, applied by the start)

interface StepBase {
  entity: string;
  table: string;
}
export type MigrationStep =
  | (StepBase & { kind: 'rename'; property: string; from: string; to: FieldShape; fromProperty?: string })
  | (StepBase & { kind: 'typeChange'; property: string; from: FieldShape | null; to: FieldShape; nonConverting: 'refuse' | 'null' })
  | (StepBase & { kind: 'narrow'; property: string; from: number | null; to: FieldShape; tooLong: 'refuse' | 'truncate' })
  | (StepBase & { kind: 'requiredAdded'; property: string; to: FieldShape; fill: unknown })
  | (StepBase & { kind: 'enumNarrowed'; property: string; to: FieldShape; replace: Record<string, unknown> })
  | (StepBase & { kind: 'dropColumn'; column: string })
  | (StepBase & { kind: 'dropTable' })
  | (StepBase & { kind: 'renameEntity'; from: string; fromTable: string; fromPermission: string; permission: string })
  | UniqueStep;

export type ChangeKind =
  | 'createTable'
  | 'add'
  | 'widen'
  | 'narrow'
  | 'rename'
  | 'typeChange'
  | 'requiredAdded'
  | 'enumNarrowed'
  | 'removedProperty'
  | 'removedEntity'
  | 'renameEntity'
  | 'uniqueAdded'
  | 'uniqueRemoved';

export interface Change {
  entity: string;
  table: string;
  property?: string;
  column?: string;
  kind: ChangeKind;
  /** applied by the start itself: nothing can be lost, stranded or rejected */
  auto: boolean;
  /** the start refuses until a committed migration applies it */
  blocking: boolean;
  /** the change, in Chinese and in English */
  zh: string;
  en: string;
  /** the rows it concerns (in the way, or carried along) and the first of their ids */
  rows: number;
  ids: unknown[];
  /** what it does to the rows present, in English */
  effect: string;
  /** the migration step that applies it (blocking changes; drops only when asked for) */
  step?: MigrationStep;
}

/** How many ids a message names. */
export const FIRST_IDS = 10;

async function rowsWhere(
  db: Db,
  table: string,
  idColumn: string | undefined,
  where: RawBuilder<unknown>,
): Promise<{ rows: number; ids: unknown[] }> {
  const t = sql.table(table);
  const c = await sql<{ n: number | string }>`select count(*) as n from ${t} where ${where}`.execute(db);
  const rows = Number(c.rows[0]?.n ?? 0);
  if (!rows || !idColumn) return { rows, ids: [] };
  const id = sql.ref(idColumn);
  const r = await sql<{ id: unknown }>`select ${id} as id from ${t} where ${where} order by ${id} limit ${sql.lit(FIRST_IDS)}`.execute(db);
  return { rows, ids: r.rows.map((x) => x.id) };
}

const lengthOf = (dialect: Dialect, column: string) =>
  dialect === 'postgres' ? sql`char_length(${sql.ref(column)})` : sql`length(${sql.ref(column)})`;

/** Rows whose value is longer than `max` characters. */
export function tooLong(db: Db, dialect: Dialect, table: string, idColumn: string | undefined, column: string, max: number) {
  return rowsWhere(db, table, idColumn, sql`${lengthOf(dialect, column)} > ${max}`);
}

/** Rows whose value is not one of `values` (null aside). */
export function outsideEnum(db: Db, dialect: Dialect, table: string, idColumn: string | undefined, column: string, values: unknown[]) {
  const c = sql.ref(column);
  if (!values.length) return rowsWhere(db, table, idColumn, sql`${c} is not null`);
  const vals = values.map((v) => (typeof v === 'boolean' && dialect === 'sqlite' ? (v ? 1 : 0) : v));
  return rowsWhere(db, table, idColumn, sql`${c} is not null and ${c} not in (${sql.join(vals)})`);
}

export function missingValue(db: Db, table: string, idColumn: string | undefined, column: string) {
  return rowsWhere(db, table, idColumn, sql`${sql.ref(column)} is null`);
}

export function allRows(db: Db, table: string, idColumn: string | undefined) {
  return rowsWhere(db, table, idColumn, sql`1 = 1`);
}

// ---------------------------------------------------------------------------------------------
// Converting values for a type change (read in batches by id, converted here, written back)

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?/;

export type Converted = { ok: true; value: unknown } | { ok: false };

/** The value as the property `to` stores it, or not ok when it has no such form. */
export function convertValue(v: unknown, to: FieldShape): Converted {
  if (v === null || v === undefined) return { ok: true, value: null };
  const state = stateOfShape(to);
  const text = typeof v === 'string' ? v.trim() : undefined;
  let out: Converted;
  switch (state.kind) {
    case 'int': {
      if (typeof v === 'number' && Number.isSafeInteger(v)) out = { ok: true, value: v };
      else if (typeof v === 'boolean') out = { ok: true, value: v ? 1 : 0 };
      else if (text !== undefined && /^-?\d{1,15}$/.test(text)) out = { ok: true, value: Number(text) };
      else out = { ok: false };
      if (out.ok && to.money) out = { ok: true, value: Math.round((out.value as number) * 100) };
      break;
    }
    case 'real':
      if (typeof v === 'number' && Number.isFinite(v)) out = { ok: true, value: v };
      else if (typeof v === 'boolean') out = { ok: true, value: v ? 1 : 0 };
      else if (text !== undefined && /^-?\d+(\.\d+)?$/.test(text)) out = { ok: true, value: Number(text) };
      else out = { ok: false };
      break;
    case 'bool':
      if (typeof v === 'boolean') out = { ok: true, value: v };
      else if (v === 0 || v === 1) out = { ok: true, value: v === 1 };
      else if (text === 'true' || text === '1') out = { ok: true, value: true };
      else if (text === 'false' || text === '0') out = { ok: true, value: false };
      else out = { ok: false };
      break;
    case 'timestamp': {
      const m = text !== undefined ? DATE_TIME.exec(text) : null;
      if (m) out = { ok: true, value: `${m[1]} ${m[2]}${m[3] ?? ':00'}` };
      else if (text !== undefined && DATE.test(text)) out = { ok: true, value: `${text} 00:00:00` };
      else out = { ok: false };
      break;
    }
    case 'date':
      if (text !== undefined && (DATE.test(text) || DATE_TIME.test(text))) out = { ok: true, value: text.slice(0, 10) };
      else out = { ok: false };
      break;
    default: {
      const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
      out = state.maxLength !== undefined && [...s].length > state.maxLength ? { ok: false } : { ok: true, value: s };
    }
  }
  if (out.ok && out.value !== null && to.enum && !to.enum.some((e) => e === out.value)) return { ok: false };
  return out;
}

/** Walks a column's non-null values in batches of 1,000 by id (bounded memory on any table). */
export async function scanColumn(
  db: Db,
  table: string,
  idColumn: string,
  column: string,
  visit: (id: unknown, value: unknown) => void | Promise<void>,
): Promise<void> {
  let last: unknown = null;
  const t = sql.table(table);
  const id = sql.ref(idColumn);
  const c = sql.ref(column);
  for (;;) {
    const after = last === null ? sql`` : sql`and ${id} > ${last}`;
    const r = await sql<{ id: unknown; v: unknown }>`select ${id} as id, ${c} as v from ${t}
      where ${c} is not null ${after} order by ${id} limit 1000`.execute(db);
    for (const row of r.rows) await visit(row.id, row.v);
    if (r.rows.length < 1000) return;
    last = r.rows[r.rows.length - 1].id;
  }
}

/** Rows whose value does not convert to `to`. */
export async function nonConverting(
  db: Db,
  table: string,
  idColumn: string,
  column: string,
  to: FieldShape,
): Promise<{ rows: number; ids: unknown[] }> {
  let rows = 0;
  const ids: unknown[] = [];
  await scanColumn(db, table, idColumn, column, (id, v) => {
    if (convertValue(v, to).ok) return;
    rows++;
    if (ids.length < FIRST_IDS) ids.push(id);
  });
  return { rows, ids };
}

// ---------------------------------------------------------------------------------------------
// The plan

const limitText = (n: number | undefined) => (n === undefined ? '∞' : String(n));
const typeText = (f: Pick<FieldShape, 'type' | 'format' | 'money'> | ColumnState) =>
  'kind' in f ? f.kind : `${f.type}${f.format ? ` (${f.format})` : ''}${f.money ? ' (x-money)' : ''}`;

function hasDefault(f: FieldShape): boolean {
  return columnDefault(f as unknown as ColumnSource, 'postgres') !== undefined;
}

/** Where the column stands now: the catalog, with the snapshot where the catalog cannot tell. */
function currentState(dialect: Dialect, live: LiveColumn, old: FieldShape | undefined, target: ColumnState): ColumnState {
  if (dialect === 'postgres') return live.state;
  if (old) return stateOfShape(old);
  // SQLite without a snapshot: booleans are integers and dates are text in its catalog
  if (live.state.kind === 'int' && target.kind === 'bool') return target;
  if (live.state.kind === 'text' && (target.kind === 'timestamp' || target.kind === 'date')) return target;
  return live.state;
}

/** Every change of one entity, with the rows it concerns. */
export async function planEntity(db: Db, dialect: Dialect, spec: ResourceSpec, old: EntityShape | undefined): Promise<Change[]> {
  const base = { entity: spec.name, table: spec.table };
  const live = await liveColumns(db, dialect, spec.table);
  if (!live) {
    return [
      {
        ...base,
        kind: 'createTable',
        auto: true,
        blocking: false,
        zh: '新建表',
        en: 'new table',
        rows: 0,
        ids: [],
        effect: 'none: the table is created',
      },
    ];
  }
  const shape = shapeOf(spec);
  const idColumn = spec.fields.find((f) => isPrimaryKey(f))?.column;
  const changes: Change[] = [];
  const used = new Set<string>();
  for (const f of shape.fields) {
    const field = spec.fields.find((x) => x.name === f.name)!;
    const before = old?.fields.find((x) => x.name === f.name && x.column === f.column);
    const at = { ...base, property: f.name, column: f.column };
    used.add(f.column);
    const col = live.get(f.column);
    if (!col) {
      const fromName = field.renamedFrom;
      const fromColumn = fromName ? (old?.fields.find((x) => x.name === fromName)?.column ?? snakeCase(fromName)) : undefined;
      if (fromColumn && live.has(fromColumn)) {
        used.add(fromColumn);
        const carried = await rowsWhere(db, spec.table, idColumn, sql`${sql.ref(fromColumn)} is not null`);
        changes.push({
          ...at,
          kind: 'rename',
          auto: false,
          blocking: true,
          zh: `重命名 ${fromName} → ${f.name}（列 ${fromColumn} → ${f.column}）`,
          en: `renamed ${fromName} -> ${f.name} (column ${fromColumn} -> ${f.column})`,
          ...carried,
          effect: `${carried.rows} values move to the new name`,
          step: { ...base, kind: 'rename', property: f.name, from: fromColumn, to: f, fromProperty: fromName },
        });
        continue;
      }
      if (f.required && !f.auto && !hasDefault(f)) {
        const lacking = await allRows(db, spec.table, idColumn);
        changes.push({
          ...at,
          kind: 'requiredAdded',
          auto: lacking.rows === 0,
          blocking: lacking.rows > 0,
          zh: `新增必填属性 ${f.name}（无默认值）`,
          en: `new required property ${f.name} without a default`,
          ...lacking,
          effect: `${lacking.rows} rows lack it: saving them unchanged would be refused until filled`,
          step: { ...base, kind: 'requiredAdded', property: f.name, to: f, fill: null },
        });
        continue;
      }
      changes.push({
        ...at,
        kind: 'add',
        auto: true,
        blocking: false,
        zh: `新增属性 ${f.name}`,
        en: `new property ${f.name}`,
        rows: 0,
        ids: [],
        effect: hasDefault(f) ? `existing rows read the default ${JSON.stringify(f.default)}` : 'existing rows read it empty',
      });
      continue;
    }
    const target = stateOfShape(f);
    const now = currentState(dialect, col, before, target);
    const moneyOnly = f.money && (now.kind === 'real' || now.kind === 'int'); // converted in place at start (migrate.ts)
    if (now.kind !== target.kind && !moneyOnly) {
      const bad = idColumn ? await nonConverting(db, spec.table, idColumn, f.column, f) : { rows: 0, ids: [] };
      changes.push({
        ...at,
        kind: 'typeChange',
        auto: false,
        blocking: true,
        zh: `类型 ${before ? typeText(before) : now.kind} → ${typeText(f)}`,
        en: `type ${before ? typeText(before) : now.kind} -> ${typeText(f)}`,
        ...bad,
        effect: bad.rows ? `${bad.rows} rows do not convert` : 'every value converts',
        step: { ...base, kind: 'typeChange', property: f.name, from: before ?? null, to: f, nonConverting: 'refuse' },
      });
      continue;
    }
    if (target.kind === 'text') {
      const from = now.maxLength ?? Infinity;
      const to = target.maxLength ?? Infinity;
      if (to > from) {
        changes.push({
          ...at,
          kind: 'widen',
          auto: true,
          blocking: false,
          zh: `最大长度 ${limitText(now.maxLength)} → ${limitText(target.maxLength)}（加长）`,
          en: `maxLength widened ${limitText(now.maxLength)} -> ${limitText(target.maxLength)}`,
          rows: 0,
          ids: [],
          effect: 'none: every value still fits',
        });
      } else if (to < from) {
        const long = await tooLong(db, dialect, spec.table, idColumn, f.column, to);
        changes.push({
          ...at,
          kind: 'narrow',
          auto: long.rows === 0,
          blocking: long.rows > 0,
          zh: `最大长度 ${limitText(now.maxLength)} → ${to}（缩短）`,
          en: `maxLength narrowed ${limitText(now.maxLength)} -> ${to}`,
          ...long,
          effect: long.rows ? `${long.rows} rows are longer than ${to} characters` : `none: every value fits in ${to}`,
          step: { ...base, kind: 'narrow', property: f.name, from: now.maxLength ?? null, to: f, tooLong: 'refuse' },
        });
      }
    }
    if (before && f.required && !f.auto && !before.required) {
      const lacking = await missingValue(db, spec.table, idColumn, f.column);
      changes.push({
        ...at,
        kind: 'requiredAdded',
        auto: lacking.rows === 0,
        blocking: lacking.rows > 0,
        zh: `${f.name} 改为必填`,
        en: `${f.name} became required`,
        ...lacking,
        effect: lacking.rows ? `${lacking.rows} rows have no value` : 'none: every row has a value',
        step: { ...base, kind: 'requiredAdded', property: f.name, to: f, fill: f.default ?? null },
      });
    }
    if (before && f.enum) {
      const removed = before.enum ? before.enum.filter((v) => !f.enum!.includes(v)) : null;
      if (removed === null || removed.length) {
        const outside = await outsideEnum(db, dialect, spec.table, idColumn, f.column, f.enum);
        changes.push({
          ...at,
          kind: 'enumNarrowed',
          auto: outside.rows === 0,
          blocking: outside.rows > 0,
          zh: removed
            ? `取值删除 ${removed.map((v) => JSON.stringify(v)).join('、')}`
            : `取值限定为 ${f.enum.map((v) => JSON.stringify(v)).join('、')}`,
          en: removed ? `enum values removed: ${removed.map((v) => JSON.stringify(v)).join(', ')}` : `values limited to the enum`,
          ...outside,
          effect: outside.rows ? `${outside.rows} rows hold a value no longer allowed` : 'none: no row holds a removed value',
          step: { ...base, kind: 'enumNarrowed', property: f.name, to: f, replace: {} },
        });
      }
    }
  }
  for (const [name] of live) {
    // only columns a schema declared: hand-written areas keep columns of their own in some
    // tables (a dealer's password beside dbc_company's properties), which no plan may drop
    const declared = [...(old?.fields ?? []), ...(old?.removed ?? [])];
    if (used.has(name) || !declared.some((x) => x.column === name)) continue;
    const kept = await rowsWhere(db, spec.table, idColumn, sql`${sql.ref(name)} is not null`);
    const was = declared.find((x) => x.column === name)?.name ?? name;
    changes.push({
      ...base,
      property: was,
      column: name,
      kind: 'removedProperty',
      auto: false,
      blocking: false,
      zh: `属性 ${was} 已从 schema 删除（列 ${name} 保留）`,
      en: `property ${was} removed from the schema (column ${name} kept)`,
      ...kept,
      effect: `${kept.rows} values kept in column ${name} until a plan with --drop drops it`,
      step: { ...base, kind: 'dropColumn', column: name },
    });
  }
  // x-unique: a rule without its index, and an index without its rule (unique-plan.ts)
  changes.push(...(await planUnique(db, dialect, spec, live, idColumn)));
  return changes;
}

/** Entities applied before whose schema is gone: their tables are kept until a plan drops them. */
export async function removedEntities(
  db: Db,
  dialect: Dialect,
  specs: ResourceSpec[],
  snapshots: Map<string, EntityShape>,
): Promise<Change[]> {
  const out: Change[] = [];
  const tables = new Set(specs.map((s) => s.table));
  for (const [name, shape] of snapshots) {
    if (specs.some((s) => s.name === name || s.renamedFrom === name) || tables.has(shape.table)) continue;
    if (!(await liveColumns(db, dialect, shape.table))) continue;
    const idColumn = shape.fields.find((f) => f.auto === 'id')?.column;
    const kept = await allRows(db, shape.table, idColumn);
    out.push({
      entity: name,
      table: shape.table,
      kind: 'removedEntity',
      auto: false,
      blocking: false,
      zh: `实体 ${name} 的 schema 已删除（表 ${shape.table} 保留）`,
      en: `entity ${name} removed (table ${shape.table} kept)`,
      ...kept,
      effect: `${kept.rows} rows kept until a plan with --drop drops the table`,
      step: { entity: name, table: shape.table, kind: 'dropTable' },
    });
  }
  return out;
}

/**
 * An entity whose schema says `x-entity.renamedFrom` while the database still knows it by that
 * name: one change moving its table (when the name of the table changed too), its history and
 * recycle bin, its pinyin keys, its menus and its permission keys with the roles holding them.
 * Null when there is nothing to move (already applied, or a database that never had it).
 */
export async function planEntityRename(
  db: Db,
  dialect: Dialect,
  spec: ResourceSpec,
  snapshots: Map<string, EntityShape>,
): Promise<Change | null> {
  const from = spec.renamedFrom;
  const old = from ? snapshots.get(from) : undefined;
  if (!from || !old || snapshots.has(spec.name)) return null;
  const live = await liveColumns(db, dialect, old.table);
  if (!live) return null;
  const fromPermission = old.permission ?? (await oldPermission(db, dialect, from)) ?? from;
  const idColumn = old.fields.find((f) => f.auto === 'id')?.column;
  const rows = await allRows(db, old.table, idColumn);
  const table = old.table === spec.table ? '' : `，表 ${old.table} → ${spec.table}`;
  const tableEn = old.table === spec.table ? '' : `, table ${old.table} -> ${spec.table}`;
  const keys = fromPermission === spec.permission ? '' : `，权限 ${fromPermission}:* → ${spec.permission}:*`;
  const keysEn = fromPermission === spec.permission ? '' : `, permission keys ${fromPermission}:* -> ${spec.permission}:*`;
  return {
    entity: spec.name,
    table: spec.table,
    kind: 'renameEntity',
    auto: false,
    blocking: true,
    zh: `实体重命名 ${from} → ${spec.name}${table}${keys}`,
    en: `entity renamed ${from} -> ${spec.name}${tableEn}${keysEn}`,
    ...rows,
    effect: `${rows.rows} rows, their history and recycle bin, the menus and the roles' grants move to the new name`,
    step: {
      entity: spec.name,
      table: spec.table,
      kind: 'renameEntity',
      from,
      fromTable: old.table,
      fromPermission,
      permission: spec.permission,
    },
  };
}

/** The permission module of a menu opening `#/<name>` (shapes kept before they recorded it). */
async function oldPermission(db: Db, dialect: Dialect, name: string): Promise<string | undefined> {
  if (!(await liveColumns(db, dialect, 'sys_menu'))) return undefined;
  const r = await sql<{ permission: string | null }>`select permission from sys_menu where type = 1 and path = ${name}`.execute(db);
  const key = r.rows.map((x) => x.permission).find((p) => p?.endsWith(':list'));
  return key?.slice(0, -':list'.length);
}

export async function planAll(db: Db, dialect: Dialect, specs: ResourceSpec[], snapshots: Map<string, EntityShape>): Promise<Change[]> {
  const out: Change[] = [];
  for (const spec of specs) {
    // a rename not yet applied: the entity's other changes are planned once it has its new name
    const renamed = await planEntityRename(db, dialect, spec, snapshots);
    if (renamed) out.push(renamed);
    else out.push(...(await planEntity(db, dialect, spec, snapshots.get(spec.name))));
  }
  out.push(...(await removedEntities(db, dialect, specs, snapshots)));
  return out;
}

const idsText = (ids: unknown[], rows: number) =>
  ids.length ? ` id ${ids.map(String).join(', ')}${rows > ids.length ? ` …（共 ${rows} 行 / ${rows} rows）` : ''}` : '';

/** One line of a change for the refusal and the plan: schema, property, change, rows in the way. */
export function changeLine(c: Change): string {
  const where = `schemas/${c.entity}.json${c.property ? ` ${c.property}` : ''}`;
  const rows = c.rows ? `：${c.rows} 行受影响 / ${c.rows} rows in the way:${idsText(c.ids, c.rows)}` : '';
  return `${where}: ${c.zh} / ${c.en}${rows}`;
}

/** Thrown by a start that meets a change it may not apply by itself, or a migration that cannot apply. */
export class SchemaChangeRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaChangeRefused';
  }
}

export function refusal(changes: Change[]): SchemaChangeRefused {
  return new SchemaChangeRefused(
    [
      '表结构变更可能丢失、遗留或拒绝已有数据，需要已提交的迁移才能应用，服务未启动 / ' +
        'A schema change could lose, strand or reject rows and needs a committed migration; the server did not start:',
      ...changes.map((c) => `  ${changeLine(c)}`),
      '请运行 npm run schema:plan，审阅并提交它在 migrations/ 中写出的迁移文件，再启动 / ' +
        'Run npm run schema:plan, review and commit the migration it writes in migrations/, then start again.',
    ].join('\n'),
  );
}
