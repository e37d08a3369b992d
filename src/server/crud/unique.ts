/**
 * Unique rules (`x-unique`) in the engine: create, edit, import and restore look for a stored
 * record holding the same value before they write, and answer 409 naming the property:
 * 菜单ID“3”已存在 (a rule over several: 品牌“宝马”与车型“X5”的组合已存在). A value the caller
 * sees only masked (`x-mask` without `<permission>:sensitive`) is not repeated: 手机号已存在.
 * Empty values never collide, as in the database's unique index (db/unique-plan.ts).
 *
 * The index is the guard: a write that races another past this check is refused by the
 * database, and uniqueConflict turns that refusal into the same 409 (never a 500); a write by
 * a module of its own gets 菜单ID已存在 from the error handler (db/data-mismatch.ts).
 */
import { sql } from 'kysely';
import { optionLabel, uniqueRules, type FieldSpec, type ResourceSpec } from '../../shared/resource-spec.ts';
import { conflict, type ApiError } from '../errors.ts';
import { uniqueTitlesTaken, violatedUnique } from '../db/data-mismatch.ts';
import type { Database } from '../types.ts';
import { idField, toColumnValue } from './values.ts';

type Rec = Record<string, unknown>;
/** A unique rule as the fields it covers. */
export type UniqueRule = FieldSpec[];

const rulesBySpec = new WeakMap<ResourceSpec, UniqueRule[]>();

/** The unique rules of a resource (none for most). */
export function rulesOf(spec: ResourceSpec): UniqueRule[] {
  let rules = rulesBySpec.get(spec);
  if (!rules) {
    rules = uniqueRules(spec).map((names) => names.map((n) => spec.fields.find((f) => f.name === n)!));
    rulesBySpec.set(spec, rules);
  }
  return rules;
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';

/** The rule's values as a record holds them, or undefined when one is empty (no collision). */
function valuesOf(rule: UniqueRule, record: Rec): unknown[] | undefined {
  const values = rule.map((f) => record[f.name]);
  return values.some(isEmpty) ? undefined : values;
}

/** A property of a message: its title and its value (its option's label), or its title alone when masked to the caller. */
function part(f: FieldSpec, record: Rec, hidden: ReadonlySet<string>): string {
  if (hidden.has(f.name)) return f.title;
  const v = record[f.name];
  return `${f.title}“${optionLabel(f, v) ?? String(v)}”`;
}

/** 菜单ID“3”已存在; 品牌“宝马”与车型“X5”的组合已存在; 手机号已存在 (masked). */
export function takenMessage(rule: UniqueRule, record: Rec, hidden: ReadonlySet<string>): string {
  const parts = rule.map((f) => part(f, record, hidden));
  if (parts.length === 1) return `${parts[0]}已存在`;
  return `${parts.slice(0, -1).join('、')}与${parts[parts.length - 1]}的组合已存在`;
}

/** 菜单ID“3”与第2行重复 (two rows of one import file). */
export function repeatedMessage(rule: UniqueRule, record: Rec, hidden: ReadonlySet<string>, earlier: string): string {
  const parts = rule.map((f) => part(f, record, hidden));
  const what = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join('、')}与${parts[parts.length - 1]}的组合`;
  return `${what}与${earlier}重复`;
}

export interface UniqueCheck {
  /** the record's own id (an edit): its stored row is not a duplicate of itself */
  exceptId?: number;
  /** the properties the caller sees only masked (their values are not repeated) */
  hidden: ReadonlySet<string>;
  /** put before the message (无法恢复（ID 5）：) */
  prefix?: string;
  /** the properties an edit writes: a rule none of them is in is left unchecked */
  changed?: ReadonlySet<string>;
}

/** 409 when a stored record other than `exceptId` holds the values of one of the rules in `record`. */
export async function assertUnique(database: Database, spec: ResourceSpec, record: Rec, check: UniqueCheck): Promise<void> {
  const rules = rulesOf(spec);
  if (!rules.length) return;
  const id = idField(spec).column;
  for (const rule of rules) {
    const values = valuesOf(rule, record);
    if (!values || (check.changed && !rule.some((f) => check.changed!.has(f.name)))) continue;
    let q = database.db.selectFrom(spec.table).select(id);
    rule.forEach((f, i) => {
      q = q.where(f.column, '=', toColumnValue(f, values[i], database.dialect));
    });
    if (check.exceptId !== undefined) q = q.where(id, '<>', check.exceptId);
    if (await q.limit(1).executeTakeFirst()) throw conflict(`${check.prefix ?? ''}${takenMessage(rule, record, check.hidden)}`);
  }
}

/** A record of a batch that breaks a rule: against a stored record, or against an earlier record of the batch. */
export interface UniqueClash {
  /** the record's position in the batch */
  index: number;
  rule: UniqueRule;
  /** the earlier record of the batch holding the same values, when it is not a stored one */
  earlier?: number;
}

/** The same key for a value as JSON gives it and as the database answers it. */
const keyOf = (values: unknown[]) => JSON.stringify(values.map((v) => (typeof v === 'number' ? v : String(v))));

/**
 * The records of a batch (an import, a restore from the recycle bin) that break a rule, in batch
 * order, at most `limit`: a value stored already, or one an earlier record of the batch holds.
 */
export async function uniqueClashes(database: Database, spec: ResourceSpec, records: Rec[], limit = 100): Promise<UniqueClash[]> {
  const out: UniqueClash[] = [];
  for (const rule of rulesOf(spec)) {
    const first = new Map<string, number>();
    const columnValues: Array<{ index: number; values: unknown[]; key: string }> = [];
    records.forEach((record, index) => {
      const values = valuesOf(rule, record);
      if (!values) return;
      const stored = rule.map((f, i) => toColumnValue(f, values[i], database.dialect));
      const key = keyOf(stored);
      const earlier = first.get(key);
      if (earlier !== undefined) out.push({ index, rule, earlier });
      else {
        first.set(key, index);
        columnValues.push({ index, values: stored, key });
      }
    });
    const taken = new Set<string>();
    const chunk = rule.length === 1 ? 500 : 100;
    for (let i = 0; i < columnValues.length; i += chunk) {
      const part = columnValues.slice(i, i + chunk);
      const columns = rule.map((f) => f.column);
      let q = database.db.selectFrom(spec.table).select(columns);
      q =
        rule.length === 1
          ? q.where(
              columns[0],
              'in',
              part.map((p) => p.values[0]),
            )
          : q.where(
              sql<boolean>`(${sql.join(
                part.map(
                  (p) =>
                    sql`(${sql.join(
                      columns.map((c, j) => sql`${sql.ref(c)} = ${p.values[j]}`),
                      sql` and `,
                    )})`,
                ),
                sql` or `,
              )})`,
            );
      const rows: Rec[] = await q.execute();
      for (const row of rows) taken.add(keyOf(columns.map((c) => row[c])));
    }
    for (const p of columnValues) if (taken.has(p.key)) out.push({ index: p.index, rule });
  }
  return out.sort((a, b) => a.index - b.index).slice(0, limit);
}

/**
 * The 409 of a write the database refused for one of the resource's unique rules (a write that
 * raced another past the check), naming the value of `record` as the check would; undefined for
 * any other error.
 */
export function uniqueConflict(spec: ResourceSpec, err: unknown, record: Rec, check: UniqueCheck): ApiError | undefined {
  const known = violatedUnique(err);
  if (!known || known.table !== spec.table) return undefined;
  const rule = rulesOf(spec).find((r) => r.map((f) => f.column).join(',') === known.columns.join(','));
  const prefix = check.prefix ?? '';
  if (!rule || !valuesOf(rule, record)) return conflict(`${prefix}${uniqueTitlesTaken(known.titles)}`);
  return conflict(`${prefix}${takenMessage(rule, record, check.hidden)}`);
}
