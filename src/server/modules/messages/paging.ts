/** Page and size of the hand-written message lists (`page` from 0, `size` 1-99999). */
import { badRequest } from '../../errors.ts';
import { plainText } from '../../../shared/text.ts';

export const MAX_SIZE = 99_999;

function single(value: unknown): unknown {
  return Array.isArray(value) ? undefined : value;
}

function integer(value: unknown, name: string, dflt: number, min: number, max: number): number {
  const raw = single(value);
  if (raw === undefined || raw === '') return dflt;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) throw badRequest(`参数${name}必须是整数`);
  const n = Number(raw);
  if (n < min || n > max) throw badRequest(`参数${name}必须在${min}到${max}之间`);
  return n;
}

export function pageParams(query: Record<string, unknown>, defaultSize: number): { page: number; size: number } {
  return {
    page: integer(query.page, 'page', 0, 0, 100_000_000),
    size: integer(query.size, 'size', defaultSize, 1, MAX_SIZE),
  };
}

/** One `sort=field,dir` among the allowed fields (repeats and unknown fields are a 400). */
export function sortParam<F extends string>(
  query: Record<string, unknown>,
  allowed: readonly F[],
  dflt: { field: F; dir: 'asc' | 'desc' },
): { field: F; dir: 'asc' | 'desc' } {
  const raw = query.sort;
  if (raw === undefined || raw === '') return dflt;
  const text: unknown = Array.isArray(raw) ? (raw.length === 1 ? raw[0] : undefined) : raw;
  const m = typeof text === 'string' ? /^(\w+)(?:,(asc|desc))?$/i.exec(text) : null;
  if (!m || !allowed.includes(m[1] as F)) throw badRequest(`不支持的排序字段：${plainText(text ?? raw).slice(0, 40)}`);
  return { field: m[1] as F, dir: (m[2]?.toLowerCase() as 'asc' | 'desc') ?? 'asc' };
}

/** Refuses query keys the route does not know. */
export function onlyKeys(query: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(query)) if (!known.includes(key)) throw badRequest(`不支持的查询参数：${key.slice(0, 40)}`);
}
