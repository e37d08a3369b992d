/**
 * Staff who hold a permission key through their roles' menus, for screens that pick a person
 * by what they may do (e.g. the sales consultants a lead can be allotted to).
 */
import type { Db } from '../types.ts';

export interface StaffBrief {
  id: number;
  username: string;
  nickName: string;
  orgId: number | null;
  deptId: number | null;
}

/** Enabled users holding `key` (admin excluded: it passes every check but is nobody's consultant), optionally of one company. */
export async function staffHolding(db: Db, key: string, opts: { orgId?: number; userIds?: number[] } = {}): Promise<StaffBrief[]> {
  let q = db
    .selectFrom('sys_user as u')
    .innerJoin('sys_users_roles as ur', 'ur.user_id', 'u.id')
    .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'ur.role_id')
    .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
    .select(['u.id', 'u.username', 'u.nick_name', 'u.org_id', 'u.dept_id', 'u.enabled'])
    .distinct()
    .where('m.permission', '=', key)
    .where('u.username', '<>', 'admin');
  if (opts.orgId !== undefined) q = q.where('u.org_id', '=', opts.orgId);
  if (opts.userIds) {
    if (opts.userIds.length === 0) return [];
    q = q.where('u.id', 'in', opts.userIds);
  }
  const rows = await q.orderBy('u.id').execute();
  return rows
    .filter((r) => r.enabled === true || r.enabled === 1 || r.enabled === '1')
    .map((r) => ({
      id: Number(r.id),
      username: String(r.username),
      nickName: String(r.nick_name ?? r.username),
      orgId: r.org_id === null ? null : Number(r.org_id),
      deptId: r.dept_id === null ? null : Number(r.dept_id),
    }));
}

/** Whether a department / company id exists. */
export async function deptExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('sys_dept').select('id').where('id', '=', id).executeTakeFirst());
}
