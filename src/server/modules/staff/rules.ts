/**
 * Rules of a roster entry (员工花名册) that its schema cannot say, for every write: the generic
 * create/update/import (a beforeWrite rule), staffJoin and the hand-written calls.
 * - the company (orgId) and the department exist, and the department is the company or below it;
 * - a job type, when given, exists;
 * - a linked system account exists and is linked to no other entry;
 * - an on-staff entry leaves only through staffLeave (which disables the account), never by an
 *   edit of its status.
 */
import type { Db } from '../../types.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';

export const STAFF_MESSAGES = {
  deptMissing: '部门不存在',
  orgMissing: '公司不存在',
  deptOutsideOrg: '部门不属于所选公司',
  jpTypeMissing: '岗位类型不存在',
  userMissing: '系统账号不存在',
  userTaken: '该系统账号已关联其他员工',
  left: '该员工已离职',
  notFound: '员工不存在',
  notBound: '该员工未绑定企业微信',
  bound: '该员工已绑定企业微信',
  leaveThroughCall: '请通过「离职」办理员工离职（会同时禁用其系统账号）',
} as const;

const present = (v: unknown) => v !== null && v !== undefined && v !== '';

/** The company of a department: its top-level ancestor (the department itself when it has no parent). */
export async function companyOf(db: Db, deptId: number): Promise<number | undefined> {
  const rows = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
  const parent = new Map(rows.map((r) => [Number(r.id), r.pid === null || r.pid === undefined ? null : Number(r.pid)]));
  if (!parent.has(deptId)) return undefined;
  let id = deptId;
  const seen = new Set<number>();
  while (!seen.has(id)) {
    seen.add(id);
    const p = parent.get(id);
    if (p === null || p === undefined || !parent.has(p)) return id;
    id = p;
  }
  return id; // a cycle: stop where it closes
}

/** key of the department tree (id -> parent id) in an import's shared map */
const DEPT_TREE = 'staff:deptTree';

/**
 * 400 message for a department that does not fit the company, or undefined. One read of the
 * tree (an import checks every row): the department fits when the company is the department
 * itself or one of its ancestors.
 */
export async function placementProblem(
  db: Db,
  orgId: number,
  deptId: number,
  /** the rows of one import: the tree is read once for all of them */
  shared?: Map<string, unknown>,
): Promise<string | undefined> {
  let parent = shared?.get(DEPT_TREE) as Map<number, number | null> | undefined;
  if (!parent) {
    const rows = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
    parent = new Map(rows.map((r) => [Number(r.id), r.pid === null || r.pid === undefined ? null : Number(r.pid)]));
    shared?.set(DEPT_TREE, parent);
  }
  if (!parent.has(orgId)) return STAFF_MESSAGES.orgMissing;
  if (!parent.has(deptId)) return STAFF_MESSAGES.deptMissing;
  const seen = new Set<number>();
  for (let id: number | null | undefined = deptId; id !== null && id !== undefined && !seen.has(id); id = parent.get(id)) {
    if (id === orgId) return undefined;
    seen.add(id);
  }
  return STAFF_MESSAGES.deptOutsideOrg;
}

export async function jpTypeExists(db: Db, jpType: ResourceSpec | undefined, id: number): Promise<boolean> {
  if (!jpType) return false;
  return !!(await db.selectFrom(jpType.table).select('id').where('id', '=', id).executeTakeFirst());
}

/** 400 message when the linked user is missing or linked to another entry, or undefined. */
export async function userLinkProblem(db: Db, staff: ResourceSpec, userId: number, entryId?: number): Promise<string | undefined> {
  if (!(await db.selectFrom('sys_user').select('id').where('id', '=', userId).executeTakeFirst())) return STAFF_MESSAGES.userMissing;
  let q = db.selectFrom(staff.table).select('id').where('user_id', '=', userId);
  if (entryId !== undefined) q = q.where('id', '<>', entryId);
  if (await q.executeTakeFirst()) return STAFF_MESSAGES.userTaken;
  return undefined;
}

/** Every rule above on a record as it will be stored (JSON property names). */
export async function staffRecordProblem(
  db: Db,
  staff: ResourceSpec,
  jpType: ResourceSpec | undefined,
  record: Record<string, unknown>,
  /** shared by the rows of one import */
  shared?: Map<string, unknown>,
): Promise<string | undefined> {
  if (present(record.orgId) && present(record.deptId)) {
    const problem = await placementProblem(db, Number(record.orgId), Number(record.deptId), shared);
    if (problem) return problem;
  }
  if (present(record.jpTypeId) && !(await jpTypeExists(db, jpType, Number(record.jpTypeId)))) return STAFF_MESSAGES.jpTypeMissing;
  if (present(record.userId)) {
    const id = present(record.id) ? Number(record.id) : undefined;
    const problem = await userLinkProblem(db, staff, Number(record.userId), id);
    if (problem) return problem;
  }
  return undefined;
}

/** 400 message when a generic update would turn an on-staff entry into a former one, or undefined. */
export async function statusChangeProblem(db: Db, staff: ResourceSpec, record: Record<string, unknown>): Promise<string | undefined> {
  if (!present(record.id) || Number(record.status) !== 0) return undefined;
  const stored = await db.selectFrom(staff.table).select('status').where('id', '=', Number(record.id)).executeTakeFirst();
  return stored && Number(stored.status) === 1 ? STAFF_MESSAGES.leaveThroughCall : undefined;
}
