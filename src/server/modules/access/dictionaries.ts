/**
 * Dictionaries:
 *   GET    api/dict                  paged list, blurry over name and description (dict:list)
 *   POST/PUT/DELETE api/dict         {name, description, isPublic}; delete takes its details too
 *                                    (dict:add / dict:edit / dict:del)
 *   GET    api/dictDetail?dictName=  the dictionary's details {id, label, value, sort, enabled,
 *                                    dictName}, paged, sorted by sort; `code` is the same as
 *                                    dictName; enabled=true|false; isStat is accepted and ignored
 *                                    (signed in: every select that uses x-dict reads it)
 *   POST/PUT/DELETE api/dictDetail   {dictName | dict: {id}, label, value, sort, enabled}
 *                                    (dict:add / dict:edit / dict:del)
 *   GET    api/public?enumName=      [{value, label}] of a public dictionary's enabled details,
 *                                    without sign-in (the applicant and dealer pages)
 * Business dictionary (a tree, sys_busidict: categories at the root, entries below):
 *   GET    api/busidict/list/{pid}   {content, totalElements}: the children of pid (0 = the
 *                                    categories), with hasChildren (signed in)
 *   GET    api/busidict/options/{code}  [{value, label}] of a category's enabled entries; the
 *                                    category is named by its code (e.g. 承保公司) (signed in)
 *   GET    api/busidict/optionsChilds/{id}  [{id, value, label, hasChildren}] of an entry's
 *                                    enabled children, for cascading selects (signed in)
 *   POST   api/busidict/add          {pid, code, name, value, sort, enabled} (busidict:add)
 *   POST   api/busidict/update       the same with id; no cycles (busidict:edit)
 *   DELETE api/busidict              [ids]; refused while an entry has children (busidict:del)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TABLE_HISTORY } from '../../../shared/table-history.ts';
import type { RevisionAction } from '../../crud/history/revisions.ts';
import { registerTableHistory } from '../../crud/history/table-history-routes.ts';
import { registerTableBin } from '../../crud/history/table-recycle-bin.ts';
import { trackChange, type TrackedTable } from '../../crud/history/table-revisions.ts';
import { sql } from 'kysely';
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import {
  assertForm,
  bool,
  deleteIds,
  escapeLike,
  integer,
  objectBody,
  onlyKeys,
  optionalId,
  optionalText,
  paging,
  queryValue,
  requiredId,
  requiredText,
  sortKeys,
  type Body,
} from './input.ts';
import { BUSI_DICT_FORM, DICT_DETAIL_FORM, DICT_FORM } from '../../../shared/admin-forms.ts';

export const DICT_NOT_FOUND = '字典不存在';
export const BUSIDICT_HAS_CHILDREN = '所选字典存在下级，请先删除下级';

async function dictIdByName(db: Db, name: string): Promise<number | undefined> {
  const row = await db.selectFrom('sys_dict').select('id').where('name', '=', name).executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

interface DictRow {
  id: number;
  name: string;
  description: string | null;
  is_public: number | boolean;
  create_time: string | null;
}

interface DetailRow {
  id: number;
  dict_id: number;
  label: string;
  value: string;
  sort: number;
  enabled: number | boolean;
  create_time: string | null;
}

/** A sys_busidict row: a category (pid null) or an entry below one. */
interface BusiRow {
  id: number;
  pid: number | null;
  code: string;
  name: string;
  value: string | null;
  sort: number;
  enabled: number | boolean;
  create_time: string | null;
}

/** A route's one path parameter (`:x`); Fastify gives path parameters as strings. */
type XParam = { x: string };

const detailView = (r: DetailRow, dictName: string) => ({
  id: Number(r.id),
  label: r.label,
  value: r.value,
  sort: Number(r.sort),
  enabled: Boolean(r.enabled),
  dictName,
  dict: { id: Number(r.dict_id) },
  createTime: r.create_time ?? null,
});

const busiView = (r: BusiRow, subCount: number) => ({
  id: Number(r.id),
  pid: r.pid === null ? 0 : Number(r.pid),
  code: r.code,
  name: r.name,
  label: r.name,
  value: r.value ?? r.code,
  sort: Number(r.sort),
  enabled: Boolean(r.enabled),
  hasChildren: subCount > 0,
  leaf: subCount === 0,
  subCount,
  createTime: r.create_time ?? null,
});

async function childCounts(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('sys_busidict')
    .select(['pid', (eb) => eb.fn.countAll<number>().as('n')])
    .where('pid', 'in', ids)
    .groupBy('pid')
    .execute();
  return new Map(rows.map((r) => [Number(r.pid), Number(r.n)]));
}

/** sys_dict and sys_dict_detail as record history tracks them (their columns). */
export const DICT_TABLE: TrackedTable = { spec: TABLE_HISTORY.dict, bin: true };
export const DICT_DETAIL_TABLE: TrackedTable = { spec: TABLE_HISTORY.dictDetail, bin: true };

export function registerDictionaries(app: FastifyInstance): void {
  const db = app.database.db;
  const dialect = app.database.dialect;

  // ---- dictionaries
  app.get('/api/dict', { preHandler: app.requirePermission('dict:list') }, async (request) => {
    onlyKeys(request.query, ['page', 'size', 'sort', 'blurry']);
    const { page, size } = paging(request.query);
    const sort = sortKeys(request.query, { id: 'id', name: 'name', createTime: 'create_time' }, [['id', 'desc']]);
    let q = db.selectFrom('sys_dict');
    const blurry = queryValue(request.query, 'blurry');
    if (blurry) {
      const like = `%${escapeLike(blurry)}%`;
      q = q.where(sql<boolean>`(name like ${like} escape '\\' or description like ${like} escape '\\')`);
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    let list = q.selectAll();
    for (const [c, d] of sort) list = list.orderBy(c, d);
    const rows = await list
      .limit(size)
      .offset(page * size)
      .$castTo<DictRow>()
      .execute();
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        name: r.name,
        description: r.description ?? null,
        isPublic: Boolean(r.is_public),
        createTime: r.create_time ?? null,
      })),
      totalElements: Number(total?.n ?? 0),
    };
  });

  const readDict = async (body: Body, id?: number) => {
    assertForm(DICT_FORM, body);
    const d = {
      name: requiredText(body, 'name', '字典名称', 64),
      description: optionalText(body, 'description', '描述', 255),
      isPublic: bool(body, 'isPublic', '公开', false),
    };
    const clash = await dictIdByName(db, d.name);
    if (clash !== undefined && clash !== id) throw badRequest('字典名称已存在', { field: 'name' });
    return d;
  };

  app.post('/api/dict', { preHandler: app.requirePermission('dict:add') }, async (request, reply) => {
    const d = await readDict(objectBody(request.body));
    const now = nowText();
    const row = await db.transaction().execute((trx) =>
      trackChange(
        trx,
        dialect,
        DICT_TABLE,
        request,
        'create',
        [],
        () =>
          trx
            .insertInto('sys_dict')
            .values({ name: d.name, description: d.description, is_public: d.isPublic ? 1 : 0, create_time: now, update_time: now })
            .returning('id')
            .executeTakeFirstOrThrow(),
        (r) => [Number(r.id)],
      ),
    );
    return reply.status(201).send({ id: Number(row.id), ...d });
  });

  /** The edit of a dictionary: its checks (a name taken), then the write and its revision. */
  const editDict = async (request: FastifyRequest, body: Body, id: number, action: RevisionAction) => {
    const d = await readDict(body, id);
    const res = await db.transaction().execute((trx) =>
      trackChange(trx, dialect, DICT_TABLE, request, action, [id], () =>
        trx
          .updateTable('sys_dict')
          .set({ name: d.name, description: d.description, is_public: d.isPublic ? 1 : 0, update_time: nowText() })
          .where('id', '=', id)
          .executeTakeFirst(),
      ),
    );
    if (!Number(res.numUpdatedRows)) throw notFound(DICT_NOT_FOUND);
  };

  app.put('/api/dict', { preHandler: app.requirePermission('dict:edit') }, async (request, reply) => {
    const body = objectBody(request.body);
    await editDict(request, body, requiredId(body.id, 'ID不能为空'), 'update');
    return reply.status(204).send();
  });

  app.delete('/api/dict', { preHandler: app.requirePermission('dict:del') }, async (request, reply) => {
    const ids = deleteIds(request.body);
    await db.transaction().execute(async (trx) => {
      // the details go with their dictionary, each with its delete revision
      const details = (await trx.selectFrom('sys_dict_detail').select('id').where('dict_id', 'in', ids).execute()).map((r) => Number(r.id));
      await trackChange(trx, dialect, DICT_DETAIL_TABLE, request, 'delete', details, () =>
        trx.deleteFrom('sys_dict_detail').where('dict_id', 'in', ids).execute(),
      );
      await trackChange(trx, dialect, DICT_TABLE, request, 'delete', ids, () =>
        trx.deleteFrom('sys_dict').where('id', 'in', ids).execute(),
      );
    });
    return reply.status(200).send();
  });

  // ---- details
  app.get('/api/dictDetail', { preHandler: app.authenticate }, async (request) => {
    onlyKeys(request.query, ['dictName', 'code', 'page', 'size', 'sort', 'enabled', 'isStat', 'label']);
    const name = queryValue(request.query, 'dictName') || queryValue(request.query, 'code');
    if (!name) throw badRequest('请指定字典名称');
    const { page, size } = paging(request.query, 9999);
    const sort = sortKeys(request.query, { sort: 'sort', id: 'id', value: 'value', label: 'label' }, [
      ['sort', 'asc'],
      ['id', 'asc'],
    ]);
    const dictId = await dictIdByName(db, name);
    if (dictId === undefined) return { content: [], totalElements: 0 };
    let q = db.selectFrom('sys_dict_detail').where('dict_id', '=', dictId);
    const enabled = queryValue(request.query, 'enabled');
    if (enabled === 'true' || enabled === 'false') q = q.where('enabled', '=', enabled === 'true' ? 1 : 0);
    else if (enabled !== undefined && enabled !== '') throw badRequest('参数enabled只能是true或false');
    const label = queryValue(request.query, 'label');
    if (label) q = q.where(sql<boolean>`label like ${`%${escapeLike(label)}%`} escape '\\'`);
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    let list = q.selectAll();
    for (const [c, d] of sort) list = list.orderBy(c, d);
    const rows = await list
      .limit(size)
      .offset(page * size)
      .$castTo<DetailRow>()
      .execute();
    return { content: rows.map((r) => detailView(r, name)), totalElements: Number(total?.n ?? 0) };
  });

  const readDetail = async (body: Body) => {
    assertForm(DICT_DETAIL_FORM, body);
    let dictId: number | undefined;
    if (typeof body.dictName === 'string' && body.dictName) dictId = await dictIdByName(db, body.dictName);
    else if (body.dict !== undefined)
      dictId = requiredId(typeof body.dict === 'object' && body.dict !== null ? (body.dict as Body).id : body.dict, '请选择字典');
    else if (body.dictId !== undefined) dictId = requiredId(body.dictId, '请选择字典');
    if (dictId === undefined) throw badRequest('请选择字典');
    if (!(await db.selectFrom('sys_dict').select('id').where('id', '=', dictId).executeTakeFirst())) throw badRequest(DICT_NOT_FOUND);
    return {
      dictId,
      label: requiredText(body, 'label', '字典标签', 100),
      value: (() => {
        const v = body.value;
        if (typeof v === 'number' || typeof v === 'boolean') return String(v);
        return requiredText(body, 'value', '字典值', 100);
      })(),
      sort: integer(body, body.dictSort !== undefined && body.sort === undefined ? 'dictSort' : 'sort', '排序', 0, 999999, 999),
      enabled: bool(body, 'enabled', '状态', true),
    };
  };

  const valueFree = async (dictId: number, value: string, exceptId?: number) => {
    let q = db.selectFrom('sys_dict_detail').select('id').where('dict_id', '=', dictId).where('value', '=', value);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw badRequest('字典值已存在', { field: 'value' });
  };

  app.post('/api/dictDetail', { preHandler: app.requirePermission('dict:add') }, async (request, reply) => {
    const d = await readDetail(objectBody(request.body));
    await valueFree(d.dictId, d.value);
    const now = nowText();
    const row = await db.transaction().execute((trx) =>
      trackChange(
        trx,
        dialect,
        DICT_DETAIL_TABLE,
        request,
        'create',
        [],
        () =>
          trx
            .insertInto('sys_dict_detail')
            .values({
              dict_id: d.dictId,
              label: d.label,
              value: d.value,
              sort: d.sort,
              enabled: d.enabled ? 1 : 0,
              create_time: now,
              update_time: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow(),
        (r) => [Number(r.id)],
      ),
    );
    return reply.status(201).send({ id: Number(row.id), ...d });
  });

  /** The edit of a dictionary's detail: its checks (a value taken in the dictionary), then the write and its revision. */
  const editDetail = async (request: FastifyRequest, body: Body, id: number, action: RevisionAction) => {
    const d = await readDetail(body);
    await valueFree(d.dictId, d.value, id);
    const res = await db.transaction().execute((trx) =>
      trackChange(trx, dialect, DICT_DETAIL_TABLE, request, action, [id], () =>
        trx
          .updateTable('sys_dict_detail')
          .set({ dict_id: d.dictId, label: d.label, value: d.value, sort: d.sort, enabled: d.enabled ? 1 : 0, update_time: nowText() })
          .where('id', '=', id)
          .executeTakeFirst(),
      ),
    );
    if (!Number(res.numUpdatedRows)) throw notFound('字典详情不存在');
  };

  app.put('/api/dictDetail', { preHandler: app.requirePermission('dict:edit') }, async (request, reply) => {
    const body = objectBody(request.body);
    await editDetail(request, body, requiredId(body.id, 'ID不能为空'), 'update');
    return reply.status(204).send();
  });

  registerTableHistory(app, {
    key: 'dict',
    table: DICT_TABLE,
    restore: (request, id, state) => editDict(request, { ...state, id }, id, 'restore'),
  });
  registerTableHistory(app, {
    key: 'dictDetail',
    table: DICT_DETAIL_TABLE,
    restore: (request, id, state) => editDetail(request, { ...state, id }, id, 'restore'),
  });

  // 回收站: a dictionary comes back alone (its details deleted with it are in the details' bin,
  // restored after it); a name or value taken since refuses it
  registerTableBin(app, {
    key: 'dict',
    table: DICT_TABLE,
    check: async (_request, { state }) => {
      if ((await dictIdByName(db, String(state.name))) !== undefined) throw badRequest('字典名称已存在', { field: 'name' });
    },
    insert: async (trx, { id, state, createTime }) => {
      await trx
        .insertInto('sys_dict')
        .values({
          id,
          name: state.name,
          description: state.description,
          is_public: state.isPublic ? 1 : 0,
          create_time: createTime,
          update_time: nowText(),
        })
        .execute();
    },
  });
  registerTableBin(app, {
    key: 'dictDetail',
    table: DICT_DETAIL_TABLE,
    check: async (_request, { state }) => valueFree(Number(state.dictId), String(state.value)),
    insert: async (trx, { id, state, createTime }) => {
      await trx
        .insertInto('sys_dict_detail')
        .values({
          id,
          dict_id: state.dictId,
          label: state.label,
          value: state.value,
          sort: state.dictSort ?? 999,
          enabled: state.enabled === false ? 0 : 1,
          create_time: createTime,
          update_time: nowText(),
        })
        .execute();
    },
  });

  app.delete('/api/dictDetail', { preHandler: app.requirePermission('dict:del') }, async (request, reply) => {
    const ids = deleteIds(request.body);
    await db
      .transaction()
      .execute((trx) =>
        trackChange(trx, dialect, DICT_DETAIL_TABLE, request, 'delete', ids, () =>
          trx.deleteFrom('sys_dict_detail').where('id', 'in', ids).execute(),
        ),
      );
    return reply.status(200).send();
  });

  app.get('/api/public', async (request) => {
    onlyKeys(request.query, ['enumName']);
    const name = queryValue(request.query, 'enumName');
    if (!name) throw badRequest('请指定字典名称');
    const dict = await db.selectFrom('sys_dict').select(['id', 'is_public']).where('name', '=', name).executeTakeFirst();
    if (!dict || !dict.is_public) throw notFound(DICT_NOT_FOUND);
    const rows = await db
      .selectFrom('sys_dict_detail')
      .select(['label', 'value'])
      .where('dict_id', '=', Number(dict.id))
      .where('enabled', '=', 1)
      .orderBy('sort')
      .orderBy('id')
      .$castTo<Pick<DetailRow, 'label' | 'value'>>()
      .execute();
    return rows.map((r) => ({ value: r.value, label: r.label }));
  });

  // ---- business dictionary tree
  const pidParam = (text: string) => {
    if (!/^\d{1,16}$/.test(text)) throw badRequest('参数必须是不小于0的整数');
    return Number(text) || null;
  };

  app.get('/api/busidict/list/:x', { preHandler: app.authenticate }, async (request) => {
    onlyKeys(request.query, ['page', 'size', 'blurry', 'enabled']);
    const pid = pidParam((request.params as XParam).x);
    const { page, size } = paging(request.query, 9999);
    let q = db.selectFrom('sys_busidict');
    q = pid === null ? q.where('pid', 'is', null) : q.where('pid', '=', pid);
    const blurry = queryValue(request.query, 'blurry');
    if (blurry)
      q = q.where(sql<boolean>`(name like ${`%${escapeLike(blurry)}%`} escape '\\' or code like ${`%${escapeLike(blurry)}%`} escape '\\')`);
    const enabled = queryValue(request.query, 'enabled');
    if (enabled === 'true' || enabled === 'false') q = q.where('enabled', '=', enabled === 'true' ? 1 : 0);
    else if (enabled !== undefined && enabled !== '') throw badRequest('参数enabled只能是true或false');
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll()
      .orderBy('sort')
      .orderBy('id')
      .limit(size)
      .offset(page * size)
      .$castTo<BusiRow>()
      .execute();
    const n = await childCounts(
      db,
      rows.map((r) => Number(r.id)),
    );
    return { content: rows.map((r) => busiView(r, n.get(Number(r.id)) ?? 0)), totalElements: Number(total?.n ?? 0) };
  });

  app.get('/api/busidict/options/:x', { preHandler: app.authenticate }, async (request) => {
    const code = (request.params as XParam).x;
    if (!code || code.length > 64) throw badRequest('请指定字典类别');
    const category = await db.selectFrom('sys_busidict').select('id').where('pid', 'is', null).where('code', '=', code).executeTakeFirst();
    if (!category) throw notFound(DICT_NOT_FOUND);
    const rows = await db
      .selectFrom('sys_busidict')
      .selectAll()
      .where('pid', '=', Number(category.id))
      .where('enabled', '=', 1)
      .orderBy('sort')
      .orderBy('id')
      .$castTo<BusiRow>()
      .execute();
    return rows.map((r) => ({ value: r.value ?? r.code, label: r.name }));
  });

  app.get('/api/busidict/optionsChilds/:x', { preHandler: app.authenticate }, async (request) => {
    const id = pidParam((request.params as XParam).x);
    if (id !== null && !(await db.selectFrom('sys_busidict').select('id').where('id', '=', id).executeTakeFirst()))
      throw notFound(DICT_NOT_FOUND);
    let q = db.selectFrom('sys_busidict').selectAll().where('enabled', '=', 1);
    q = id === null ? q.where('pid', 'is', null) : q.where('pid', '=', id);
    const rows = await q.orderBy('sort').orderBy('id').$castTo<BusiRow>().execute();
    const n = await childCounts(
      db,
      rows.map((r) => Number(r.id)),
    );
    return rows.map((r) => ({ id: Number(r.id), value: r.value ?? r.code, label: r.name, hasChildren: (n.get(Number(r.id)) ?? 0) > 0 }));
  });

  const readBusi = async (body: Body, id?: number) => {
    assertForm(BUSI_DICT_FORM, body);
    const b = {
      pid: optionalId(body.pid, '上级不正确'),
      code: requiredText(body, 'code', '编码', 64),
      name: requiredText(body, 'name', '名称', 100),
      value: optionalText(body, 'value', '值', 255),
      sort: integer(body, 'sort', '排序', 0, 999999, 999),
      enabled: bool(body, 'enabled', '状态', true),
    };
    if (b.pid !== null) {
      const parent = await db.selectFrom('sys_busidict').select('id').where('id', '=', b.pid).executeTakeFirst();
      if (!parent) throw badRequest('上级不存在');
      if (id !== undefined) {
        // no cycles: walk up from the new parent
        let cur: number | null = b.pid;
        const seen = new Set<number>();
        while (cur !== null && !seen.has(cur)) {
          if (cur === id) throw badRequest('上级不能为自己或自己的下级');
          seen.add(cur);
          const r = await db
            .selectFrom('sys_busidict')
            .select('pid')
            .where('id', '=', cur)
            .$castTo<Pick<BusiRow, 'pid'>>()
            .executeTakeFirst();
          cur = r && r.pid !== null ? Number(r.pid) : null;
        }
      }
    }
    let q = db.selectFrom('sys_busidict').select('id').where('code', '=', b.code);
    q = b.pid === null ? q.where('pid', 'is', null) : q.where('pid', '=', b.pid);
    if (id !== undefined) q = q.where('id', '!=', id);
    if (await q.executeTakeFirst()) throw badRequest('同一上级下编码已存在', { field: 'code' });
    return b;
  };

  app.post('/api/busidict/add', { preHandler: app.requirePermission('busidict:add') }, async (request, reply) => {
    const b = await readBusi(objectBody(request.body));
    const now = nowText();
    const row = await db
      .insertInto('sys_busidict')
      .values({
        pid: b.pid,
        code: b.code,
        name: b.name,
        value: b.value,
        sort: b.sort,
        enabled: b.enabled ? 1 : 0,
        create_time: now,
        update_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return reply.status(201).send({ id: Number(row.id), ...b, pid: b.pid ?? 0 });
  });

  app.post('/api/busidict/update', { preHandler: app.requirePermission('busidict:edit') }, async (request, reply) => {
    const body = objectBody(request.body);
    const id = requiredId(body.id, 'ID不能为空');
    if (!(await db.selectFrom('sys_busidict').select('id').where('id', '=', id).executeTakeFirst())) throw notFound(DICT_NOT_FOUND);
    const b = await readBusi(body, id);
    await db
      .updateTable('sys_busidict')
      .set({ pid: b.pid, code: b.code, name: b.name, value: b.value, sort: b.sort, enabled: b.enabled ? 1 : 0, update_time: nowText() })
      .where('id', '=', id)
      .execute();
    return reply.status(204).send();
  });

  app.delete('/api/busidict', { preHandler: app.requirePermission('busidict:del') }, async (request, reply) => {
    const ids = deleteIds(request.body);
    await db.transaction().execute(async (trx) => {
      if (await trx.selectFrom('sys_busidict').select('id').where('pid', 'in', ids).where('id', 'not in', ids).executeTakeFirst())
        throw badRequest(BUSIDICT_HAS_CHILDREN);
      await trx.deleteFrom('sys_busidict').where('id', 'in', ids).execute();
    });
    return reply.status(200).send();
  });
}
