/**
 * List parameters: `page` (0-based), `size`, repeatable `sort=field,dir`, the spec's filters
 * and the free-text `blurry`. Everything is checked against the spec before any SQL is built:
 * an unknown key, field or direction is a 400 in Chinese, and values only ever travel as bound
 * parameters (never spliced into SQL).
 *
 * Filter kinds (FieldSpec.filter):
 *   eq       `field=value`, typed (booleans 'true'/'false', integers, numbers, text)
 *   like     `field=text`: contains, with % and _ taken literally; on a field marked `x-pinyin`
 *            a query of Latin letters matches by pinyin instead (its keys hold its Latin text)
 *   between  `field=start&field=end`; for a date-time field a date-only end means the whole day;
 *            an empty start or end leaves that side open
 *   in       `field=a&field=b...`
 *   blurry   free text over spec.search: text fields contain it, integer fields equal it when it
 *            is an integer; a field whose schema closes its values (enum) is matched in memory
 *            against its values and option labels and becomes `column IN (...)` (an index
 *            lookup; no term at all when nothing matches), so only free-text fields use LIKE
 *
 * Field access (field-access.ts) is part of the parse: a caller who sees a field only masked
 * may not filter or sort by it (403 naming the field), and `blurry` leaves it out, so no
 * count, order, export or total tells anything about its stored values.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { badRequest } from '../../errors.ts';
import type { Dialect, Tables } from '../../types.ts';
import { isDateText, isDateTimeText, normalizeDateTime, toColumnValue } from '../values.ts';
import { assertQueryable, type FieldAccess } from '../access/field-access.ts';
import { pgLiteral } from './pg-literals.ts';
import { pinyinCondition, pinyinProbeCondition, pinyinSetCondition } from '../pinyin/pinyin-search.ts';

/** the spec's full-list calls ask for page 0, size 99999 */
export const MAX_PAGE_SIZE = 99999;
const MAX_PAGE = 100_000_000;
const MAX_IN_VALUES = 1000;
const MAX_TEXT = 500;

export type Condition =
  | { kind: 'eq'; field: FieldSpec; value: unknown }
  | { kind: 'like'; spec: ResourceSpec; field: FieldSpec; text: string }
  | { kind: 'between'; field: FieldSpec; from: unknown; to: unknown }
  | { kind: 'in'; field: FieldSpec; values: unknown[] }
  | {
      kind: 'blurry';
      spec: ResourceSpec;
      fields: SearchField[];
      text: string;
      /** a page over a common pinyin prefix: probe each row's keys (pinyin-search.ts pinyinPagePlan) */
      walk?: boolean;
    };

/** A blurry search field; `choices` lists its possible values when the schema closes them (enum). */
export interface SearchField {
  field: FieldSpec;
  choices: Choice[] | null;
}

export interface Choice {
  value: string | number | boolean;
  label: string;
}

export interface SortKey {
  field: FieldSpec;
  desc: boolean;
}

export interface ListParams {
  page: number;
  size: number;
  sort: SortKey[];
  conditions: Condition[];
  /** canonical text of the conditions, for caching counts */
  filterKey: string;
}

type Query = Record<string, unknown>;

function values(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  return (Array.isArray(raw) ? raw : [raw]).map((v) => String(v));
}

function single(key: string, raw: unknown, title = key): string | undefined {
  const list = values(raw);
  if (list.length > 1) throw badRequest(`查询参数「${title}」只能有一个值`);
  return list[0];
}

function checkText(text: string): string {
  if (text.length > MAX_TEXT) throw badRequest('查询内容过长');
  if (text.includes('\u0000')) throw badRequest('查询内容包含非法字符');
  return text;
}

/** A query value converted to the field's JSON type; throws a 400 when it does not fit. */
function typed(field: FieldSpec, text: string): unknown {
  const bad = () => badRequest(`查询条件「${field.title}」的值不正确: ${text.slice(0, 50)}`);
  switch (field.type) {
    case 'boolean':
      if (text === 'true') return true;
      if (text === 'false') return false;
      throw bad();
    case 'integer':
      if (!/^-?\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) throw bad();
      return Number(text);
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw bad();
      return n;
    }
    case 'string':
      if (field.format === 'date-time' && !isDateTimeText(text)) throw bad();
      if (field.format === 'date' && !isDateText(text)) throw bad();
      return checkText(field.format === 'date-time' ? normalizeDateTime(text) : text);
  }
}

function rangeBound(field: FieldSpec, text: string, end: boolean): unknown {
  if (text === '') return undefined;
  if (field.type === 'string' && field.format === 'date-time' && isDateText(text)) {
    // a date-only bound: from the start of that day, or up to its last second
    return `${text} ${end ? '23:59:59' : '00:00:00'}`;
  }
  return typed(field, text);
}

function parseSort(spec: ResourceSpec, raw: unknown, access: FieldAccess): SortKey[] {
  let list = values(raw).filter((s) => s !== '');
  // the schema's own order never sorts by a field the caller sees masked
  if (list.length === 0) list = spec.sort.filter((s) => !access.masked.has(s.split(',')[0].trim()));
  if (list.length > 10) throw badRequest('排序字段过多');
  const keys: SortKey[] = [];
  for (const item of list) {
    const [name, dir = 'asc', ...rest] = item.split(',').map((s) => s.trim());
    const field = spec.fields.find((f) => f.name === name);
    if (!field) throw badRequest(`不支持的排序字段: ${name.slice(0, 50)}`);
    assertQueryable(access, field);
    const d = dir.toLowerCase();
    if (rest.length || (d !== 'asc' && d !== 'desc')) throw badRequest(`排序方向只能是asc或desc: ${dir.slice(0, 20)}`);
    if (!keys.some((k) => k.field === field)) keys.push({ field, desc: d === 'desc' });
  }
  // the id breaks ties so pages never overlap or skip rows
  const id = spec.fields.find((f) => f.auto === 'id');
  if (id && !keys.some((k) => k.field === id)) keys.push({ field: id, desc: keys[0]?.desc ?? true });
  return keys;
}

/** The filter a field takes: its own, or for the id a repeatable `id=1&id=2` (read by id). */
function filterOf(field: FieldSpec): FieldSpec['filter'] {
  return field.filter ?? (field.auto === 'id' ? 'in' : undefined);
}

export interface ParseOptions {
  /** page and size are read (list) or accepted and ignored (download) */
  paging: boolean;
}

/**
 * The list parameters of a query, for a caller with this field access (FULL_ACCESS only where
 * the caller reads every field in full: field-access.ts).
 */
export function parseListQuery(spec: ResourceSpec, query: Query, access: FieldAccess, opts: ParseOptions = { paging: true }): ListParams {
  const conditions: Condition[] = [];
  let page = 0;
  let size = spec.pageSize;
  for (const key of Object.keys(query)) {
    if (key === 'page' || key === 'size' || key === 'sort' || key === 'blurry') continue;
    const field = spec.fields.find((f) => f.name === key && filterOf(f));
    if (!field) throw badRequest(`不支持的查询参数: ${key.slice(0, 50)}`);
  }
  const pageText = single('page', query.page, '页码');
  if (pageText !== undefined && pageText !== '') {
    if (!/^\d{1,9}$/.test(pageText) || Number(pageText) > MAX_PAGE) throw badRequest('页码必须是不小于0的整数');
    page = Number(pageText);
  }
  const sizeText = single('size', query.size, '每页条数');
  if (sizeText !== undefined && sizeText !== '') {
    const n = Number(sizeText);
    if (!/^\d{1,5}$/.test(sizeText) || n < 1 || n > MAX_PAGE_SIZE) {
      throw badRequest(`每页条数必须是1到${MAX_PAGE_SIZE}之间的整数`);
    }
    size = n;
  }
  if (!opts.paging) {
    page = 0;
    size = spec.pageSize;
  }
  const sort = parseSort(spec, query.sort, access);

  for (const field of spec.fields) {
    const filter = filterOf(field);
    if (!filter || !(field.name in query)) continue;
    const list = values(query[field.name]).map((v) => v.trim());
    if (list.every((v) => v === '')) continue;
    assertQueryable(access, field);
    switch (filter) {
      case 'eq': {
        if (list.length > 1) throw badRequest(`查询参数「${field.title}」只能有一个值`);
        conditions.push({ kind: 'eq', field, value: typed(field, list[0]) });
        break;
      }
      case 'like': {
        if (list.length > 1) throw badRequest(`查询参数「${field.title}」只能有一个值`);
        conditions.push({ kind: 'like', spec, field, text: checkText(list[0]) });
        break;
      }
      case 'between': {
        if (list.length !== 2) throw badRequest(`查询条件「${field.title}」需要开始和结束两个值`);
        const from = rangeBound(field, list[0], false);
        const to = rangeBound(field, list[1], true);
        if (from === undefined && to === undefined) break;
        conditions.push({ kind: 'between', field, from, to });
        break;
      }
      case 'in': {
        const items = list.filter((v) => v !== '');
        if (items.length > MAX_IN_VALUES) throw badRequest(`查询条件「${field.title}」的值过多`);
        conditions.push({
          kind: 'in',
          field,
          values: [...new Set(items.map((v) => typed(field, v)))],
        });
        break;
      }
    }
  }
  const blurry = single('blurry', query.blurry, '关键字')?.trim();
  if (blurry) {
    const fields = spec.search
      .map((n) => spec.fields.find((f) => f.name === n))
      .filter((f): f is FieldSpec => !!f && !access.masked.has(f.name))
      .map((field) => ({ field, choices: closedChoices(spec, field) }));
    conditions.push({ kind: 'blurry', spec, fields, text: checkText(blurry) });
  }
  return { page, size, sort, conditions, filterKey: filterKey(conditions) };
}

function filterKey(conditions: Condition[]): string {
  return JSON.stringify(
    conditions.map((c) => {
      switch (c.kind) {
        case 'eq':
          return ['eq', c.field.name, c.value];
        case 'like':
          return ['like', c.field.name, c.text];
        case 'between':
          return ['between', c.field.name, c.from ?? null, c.to ?? null];
        case 'in':
          return ['in', c.field.name, [...c.values].map(String).sort()];
        case 'blurry':
          // the fields searched depend on the caller's masks: callers who see a name masked
          // must not share the page SQL or the count of callers who search it
          return ['blurry', c.text, c.fields.map((s) => s.field.name)];
      }
    }),
  );
}

export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

type EB = ExpressionBuilder<Tables, string>;

function containsExpr(field: FieldSpec, text: string, dialect: Dialect): Expression<SqlBool> {
  const col = sql.ref(field.column);
  const target = field.type === 'string' ? col : dialect === 'postgres' ? sql`cast(${col} as text)` : col;
  // SQLite's LIKE ignores ASCII case; ILIKE gives PostgreSQL the same behaviour
  return dialect === 'postgres'
    ? sql<SqlBool>`${target} ilike ${likePattern(text)} escape '\\'`
    : sql<SqlBool>`${target} like ${likePattern(text)} escape '\\'`;
}

/** A filter's value: a literal of the SQL text when PostgreSQL's plan cache gains by it (pg-literals.ts), else a parameter. */
function filterValue(field: FieldSpec, value: unknown, dialect: Dialect): unknown {
  const stored = toColumnValue(field, value, dialect);
  return pgLiteral(field, stored, dialect) ?? stored;
}

function conditionExpr(eb: EB, c: Condition, dialect: Dialect): Expression<SqlBool> {
  switch (c.kind) {
    case 'eq':
      return eb(sql.ref(c.field.column), '=', filterValue(c.field, c.value, dialect));
    case 'like':
      // a field marked x-pinyin also finds its text by pinyin (姓名 filter zs -> 张三)
      return pinyinCondition(c.spec, c.field, c.text) ?? containsExpr(c.field, c.text, dialect);
    case 'between': {
      const parts: Expression<SqlBool>[] = [];
      if (c.from !== undefined) parts.push(eb(sql.ref(c.field.column), '>=', toColumnValue(c.field, c.from, dialect)));
      if (c.to !== undefined) parts.push(eb(sql.ref(c.field.column), '<=', toColumnValue(c.field, c.to, dialect)));
      return eb.and(parts);
    }
    case 'in':
      if (c.values.length === 0) return sql<SqlBool>`1 = 0`;
      return eb(
        sql.ref(c.field.column),
        'in',
        c.values.map((v) => filterValue(c.field, v, dialect)),
      );
    case 'blurry': {
      const parts: Expression<SqlBool>[] = [];
      const isInt = /^-?\d{1,16}$/.test(c.text) && Number.isSafeInteger(Number(c.text));
      // the marked fields, for a pinyin query: one set of ids over their key ranges
      const marked = c.fields.filter((s) => !s.choices && s.field.type === 'string' && s.field.pinyin).map((s) => s.field);
      const byPinyin = (c.walk ? pinyinProbeCondition : pinyinSetCondition)(c.spec, marked, c.text);
      if (byPinyin) parts.push(byPinyin);
      for (const { field: f, choices } of c.fields) {
        if (byPinyin && marked.includes(f)) continue;
        if (choices) {
          // a closed set of values: the ones the text finds become an indexed IN list
          const hits = matchingChoices(choices, c.text, isInt).map((v) => toColumnValue(f, v, dialect));
          if (hits.length) parts.push(eb(sql.ref(f.column), 'in', hits));
        } else if (f.type === 'string') parts.push(containsExpr(f, c.text, dialect));
        else if ((f.type === 'integer' || f.type === 'number') && isInt)
          parts.push(eb(sql.ref(f.column), '=', toColumnValue(f, Number(c.text), dialect)));
      }
      return parts.length ? eb.or(parts) : sql<SqlBool>`1 = 0`;
    }
  }
}

const choiceCache = new WeakMap<FieldSpec, Choice[] | null>();

/**
 * The values a field can hold when its schema restricts them to a list (`enum`, labelled by
 * x-options when present), or null when any value is allowed. Booleans are not searched.
 */
function closedChoices(spec: ResourceSpec, field: FieldSpec): Choice[] | null {
  const known = choiceCache.get(field);
  if (known !== undefined) return known;
  let out: Choice[] | null = null;
  const property = (spec.schema.properties as Record<string, { enum?: unknown }> | undefined)?.[field.name];
  const values = property?.enum;
  if (field.type !== 'boolean' && Array.isArray(values)) {
    out = values
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      .map((value) => ({
        value,
        label: field.options?.find((o) => o.value === value)?.label ?? String(value),
      }));
  }
  choiceCache.set(field, out);
  return out;
}

/**
 * The values the blurry text finds, with the meaning the free-text search has for a column
 * (text contains it, ignoring ASCII case as SQL LIKE does; numbers equal it), extended to the
 * option labels.
 */
function matchingChoices(choices: Choice[], text: string, isInt: boolean): Array<string | number | boolean> {
  const needle = asciiLower(text);
  const hits: Array<string | number | boolean> = [];
  for (const o of choices) {
    const byValue = typeof o.value === 'string' ? asciiLower(o.value).includes(needle) : isInt && o.value === Number(text);
    if (byValue || asciiLower(o.label).includes(needle)) hits.push(o.value);
  }
  return hits;
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** The WHERE expression of a list's conditions (true when there are none). */
export function whereExpr(eb: EB, conditions: Condition[], dialect: Dialect): Expression<SqlBool> {
  return eb.and(conditions.map((c) => conditionExpr(eb, c, dialect)));
}
