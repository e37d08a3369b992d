/**
 * What the client learns about the signed-in user (login and GET /api/info): the session
 * user of the spec, the permission list the screens check, and the public settings.
 */
import type { Db } from '../types.ts';
import type { Config } from '../config.ts';
import type { RoleInfo } from './access.ts';
import { userDirectory } from './user-directory.ts';

/** Permission given to a user without any role. */
export const ROLE_SYSTEM_DEFAULT = 'ROLE_SYSTEM_DEFAULT';

export interface UserView {
  id: number;
  username: string;
  nickName: string;
  orgId: number | null;
  orgName: string | null;
  deptId: number | null;
  deptNamePath: string;
  phone: string | null;
  email: string | null;
  sex: number;
  img: string | null;
  wxImg: string | null;
  idno: string | null;
  lockTime: number;
  lastPasswordResetDate: string | null;
  defPassword: boolean;
  enabled: boolean;
  roles: RoleInfo[];
}

export interface InfoAnswer {
  user: UserView;
  permissions: string[];
  /** the public settings (filled in by the system area) */
  sys: object;
}

export function permissionList(isAdmin: boolean, roles: RoleInfo[], permissions: Iterable<string>): string[] {
  if (isAdmin) return ['admin'];
  const list = new Set<string>([...permissions].sort());
  for (const r of roles) list.add(r.name);
  if (!roles.length) list.add(ROLE_SYSTEM_DEFAULT);
  return [...list];
}

/** The sys_user columns a signed-in user's view reads. */
interface StoredUser {
  id: number;
  username: string;
  nick_name: string | null;
  org_id: number | null;
  dept_id: number | null;
  phone: string | null;
  email: string | null;
  sex: number | null;
  img: string | null;
  wx_img: string | null;
  idno: string | null;
  lock_time: number | null;
  pwd_reset_time: string | null;
  is_def_password: number | boolean;
  enabled: number | boolean;
}

const optionalId = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export async function userView(db: Db, userId: number, roles: RoleInfo[]): Promise<UserView> {
  const u = await db.selectFrom('sys_user').selectAll().where('id', '=', userId).$castTo<StoredUser>().executeTakeFirstOrThrow();
  const orgId = optionalId(u.org_id);
  const deptId = optionalId(u.dept_id);
  const { deptName, deptNamePath } = userDirectory();
  return {
    id: Number(u.id),
    username: u.username,
    nickName: u.nick_name ?? '',
    orgId,
    orgName: await deptName(db, orgId),
    deptId,
    deptNamePath: await deptNamePath(db, deptId),
    phone: u.phone ?? null,
    email: u.email ?? null,
    sex: Number(u.sex ?? 1),
    img: u.img ?? null,
    wxImg: u.wx_img ?? null,
    idno: u.idno ?? null,
    lockTime: Number(u.lock_time ?? 0),
    lastPasswordResetDate: u.pwd_reset_time ?? null,
    defPassword: Boolean(u.is_def_password),
    enabled: Boolean(u.enabled),
    roles,
  };
}

export async function infoAnswer(
  db: Db,
  config: Pick<Config, 'recordNumber'>,
  userId: number,
  isAdmin: boolean,
  roles: RoleInfo[],
  permissions: Iterable<string>,
): Promise<InfoAnswer> {
  return {
    user: await userView(db, userId, roles),
    permissions: permissionList(isAdmin, roles, permissions),
    sys: await userDirectory().publicSettings(db, config),
  };
}
