/**
 * Data scope on the generic routes of a schema whose property carries `x-scope` ("dept" or
 * "org"): lists and exports get an extra `IN (allowed ids)` condition; create, update, delete
 * and import refuse a row outside the user's scope (403, nothing written). A read by id of a
 * record outside the scope answers 404, as for a record that does not exist, so an id tells
 * nothing about records the caller may not see. A user whose scope is 全部 (or admin) is not
 * restricted; a spec without `x-scope` is not restricted.
 */
import type { FastifyRequest } from 'fastify';
import { scopeField, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { inScope, requestScope, scopeIds } from '../../auth/data-scope.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { Database } from '../../types.ts';
import type { ListParams } from '../query/query.ts';
import type { Caller } from './owner-access.ts';

export const OUT_OF_SCOPE = '没有权限操作该部门的数据';
/** the answer to a read by id of a record that does not exist or lies outside the caller's scope */
export const RECORD_NOT_FOUND = '数据不存在';
/** query keys that do not filter */
const NOT_FILTERS = new Set(['page', 'size', 'sort']);
/** stands for "no department at all" in an empty IN list (ids are positive) */
const NO_ID = -1;

/** The list parameters narrowed to the user's scope. */
export async function scopedParams(
  database: Database,
  spec: ResourceSpec,
  request: FastifyRequest,
  params: ListParams,
): Promise<ListParams> {
  const field = scopeField(spec);
  if (!field) return params;
  const ids = scopeIds(await requestScope(database.db, request), field.scope!);
  if (ids === null) return params;
  const values = ids.length ? ids : [NO_ID];
  return {
    ...params,
    conditions: [...params.conditions, { kind: 'in', field, values }],
    filterKey: `${params.filterKey}|scope:${values.join(',')}`,
  };
}

/** 403 unless every value is inside the user's scope. */
export async function assertRecordsInScope(
  database: Database,
  spec: ResourceSpec,
  request: FastifyRequest,
  values: unknown[],
): Promise<void> {
  const field = scopeField(spec);
  if (!field) return;
  const scope = await requestScope(database.db, request);
  if (scope.all) return;
  for (const v of values) if (!inScope(scope, field.scope!, v)) throw forbidden(OUT_OF_SCOPE);
}

/**
 * 404 数据不存在 unless every id is a stored record the caller may see: inside the data scope
 * and, for an applicant, their own. Absent and hidden records answer alike, so an id tells
 * nothing about records the caller may not see.
 */
export async function assertAllVisible(
  database: Database,
  spec: ResourceSpec,
  request: FastifyRequest,
  caller: Caller,
  ids: number[],
): Promise<void> {
  const field = scopeField(spec);
  const owner =
    caller.kind === 'applicant' && spec.ownedByApplicant ? spec.fields.find((f) => f.name === spec.ownedByApplicant) : undefined;
  const idColumn = spec.fields.find((f) => f.auto === 'id')!.column;
  const scope = field ? await requestScope(database.db, request) : undefined;
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const columns = [idColumn, ...(field ? [field.column] : []), ...(owner ? [owner.column] : [])];
    const rows = (await database.db.selectFrom(spec.table).select(columns).where(idColumn, 'in', part).execute()) as Record<
      string,
      unknown
    >[];
    if (rows.length !== part.length) throw notFound(RECORD_NOT_FOUND);
    for (const row of rows) {
      if (field && scope && !inScope(scope, field.scope!, row[field.column])) throw notFound(RECORD_NOT_FOUND);
      if (owner && caller.kind === 'applicant' && Number(row[owner.column]) !== caller.applicantId) throw notFound(RECORD_NOT_FOUND);
    }
  }
}

/** The scoped column's values of the stored rows with these ids. */
export async function storedScopeValues(database: Database, spec: ResourceSpec, ids: number[]): Promise<unknown[]> {
  const field = scopeField(spec);
  if (!field || !ids.length) return [];
  const idColumn = spec.fields.find((f) => f.auto === 'id')!.column;
  const rows = await database.db.selectFrom(spec.table).select(field.column).where(idColumn, 'in', ids).execute();
  return rows.map((r) => (r as Record<string, unknown>)[field.column]);
}

/**
 * The id a list query reads one record by (`?id=N`, optionally with page, size and sort, as
 * the console's getOne sends it), or undefined when the query is a list: several ids, another
 * filter, or none.
 */
export function oneIdRead(query: Record<string, unknown>): number | undefined {
  const keys = Object.keys(query).filter((k) => !NOT_FILTERS.has(k));
  if (keys.length !== 1 || keys[0] !== 'id') return undefined;
  const raw = query.id;
  const value: unknown = Array.isArray(raw) ? (raw.length === 1 ? raw[0] : undefined) : raw;
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : undefined;
  return n !== undefined && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** A read by id of one record: 404 (数据不存在, or `message`) unless its scoped value is inside the caller's scope. */
export async function assertReadable(
  database: Database,
  spec: ResourceSpec,
  request: FastifyRequest,
  value: unknown,
  message = RECORD_NOT_FOUND,
): Promise<void> {
  const field = scopeField(spec);
  if (!field) return;
  const scope = await requestScope(database.db, request);
  if (!inScope(scope, field.scope!, value)) throw notFound(message);
}
