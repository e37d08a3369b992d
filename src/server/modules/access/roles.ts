/**
 * Roles (positions, 岗位) with level, data scope and menus:
 *   GET    api/roles              paged list, blurry over name and description (roles:list)
 *   GET    api/roles/all          every role {id, name, level, dataScope} for selects (signed in)
 *   GET    api/roles/level        the signed-in user's level {level} (signed in)
 *   GET    api/roles/:id          one role with its menus and departments (roles:list)
 *   POST   api/roles              {name, level, dataScope, description, depts} (roles:add)
 *   PUT    api/roles              the same with id (roles:edit)
 *   PUT    api/roles/menu         {id, menus: [{id}]}: the role's menus and keys (roles:edit)
 *   DELETE api/roles              [ids]; refused while users hold them (roles:del)
 * Rules: levels (levels.ts); a user whose scope is not 全部 can only give 本级 or 自定义 with
 * departments inside their own scope; a non-admin can only grant menus they hold themselves.
 * Every change clears the access cache.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import { invalidateAccess } from '../../auth/access.ts';
import { DATA_SCOPES } from '../../auth/tables.ts';
import { ADMIN_ROLE } from '../../auth/seed.ts';
import { requestScope } from '../../auth/data-scope.ts';
import { actorLevel, assertLevel, MAX_LEVEL, MIN_LEVEL } from './levels.ts';
import {
  assertForm,
  deleteIds,
  escapeLike,
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
import { ROLE_FORM } from '../../../shared/admin-forms.ts';
import { TABLE_HISTORY } from '../../../shared/table-history.ts';
import type { RevisionAction } from '../../crud/history/revisions.ts';
import { registerTableHistory } from '../../crud/history/table-history-routes.ts';
import { registerTableBin } from '../../crud/history/table-recycle-bin.ts';
import { idListsBy, trackChange, type TrackedTable } from '../../crud/history/table-revisions.ts';

export const ROLE_IN_USE = '所选角色存在用户关联，请解除关联再试！';

export interface RoleView {
  id: number;
  name: string;
  level: number;
  dataScope: string;
  description: string | null;
  createTime: string | null;
  depts: Array<{ id: number; name: string }>;
  menus: Array<{ id: number }>;
}

/** A sys_role row. */
interface RoleRow {
  id: number;
  name: string;
  level: number;
  data_scope: string;
  description: string | null;
  create_time: string | null;
}

async function roleViews(db: Db, rows: RoleRow[]): Promise<RoleView[]> {
  const ids = rows.map((r) => Number(r.id));
  const depts = ids.length
    ? await db
        .selectFrom('sys_roles_depts as rd')
        .innerJoin('sys_dept as d', 'd.id', 'rd.dept_id')
        .select(['rd.role_id', 'd.id', 'd.name'])
        .where('rd.role_id', 'in', ids)
        .$castTo<{ role_id: number; id: number; name: string }>()
        .execute()
    : [];
  const menus = ids.length
    ? await db.selectFrom('sys_roles_menus').select(['role_id', 'menu_id']).where('role_id', 'in', ids).execute()
    : [];
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    level: Number(r.level),
    dataScope: r.data_scope,
    description: r.description ?? null,
    createTime: r.create_time ?? null,
    depts: depts.filter((d) => Number(d.role_id) === Number(r.id)).map((d) => ({ id: Number(d.id), name: d.name })),
    menus: menus.filter((m) => Number(m.role_id) === Number(r.id)).map((m) => ({ id: Number(m.menu_id) })),
  }));
}

/** sys_role as record history tracks it: its columns, its departments (自定义 scope) and its menus. */
export const ROLE_TABLE: TrackedTable = {
  spec: TABLE_HISTORY.role,
  bin: true,
  extra: async (db, ids) => {
    const depts = await db.selectFrom('sys_roles_depts').select(['role_id', 'dept_id']).where('role_id', 'in', ids).execute();
    const menus = await db.selectFrom('sys_roles_menus').select(['role_id', 'menu_id']).where('role_id', 'in', ids).execute();
    const d = idListsBy(
      ids,
      depts.map((r) => [r.role_id, r.dept_id]),
      'depts',
    );
    const m = idListsBy(
      ids,
      menus.map((r) => [r.role_id, r.menu_id]),
      'menus',
    );
    return new Map(ids.map((id) => [id, { ...d.get(id), ...m.get(id) }]));
  },
};

export function registerRoleAdmin(app: FastifyInstance): void {
  const db = app.database.db;
  const dialect = app.database.dialect;

  const readRole = async (request: FastifyRequest, body: Body) => {
    const dataScope = body.dataScope;
    assertForm(ROLE_FORM, body);
    if (typeof dataScope !== 'string' || !(DATA_SCOPES as readonly string[]).includes(dataScope))
      throw badRequest('数据范围只能是全部、本级或自定义');
    const role = {
      name: requiredText(body, 'name', '角色名称', 64),
      level: integer(body, 'level', '角色级别', MIN_LEVEL, MAX_LEVEL, 3),
      dataScope,
      description: optionalText(body, 'description', '描述', 255),
      depts: dataScope === '自定义' ? idList(body.depts, '数据权限') : [],
    };
    if (dataScope === '自定义' && !role.depts.length) throw badRequest('请选择数据权限');
    const user = request.user!;
    assertLevel(user, role.level);
    const scope = await requestScope(db, request);
    if (!scope.all) {
      if (dataScope === '全部') throw forbidden('你的数据权限不是全部，不能设置全部数据权限');
      if (role.depts.some((d) => !scope.deptIds.includes(d))) throw forbidden('只能选择你的数据权限内的部门');
    }
    if (role.depts.length) {
      const found = await db.selectFrom('sys_dept').select('id').where('id', 'in', role.depts).execute();
      if (found.length !== role.depts.length) throw badRequest('部门不存在');
    }
    return role;
  };

  const storedRole = async (request: FastifyRequest, id: number) => {
    const row = await db.selectFrom('sys_role').selectAll().where('id', '=', id).$castTo<RoleRow>().executeTakeFirst();
    if (!row) throw notFound('角色不存在');
    assertLevel(request.user!, Number(row.level));
    return row;
  };

  const nameFree = async (name: string, exceptId?: number) => {
    let q = db.selectFrom('sys_role').select('id').where('name', '=', name);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw badRequest('角色名称已存在', { field: 'name' });
  };

  app.get('/api/roles', { preHandler: app.requirePermission('roles:list') }, async (request) => {
    onlyKeys(request.query, ['page', 'size', 'sort', 'blurry']);
    const { page, size } = paging(request.query);
    const sort = sortKeys(request.query, { id: 'id', level: 'level', name: 'name', createTime: 'create_time' }, [
      ['level', 'asc'],
      ['id', 'asc'],
    ]);
    let q = db.selectFrom('sys_role');
    const blurry = queryValue(request.query, 'blurry');
    if (blurry) {
      const like = `%${escapeLike(blurry)}%`;
      q = q.where(sql<boolean>`(name like ${like} escape '\\' or description like ${like} escape '\\')`);
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    let list = q.selectAll();
    for (const [col, dir] of sort) list = list.orderBy(col, dir);
    const rows = await list
      .limit(size)
      .offset(page * size)
      .$castTo<RoleRow>()
      .execute();
    return { content: await roleViews(db, rows), totalElements: Number(total?.n ?? 0) };
  });

  app.get('/api/roles/all', { preHandler: app.requireAnyPermission(['roles:list', 'user:list', 'staff:edit']) }, async (request) => {
    onlyKeys(request.query, []);
    const rows = await db
      .selectFrom('sys_role')
      .select(['id', 'name', 'level', 'data_scope'])
      .orderBy('level')
      .orderBy('id')
      .$castTo<Pick<RoleRow, 'id' | 'name' | 'level' | 'data_scope'>>()
      .execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, level: Number(r.level), dataScope: r.data_scope }));
  });

  app.get('/api/roles/level', { preHandler: app.requireAnyPermission(['roles:list', 'user:list', 'staff:edit']) }, (request) => {
    const level = actorLevel(request.user!);
    return { level: Number.isFinite(level) ? level : null };
  });

  app.get('/api/roles/:id', { preHandler: app.requirePermission('roles:list') }, async (request) => {
    const id = requiredId((request.params as Body).id, '角色不存在');
    const row = await db.selectFrom('sys_role').selectAll().where('id', '=', id).$castTo<RoleRow>().executeTakeFirst();
    if (!row) throw notFound('角色不存在');
    return (await roleViews(db, [row]))[0];
  });

  const writeDepts = async (trx: Db, roleId: number, depts: number[]) => {
    await trx.deleteFrom('sys_roles_depts').where('role_id', '=', roleId).execute();
    for (const d of depts) await trx.insertInto('sys_roles_depts').values({ role_id: roleId, dept_id: d }).execute();
  };

  app.post('/api/roles', { preHandler: app.requirePermission('roles:add') }, async (request, reply) => {
    const r = await readRole(request, objectBody(request.body));
    await nameFree(r.name);
    const now = nowText();
    const id = await db.transaction().execute((trx) =>
      trackChange(
        trx,
        dialect,
        ROLE_TABLE,
        request,
        'create',
        [],
        async () => {
          const row = await trx
            .insertInto('sys_role')
            .values({
              name: r.name,
              level: r.level,
              data_scope: r.dataScope,
              description: r.description,
              create_time: now,
              update_time: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await writeDepts(trx, Number(row.id), r.depts);
          return Number(row.id);
        },
        (roleId) => [roleId],
      ),
    );
    const [view] = await roleViews(db, [
      await db.selectFrom('sys_role').selectAll().where('id', '=', id).$castTo<RoleRow>().executeTakeFirstOrThrow(),
    ]);
    return reply.status(201).send(view);
  });

  /** The checks of a role's edit; answers its writes (run in the caller's transaction). */
  const prepareRoleEdit = async (request: FastifyRequest, body: Body, id: number) => {
    const stored = await storedRole(request, id);
    const r = await readRole(request, body);
    if (stored.name === ADMIN_ROLE && (r.name !== ADMIN_ROLE || r.dataScope !== '全部' || r.level !== MIN_LEVEL))
      throw badRequest('不能修改超级管理员角色的名称、级别和数据范围');
    await nameFree(r.name, id);
    return async (trx: Db) => {
      await trx
        .updateTable('sys_role')
        .set({ name: r.name, level: r.level, data_scope: r.dataScope, description: r.description, update_time: nowText() })
        .where('id', '=', id)
        .execute();
      await writeDepts(trx, id, r.depts);
    };
  };

  /** Runs writes of one role as one change with its revision. */
  const writeRole = async (request: FastifyRequest, id: number, action: RevisionAction, writes: Array<(trx: Db) => Promise<void>>) => {
    await db.transaction().execute((trx) =>
      trackChange(trx, dialect, ROLE_TABLE, request, action, [id], async () => {
        for (const w of writes) await w(trx);
      }),
    );
    invalidateAccess();
  };

  app.put('/api/roles', { preHandler: app.requirePermission('roles:edit') }, async (request, reply) => {
    const body = objectBody(request.body);
    const id = requiredId(body.id, 'ID不能为空');
    await writeRole(request, id, 'update', [await prepareRoleEdit(request, body, id)]);
    return reply.status(204).send();
  });

  /** The checks of a change of a role's menus; answers its writes. */
  const prepareMenus = async (request: FastifyRequest, id: number, given: unknown) => {
    await storedRole(request, id);
    const menus = idList(given, '菜单');
    if (menus.length) {
      const found = await db.selectFrom('sys_menu').select('id').where('id', 'in', menus).execute();
      if (found.length !== menus.length) throw badRequest('菜单不存在');
    }
    const user = request.user!;
    if (!user.isAdmin) {
      const mine = await db
        .selectFrom('sys_users_roles as ur')
        .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'ur.role_id')
        .select('rm.menu_id')
        .where('ur.user_id', '=', user.id)
        .execute();
      const held = new Set(mine.map((m) => Number(m.menu_id)));
      const current = (await db.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', id).execute()).map((m) =>
        Number(m.menu_id),
      );
      // granting or taking away a menu the actor does not hold is refused
      const changed = [...menus.filter((m) => !current.includes(m)), ...current.filter((m) => !menus.includes(m))];
      if (changed.some((m) => !held.has(m))) throw forbidden('只能分配你自己拥有的菜单');
    }
    return async (trx: Db) => {
      await trx.deleteFrom('sys_roles_menus').where('role_id', '=', id).execute();
      for (const m of menus) await trx.insertInto('sys_roles_menus').values({ role_id: id, menu_id: m }).execute();
    };
  };

  app.put('/api/roles/menu', { preHandler: app.requirePermission('roles:edit') }, async (request, reply) => {
    const body = objectBody(request.body);
    const id = requiredId(body.id, 'ID不能为空');
    await writeRole(request, id, 'update', [await prepareMenus(request, id, body.menus)]);
    return reply.status(204).send();
  });

  registerTableHistory(app, {
    key: 'role',
    table: ROLE_TABLE,
    // the role's fields and its menus back as they were, each through its own edit's checks, as one change
    restore: async (request, id, state) => {
      const body: Body = {
        id,
        name: state.name,
        level: state.level,
        dataScope: state.dataScope,
        description: state.description,
        depts: ((state.depts as number[] | null) ?? []).map((d) => ({ id: d })),
      };
      const menus = ((state.menus as number[] | null) ?? []).map((m) => ({ id: m }));
      await writeRole(request, id, 'restore', [await prepareRoleEdit(request, body, id), await prepareMenus(request, id, menus)]);
    },
  });

  // 回收站: a role comes back with its departments and menus, through the checks of a create
  // (its level, the caller's data scope, menus the caller holds, a name taken since)
  registerTableBin(app, {
    key: 'role',
    table: ROLE_TABLE,
    check: async (request, { state }) => {
      const user = request.user!;
      assertLevel(user, Number(state.level));
      const depts = (state.depts as number[] | null) ?? [];
      const scope = await requestScope(db, request);
      if (!scope.all) {
        if (state.dataScope === '全部') throw forbidden('你的数据权限不是全部，不能设置全部数据权限');
        if (depts.some((d) => !scope.deptIds.includes(d))) throw forbidden('只能选择你的数据权限内的部门');
      }
      const menus = (state.menus as number[] | null) ?? [];
      if (!user.isAdmin && menus.length) {
        const mine = await db
          .selectFrom('sys_users_roles as ur')
          .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'ur.role_id')
          .select('rm.menu_id')
          .where('ur.user_id', '=', user.id)
          .execute();
        const held = new Set(mine.map((m) => Number(m.menu_id)));
        if (menus.some((m) => !held.has(m))) throw forbidden('只能分配你自己拥有的菜单');
      }
      await nameFree(String(state.name));
    },
    insert: async (trx, { id, state, createTime }) => {
      await trx
        .insertInto('sys_role')
        .values({
          id,
          name: state.name,
          level: state.level ?? 3,
          data_scope: state.dataScope ?? '本级',
          description: state.description,
          create_time: createTime,
          update_time: nowText(),
        })
        .execute();
      await writeDepts(trx, id, (state.depts as number[] | null) ?? []);
      for (const m of (state.menus as number[] | null) ?? [])
        await trx.insertInto('sys_roles_menus').values({ role_id: id, menu_id: m }).execute();
    },
    afterRestore: () => invalidateAccess(),
  });

  app.delete('/api/roles', { preHandler: app.requirePermission('roles:del') }, async (request, reply) => {
    const ids = deleteIds(request.body);
    for (const id of ids) {
      const row = await storedRole(request, id);
      if (row.name === ADMIN_ROLE) throw badRequest('不能删除超级管理员角色');
    }
    await db.transaction().execute((trx) =>
      trackChange(trx, dialect, ROLE_TABLE, request, 'delete', ids, async () => {
        if (await trx.selectFrom('sys_users_roles').select('user_id').where('role_id', 'in', ids).executeTakeFirst())
          throw badRequest(ROLE_IN_USE);
        await trx.deleteFrom('sys_roles_menus').where('role_id', 'in', ids).execute();
        await trx.deleteFrom('sys_roles_depts').where('role_id', 'in', ids).execute();
        await trx.deleteFrom('sys_role').where('id', 'in', ids).execute();
      }),
    );
    invalidateAccess();
    return reply.status(200).send();
  });
}
