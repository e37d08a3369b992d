/**
 * A user's roles and permission keys: permissions are the keys of the menus linked to the
 * user's roles. Looked up on every authenticated request, so the answer is cached per user for
 * a few seconds; code that changes roles, menus or their links calls invalidateAccess() so this
 * instance sees the change at once (other instances within ACCESS_CACHE_MS).
 */
import type { Db } from '../types.ts';

export const ACCESS_CACHE_MS = 5000;
const MAX_ENTRIES = 10000;

export interface RoleInfo {
  id: number;
  name: string;
  dataScope: string;
  level: number;
}

export interface UserAccess {
  roles: RoleInfo[];
  permissions: Set<string>;
}

const cache = new Map<number, { at: number; access: UserAccess }>();

export async function loadAccess(db: Db, userId: number): Promise<UserAccess> {
  const roles = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.name', 'r.data_scope', 'r.level'])
    .where('ur.user_id', '=', userId)
    .orderBy('r.level')
    .orderBy('r.id')
    .execute();
  const perms = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'ur.role_id')
    .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
    .select('m.permission')
    .distinct()
    .where('ur.user_id', '=', userId)
    .where('m.permission', 'is not', null)
    .execute();
  return {
    roles: roles.map((r) => ({ id: Number(r.id), name: String(r.name), dataScope: String(r.data_scope), level: Number(r.level) })),
    permissions: new Set(perms.map((p) => String(p.permission)).filter((p) => p !== '')),
  };
}

export async function cachedAccess(db: Db, userId: number, now = Date.now()): Promise<UserAccess> {
  const hit = cache.get(userId);
  if (hit && now - hit.at < ACCESS_CACHE_MS) return hit.access;
  const access = await loadAccess(db, userId);
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(userId, { at: now, access });
  return access;
}

/** Forget cached roles/permissions of one user, or of everyone. */
export function invalidateAccess(userId?: number): void {
  if (userId === undefined) cache.clear();
  else cache.delete(userId);
}
