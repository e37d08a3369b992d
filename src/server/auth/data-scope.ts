/**
 * Data scope: which departments' rows a signed-in user may see and change.
 *
 * - admin, or any of the user's roles with 全部: every row (`all`).
 * - 本级: the user's own department.
 * - 自定义: the role's chosen departments (sys_roles_depts) and all their descendants.
 * - a user without any role (ROLE_SYSTEM_DEFAULT) is treated as 本级.
 * Several roles add up. Organisation ids (`x-scope: "org"` and the organisation selector) are
 * allowed when they are the user's own organisation or a department inside the scope.
 * Rows whose scoped column is empty belong to nobody's department: only `all` sees them.
 */
import type { SessionUser, Db } from '../types.ts';

export interface DataScope {
  all: boolean;
  /** departments inside the scope (empty when `all`) */
  deptIds: number[];
  /** organisations inside the scope (empty when `all`) */
  orgIds: number[];
}

export const ALL_SCOPE: DataScope = { all: true, deptIds: [], orgIds: [] };

/** Every department id below the given ones (the given ones included). Cycles stop. */
export async function withDescendants(db: Db, roots: number[]): Promise<number[]> {
  if (!roots.length) return [];
  const rows = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
  const children = new Map<number, number[]>();
  for (const r of rows) {
    if (r.pid === null || r.pid === undefined) continue;
    const pid = Number(r.pid);
    const list = children.get(pid) ?? [];
    list.push(Number(r.id));
    children.set(pid, list);
  }
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const c of children.get(id) ?? []) stack.push(c);
  }
  return [...seen].sort((a, b) => a - b);
}

export async function resolveDataScope(db: Db, user: SessionUser): Promise<DataScope> {
  if (user.isAdmin || user.roles.some((r) => r.dataScope === '全部')) return ALL_SCOPE;
  const depts = new Set<number>();
  if (user.deptId !== null && (user.roles.length === 0 || user.roles.some((r) => r.dataScope !== '自定义'))) depts.add(user.deptId);
  const custom = user.roles.filter((r) => r.dataScope === '自定义').map((r) => r.id);
  if (custom.length) {
    const chosen = await db.selectFrom('sys_roles_depts').select('dept_id').where('role_id', 'in', custom).execute();
    for (const id of await withDescendants(
      db,
      chosen.map((c) => Number(c.dept_id)),
    ))
      depts.add(id);
  }
  const deptIds = [...depts].sort((a, b) => a - b);
  const orgIds = new Set(deptIds);
  if (user.orgId !== null) orgIds.add(user.orgId);
  return { all: false, deptIds, orgIds: [...orgIds].sort((a, b) => a - b) };
}

/** The scope of the request's user, computed once per request. */
const perRequest = new WeakMap<object, Promise<DataScope>>();
export function requestScope(db: Db, request: { user?: SessionUser }): Promise<DataScope> {
  if (!request.user) return Promise.resolve({ all: false, deptIds: [], orgIds: [] });
  let p = perRequest.get(request);
  if (!p) {
    p = resolveDataScope(db, request.user);
    perRequest.set(request, p);
  }
  return p;
}

/** Allowed ids of one kind (null = all). */
export function scopeIds(scope: DataScope, kind: 'dept' | 'org'): number[] | null {
  if (scope.all) return null;
  return kind === 'dept' ? scope.deptIds : scope.orgIds;
}

export function inScope(scope: DataScope, kind: 'dept' | 'org', id: unknown): boolean {
  if (scope.all) return true;
  if (id === null || id === undefined || id === '') return false;
  return scopeIds(scope, kind)!.includes(Number(id));
}

/** Whether the user may clear the organisation selector (a role with 全部, or admin). */
export function canChooseAnyOrganisation(user: SessionUser): boolean {
  return user.isAdmin || user.roles.some((r) => r.dataScope === '全部');
}
