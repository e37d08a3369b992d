/**
 * react-admin data provider for the Spring-style API: zero-based `page`, `size`,
 * `sort=field,dir`, non-empty filters (arrays as repeated keys), `{content, totalElements}`;
 * create = POST, update = PUT with the id in the body, delete = DELETE with an array of ids.
 */
import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { resourceByName } from '../../../generated/resources.ts';
import { HttpError, request, type QueryValue } from '../../common/http.ts';
import { textOf } from '../../common/text.ts';

export interface Page<T> {
  content: T[];
  totalElements: number;
}

/**
 * Paths of resources that are not generated, as the schemas' `x-ref.path` name them: a picker
 * route the referring screen's keys open (e.g. users → api/users/pick).
 */
const refPaths: Record<string, string> = {};
for (const spec of Object.values(resourceByName)) {
  for (const field of spec.fields) if (field.ref && !resourceByName[field.ref.resource]) refPaths[field.ref.resource] ??= field.ref.path;
}

/** API base URL of a resource: its spec path, else the path its references name, else `/api/{name}` (e.g. dept). */
export function resourceUrl(resource: string): string {
  const spec = resourceByName[resource];
  return `/${spec ? spec.path : (refPaths[resource] ?? `api/${resource}`)}`;
}

function filterValue(value: unknown): QueryValue {
  if (Array.isArray(value)) return (value as unknown[]).map((v) => (v === null || v === undefined ? v : textOf(v)));
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'object') return undefined;
  return value as QueryValue;
}

/** The list query for react-admin's getList parameters. */
export function listQuery(params: Partial<GetListParams>): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries((params.filter ?? {}) as Record<string, unknown>)) {
    const mapped = filterValue(value);
    if (mapped !== undefined && !(Array.isArray(mapped) && mapped.length === 0)) query[key] = mapped;
  }
  const page = params.pagination?.page ?? 1;
  const perPage = params.pagination?.perPage ?? 10;
  query.page = Math.max(page - 1, 0);
  query.size = perPage;
  if (params.sort?.field) query.sort = `${params.sort.field},${(params.sort.order || 'DESC').toLowerCase()}`;
  return query;
}

async function getPage<T>(resource: string, query: Record<string, QueryValue>, quiet = false): Promise<Page<T>> {
  const { data } = await request<Page<T>>(resourceUrl(resource), { query, quiet });
  return { content: data?.content ?? [], totalElements: Number(data?.totalElements ?? 0) };
}

/** Size of a full-list read (spec: page 0, size 99999). */
export const FULL_LIST_SIZE = 99999;

/**
 * Records by id. Generated resources are read through the list's `id` filter (repeated
 * keys); other resources (lookups such as api/dept) are small and read as a full list.
 */
async function findByIds(resource: string, ids: Identifier[]): Promise<RaRecord[]> {
  if (!ids.length) return [];
  const wanted = new Set(ids.map(String));
  const query: Record<string, QueryValue> = resourceByName[resource]
    ? { id: ids.map(String), page: 0, size: ids.length }
    : { page: 0, size: FULL_LIST_SIZE };
  // a read of one id answers 404 when the record is not there for the caller (gone, or outside
  // their data scope): no record, and no notice (getOne says 数据不存在; a reference shows none)
  const one = !!resourceByName[resource] && ids.length === 1;
  try {
    const page = await getPage<RaRecord>(resource, query, one);
    return page.content.filter((r) => wanted.has(String(r.id)));
  } catch (err) {
    if (one && err instanceof HttpError && err.status === 404) return [];
    throw err;
  }
}

export function createDataProvider(): DataProvider {
  return {
    async getList(resource, params) {
      const page = await getPage<RaRecord>(resource, listQuery(params));
      return { data: page.content as never[], total: page.totalElements };
    },
    async getOne(resource, params) {
      const [record] = await findByIds(resource, [params.id]);
      if (!record) throw new Error('数据不存在');
      return { data: record as never };
    },
    async getMany(resource, params) {
      return { data: (await findByIds(resource, params.ids)) as never[] };
    },
    async getManyReference(resource, params) {
      const page = await getPage<RaRecord>(
        resource,
        listQuery({ ...params, filter: { ...(params.filter as Record<string, unknown>), [params.target]: params.id } }),
      );
      return { data: page.content as never[], total: page.totalElements };
    },
    async create(resource, params) {
      const { data } = await request<RaRecord>(resourceUrl(resource), { method: 'POST', body: params.data });
      return { data: { ...params.data, ...(data && typeof data === 'object' ? data : {}) } as never };
    },
    async update(resource, params) {
      const body = { ...(params.data as Record<string, unknown>), id: params.id as Identifier };
      await request(resourceUrl(resource), { method: 'PUT', body });
      return { data: { ...params.previousData, ...body } as never };
    },
    async updateMany(resource, params) {
      for (const id of params.ids) {
        await request(resourceUrl(resource), { method: 'PUT', body: { ...params.data, id } });
      }
      return { data: params.ids };
    },
    async delete(resource, params) {
      await request(resourceUrl(resource), { method: 'DELETE', body: [params.id] });
      return { data: (params.previousData ?? { id: params.id }) as never };
    },
    async deleteMany(resource, params) {
      await request(resourceUrl(resource), { method: 'DELETE', body: params.ids });
      return { data: params.ids };
    },
  };
}
