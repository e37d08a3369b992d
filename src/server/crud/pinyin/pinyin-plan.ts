/**
 * The page plan of a generated list whose `blurry` is a pinyin query (see pinyin-search.ts for
 * the side tables and their conditions; this module joins them to the list's parameters).
 */
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { pinyinQuery } from '../../../shared/pinyin.ts';
import type { Database } from '../../types.ts';
import { commonPrefix, PROBE_FROM_KEYS } from './pinyin-search.ts';
import type { ListParams } from '../query/query.ts';
import { idField } from '../values.ts';

/**
 * The page plan of a list whose blurry is a pinyin query: a page ordered by id alone over a
 * common prefix (at least PROBE_FROM_KEYS keys in its ranges, counted with a bounded index read
 * and remembered for a minute) walks the table by id and probes each row's keys; any other page
 * reads the ranges (pinyinSetCondition). The total is always counted with the set form.
 */
export async function pinyinPagePlan(
  database: Database,
  spec: ResourceSpec,
  params: ListParams,
  probeFrom = PROBE_FROM_KEYS,
): Promise<ListParams> {
  if (params.sort.length !== 1 || params.sort[0].field !== idField(spec)) return params;
  const at = params.conditions.findIndex((c) => c.kind === 'blurry');
  const blurry = params.conditions[at];
  if (!blurry || blurry.kind !== 'blurry') return params;
  const key = pinyinQuery(blurry.text);
  if (!key) return params;
  const fields = blurry.fields.filter((s) => !s.choices && s.field.pinyin && s.field.type === 'string').map((s) => s.field);
  if (!fields.length || !(await commonPrefix(database, spec, fields, key, probeFrom))) return params;
  const conditions = params.conditions.slice();
  conditions[at] = { ...blurry, walk: true };
  return { ...params, conditions, filterKey: `${params.filterKey}|walk` };
}

/**
 * Whether the list searches marked fields with a pinyin query: its total is then kept by the
 * count cache whatever it cost (count.ts, rule 6), as the keys change only by this server's writes.
 */
export function pinyinBlurry(params: ListParams): boolean {
  return params.conditions.some(
    (c) =>
      c.kind === 'blurry' &&
      pinyinQuery(c.text) !== null &&
      c.fields.some((s) => !s.choices && s.field.pinyin && s.field.type === 'string'),
  );
}
