/**
 * A write the database refuses because a value does not fit its column or rule (a text longer
 * than its varchar, a number out of range, a duplicate of a unique key, a missing value): the
 * schema and the database disagree, or the value does. The start keeps them in step
 * (migrate.ts), so this is the last guard: the answer is a 4xx saying nothing was stored, never
 * a 500. SQLSTATE class 22 is "data exception", 23 "integrity constraint violation".
 *
 * A duplicate of an `x-unique` rule (a write that raced the engine's own check, or a module
 * writing past it) names the rule's properties: 菜单ID已存在. The start registers the unique
 * indexes of every schema here (knowUniqueIndexes); the value is not repeated, as the caller may
 * see the property only masked (the engine's own check, crud/unique.ts, names it when it may).
 */
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import { uniqueIndexes } from '../../shared/column-types.ts';

export const DATA_MISMATCH = '保存失败：数据不符合数据库的字段定义，未保存任何内容，请联系系统管理员';
export const DUPLICATE_VALUE = '保存失败：与已有记录重复，未保存任何内容';

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A unique rule of a schema as the database reports its violation. */
export interface KnownUnique {
  /** the entity */
  entity: string;
  table: string;
  columns: string[];
  /** the rule's properties, in its order */
  properties: string[];
  /** the properties' titles */
  titles: string[];
}

const byIndex = new Map<string, KnownUnique>();
const byColumns = new Map<string, KnownUnique>();

/** Registers the unique indexes of `spec` (called by the start for every schema). */
export function knowUniqueIndexes(spec: ResourceSpec): void {
  for (const u of uniqueIndexes(spec)) {
    const known: KnownUnique = {
      entity: spec.name,
      table: spec.table,
      columns: u.columns,
      properties: u.properties,
      titles: u.properties.map((n) => spec.fields.find((f) => f.name === n)?.title ?? n),
    };
    byIndex.set(u.name, known);
    byColumns.set(`${spec.table}:${u.columns.join(',')}`, known);
  }
}

/**
 * The `x-unique` rule a database error violates, or undefined: PostgreSQL names the index
 * (`constraint`), SQLite the table's columns (UNIQUE constraint failed: t.a, t.b).
 */
export function violatedUnique(error: unknown): KnownUnique | undefined {
  if (!isUniqueViolation(error)) return undefined;
  const e = error as { constraint?: unknown; message?: unknown };
  if (typeof e.constraint === 'string') return byIndex.get(e.constraint);
  const m = typeof e.message === 'string' ? /UNIQUE constraint failed: (.+)$/.exec(e.message) : null;
  if (!m) return undefined;
  const parts = m[1].split(',').map((p) => p.trim());
  const table = parts[0].split('.')[0];
  return byColumns.get(`${table}:${parts.map((p) => p.slice(table.length + 1)).join(',')}`);
}

/** 已存在 after the rule's titles: 菜单ID已存在, 品牌与车型的组合已存在. */
export function uniqueTitlesTaken(titles: string[]): string {
  if (titles.length === 1) return `${titles[0]}已存在`;
  return `${titles.slice(0, -1).join('、')}与${titles[titles.length - 1]}的组合已存在`;
}

/** The answer to a refused write; `rule`: a known unique rule (a race the engine lost, not a fault). */
export function dataMismatch(error: unknown): { status: number; message: string; rule?: true } | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const rule = violatedUnique(error);
  if (rule) return { status: 409, message: uniqueTitlesTaken(rule.titles), rule: true };
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
    return { status: 409, message: DUPLICATE_VALUE };
  if (/^2[23][0-9A-Z]{3}$/.test(code) || code === 'SQLITE_CONSTRAINT_NOTNULL' || code === 'SQLITE_TOOBIG' || code === 'SQLITE_MISMATCH') {
    return { status: 400, message: DATA_MISMATCH };
  }
  return null;
}
