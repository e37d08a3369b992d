/**
 * User administration (sys_user):
 *   GET    api/users                 paged list: blurry (user name, nickname also by pinyin, phone, e-mail),
 *                                    deptId (the department and those below), enabled,
 *                                    createTime=a&createTime=b; rows in the data scope (user:list)
 *   POST   api/users                 create with the default password and the default-password
 *                                    flag (user:add)
 *   PUT    api/users                 edit (user:edit); a signed-in user may edit their OWN lock
 *                                    time with exactly {id, lockTime, orgId, deptId} without it
 *   DELETE api/users                 [ids], never yourself or admin (user:del)
 *   POST   api/users/resetPass?userName&userid   back to the default password (user:edit)
 *   GET    api/users/option?orgId    the organisation's users inside the data scope, for selects
 *                                    (signed in; id, names, department only)
 * Every write checks the data scope (the user's department) and the role levels (levels.ts).
 * Staff phones and e-mails are personal data: the list answers them masked unless the caller
 * holds `user:sensitive` (用户查看完整个人信息) or is admin; a full read is written to the
 * operation log; an edit by a caller who saw them masked keeps the stored values.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { invalidateAccess } from '../../auth/access.ts';
import { markPermission } from '../../auth/route-catalogue.ts';
import { inScope, requestScope, withDescendants, canChooseAnyOrganisation } from '../../auth/data-scope.ts';
import { ADMIN_USERNAME } from '../../auth/seed.ts';
import { maskEmail, maskPhone } from '../../../shared/masks.ts';
import { plainText } from '../../../shared/text.ts';
import { userTextCondition } from './user-search.ts';
import { actorLevel, assertHoldsKeysOf, assertLevel, highestLevelOf, levelMessage, userLevel } from './levels.ts';
import { randomBytes } from 'node:crypto';
import {
  assertForm,
  bool,
  deleteIds,
  idList,
  integer,
  objectBody,
  onlyKeys,
  optionalText,
  paging,
  queryValue,
  requiredId,
  requiredText,
  sortKeys,
  type Body,
} from './input.ts';
import { USER_FORM } from '../../../shared/admin-forms.ts';
import { TABLE_HISTORY } from '../../../shared/table-history.ts';
import type { RevisionAction } from '../../crud/history/revisions.ts';
import { registerTableHistory } from '../../crud/history/table-history-routes.ts';
import { registerTableBin } from '../../crud/history/table-recycle-bin.ts';
import type { MaySee } from '../../crud/access/record-door.ts';
import { idListsBy, trackChange, type TrackedState, type TrackedTable } from '../../crud/history/table-revisions.ts';

/** Password of a new user and of a reset; the user must change it at the next sign-in (the console shows it). */
export { DEFAULT_USER_PASSWORD } from '../../../shared/accounts.ts';
import { DEFAULT_USER_PASSWORD } from '../../../shared/accounts.ts';
export const LOCK_TIME_MAX = 999;

const USER_SORT: Record<string, string> = { id: 'u.id', username: 'u.username', createTime: 'u.create_time', enabled: 'u.enabled' };
const DATE_TIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/;

export interface UserRow {
  id: number;
  username: string;
  nickName: string;
  phone: string | null;
  email: string | null;
  /** the WeCom user id QR sign-in matches (企业微信账号) */
  wecomUserId: string | null;
  sex: number;
  enabled: boolean;
  deptId: number | null;
  orgId: number | null;
  dept: { id: number; name: string } | null;
  orgName: string | null;
  lockTime: number;
  defPassword: boolean;
  createTime: string | null;
  roles: Array<{ id: number; name: string; level: number; dataScope: string }>;
}

/** A sys_user row as userSelect reads it, with its department's and organisation's names. */
interface StoredUser {
  id: number;
  username: string;
  nick_name: string | null;
  phone: string | null;
  email: string | null;
  wecom_user_id: string | null;
  sex: number | null;
  enabled: number | boolean;
  dept_id: number | null;
  org_id: number | null;
  lock_time: number | null;
  is_def_password: number | boolean;
  create_time: string | null;
  dept_name: string | null;
  org_name: string | null;
}

async function withRoles(db: Db, rows: StoredUser[]): Promise<UserRow[]> {
  const ids = rows.map((r) => Number(r.id));
  const roles = ids.length
    ? await db
        .selectFrom('sys_users_roles as ur')
        .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
        .select(['ur.user_id', 'r.id', 'r.name', 'r.level', 'r.data_scope'])
        .where('ur.user_id', 'in', ids)
        .orderBy('r.level')
        .$castTo<{ user_id: number; id: number; name: string; level: number; data_scope: string }>()
        .execute()
    : [];
  return rows.map((r) => ({
    id: Number(r.id),
    username: r.username,
    nickName: r.nick_name ?? '',
    phone: r.phone ?? null,
    email: r.email ?? null,
    wecomUserId: r.wecom_user_id ?? null,
    sex: Number(r.sex ?? 1),
    enabled: Boolean(r.enabled),
    deptId: r.dept_id === null ? null : Number(r.dept_id),
    orgId: r.org_id === null ? null : Number(r.org_id),
    dept: r.dept_id === null ? null : { id: Number(r.dept_id), name: r.dept_name ?? '' },
    orgName: r.org_name ?? null,
    lockTime: Number(r.lock_time ?? 0),
    defPassword: Boolean(r.is_def_password),
    createTime: r.create_time ?? null,
    roles: roles
      .filter((x) => Number(x.user_id) === Number(r.id))
      .map((x) => ({ id: Number(x.id), name: x.name, level: Number(x.level), dataScope: x.data_scope })),
  }));
}

function userSelect(db: Db) {
  return db
    .selectFrom('sys_user as u')
    .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
    .leftJoin('sys_dept as o', 'o.id', 'u.org_id')
    .select([
      'u.id',
      'u.username',
      'u.nick_name',
      'u.phone',
      'u.email',
      'u.wecom_user_id',
      'u.sex',
      'u.enabled',
      'u.dept_id',
      'u.org_id',
      'u.lock_time',
      'u.is_def_password',
      'u.create_time',
      'd.name as dept_name',
      'o.name as org_name',
    ])
    .$castTo<StoredUser>();
}

/** The key that shows staff phones and e-mails in full (a button under 用户管理). */
export const USER_SENSITIVE_KEY = 'user:sensitive';
/** The personal data of a user record and its masks. */
const USER_MASKS: Record<'phone' | 'email', (v: string) => string> = { phone: maskPhone, email: maskEmail };

/** Whether the caller sees staff phones and e-mails in full. */
export function seesUserContacts(request: FastifyRequest): boolean {
  const user = request.user;
  return !!user && (user.isAdmin || user.permissions.has(USER_SENSITIVE_KEY));
}

/** The users' phones and e-mails masked for a caller without the key; a full read is marked for the operation log. */
export function guardUsers<T extends { id: number; phone: string | null; email: string | null }>(request: FastifyRequest, users: T[]): T[] {
  if (!users.length) return users;
  if (seesUserContacts(request)) {
    request.personalDataRead = { resource: 'user', ids: [...(request.personalDataRead?.ids ?? []), ...users.map((u) => u.id)] };
    return users;
  }
  for (const u of users) for (const k of ['phone', 'email'] as const) if (u[k]) u[k] = USER_MASKS[k](u[k]);
  return users;
}

/** sys_user as record history tracks it: its columns (never the password) and its roles. */
export const USER_TABLE: TrackedTable = {
  spec: TABLE_HISTORY.user,
  bin: true,
  extra: async (db, ids) =>
    idListsBy(
      ids,
      (await db.selectFrom('sys_users_roles').select(['user_id', 'role_id']).where('user_id', 'in', ids).execute()).map((r) => [
        r.user_id,
        r.role_id,
      ]),
      'roleIds',
    ),
};

/** The edit form's body of a user's tracked state (恢复到此版本 sends it through the edit). */
function userBody(id: number, state: TrackedState): Body {
  return {
    id,
    username: state.username,
    nickName: state.nickName,
    phone: state.phone,
    email: state.email,
    wecomUserId: state.wecomUserId,
    sex: state.sex,
    enabled: state.enabled,
    deptId: state.deptId,
    orgId: state.orgId,
    lockTime: state.lockTime,
    roles: ((state.roleIds as number[] | null) ?? []).map((r) => ({ id: r })),
  };
}

const LOCK_TIME_KEYS = ['id', 'lockTime', 'orgId', 'deptId'];

/** The body of the personal centre's lock dialog: exactly {id, lockTime, orgId, deptId}. */
function isLockTimeBody(body: Body): boolean {
  const keys = Object.keys(body);
  return keys.includes('lockTime') && keys.every((k) => LOCK_TIME_KEYS.includes(k));
}

export function lockTimeOf(body: Body): number {
  return integer(body, 'lockTime', '锁屏时间', 0, LOCK_TIME_MAX);
}

export function registerUserAdmin(app: FastifyInstance): void {
  const db = app.database.db;
  const dialect = app.database.dialect;

  const readUser = (body: Body) => {
    // the form's fields, as the screen checks them
    assertForm(USER_FORM, body);
    const username = requiredText(body, 'username', '用户名', 32);
    const phone = optionalText(body, 'phone', '电话号码', 20);
    const email = optionalText(body, 'email', '邮箱', 100);
    // left out: unchanged (the binding is kept); null or '' unbinds
    const wecomUserId = 'wecomUserId' in body ? optionalText(body, 'wecomUserId', '企业微信账号', 64) : undefined;
    const sexValue = body.sex === '男' ? 1 : body.sex === '女' ? 0 : body.sex;
    return {
      username,
      nickName: requiredText(body, 'nickName', '昵称', 64),
      phone,
      email,
      wecomUserId,
      sex: integer({ sex: sexValue }, 'sex', '性别', 0, 1, 1),
      enabled: bool(body, 'enabled', '状态', true),
      deptId: requiredId(body.deptId ?? (body.dept as Body | undefined)?.id, '请选择部门'),
      orgId: requiredId(body.orgId, '请选择公司'),
      roleIds: idList(body.roles, '岗位'),
    };
  };

  /** Checks shared by create and edit: department, organisation, scope, roles and levels. */
  const checkPlacement = async (request: FastifyRequest, u: ReturnType<typeof readUser>) => {
    const user = request.user!;
    const scope = await requestScope(db, request);
    const depts = await db.selectFrom('sys_dept').select('id').where('id', 'in', [u.deptId, u.orgId]).execute();
    const have = new Set(depts.map((d) => Number(d.id)));
    if (!have.has(u.deptId)) throw badRequest('部门不存在');
    if (!have.has(u.orgId)) throw badRequest('公司不存在');
    if (!(await withDescendants(db, [u.orgId])).includes(u.deptId)) throw badRequest('部门不属于所选公司', { field: 'deptId' });
    if (!inScope(scope, 'dept', u.deptId)) throw forbidden('没有权限操作该部门的用户');
    if (!canChooseAnyOrganisation(user) && u.orgId !== user.orgId) throw forbidden('只能选择本公司');
    if (!u.roleIds.length) throw badRequest('请选择岗位', { field: 'roles' });
    const roles = await db.selectFrom('sys_role').select(['id', 'level']).where('id', 'in', u.roleIds).execute();
    if (roles.length !== u.roleIds.length) throw badRequest('岗位不存在');
    assertLevel(user, await highestLevelOf(db, u.roleIds));
  };

  const uniqueChecks = async (u: { username: string; phone: string | null; wecomUserId?: string | null }, exceptId?: number) => {
    if (u.wecomUserId) {
      let w = db.selectFrom('sys_user').select('id').where('wecom_user_id', '=', u.wecomUserId);
      if (exceptId !== undefined) w = w.where('id', '!=', exceptId);
      if (await w.executeTakeFirst()) throw badRequest('该企业微信账号已绑定其他用户', { field: 'wecomUserId' });
    }
    let q = db
      .selectFrom('sys_user')
      .select(['id', 'username', 'phone'])
      .where((eb) => eb.or([eb('username', '=', u.username), ...(u.phone ? [eb('phone', '=', u.phone)] : [])]));
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    const clash = await q.executeTakeFirst();
    if (clash?.username === u.username) throw badRequest('用户名已存在', { field: 'username' });
    if (clash) throw badRequest('手机号已存在', { field: 'phone' });
  };

  /** The stored user an actor wants to change: exists and in scope (else 404, alike), not above the actor. */
  const target = async (request: FastifyRequest, id: number) => {
    const row = await db
      .selectFrom('sys_user')
      .select(['id', 'username', 'dept_id', 'org_id'])
      .where('id', '=', id)
      .$castTo<Pick<StoredUser, 'id' | 'username' | 'dept_id' | 'org_id'>>()
      .executeTakeFirst();
    const user = request.user!;
    // a user outside the caller's data scope answers as an absent one (record-door.ts)
    if (!row || (Number(row.id) !== user.id && !inScope(await requestScope(db, request), 'dept', row.dept_id)))
      throw notFound('用户不存在');
    if (row.username === ADMIN_USERNAME && !user.isAdmin) throw forbidden('不能操作超级管理员');
    if (Number(row.id) !== user.id) {
      const theirs = await userLevel(db, Number(row.id), row.username);
      const mine = actorLevel(user);
      if (theirs < mine) throw forbidden(levelMessage(mine, theirs));
    }
    return row;
  };

  app.get('/api/users', { preHandler: app.requirePermission('user:list') }, async (request) => {
    const query = request.query as Record<string, unknown>;
    onlyKeys(query, ['page', 'size', 'sort', 'blurry', 'deptId', 'enabled', 'createTime', 'orgId']);
    const { page, size } = paging(query);
    const sort = sortKeys(query, USER_SORT, [['u.id', 'desc']]);
    let q = db.selectFrom('sys_user as u');
    const blurry = queryValue(query, 'blurry');
    // phones and e-mails are searched only by callers who see them in full
    if (blurry) q = q.where(await userTextCondition(db, blurry, seesUserContacts(request)));
    const deptText = queryValue(query, 'deptId');
    if (deptText) q = q.where('u.dept_id', 'in', await withDescendants(db, [requiredId(deptText, '部门不正确')]));
    const orgText = queryValue(query, 'orgId');
    if (orgText) q = q.where('u.org_id', '=', requiredId(orgText, '公司不正确'));
    const enabled = queryValue(query, 'enabled');
    if (enabled !== undefined && enabled !== '') {
      if (enabled !== 'true' && enabled !== 'false') throw badRequest('参数enabled只能是true或false');
      q = q.where('u.enabled', '=', enabled === 'true' ? 1 : 0);
    }
    const times =
      query.createTime === undefined
        ? []
        : Array.isArray(query.createTime)
          ? query.createTime.map(plainText)
          : [plainText(query.createTime)];
    if (times.length) {
      if (times.length !== 2 || times.some((t) => t !== '' && !DATE_TIME.test(t))) throw badRequest('创建时间格式错误');
      if (times[0]) q = q.where('u.create_time', '>=', times[0].length === 10 ? `${times[0]} 00:00:00` : times[0]);
      if (times[1]) q = q.where('u.create_time', '<=', times[1].length === 10 ? `${times[1]} 23:59:59` : times[1]);
    }
    const scope = await requestScope(db, request);
    if (!scope.all) q = q.where('u.dept_id', 'in', scope.deptIds.length ? scope.deptIds : [-1]);
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const ids = q.select('u.id');
    let list = userSelect(db).where('u.id', 'in', ids);
    for (const [col, dir] of sort) list = list.orderBy(col, dir);
    const rows = await list
      .limit(size)
      .offset(page * size)
      .execute();
    return { content: guardUsers(request, await withRoles(db, rows)), totalElements: Number(total?.n ?? 0) };
  });

  app.post('/api/users', { preHandler: app.requirePermission('user:add') }, async (request, reply) => {
    const read = readUser(objectBody(request.body));
    // a caller who sees phones and e-mails masked does not write them either, on create as on
    // edit: a phone it typed would be checked against every stored one (手机号已存在 for a right
    // guess); the new user binds a phone in the personal centre with an SMS code
    const u = seesUserContacts(request) ? read : { ...read, phone: null, email: null };
    await checkPlacement(request, u);
    await uniqueChecks(u);
    const now = nowText();
    const password = await hashPassword(DEFAULT_USER_PASSWORD);
    const id = await db.transaction().execute((trx) =>
      trackChange(
        trx,
        dialect,
        USER_TABLE,
        request,
        'create',
        [],
        async () => {
          const row = await trx
            .insertInto('sys_user')
            .values({
              username: u.username,
              nick_name: u.nickName,
              password,
              phone: u.phone,
              email: u.email,
              wecom_user_id: u.wecomUserId ?? null,
              sex: u.sex,
              dept_id: u.deptId,
              org_id: u.orgId,
              enabled: u.enabled ? 1 : 0,
              lock_time: 0,
              is_def_password: 1,
              pwd_reset_time: now,
              create_time: now,
              update_time: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const userId = Number(row.id);
          for (const roleId of u.roleIds) await trx.insertInto('sys_users_roles').values({ user_id: userId, role_id: roleId }).execute();
          return userId;
        },
        (userId) => [userId],
      ),
    );
    const [created] = await withRoles(db, [await userSelect(db).where('u.id', '=', id).executeTakeFirstOrThrow()]);
    return reply.status(201).send(created);
  });

  // user:edit, except a user's own lock time (the personal centre's lock dialog)
  const editGuard = markPermission(async function (this: FastifyInstance, request: FastifyRequest, reply: unknown) {
    await app.authenticate.call(this, request, reply as never);
    const user = request.user!;
    const body = request.body;
    const own =
      typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      isLockTimeBody(body as Body) &&
      Number((body as Body).id) === user.id;
    if (!own && !user.isAdmin && !user.permissions.has('user:edit')) throw forbidden();
  }, 'user:edit');

  app.put('/api/users', { preHandler: editGuard }, async (request, reply) => {
    const body = objectBody(request.body);
    const id = requiredId(body.id, 'ID不能为空');
    const user = request.user!;
    if (isLockTimeBody(body)) {
      const lockTime = lockTimeOf(body);
      const row = id === user.id ? { id } : await target(request, id);
      const res = await db
        .transaction()
        .execute((trx) =>
          trackChange(trx, dialect, USER_TABLE, request, 'update', [Number(row.id)], () =>
            trx.updateTable('sys_user').set({ lock_time: lockTime, update_time: nowText() }).where('id', '=', row.id).executeTakeFirst(),
          ),
        );
      if (!Number(res.numUpdatedRows)) throw notFound('用户不存在');
      return reply.status(204).send();
    }
    await editUser(request, body, id, 'update');
    return reply.status(204).send();
  });

  /** The edit of a user (the form's body): the checks of an edit, then the write and its revision. */
  const editUser = async (request: FastifyRequest, body: Body, id: number, action: RevisionAction) => {
    const user = request.user!;
    const stored = await target(request, id);
    // a caller who saw the phone and e-mail masked cannot write them: what their form holds is
    // the mask, never the value; the stored ones stay
    let given = body;
    if (!seesUserContacts(request)) {
      const contacts = await db.selectFrom('sys_user').select(['phone', 'email']).where('id', '=', id).executeTakeFirstOrThrow();
      given = { ...body, phone: contacts.phone ?? null, email: contacts.email ?? null };
    }
    const u = readUser(given);
    const current = (await db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', id).execute()).map((r) =>
      Number(r.role_id),
    );
    const rolesChange = current.length !== u.roleIds.length || current.some((r) => !u.roleIds.includes(r));
    if (id === user.id && rolesChange && !user.isAdmin) throw forbidden('不能修改自己的岗位');
    if (stored.username === ADMIN_USERNAME) {
      if (u.username !== ADMIN_USERNAME) throw badRequest('不能修改超级管理员的用户名');
      if (!u.enabled) throw badRequest('不能禁用超级管理员');
    }
    if (id === user.id && !u.enabled) throw badRequest('不能禁用自己');
    await checkPlacement(request, u);
    // roles taken away must be at or below the actor's level too
    assertLevel(
      user,
      await highestLevelOf(
        db,
        current.filter((r) => !u.roleIds.includes(r)),
      ),
    );
    await uniqueChecks(u, id);
    const lockTime = body.lockTime === undefined ? undefined : lockTimeOf(body);
    await db.transaction().execute((trx) =>
      trackChange(trx, dialect, USER_TABLE, request, action, [id], async () => {
        await trx
          .updateTable('sys_user')
          .set({
            username: u.username,
            nick_name: u.nickName,
            phone: u.phone,
            email: u.email,
            sex: u.sex,
            dept_id: u.deptId,
            org_id: u.orgId,
            enabled: u.enabled ? 1 : 0,
            ...(lockTime === undefined ? {} : { lock_time: lockTime }),
            ...(u.wecomUserId === undefined ? {} : { wecom_user_id: u.wecomUserId }),
            update_time: nowText(),
          })
          .where('id', '=', id)
          .execute();
        if (rolesChange) {
          await trx.deleteFrom('sys_users_roles').where('user_id', '=', id).execute();
          for (const roleId of u.roleIds) await trx.insertInto('sys_users_roles').values({ user_id: id, role_id: roleId }).execute();
        }
        if (!u.enabled) await trx.deleteFrom('sys_session').where('user_id', '=', id).execute();
      }),
    );
    invalidateAccess(id);
  };

  app.delete('/api/users', { preHandler: app.requirePermission('user:del') }, async (request, reply) => {
    const ids = deleteIds(request.body);
    const user = request.user!;
    if (ids.includes(user.id)) throw badRequest('不能删除自己');
    for (const id of ids) {
      const row = await target(request, id);
      if (row.username === ADMIN_USERNAME) throw badRequest('不能删除超级管理员');
    }
    await db.transaction().execute((trx) =>
      trackChange(trx, dialect, USER_TABLE, request, 'delete', ids, async () => {
        await trx.deleteFrom('sys_users_roles').where('user_id', 'in', ids).execute();
        await trx.deleteFrom('sys_session').where('user_id', 'in', ids).execute();
        await trx.deleteFrom('sys_user').where('id', 'in', ids).execute();
      }),
    );
    for (const id of ids) invalidateAccess(id);
    return reply.status(200).send();
  });

  app.post('/api/users/resetPass', { preHandler: app.requirePermission('user:edit') }, async (request) => {
    onlyKeys(request.query, ['userName', 'userid']);
    const userName = queryValue(request.query, 'userName');
    const id = requiredId(queryValue(request.query, 'userid'), '请选择用户');
    if (!userName) throw badRequest('用户名不能为空');
    const row = await target(request, id);
    if (row.username !== userName) throw badRequest('用户名与用户不一致');
    const password = await hashPassword(DEFAULT_USER_PASSWORD);
    await db.transaction().execute((trx) =>
      trackChange(trx, dialect, USER_TABLE, request, 'update', [id], async () => {
        await trx
          .updateTable('sys_user')
          .set({
            password,
            is_def_password: 1,
            pwd_reset_time: nowText(),
            login_fail_count: 0,
            login_fail_since: null,
            locked_until: null,
            update_time: nowText(),
          })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('sys_session').where('user_id', '=', id).execute();
      }),
    );
    return { message: '密码重置成功' };
  });

  /** the one decision on a user's record (record-door.ts): its department, as stored or as deleted, inside the caller's scope */
  const usersVisible = async (request: FastifyRequest): Promise<MaySee> => {
    const scope = await requestScope(db, request);
    return (state) => inScope(scope, 'dept', state.deptId === null || state.deptId === undefined ? null : Number(state.deptId));
  };

  registerTableHistory(app, {
    key: 'user',
    table: USER_TABLE,
    sees: seesUserContacts,
    personalResource: 'user',
    // a user outside the caller's data scope (as stored, or as deleted) answers as an absent one
    visible: usersVisible,
    restore: async (request, id, state) => {
      // an earlier version's roles never grant keys the restorer does not hold (levels: editUser)
      await assertHoldsKeysOf(db, request.user!, (state.roleIds as number[] | null) ?? []);
      await editUser(request, userBody(id, state), id, 'restore');
    },
  });

  // 回收站: a user comes back with its roles, through the checks of a create (scope, levels, a
  // name or phone taken since) and only when the restorer holds every key its roles grant. It
  // comes back disabled, with a random password nobody knows that must be changed: an
  // administrator enables it and resets its password (重置密码) before anyone can sign in as it
  // (docs/history.md), so a restore never opens an account to the one who restored it
  registerTableBin(app, {
    key: 'user',
    table: USER_TABLE,
    sees: seesUserContacts,
    personalResource: 'user',
    visible: usersVisible,
    check: async (request, { state }) => {
      const user = request.user!;
      if (state.username === ADMIN_USERNAME && !user.isAdmin) throw forbidden('不能操作超级管理员');
      if (!canChooseAnyOrganisation(user) && Number(state.orgId) !== user.orgId) throw forbidden('只能选择本公司');
      assertLevel(user, await highestLevelOf(db, (state.roleIds as number[] | null) ?? []));
      await assertHoldsKeysOf(db, user, (state.roleIds as number[] | null) ?? []);
      await uniqueChecks({
        username: String(state.username),
        phone: (state.phone as string | null) ?? null,
        wecomUserId: (state.wecomUserId as string | null) ?? null,
      });
    },
    insert: async (trx, { id, state, createTime }) => {
      const now = nowText();
      await trx
        .insertInto('sys_user')
        .values({
          id,
          username: state.username,
          nick_name: state.nickName,
          password: await hashPassword(randomBytes(24).toString('base64url')),
          phone: state.phone,
          email: state.email,
          wecom_user_id: state.wecomUserId,
          sex: state.sex ?? 1,
          dept_id: state.deptId,
          org_id: state.orgId,
          enabled: 0,
          lock_time: state.lockTime ?? 0,
          img: state.img,
          is_def_password: 1,
          pwd_reset_time: now,
          create_time: createTime,
          update_time: now,
        })
        .execute();
      for (const roleId of (state.roleIds as number[] | null) ?? [])
        await trx.insertInto('sys_users_roles').values({ user_id: id, role_id: roleId }).execute();
    },
  });

  app.get('/api/users/option', { preHandler: app.authenticate }, async (request) => {
    const query = request.query as Record<string, unknown>;
    onlyKeys(query, ['orgId', 'page', 'size', 'sort', 'blurry', 'enabled']);
    const orgText = queryValue(query, 'orgId');
    if (!orgText) throw badRequest('请选择公司');
    const orgId = requiredId(orgText, '请选择公司');
    const { page, size } = paging(query, 99999);
    const sort = sortKeys(query, { ...USER_SORT, ID: 'u.id' }, [['u.id', 'asc']]);
    const user = request.user!;
    const scope = await requestScope(db, request);
    if (!canChooseAnyOrganisation(user) && !inScope(scope, 'org', orgId)) throw forbidden('只能选择本公司');
    let q = db.selectFrom('sys_user as u').where('u.org_id', '=', orgId);
    // the organisation's users inside the data scope
    if (!scope.all) q = q.where('u.dept_id', 'in', scope.deptIds.length ? scope.deptIds : [-1]);
    const enabled = queryValue(query, 'enabled');
    if (enabled === 'true' || enabled === 'false') q = q.where('u.enabled', '=', enabled === 'true' ? 1 : 0);
    else if (enabled !== undefined && enabled !== '') throw badRequest('参数enabled只能是true或false');
    const blurry = queryValue(query, 'blurry');
    if (blurry) q = q.where(await userTextCondition(db, blurry));
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    let list = q
      .select(['u.id', 'u.username', 'u.nick_name', 'u.dept_id', 'u.org_id', 'u.enabled'])
      .$castTo<Pick<StoredUser, 'id' | 'username' | 'nick_name' | 'dept_id' | 'org_id' | 'enabled'>>();
    for (const [col, dir] of sort) list = list.orderBy(col, dir);
    const rows = await list
      .limit(size)
      .offset(page * size)
      .execute();
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        username: r.username,
        nickName: r.nick_name ?? '',
        deptId: r.dept_id === null ? null : Number(r.dept_id),
        orgId: Number(r.org_id),
        enabled: Boolean(r.enabled),
      })),
      totalElements: Number(total?.n ?? 0),
    };
  });
}
