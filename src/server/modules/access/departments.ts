/**
 * Department administration (sys_dept, a tree by pid; null or 0 is the root):
 *   GET    api/dept/lazy?pid=        children of pid (0 = roots) with hasChildren   (signed in)
 *   GET    api/dept/getDeptList      the whole visible tree, nested                  (signed in)
 *   GET    api/dept/getIdNameAndPid  [{id, name, pid}] of the visible departments    (signed in)
 *   GET    api/dept/getIdsByPid?id=  the id and every descendant id                  (signed in)
 *   POST   api/dept                  create {name, pid, sort, enabled}                (dept:add)
 *   PUT    api/dept                  update {id, name, pid, sort, enabled}            (dept:edit)
 *   DELETE api/dept                  [ids]; refused while a department has children
 *                                    or users                                        (dept:del)
 * "Visible" follows the data scope: the departments in scope and their ancestors (so the tree
 * can be walked down to them); a user with 全部 sees every one. Writes need the department (and
 * the new parent) inside the scope. No cycles: a parent cannot be the department or below it.
 */
import type { Db } from '../../types.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { nowText } from '../../db/index.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import { requestScope, withDescendants, type DataScope } from '../../auth/data-scope.ts';
import { TABLE_HISTORY } from '../../../shared/table-history.ts';
import type { RevisionAction } from '../../crud/history/revisions.ts';
import { registerTableHistory } from '../../crud/history/table-history-routes.ts';
import { registerTableBin } from '../../crud/history/table-recycle-bin.ts';
import type { MaySee } from '../../crud/access/record-door.ts';
import { idListsBy, trackChange, type TrackedTable } from '../../crud/history/table-revisions.ts';
import { assertForm, deleteIds, integer, bool, objectBody, onlyKeys, optionalId, queryValue, requiredId, requiredText } from './input.ts';
import { DEPT_FORM } from '../../../shared/admin-forms.ts';
import type { StoredDept } from '../system/departments.ts';

export interface DeptNode {
  id: number;
  /** 0 for a root */
  pid: number;
  name: string;
  label: string;
  sort: number;
  enabled: boolean;
  hasChildren: boolean;
  leaf: boolean;
  subCount: number;
  createTime: string | null;
  /** the department's WeCom id once synced (企业微信部门ID), else null */
  wecomDeptId: number | null;
  /** the department note (部门备注) */
  remark: string | null;
  /** shown only as the way down to departments in the scope: not selectable, not editable */
  disabled: boolean;
  children?: DeptNode[];
}

interface Row {
  id: number;
  pid: number | null;
  name: string;
  sort: number;
  enabled: boolean;
  createTime: string | null;
  wecomDeptId: number | null;
  remark: string | null;
  /** outside the data scope (an ancestor shown for the way down) */
  outside?: boolean;
}

export const DEPT_NOT_IN_SCOPE = '没有权限操作该部门';
export const DEPT_HAS_CHILDREN = '所选部门存在下级部门，请先删除下级部门';
export const DEPT_HAS_USERS = '所选部门存在用户关联，请解除关联后再试';
/** A record of an entity points at the department (a property with `x-ref` to dept). */
export const deptHasRecords = (title: string) => `所选部门存在${title}关联，请解除关联后再试`;

/** Every property of every schema whose value is a department (`x-ref.resource` dept). */
function deptReferences(specs: ResourceSpec[]): Array<{ spec: ResourceSpec; column: string }> {
  return specs.flatMap((spec) => spec.fields.filter((f) => f.ref?.resource === 'dept').map((f) => ({ spec, column: f.column })));
}
export const DEPT_CYCLE = '上级部门不能为自己或自己的下级部门';

async function allRows(db: Db): Promise<Row[]> {
  const rows = await db
    .selectFrom('sys_dept')
    .select(['id', 'pid', 'name', 'sort', 'enabled', 'create_time', 'wecom_dept_id', 'remark'])
    .orderBy('sort')
    .orderBy('id')
    .$castTo<StoredDept & { wecom_dept_id: number | null; remark: string | null }>()
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    pid: r.pid === null || r.pid === undefined || Number(r.pid) === 0 ? null : Number(r.pid),
    name: String(r.name),
    sort: Number(r.sort),
    enabled: Boolean(r.enabled),
    createTime: r.create_time ?? null,
    wecomDeptId: r.wecom_dept_id === null || r.wecom_dept_id === undefined ? null : Number(r.wecom_dept_id),
    remark: r.remark ?? null,
  }));
}

/** Ids the scope lets the user see in the tree: the scope and every ancestor; null = all. */
function visibleIds(rows: Row[], scope: DataScope): Set<number> | null {
  if (scope.all) return null;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out = new Set<number>();
  for (const id of scope.deptIds) {
    let cur = byId.get(id);
    while (cur && !out.has(cur.id)) {
      out.add(cur.id);
      cur = cur.pid === null ? undefined : byId.get(cur.pid);
    }
  }
  return out;
}

function toNode(r: Row, kids: Row[]): DeptNode {
  return {
    id: r.id,
    pid: r.pid ?? 0,
    name: r.name,
    label: r.name,
    sort: r.sort,
    enabled: r.enabled,
    hasChildren: kids.length > 0,
    leaf: kids.length === 0,
    subCount: kids.length,
    createTime: r.createTime,
    wecomDeptId: r.wecomDeptId,
    remark: r.remark,
    disabled: !!r.outside,
  };
}

async function visibleRows(db: Db, scope: DataScope): Promise<Row[]> {
  const rows = await allRows(db);
  const visible = visibleIds(rows, scope);
  return visible ? rows.filter((r) => visible.has(r.id)).map((r) => ({ ...r, outside: !scope.deptIds.includes(r.id) })) : rows;
}

function childrenMap(rows: Row[]): Map<number | null, Row[]> {
  const ids = new Set(rows.map((r) => r.id));
  const map = new Map<number | null, Row[]>();
  for (const r of rows) {
    const parent = r.pid !== null && ids.has(r.pid) ? r.pid : null;
    const list = map.get(parent) ?? [];
    list.push(r);
    map.set(parent, list);
  }
  return map;
}

export function deptTree(rows: Row[]): DeptNode[] {
  const kids = childrenMap(rows);
  const build = (r: Row, seen: Set<number>): DeptNode => {
    const list = seen.has(r.id) ? [] : (kids.get(r.id) ?? []);
    const node = toNode(r, list);
    if (list.length) node.children = list.map((k) => build(k, new Set(seen).add(r.id)));
    return node;
  };
  return (kids.get(null) ?? []).map((r) => build(r, new Set()));
}

/** 403 unless the department is inside the scope. */
function mustBeInScope(scope: DataScope, id: number | null): void {
  if (scope.all) return;
  if (id === null || !scope.deptIds.includes(id)) throw forbidden(DEPT_NOT_IN_SCOPE);
}

/** sys_dept as record history tracks it (its columns). */
export const DEPT_TABLE: TrackedTable = {
  spec: TABLE_HISTORY.dept,
  bin: true,
  // the roles whose 自定义 scope names the department (their links go with it and come back with it)
  extra: async (db, ids) =>
    idListsBy(
      ids,
      (await db.selectFrom('sys_roles_depts').select(['dept_id', 'role_id']).where('dept_id', 'in', ids).execute()).map((r) => [
        r.dept_id,
        r.role_id,
      ]),
      'roles',
    ),
};

export function registerDepartmentAdmin(app: FastifyInstance, specs: ResourceSpec[]): void {
  const references = deptReferences(specs);
  const db = app.database.db;
  const dialect = app.database.dialect;
  const scopeOf = (request: Parameters<typeof requestScope>[1]) => requestScope(db, request);

  app.get('/api/dept/lazy', { preHandler: app.authenticate }, async (request) => {
    onlyKeys(request.query, ['pid']);
    const pidText = queryValue(request.query, 'pid') ?? '0';
    if (!/^\d{1,16}$/.test(pidText)) throw badRequest('参数pid必须是不小于0的整数');
    const pid = Number(pidText) || null;
    const rows = await visibleRows(db, await scopeOf(request));
    const kids = childrenMap(rows);
    return (kids.get(pid) ?? []).filter((r) => r.pid === pid).map((r) => toNode(r, kids.get(r.id) ?? []));
  });

  app.get('/api/dept/getDeptList', { preHandler: app.authenticate }, async (request) => {
    onlyKeys(request.query, ['enabled']);
    const enabled = queryValue(request.query, 'enabled');
    if (enabled !== undefined && enabled !== 'true' && enabled !== 'false') throw badRequest('参数enabled只能是true或false');
    let rows = await visibleRows(db, await scopeOf(request));
    if (enabled !== undefined) rows = rows.filter((r) => r.enabled === (enabled === 'true'));
    return deptTree(rows);
  });

  app.get('/api/dept/getIdNameAndPid', { preHandler: app.authenticate }, async (request) => {
    onlyKeys(request.query, []);
    const rows = await visibleRows(db, await scopeOf(request));
    return rows.map((r) => ({ id: r.id, name: r.name, pid: r.pid ?? 0 }));
  });

  app.get('/api/dept/getIdsByPid', { preHandler: app.authenticate }, async (request) => {
    onlyKeys(request.query, ['id']);
    const id = requiredId(queryValue(request.query, 'id'), '请选择部门');
    const scope = await scopeOf(request);
    mustBeInScope(scope, id);
    if (!(await db.selectFrom('sys_dept').select('id').where('id', '=', id).executeTakeFirst())) throw notFound('部门不存在');
    return withDescendants(db, [id]);
  });

  const readDept = (body: Record<string, unknown>) => (
    assertForm(DEPT_FORM, body),
    {
      name: requiredText(body, 'name', '部门名称', 100),
      pid: optionalId(body.pid, '上级部门不正确'),
      sort: integer(body, body.deptSort !== undefined && body.sort === undefined ? 'deptSort' : 'sort', '排序', 0, 999999, 999),
      enabled: bool(body, 'enabled', '状态', true),
    }
  );

  const parentMustExist = async (pid: number | null) => {
    if (pid === null) return;
    if (!(await db.selectFrom('sys_dept').select('id').where('id', '=', pid).executeTakeFirst())) throw badRequest('上级部门不存在');
  };

  app.post('/api/dept', { preHandler: app.requirePermission('dept:add') }, async (request, reply) => {
    const d = readDept(objectBody(request.body));
    const scope = await scopeOf(request);
    // a new root company needs 全部; otherwise the parent must be inside the scope
    mustBeInScope(scope, d.pid);
    await parentMustExist(d.pid);
    const now = nowText();
    const row = await db.transaction().execute((trx) =>
      trackChange(
        trx,
        dialect,
        DEPT_TABLE,
        request,
        'create',
        [],
        () =>
          trx
            .insertInto('sys_dept')
            .values({ pid: d.pid, name: d.name, sort: d.sort, enabled: d.enabled ? 1 : 0, create_time: now, update_time: now })
            .returning('id')
            .executeTakeFirstOrThrow(),
        (r) => [Number(r.id)],
      ),
    );
    return reply.status(201).send({ id: Number(row.id), ...d, pid: d.pid ?? 0 });
  });

  app.put('/api/dept', { preHandler: app.requirePermission('dept:edit') }, async (request, reply) => {
    const body = objectBody(request.body);
    await editDept(request, body, requiredId(body.id, 'ID不能为空'), 'update');
    return reply.status(204).send();
  });

  /** The edit of a department: its checks (scope, parent, no cycle), then the write and its revision. */
  const editDept = async (request: FastifyRequest, body: Record<string, unknown>, id: number, action: RevisionAction) => {
    const d = readDept(body);
    const scope = await scopeOf(request);
    const rows = await allRows(db);
    const current = rows.find((r) => r.id === id);
    if (!current) throw notFound('部门不存在');
    mustBeInScope(scope, id);
    if (d.pid !== current.pid) mustBeInScope(scope, d.pid);
    await parentMustExist(d.pid);
    if (d.pid !== null && (await withDescendants(db, [id])).includes(d.pid)) throw badRequest(DEPT_CYCLE);
    await db.transaction().execute((trx) =>
      trackChange(trx, dialect, DEPT_TABLE, request, action, [id], () =>
        trx
          .updateTable('sys_dept')
          .set({ pid: d.pid, name: d.name, sort: d.sort, enabled: d.enabled ? 1 : 0, update_time: nowText() })
          .where('id', '=', id)
          .execute(),
      ),
    );
  };

  /**
   * The one decision on a department's record (record-door.ts): the department itself inside the
   * caller's scope, or its parent (a deleted department is in no scope of its own any more)
   */
  const deptsVisible = async (request: FastifyRequest): Promise<MaySee> => {
    const scope = await scopeOf(request);
    return (state, id) =>
      scope.all ||
      scope.deptIds.includes(id) ||
      (state.pid !== null && state.pid !== undefined && scope.deptIds.includes(Number(state.pid)));
  };

  registerTableHistory(app, {
    key: 'dept',
    table: DEPT_TABLE,
    // a department outside the caller's data scope (as stored, or as deleted) answers as an absent one
    visible: deptsVisible,
    restore: (request, id, state) => editDept(request, { ...state, id, pid: state.pid ?? 0 }, id, 'restore'),
  });

  // 回收站: a department comes back with the roles scoped to it (those still there), under a
  // parent inside the caller's data scope (a root needs 全部); departments deleted below it come
  // back with it when chosen together (parents first)
  registerTableBin(app, {
    key: 'dept',
    table: DEPT_TABLE,
    optionalLinks: ['roles'],
    visible: deptsVisible,
    check: async (request, { state }) => mustBeInScope(await scopeOf(request), state.pid ? Number(state.pid) : null),
    insert: async (trx, { id, state, createTime }) => {
      await trx
        .insertInto('sys_dept')
        .values({
          id,
          pid: state.pid || null,
          name: state.name,
          sort: state.deptSort ?? 999,
          enabled: state.enabled === false ? 0 : 1,
          remark: state.remark,
          wecom_dept_id: state.wecomDeptId,
          create_time: createTime,
          update_time: nowText(),
        })
        .execute();
      for (const r of (state.roles as number[] | null) ?? [])
        await trx.insertInto('sys_roles_depts').values({ role_id: r, dept_id: id }).execute();
    },
  });

  app.delete('/api/dept', { preHandler: app.requirePermission('dept:del') }, async (request, reply) => {
    const ids = deleteIds(request.body);
    const scope = await scopeOf(request);
    for (const id of ids) mustBeInScope(scope, id);
    await db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('sys_dept').select('id').where('id', 'in', ids).execute();
      if (found.length !== ids.length) throw notFound('部门不存在');
      const child = await trx.selectFrom('sys_dept').select('id').where('pid', 'in', ids).where('id', 'not in', ids).executeTakeFirst();
      if (child) throw badRequest(DEPT_HAS_CHILDREN);
      const user = await trx
        .selectFrom('sys_user')
        .select('id')
        .where((eb) => eb.or([eb('dept_id', 'in', ids), eb('org_id', 'in', ids)]))
        .executeTakeFirst();
      if (user) throw badRequest(DEPT_HAS_USERS);
      // the records of the schemas (a roster entry, a lead) would point at a department that is gone
      for (const { spec, column } of references) {
        const held = await trx.selectFrom(spec.table).select(column).where(column, 'in', ids).limit(1).executeTakeFirst();
        if (held) throw badRequest(deptHasRecords(spec.title));
      }
      await trackChange(trx, dialect, DEPT_TABLE, request, 'delete', ids, async () => {
        await trx.deleteFrom('sys_roles_depts').where('dept_id', 'in', ids).execute();
        await trx.deleteFrom('sys_dept').where('id', 'in', ids).execute();
      });
    });
    return reply.status(200).send();
  });
}
