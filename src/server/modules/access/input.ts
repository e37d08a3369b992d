/**
 * Reading request bodies and query strings of the hand-written administration routes: every
 * wrong shape is a 400 with a Chinese message, values are trimmed and bounded.
 */
import { badRequest } from '../../errors.ts';
import { positiveId } from '../../crud/routes.ts';
import { plainText } from '../../../shared/text.ts';
import { firstFormError, integerError, textError, type FormRules } from '../../../shared/admin-forms.ts';

export type Body = Record<string, unknown>;

export function objectBody(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('请求内容必须是JSON对象');
  return body as Body;
}

/**
 * The form's field checks (src/shared/admin-forms.ts, the definition the browser checks with):
 * the first field in error is a 400 naming it, `{message, field}`, so the screen marks it.
 */
export function assertForm(rules: FormRules, body: Body): void {
  const e = firstFormError(rules, body);
  if (e) throw badRequest(e.message, { field: e.field });
}

/** A required text: trimmed, 1..max characters. */
export function requiredText(body: Body, key: string, label: string, max: number): string {
  const m = textError(body[key], label, max, true);
  if (m) throw badRequest(m, { field: key });
  return (body[key] as string).trim();
}

/** An optional text: null when missing or blank. */
export function optionalText(body: Body, key: string, label: string, max: number): string | null {
  const m = textError(body[key], label, max, false);
  if (m) throw badRequest(m, { field: key });
  const v = body[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

export function integer(body: Body, key: string, label: string, min: number, max: number, dflt?: number): number {
  const v = body[key];
  if ((v === undefined || v === null || v === '') && dflt !== undefined) return dflt;
  const m = integerError(v, label, min, max, true);
  if (m) throw badRequest(m, { field: key });
  return typeof v === 'string' ? Number(v) : (v as number);
}

export function bool(body: Body, key: string, label: string, dflt?: boolean): boolean {
  const v = body[key];
  if ((v === undefined || v === null) && dflt !== undefined) return dflt;
  if (v === true || v === 'true' || v === 1) return true;
  if (v === false || v === 'false' || v === 0) return false;
  throw badRequest(`${label}只能是是或否`);
}

/** A positive id, required. */
export function requiredId(v: unknown, message: string): number {
  const id = positiveId(v);
  if (id === undefined) throw badRequest(message);
  return id;
}

/** An optional id: null, 0 and '' mean none (the tree's root). */
export function optionalId(v: unknown, message: string): number | null {
  if (v === undefined || v === null || v === '' || v === 0 || v === '0') return null;
  return requiredId(v, message);
}

/** A list of ids given as numbers or as {id} objects (eladmin's shape). */
export function idList(v: unknown, label: string, max = 10_000): number[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw badRequest(`${label}格式不正确`);
  if (v.length > max) throw badRequest(`${label}过多`);
  const ids = v.map((x) => positiveId(typeof x === 'object' && x !== null ? (x as Body).id : x));
  if (ids.some((x) => x === undefined)) throw badRequest(`${label}格式不正确`);
  return [...new Set(ids as number[])];
}

/** The JSON array of ids a DELETE sends. */
export function deleteIds(body: unknown): number[] {
  if (!Array.isArray(body)) throw badRequest('请求内容必须是ID数组');
  if (!body.length) throw badRequest('请至少选择一条数据');
  return idList(body, 'ID');
}

/** One query value (a repeated key is a 400). */
export function queryValue(query: unknown, key: string): string | undefined {
  const q = (query ?? {}) as Record<string, unknown>;
  const v = q[key];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw badRequest(`参数${key}只能有一个值`);
  const s = plainText(v);
  if (s.length > 200) throw badRequest(`参数${key}过长`);
  return s;
}

export interface Paging {
  page: number;
  size: number;
}

export function paging(query: unknown, dfltSize = 10): Paging {
  const p = queryValue(query, 'page');
  const s = queryValue(query, 'size');
  const page = p === undefined || p === '' ? 0 : /^\d{1,9}$/.test(p) ? Number(p) : NaN;
  const size = s === undefined || s === '' ? dfltSize : /^\d{1,5}$/.test(s) ? Number(s) : NaN;
  if (!Number.isInteger(page)) throw badRequest('页码必须是不小于0的整数');
  if (!Number.isInteger(size) || size < 1 || size > 99999) throw badRequest('每页条数必须是1到99999之间的整数');
  return { page, size };
}

/** Only these query keys are accepted. */
export function onlyKeys(query: unknown, keys: string[]): void {
  for (const k of Object.keys(query ?? {})) if (!keys.includes(k)) throw badRequest(`不支持的查询参数: ${k.slice(0, 50)}`);
}

/** Sort parameters `field,dir` among the allowed fields (field -> column). */
export function sortKeys(
  query: unknown,
  allowed: Record<string, string>,
  dflt: Array<[string, 'asc' | 'desc']>,
): Array<[string, 'asc' | 'desc']> {
  const raw = ((query ?? {}) as Record<string, unknown>).sort;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (!list.length) return dflt;
  return list.map((s) => {
    const [f, d = 'asc', ...rest] = String(s).split(',');
    const dir = d.trim().toLowerCase();
    // own keys only: `__proto__` or `constructor` must not find Object.prototype's members
    const col = Object.hasOwn(allowed, f.trim()) ? allowed[f.trim()] : undefined;
    if (!col || rest.length || (dir !== 'asc' && dir !== 'desc')) throw badRequest(`不支持的排序: ${String(s).slice(0, 50)}`);
    return [col, dir];
  });
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
