/**
 * Changes of a roster entry with their history (key staff:edit; history staff:list), inside the
 * caller's data scope:
 *   PUT api/staff/editJob {id, deptId, job, jpTypeId?, roleIds?, remark?}   调岗
 *     new department (inside the entry's company), job and job type; when the entry is linked to a
 *     system user, that user's department follows, and with roleIds their roles (岗位: a person may
 *     hold several) are replaced; nobody grants or takes away a role above their own level, nor
 *     changes the roles of a user above them or their own. One transaction with the history row.
 *   PUT api/staff/staffLeave {id, leaveDate?, cause?}                      离职
 *     status 0 and the leaving date (default today, not before the entry date); the linked user is
 *     disabled and their sessions end; one transaction with the history row. Twice: 400 该员工已离职.
 *   GET api/staff/jobHistory?id=                                           the entry's history, newest first
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../types.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { invalidateAccess } from '../../auth/access.ts';
import { ADMIN_USERNAME } from '../../auth/seed.ts';
import { tableChanged } from '../../crud/index.ts';
import { dateText, isDateText } from '../../crud/values.ts';
import { diffRecords, revisionActor, writeRevisions, type RevisionAction } from '../../crud/history/revisions.ts';
import { actorOf } from '../../crud/routes.ts';
import { trackChange } from '../../crud/history/table-revisions.ts';
import { USER_TABLE } from '../access/users.ts';
import { nowText } from '../../db/index.ts';
import { badRequest, forbidden } from '../../errors.ts';
import { actorLevel, assertLevel, highestLevelOf, levelMessage, userLevel } from '../access/levels.ts';
import { idList, objectBody, onlyKeys, optionalText, queryValue, requiredId, requiredText, type Body } from '../access/input.ts';
import { jpTypeExists, placementProblem, STAFF_MESSAGES } from './rules.ts';
import { entryById, entryToChange, entryToRead, StaffStatus, type Entry } from './store.ts';
import { HistoryKind, JOB_HISTORY_TABLE } from './tables.ts';
import { plainText } from '../../../shared/text.ts';

export const CHANGE_MESSAGES = {
  unchanged: '调岗信息没有变化',
  noUser: '该员工未关联系统账号，不能设置岗位权限',
  noRoles: '请选择岗位权限',
  rolesMissing: '岗位权限不存在',
  ownRoles: '不能修改自己的岗位',
  leaveBeforeEntry: '离职日期不能早于入职日期',
  leaveDateFormat: '离职日期格式不正确',
  leaveSelf: '不能办理自己的离职',
  leaveAdmin: '不能禁用超级管理员',
} as const;

export function registerStaffChanges(app: FastifyInstance, spec: ResourceSpec, jpType: ResourceSpec | undefined): void {
  const base = `/${spec.path}`;
  const database = () => app.database;
  const db = () => app.database.db;
  const edit = { preHandler: app.requirePermission(`${spec.permission}:edit`) };
  const list = { preHandler: app.requirePermission(`${spec.permission}:list`) };

  /**
   * The roster entry's revision of a move (调岗 an update, 离职 a status move), in the move's
   * transaction: the fields it changed, old values read inside the transaction just before.
   */
  async function writeMoveRevision(
    trx: Db,
    request: FastifyRequest,
    before: Entry,
    after: Record<string, unknown>,
    action: RevisionAction,
  ) {
    const changes = diffRecords(spec, before, after);
    if (!Object.keys(changes).length) return;
    await writeRevisions(trx, database().dialect, spec, revisionActor(actorOf(request)), [{ recordId: before.id, action, changes }]);
  }

  /** The linked user an actor wants to change: not admin (unless admin acts), not above the actor. */
  async function linkedUser(request: FastifyRequest, entry: Entry) {
    if (entry.userId === null || entry.userId === undefined) return undefined;
    const row = await db()
      .selectFrom('sys_user')
      .select(['id', 'username'])
      .where('id', '=', Number(entry.userId))
      .$castTo<{ id: number; username: string }>()
      .executeTakeFirst();
    if (!row) return undefined;
    const actor = request.user!;
    if (Number(row.id) !== actor.id) {
      const theirs = await userLevel(db(), Number(row.id), row.username);
      const mine = actorLevel(actor);
      if (theirs < mine) throw forbidden(levelMessage(mine, theirs));
    }
    return { id: Number(row.id), username: String(row.username) };
  }

  app.put(`${base}/editJob`, edit, async (request) => {
    const body = objectBody(request.body);
    const entry = await entryToChange(app, spec, request, requiredId(body.id, 'ID不能为空'));
    if (Number(entry.status) !== StaffStatus.onStaff) throw badRequest(STAFF_MESSAGES.left);
    const deptId = requiredId(body.deptId, '所属部门不能为空');
    const job = requiredText(body, 'job', '岗位', 50);
    const remark = optionalText(body, 'remark', '调岗说明', 500);
    let jpTypeId: number | null = entry.jpTypeId === null || entry.jpTypeId === undefined ? null : Number(entry.jpTypeId);
    if ('jpTypeId' in body) {
      jpTypeId = body.jpTypeId === null || body.jpTypeId === '' ? null : requiredId(body.jpTypeId, '请选择正确的岗位类型');
      if (jpTypeId !== null && !(await jpTypeExists(db(), jpType, jpTypeId))) throw badRequest(STAFF_MESSAGES.jpTypeMissing);
    }
    const wantsRoles = body.roleIds !== undefined && body.roleIds !== null;
    const roleIds = wantsRoles ? idList(body.roleIds, '岗位权限', 100) : [];
    const problem = await placementProblem(db(), Number(entry.orgId), deptId);
    if (problem) throw badRequest(problem);

    const user = await linkedUser(request, entry);
    let roleNames: string | null = null;
    let rolesChange = false;
    if (wantsRoles) {
      if (!user) throw badRequest(CHANGE_MESSAGES.noUser);
      if (!roleIds.length) throw badRequest(CHANGE_MESSAGES.noRoles);
      const roles = await db()
        .selectFrom('sys_role')
        .select(['id', 'name'])
        .where('id', 'in', roleIds)
        .orderBy('level')
        .orderBy('id')
        .execute();
      if (roles.length !== roleIds.length) throw badRequest(CHANGE_MESSAGES.rolesMissing);
      const current = (await db().selectFrom('sys_users_roles').select('role_id').where('user_id', '=', user.id).execute()).map((r) =>
        Number(r.role_id),
      );
      rolesChange = current.length !== roleIds.length || current.some((r) => !roleIds.includes(r));
      const actor = request.user!;
      if (rolesChange) {
        if (user.id === actor.id && !actor.isAdmin) throw forbidden(CHANGE_MESSAGES.ownRoles);
        // granted and taken away roles must both be at or below the actor's level
        assertLevel(
          actor,
          await highestLevelOf(
            db(),
            roleIds.filter((r) => !current.includes(r)),
          ),
        );
        assertLevel(
          actor,
          await highestLevelOf(
            db(),
            current.filter((r) => !roleIds.includes(r)),
          ),
        );
        roleNames = roles.map((r) => String(r.name)).join('、');
      }
    }
    const fromDept = entry.deptId === null || entry.deptId === undefined ? null : Number(entry.deptId);
    const fromType = entry.jpTypeId === null || entry.jpTypeId === undefined ? null : Number(entry.jpTypeId);
    if (fromDept === deptId && entry.job === job && fromType === jpTypeId && !rolesChange) throw badRequest(CHANGE_MESSAGES.unchanged);

    const now = nowText();
    const actorName = request.user!.username;
    await db()
      .transaction()
      .execute(async (trx) => {
        const before = (await entryById(trx, spec, entry.id)) ?? entry;
        const moved = await trx
          .updateTable(spec.table)
          .set({ dept_id: deptId, job, jp_type_id: jpTypeId, update_time: now, update_user: actorName })
          .where('id', '=', entry.id)
          .where('status', '=', StaffStatus.onStaff)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) throw badRequest(STAFF_MESSAGES.left);
        await writeMoveRevision(trx, request, before, { deptId, job, jpTypeId }, 'update');
        // the linked user's department and roles follow, with the user's own revision
        if (user)
          await trackChange(trx, database().dialect, USER_TABLE, request, 'update', [user.id], async () => {
            await trx
              .updateTable('sys_user')
              .set({ dept_id: deptId, org_id: Number(entry.orgId), update_time: now })
              .where('id', '=', user.id)
              .execute();
            if (rolesChange) {
              await trx.deleteFrom('sys_users_roles').where('user_id', '=', user.id).execute();
              for (const roleId of roleIds) await trx.insertInto('sys_users_roles').values({ user_id: user.id, role_id: roleId }).execute();
            }
          });
        await trx
          .insertInto(JOB_HISTORY_TABLE)
          .values({
            staff_id: entry.id,
            kind: HistoryKind.transfer,
            from_dept_id: fromDept,
            to_dept_id: deptId,
            from_job: entry.job ?? null,
            to_job: job,
            from_jp_type_id: fromType,
            to_jp_type_id: jpTypeId,
            roles: roleNames,
            remark,
            create_user: actorName,
            create_time: now,
          })
          .execute();
      });
    if (user) invalidateAccess(user.id);
    tableChanged(database(), spec.table);
    return { id: entry.id, deptId, job, jpTypeId, roles: roleNames };
  });

  app.put(`${base}/staffLeave`, edit, async (request) => {
    const body: Body = objectBody(request.body);
    const entry = await entryToChange(app, spec, request, requiredId(body.id, 'ID不能为空'));
    if (Number(entry.status) !== StaffStatus.onStaff) throw badRequest(STAFF_MESSAGES.left);
    let leaveDate = dateText(new Date());
    if (body.leaveDate !== undefined && body.leaveDate !== null && body.leaveDate !== '') {
      if (typeof body.leaveDate !== 'string' || !isDateText(body.leaveDate)) throw badRequest(CHANGE_MESSAGES.leaveDateFormat);
      leaveDate = body.leaveDate;
    }
    if (typeof entry.entryDate === 'string' && leaveDate < entry.entryDate)
      throw badRequest(`${CHANGE_MESSAGES.leaveBeforeEntry}（${entry.entryDate}）`);
    const cause = optionalText(body, 'cause', '离职原因', 500);
    const user = await linkedUser(request, entry);
    if (user && user.id === request.user!.id) throw badRequest(CHANGE_MESSAGES.leaveSelf);
    if (user && user.username === ADMIN_USERNAME) throw badRequest(CHANGE_MESSAGES.leaveAdmin);
    const now = nowText();
    const actorName = request.user!.username;
    await db()
      .transaction()
      .execute(async (trx) => {
        const before = (await entryById(trx, spec, entry.id)) ?? entry;
        // the status check and the change together: a second click cannot leave twice
        const left = await trx
          .updateTable(spec.table)
          .set({ status: StaffStatus.left, leave_date: leaveDate, update_time: now, update_user: actorName })
          .where('id', '=', entry.id)
          .where('status', '=', StaffStatus.onStaff)
          .executeTakeFirst();
        if (Number(left.numUpdatedRows) === 0) throw badRequest(STAFF_MESSAGES.left);
        await writeMoveRevision(trx, request, before, { status: StaffStatus.left, leaveDate }, 'status');
        // the linked user is disabled, with the user's own revision
        if (user)
          await trackChange(trx, database().dialect, USER_TABLE, request, 'update', [user.id], async () => {
            await trx.updateTable('sys_user').set({ enabled: 0, update_time: now }).where('id', '=', user.id).execute();
            await trx.deleteFrom('sys_session').where('user_id', '=', user.id).execute();
          });
        await trx
          .insertInto(JOB_HISTORY_TABLE)
          .values({
            staff_id: entry.id,
            kind: HistoryKind.leave,
            from_dept_id: entry.deptId ?? null,
            to_dept_id: null,
            from_job: entry.job ?? null,
            to_job: null,
            from_jp_type_id: entry.jpTypeId ?? null,
            to_jp_type_id: null,
            leave_date: leaveDate,
            remark: cause,
            create_user: actorName,
            create_time: now,
          })
          .execute();
      });
    if (user) invalidateAccess(user.id);
    tableChanged(database(), spec.table);
    return { id: entry.id, status: StaffStatus.left, leaveDate, userDisabled: !!user };
  });

  app.get(`${base}/jobHistory`, list, async (request) => {
    onlyKeys(request.query, ['id']);
    const raw = queryValue(request.query, 'id');
    if (raw === undefined || raw === '') throw badRequest('ID不能为空');
    const entry = await entryToRead(app, spec, request, requiredId(raw, 'ID必须是正整数'));
    let q = db()
      .selectFrom(`${JOB_HISTORY_TABLE} as h`)
      .leftJoin('sys_dept as fd', 'fd.id', 'h.from_dept_id')
      .leftJoin('sys_dept as td', 'td.id', 'h.to_dept_id')
      .select([
        'h.id',
        'h.kind',
        'h.from_dept_id',
        'h.to_dept_id',
        'fd.name as from_dept_name',
        'td.name as to_dept_name',
        'h.from_job',
        'h.to_job',
        'h.from_jp_type_id',
        'h.to_jp_type_id',
        'h.roles',
        'h.leave_date',
        'h.remark',
        'h.create_user',
        'h.create_time',
      ])
      .where('h.staff_id', '=', entry.id);
    if (jpType) {
      q = q
        .leftJoin(`${jpType.table} as fj`, 'fj.id', 'h.from_jp_type_id')
        .leftJoin(`${jpType.table} as tj`, 'tj.id', 'h.to_jp_type_id')
        .select(['fj.name as from_jp_type_name', 'tj.name as to_jp_type_name']);
    }
    const rows = await q.orderBy('h.id', 'desc').$castTo<HistoryRow>().execute();
    const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      fromDeptId: n(r.from_dept_id),
      fromDeptName: r.from_dept_name ?? null,
      toDeptId: n(r.to_dept_id),
      toDeptName: r.to_dept_name ?? null,
      fromJob: r.from_job ?? null,
      toJob: r.to_job ?? null,
      fromJpTypeId: n(r.from_jp_type_id),
      fromJpTypeName: r.from_jp_type_name ?? null,
      toJpTypeId: n(r.to_jp_type_id),
      toJpTypeName: r.to_jp_type_name ?? null,
      roles: r.roles ?? null,
      leaveDate: r.leave_date ?? null,
      remark: r.remark ?? null,
      createUser: r.create_user ?? null,
      createTime: timeText(r.create_time),
    }));
  });
}

/** A roster change with its departments' (and job types') names. */
interface HistoryRow {
  id: number;
  kind: string;
  from_dept_id: number | null;
  from_dept_name: string | null;
  to_dept_id: number | null;
  to_dept_name: string | null;
  from_job: string | null;
  to_job: string | null;
  from_jp_type_id: number | null;
  from_jp_type_name?: string | null;
  to_jp_type_id: number | null;
  to_jp_type_name?: string | null;
  roles: string | null;
  leave_date: string | null;
  remark: string | null;
  create_user: string | null;
  create_time: unknown;
}

function timeText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) {
    const p = (x: number) => String(x).padStart(2, '0');
    return `${v.getFullYear()}-${p(v.getMonth() + 1)}-${p(v.getDate())} ${p(v.getHours())}:${p(v.getMinutes())}:${p(v.getSeconds())}`;
  }
  return plainText(v);
}
