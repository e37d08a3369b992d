/**
 * Role levels: 1 is the highest (the admin role), larger numbers are lower. A user's level is
 * the highest (smallest number) of their roles; admin is level 1 whatever roles it holds; a
 * user without roles has no level and cannot create, edit or grant any role. A user may create,
 * edit, grant, take away or delete only roles at their own level or below (number >= theirs),
 * and edit, reset or delete only users whose level is at or below their own.
 */
import { ROLE_LEVEL_MAX, ROLE_LEVEL_MIN } from '../../../shared/admin-forms.ts';
import type { SessionUser, Db } from '../../types.ts';
import { forbidden } from '../../errors.ts';

export const MIN_LEVEL = ROLE_LEVEL_MIN;
export const MAX_LEVEL = ROLE_LEVEL_MAX;
export const NO_LEVEL = Number.POSITIVE_INFINITY;

export function actorLevel(user: SessionUser): number {
  if (user.isAdmin) return MIN_LEVEL;
  return user.roles.length ? Math.min(...user.roles.map((r) => r.level)) : NO_LEVEL;
}

export function levelMessage(mine: number, theirs: number): string {
  return `角色权限不足，你的角色级别：${Number.isFinite(mine) ? mine : '无'}，低于操作的角色级别：${theirs}`;
}

/** 403 unless the actor's level is at or above `level`. */
export function assertLevel(user: SessionUser, level: number): void {
  const mine = actorLevel(user);
  if (level < mine) throw forbidden(levelMessage(mine, level));
}

/** The highest level among the roles with these ids (MAX_LEVEL + 1 when none). */
export async function highestLevelOf(db: Db, roleIds: number[]): Promise<number> {
  if (!roleIds.length) return MAX_LEVEL + 1;
  const rows = await db.selectFrom('sys_role').select('level').where('id', 'in', roleIds).execute();
  return rows.length ? Math.min(...rows.map((r) => Number(r.level))) : MAX_LEVEL + 1;
}

/** The level of a stored user (their roles' highest; admin 1). */
export async function userLevel(db: Db, userId: number, username: string): Promise<number> {
  if (username === 'admin') return MIN_LEVEL;
  const rows = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select('r.level')
    .where('ur.user_id', '=', userId)
    .execute();
  return rows.length ? Math.min(...rows.map((r) => Number(r.level))) : MAX_LEVEL + 1;
}

export const KEYS_ABOVE_OWN = '不能恢复权限多于自己的账号：该账号的角色持有你没有的权限';

/**
 * 403 unless the actor holds every permission key the roles with these ids grant (admin holds
 * all): an account coming back (from the recycle bin or an earlier version) never carries keys
 * its restorer does not hold.
 */
export async function assertHoldsKeysOf(db: Db, user: SessionUser, roleIds: number[]): Promise<void> {
  if (user.isAdmin || !roleIds.length) return;
  const rows = await db
    .selectFrom('sys_roles_menus as rm')
    .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
    .select('m.permission')
    .distinct()
    .where('rm.role_id', 'in', roleIds)
    .where('m.permission', 'is not', null)
    .execute();
  const missing = rows.map((r) => String(r.permission)).find((k) => k !== '' && !user.permissions.has(k));
  if (missing !== undefined) throw forbidden(KEYS_ABOVE_OWN);
}
