/**
 * Filter values written into the SQL text on PostgreSQL, so a list page's statement has no
 * parameters and its plan is made once per connection.
 *
 * A named statement (db/pg-prepared.ts) with parameters is planned on every run while PostgreSQL
 * judges its custom plans cheaper than the generic one (`plan_cache_mode = auto`). The list page
 * `... where model = $1 and status = $2 and id <= $3 ... limit 15 offset 500` is such a statement:
 * with the skewed statistics of `model` and `status` the generic plan never looks as cheap, so
 * each run spent about 0.2 ms planning for 0.19 ms of execution (EXPLAIN ANALYZE EXECUTE at
 * 1,000,000 rows). A statement without parameters is never planned again (PostgreSQL keeps its one
 * plan, made with the actual values: the plan a custom plan would be, until the table's statistics
 * change, which invalidates it): planning 0.003 ms, execution unchanged.
 *
 * Forcing generic plans for every statement was measured and dropped (a narrow createTime window
 * ran 70 times slower: its generic plan cannot see how narrow the window is). So only values that
 * keep the number of distinct texts small and need no escaping become literals:
 * - a boolean (two values);
 * - a value among the field's fixed options (`x-options` of its schema: a handful of short
 *   texts or integers), without quotes, backslashes or control characters.
 * Every other value (free text, dates, ids, a value outside the options) stays a parameter, so
 * ranges and other selective filters keep their custom plans. A literal changes the plan cache
 * only, never the rows: the same comparison runs with the same value.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FieldSpec } from '../../../shared/resource-spec.ts';
import type { Dialect } from '../../types.ts';

/** texts safe inside '...' whatever `standard_conforming_strings` says (no quote, backslash or control character), and short */
function safeText(text: string): boolean {
  if (text.length > 100) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x27 || c === 0x5c) return false;
  }
  return true;
}

const optionValues = new WeakMap<FieldSpec, Set<unknown>>();

function isOption(field: FieldSpec, value: unknown): boolean {
  let values = optionValues.get(field);
  if (!values) {
    values = new Set((field.options ?? []).map((o) => o.value));
    optionValues.set(field, values);
  }
  return values.has(value);
}

/**
 * `value` (already the column's value, see values.ts toColumnValue) as a literal of the SQL
 * text on PostgreSQL when it is one of a small fixed set, else undefined (bind it as a parameter).
 */
export function pgLiteral(field: FieldSpec, value: unknown, dialect: Dialect): RawBuilder<unknown> | undefined {
  if (dialect !== 'postgres') return undefined;
  if (typeof value === 'boolean') return field.type === 'boolean' ? sql.lit(value) : undefined;
  if (!isOption(field, value)) return undefined;
  if (typeof value === 'string') return safeText(value) ? sql.lit(value) : undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return sql.lit(value);
  return undefined;
}
