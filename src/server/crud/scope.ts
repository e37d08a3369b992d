/**
 * Data scope on the generic routes of a schema whose property carries `x-scope` ("dept" or
 * "org"): lists and exports get an extra `IN (allowed ids)` condition; create, update, delete
 * and import refuse a row outside the user's scope (403, nothing written). A user whose scope
 * is 全部 (or admin) is not restricted; a spec without `x-scope` is not restricted.
 */
import type { FastifyRequest } from 'fastify';
import { scopeField, type ResourceSpec } from '../../shared/resource-spec.ts';
import { inScope, requestScope, scopeIds } from '../auth/data-scope.ts';
import { forbidden } from '../errors.ts';
import type { Database } from '../types.ts';
import type { ListParams } from './query.ts';

export const OUT_OF_SCOPE = '没有权限操作该部门的数据';
/** stands for "no department at all" in an empty IN list (ids are positive) */
const NO_ID = -1;

/** The list parameters narrowed to the user's scope. */
export async function scopedParams(database: Database, spec: ResourceSpec, request: FastifyRequest, params: ListParams): Promise<ListParams> {
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
export async function assertRecordsInScope(database: Database, spec: ResourceSpec, request: FastifyRequest, values: unknown[]): Promise<void> {
  const field = scopeField(spec);
  if (!field) return;
  const scope = await requestScope(database.db, request);
  if (scope.all) return;
  for (const v of values) if (!inScope(scope, field.scope!, v)) throw forbidden(OUT_OF_SCOPE);
}

/** The scoped column's values of the stored rows with these ids. */
export async function storedScopeValues(database: Database, spec: ResourceSpec, ids: number[]): Promise<unknown[]> {
  const field = scopeField(spec);
  if (!field || !ids.length) return [];
  const idColumn = spec.fields.find((f) => f.auto === 'id')!.column;
  const rows = await database.db.selectFrom(spec.table).select(field.column).where(idColumn, 'in', ids).execute();
  return rows.map((r) => (r as Record<string, unknown>)[field.column]);
}
