/**
 * Departments (sys_dept): a tree of the group's companies and departments (pid null = root).
 * This module serves the paged list the department selects use and the name lookups the
 * session user needs; the full department administration builds on the same table.
 */
import { sql } from 'kysely';
import type { Db } from '../../types.ts';
import { badRequest } from '../../errors.ts';

export interface DeptRow {
  id: number;
  pid: number | null;
  name: string;
  sort: number;
  enabled: boolean;
  createTime: string | null;
}

/** A sys_dept row as the list reads it (the flag is 0/1 on SQLite, a boolean on PostgreSQL). */
export interface StoredDept {
  id: number;
  pid: number | null;
  name: string;
  sort: number;
  enabled: number | boolean;
  create_time: string | null;
}

const toDept = (r: StoredDept): DeptRow => ({
  id: Number(r.id),
  pid: r.pid === null || r.pid === undefined ? null : Number(r.pid),
  name: r.name,
  sort: Number(r.sort),
  enabled: Boolean(r.enabled),
  createTime: r.create_time ?? null,
});

export async function deptName(db: Db, id: number | null | undefined): Promise<string | null> {
  if (id === null || id === undefined) return null;
  const row = await db.selectFrom('sys_dept').select('name').where('id', '=', id).executeTakeFirst();
  return row ? String(row.name) : null;
}

/** Names from the root down to the department, joined by '/', e.g. 总公司/人事部. */
export async function deptNamePath(db: Db, id: number | null | undefined): Promise<string> {
  const names: string[] = [];
  const seen = new Set<number>();
  let current = id ?? null;
  while (current !== null && !seen.has(current) && names.length < 32) {
    seen.add(current);
    const row = await db.selectFrom('sys_dept').select(['name', 'pid']).where('id', '=', current).executeTakeFirst();
    if (!row) break;
    names.unshift(String(row.name));
    current = row.pid === null || row.pid === undefined ? null : Number(row.pid);
  }
  return names.join('/');
}

export async function departmentIds(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('sys_dept').select('id').orderBy('id').execute();
  return rows.map((r) => Number(r.id));
}

const SORTABLE: Record<string, string> = { id: 'id', sort: 'sort', name: 'name' };
const QUERY_KEYS = new Set(['page', 'size', 'sort', 'name', 'enabled', 'pid']);
const MAX_SIZE = 99999;

function one(value: unknown, key: string): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badRequest(`参数${key}只能有一个值`);
    value = value[0];
  }
  return String(value);
}

function nonNegativeInt(raw: string | undefined, key: string, dflt: number, max: number): number {
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) > max) throw badRequest(`参数${key}必须是0到${max}之间的整数`);
  return Number(raw);
}

export interface DeptQuery {
  page: number;
  size: number;
  sort: Array<{ column: string; dir: 'asc' | 'desc' }>;
  name?: string;
  enabled?: boolean;
  /** 0 = roots */
  pid?: number;
}

/** Parses Spring-style paging and the department filters; anything unknown is a 400. */
export function parseDeptQuery(query: Record<string, unknown>): DeptQuery {
  for (const key of Object.keys(query)) {
    if (!QUERY_KEYS.has(key)) throw badRequest(`不支持的查询参数: ${key}`);
  }
  const page = nonNegativeInt(one(query.page, 'page'), 'page', 0, 1_000_000_000);
  const size = nonNegativeInt(one(query.size, 'size'), 'size', 10, MAX_SIZE);
  if (size < 1) throw badRequest(`参数size必须是1到${MAX_SIZE}之间的整数`);
  const sortRaw = query.sort === undefined ? [] : Array.isArray(query.sort) ? query.sort : [query.sort];
  const sort = sortRaw.map((s): DeptQuery['sort'][number] => {
    const [field, dirRaw = 'asc', ...rest] = String(s).split(',');
    const dir = dirRaw.trim().toLowerCase();
    if (!Object.hasOwn(SORTABLE, field.trim()) || rest.length || (dir !== 'asc' && dir !== 'desc'))
      throw badRequest(`不支持的排序: ${String(s)}`);
    return { column: SORTABLE[field.trim()], dir };
  });
  const q: DeptQuery = { page, size, sort };
  const name = one(query.name, 'name');
  if (name !== undefined && name !== '') {
    if (name.length > 100) throw badRequest('部门名称不能超过100个字符');
    q.name = name;
  }
  const enabled = one(query.enabled, 'enabled');
  if (enabled !== undefined && enabled !== '') {
    if (enabled !== 'true' && enabled !== 'false') throw badRequest('参数enabled只能是true或false');
    q.enabled = enabled === 'true';
  }
  const pid = one(query.pid, 'pid');
  if (pid !== undefined && pid !== '') q.pid = nonNegativeInt(pid, 'pid', 0, 2_147_483_647);
  return q;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `ids`: only these departments (the data scope); null or undefined = all. */
export async function listDepartments(db: Db, q: DeptQuery, ids?: number[] | null): Promise<{ content: DeptRow[]; totalElements: number }> {
  let base = db.selectFrom('sys_dept');
  if (ids) base = base.where('id', 'in', ids.length ? ids : [-1]);
  if (q.name !== undefined) base = base.where(sql<boolean>`name like ${`%${escapeLike(q.name)}%`} escape '\\'`);
  if (q.enabled !== undefined) base = base.where('enabled', '=', q.enabled ? 1 : 0);
  if (q.pid !== undefined) base = q.pid === 0 ? base.where('pid', 'is', null) : base.where('pid', '=', q.pid);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  let list = base.select(['id', 'pid', 'name', 'sort', 'enabled', 'create_time']);
  for (const s of q.sort) list = list.orderBy(s.column, s.dir);
  if (!q.sort.some((s) => s.column === 'id')) list = list.orderBy('id', 'asc');
  const rows = await list
    .limit(q.size)
    .offset(q.page * q.size)
    .$castTo<StoredDept>()
    .execute();
  return { content: rows.map(toDept), totalElements: Number(total?.n ?? 0) };
}
