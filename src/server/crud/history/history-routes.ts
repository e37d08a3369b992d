/**
 * The history and recycle-bin routes of one resource at `/${spec.path}` (revisions.ts, history.ts):
 *   GET    path/{id}/history                 `:list` (or a key the schema's `read` names) -> 200 {content: entries newest first, totalElements}
 *   POST   path/{id}/restore/{revisionId}    `:edit` -> 200 {changes}; as an update (validation, scope, hooks), a revision `restore`
 *   GET    path/recycleBin?page=&size=       `:list` + `:del` -> 200 {content: deleted records with who and when, totalElements}
 *   POST   path/recycleBin/restore  [ids]    `:list` + `:del` -> 200 {count}; back with their ids, all or nothing;
 *                                            409 无法恢复（ID n）：菜单ID“3”已存在 when an `x-unique` value was taken since
 *   DELETE path/recycleBin          [ids]    `:list` + `:del` -> 200 {count}; 彻底删除: the records and their history, for good
 * Every id passes the one decision of record-door.ts (scope on the last known values, ownership):
 * a record not there for the caller answers as an absent one. Personal fields (`x-mask`) are
 * masked in history and in the recycle bin for callers without `<perm>:sensitive`, as in lists,
 * and a restore to a version leaves them as they are for such a caller.
 */
import { pinyinFields, writePinyinKeys } from '../pinyin/pinyin-search.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  permissionKey,
  readAccess,
  scopeField,
  type FieldSpec,
  type ReadAccess,
  type ResourceSpec,
} from '../../../shared/resource-spec.ts';
import { requestScope } from '../../auth/data-scope.ts';
import { ApiError, badRequest, notFound } from '../../errors.ts';
import type { Database } from '../../types.ts';
import { tableChanged } from '../query/count.ts';
import {
  binEntries,
  deletedRecord,
  historyEntries,
  maskValue,
  restoreBody,
  RestoreRefused,
  revisionsOf,
  stateAt,
  toStoredRevision,
} from './history.ts';
import { recordHooks } from '../hooks.ts';
import { accessFor } from '../access/owner-access.ts';
import { fieldAccess } from '../access/field-access.ts';
import { guardRecord, lastKnown, resourceVisibility } from '../access/record-door.ts';
import { checkRecord } from '../validation.ts';
import { readLimit } from '../../read-limits.ts';
import { personalFields, seesPersonalData } from '../access/personal-data.ts';
import { findById } from '../repository.ts';
import { purgeRevisions, recordRestored, REVISION_TABLE, revisionActor } from './revisions.ts';
import { actorOf, NO_SELECTION, positiveId, updateFromBody } from '../routes.ts';
import { idField, recordToRow } from '../values.ts';
import { repeatedMessage, takenMessage, uniqueClashes, uniqueConflict } from '../unique.ts';

export const NOT_IN_BIN = '回收站中没有该数据';
export const RESTORE_CONFLICT = '恢复失败：数据与现有记录重复，未做任何修改';
export const ALREADY_EXISTS = '数据已存在，无需恢复';
/** Tables of references to records that are not generic resources. */
const TABLE_REFERENCES: Record<string, { table: string; id: string; title: string }> = {
  dept: { table: 'sys_dept', id: 'id', title: '部门' },
  users: { table: 'sys_user', id: 'id', title: '用户' },
};
const BIN_PAGE_MAX = 100;
/** a data-scoped recycle bin is filtered by scope in memory, over at most this many entries */
const SCOPED_BIN_MAX = 10_000;

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The ids of a JSON array body: positive, at most 10,000, without repeats. */
export function idList(body: unknown): number[] {
  if (!Array.isArray(body)) throw badRequest('请求内容格式错误');
  if (body.length === 0) throw badRequest(NO_SELECTION);
  if (body.length > 10_000) throw badRequest('一次最多选择10000条数据');
  const ids = body.map((v) => positiveId(v));
  if (ids.some((id) => id === undefined)) throw badRequest('ID必须是正整数');
  return [...new Set(ids as number[])];
}

function pathNumber(value: unknown, message: string): number {
  const n = positiveId(value);
  if (n === undefined) throw badRequest(message);
  return n;
}

function masked(request: FastifyRequest, spec: ResourceSpec, record: Record<string, unknown>): Record<string, unknown> {
  if (seesPersonalData(request, spec)) return record;
  const out = { ...record };
  for (const f of personalFields(spec)) out[f.name] = maskValue(f, out[f.name]);
  return out;
}

/** The table a reference field points at, or undefined when it is not one the server knows. */
function referenceTarget(field: FieldSpec, specs: ResourceSpec[]): { table: string; id: string; title: string } | undefined {
  const name = field.ref?.resource ?? (field.scope ? 'dept' : undefined);
  if (!name) return undefined;
  const target = specs.find((s) => s.name === name);
  if (target) return { table: target.table, id: idField(target).column, title: target.title };
  return TABLE_REFERENCES[name];
}

/** 400 naming the first reference of the records that no longer exists. */
async function assertReferencesExist(database: Database, spec: ResourceSpec, specs: ResourceSpec[], records: Record<string, unknown>[]) {
  for (const field of spec.fields) {
    const target = referenceTarget(field, specs);
    if (!target) continue;
    const wanted = [...new Set(records.map((r) => r[field.name]).filter((v) => v !== null && v !== undefined && v !== ''))].map(Number);
    for (let i = 0; i < wanted.length; i += 500) {
      const part = wanted.slice(i, i + 500);
      const rows = await database.db.selectFrom(target.table).select(target.id).where(target.id, 'in', part).execute();
      const have = new Set(rows.map((r) => Number((r as Record<string, unknown>)[target.id])));
      const missing = part.find((v) => !have.has(v));
      if (missing !== undefined)
        throw badRequest(`「${field.title}」引用的${target.title}（ID ${missing}）已被删除，无法恢复，请先恢复或修改相关数据`);
    }
  }
}

/** The fields of a version the caller may see: a field shown to it masked is left out (it stays as stored). */
function visibleOnly(request: FastifyRequest, spec: ResourceSpec, state: Record<string, unknown>): Record<string, unknown> {
  const access = fieldAccess(request, spec);
  if (access.full) return state;
  const out = { ...state };
  for (const name of access.masked) delete out[name];
  return out;
}

/** What a restore changed, field by field (the fields the caller sees: the body holds no other). */
export function restoredChanges(
  spec: ResourceSpec,
  before: Record<string, unknown>,
  body: Record<string, unknown>,
): Array<{ field: string; title: string; old: unknown; new: unknown }> {
  return spec.fields
    .filter((f) => !f.auto && f.name in body)
    .map((f) => ({ field: f.name, title: f.title, old: before[f.name] ?? null, new: body[f.name] ?? null }));
}

/** 400 naming the record and the rule when a record coming back breaks the schema's rules as they are now. */
function assertValidNow(spec: ResourceSpec, id: number, record: Record<string, unknown>): void {
  const values: Record<string, unknown> = {};
  for (const f of spec.fields) if (!f.auto && !f.readOnly && f.name in record) values[f.name] = record[f.name];
  const result = checkRecord(spec, values, 'create');
  if (!result.ok) throw badRequest(`无法恢复（ID ${id}）：${result.error.message}`);
}

export function registerHistoryRoutes(
  app: FastifyInstance,
  spec: ResourceSpec,
  specs: ResourceSpec[],
  read: ReadAccess = readAccess(spec, [spec]),
): void {
  const base = `/${spec.path}`;
  const database = () => app.database;
  const can = (action: (typeof spec.actions)[number]) => spec.actions.includes(action);
  const scoped = scopeField(spec);
  const ownerScoped = !!spec.ownedByApplicant;
  const id = idField(spec);

  // who may read the history: the resource's own readers; a picker elsewhere or 'any signed-in member'
  // reads names, not who changed what
  const historyRead: ReadAccess = {
    signedIn: false,
    keys: read.keys.filter((k) => k === permissionKey(spec, 'list') || spec.read?.includes(k)),
  };
  app.get(`${base}/:id/history`, { preHandler: [accessFor(app, spec, 'list', historyRead), ...readLimit(app)] }, async (request) => {
    const recordId = pathNumber((request.params as { id?: unknown }).id, 'ID必须是正整数');
    const current = await findById(database(), spec, recordId);
    const revisions = await revisionsOf(database().db, spec, recordId);
    // the one decision (record-door.ts): absent, outside the scope, another applicant's, deleted
    // outside the scope all answer 404 数据不存在
    guardRecord(lastKnown(spec, current, revisions), recordId, await resourceVisibility(database(), spec, request));
    const hidden = !seesPersonalData(request, spec);
    if (!hidden && personalFields(spec).length && request.user) {
      request.personalDataRead = { resource: spec.name, ids: [...(request.personalDataRead?.ids ?? []), recordId] };
    }
    const content = historyEntries(spec, current, revisions, hidden);
    return { content, totalElements: content.length };
  });

  if (can('edit')) {
    const perm = ownerScoped ? accessFor(app, spec, 'edit') : app.requirePermission(permissionKey(spec, 'edit'));
    app.post(`${base}/:id/restore/:revisionId`, { preHandler: perm }, async (request) => {
      const params = request.params as { id?: unknown; revisionId?: unknown };
      const recordId = pathNumber(params.id, 'ID必须是正整数');
      const revisionId = pathNumber(params.revisionId, '历史版本ID必须是正整数');
      const current = await findById(database(), spec, recordId);
      const revisions = await revisionsOf(database().db, spec, recordId);
      guardRecord(lastKnown(spec, current, revisions), recordId, await resourceVisibility(database(), spec, request));
      let body: Record<string, unknown>;
      try {
        // only the fields the caller sees go back: a masked field stays as it is, so whether it
        // differs from the version changes nothing in the answer (docs/history.md)
        const target = visibleOnly(request, spec, stateAt(spec, current, revisions, revisionId));
        body = restoreBody(spec, current ?? {}, target);
      } catch (err) {
        if (err instanceof RestoreRefused) throw new ApiError(err.status, err.message);
        throw err;
      }
      try {
        // a write like an edit: the current schema's rules, the edit key, the scope of the values, the hooks
        await updateFromBody(app, spec, request, body, 'restore');
      } catch (err) {
        if (isUniqueViolation(err)) throw badRequest(RESTORE_CONFLICT);
        throw err;
      }
      return { changes: restoredChanges(spec, current!, body) };
    });
  }

  if (!can('del')) return;
  // the recycle bin opens with the list key and the delete key together (docs/history.md)
  const binKey = app.requireAllPermissions([permissionKey(spec, 'del'), permissionKey(spec, 'list')]);
  const inBin = database().dialect === 'postgres' ? true : 1;

  app.get(`${base}/recycleBin`, { preHandler: [binKey, ...readLimit(app)] }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const page = query.page === undefined ? 0 : Number(query.page);
    const size = query.size === undefined ? 10 : Number(query.size);
    if (!Number.isInteger(page) || page < 0) throw badRequest('页码必须是非负整数');
    if (!Number.isInteger(size) || size < 1 || size > BIN_PAGE_MAX) throw badRequest(`每页条数必须在1到${BIN_PAGE_MAX}之间`);
    const q = database()
      .db.selectFrom(REVISION_TABLE)
      .where('resource', '=', spec.name)
      .where('in_bin', '=', inBin)
      .where('action', '=', 'delete');
    const scope = scoped ? await requestScope(database().db, request) : undefined;
    let rows;
    let total: number;
    if (scoped && scope && !scope.all) {
      // scoped like the list, on the deleted record's values, which only the snapshot holds
      const may = await resourceVisibility(database(), spec, request);
      const all = (await q.selectAll().orderBy('id', 'desc').limit(SCOPED_BIN_MAX).execute()).map((r) => toStoredRevision(r, spec));
      const visible = all.filter((r) => may(deletedRecord(spec, r), r.recordId));
      total = visible.length;
      rows = visible.slice(page * size, page * size + size);
    } else {
      const counted = await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      total = Number(counted?.n ?? 0);
      rows = (
        await q
          .selectAll()
          .orderBy('id', 'desc')
          .limit(size)
          .offset(page * size)
          .execute()
      ).map((r) => toStoredRevision(r, spec));
    }
    const content = rows.map((r) => ({
      id: r.recordId,
      revisionId: r.id,
      deleteUser: r.actorName,
      actorKind: r.actorKind,
      deleteTime: r.time,
      record: masked(request, spec, deletedRecord(spec, r)),
    }));
    return { content, totalElements: total };
  });

  /** The bin's entries of these ids: 404 回收站中没有该数据 for one not in the bin or outside what the caller may see, alike. */
  const entriesOf = async (request: FastifyRequest, ids: number[]) => {
    const entries = await binEntries(database(), spec, ids);
    const may = await resourceVisibility(database(), spec, request);
    const missing = ids.find((i) => !entries.has(i) || !may(deletedRecord(spec, entries.get(i)!), i));
    if (missing !== undefined) throw notFound(`${NOT_IN_BIN}（ID ${missing}）`);
    return entries;
  };

  app.post(`${base}/recycleBin/restore`, { preHandler: binKey }, async (request) => {
    const ids = idList(request.body);
    const entries = await entriesOf(request, ids);
    const records = ids.map((i) => deletedRecord(spec, entries.get(i)!));
    for (let i = 0; i < ids.length; i += 500) {
      const existing = await database()
        .db.selectFrom(spec.table)
        .select(id.column)
        .where(id.column, 'in', ids.slice(i, i + 500))
        .executeTakeFirst();
      if (existing) throw badRequest(`${ALREADY_EXISTS}（ID ${Number((existing as Record<string, unknown>)[id.column])}）`);
    }
    // a restore is a write: the record must keep the schema's rules as they are now
    ids.forEach((recordId, i) => assertValidNow(spec, recordId, records[i]));
    await assertReferencesExist(database(), spec, specs, records);
    // the resource's own rules hold for a record coming back as for a create
    const hooks = recordHooks(spec.name);
    if (hooks?.beforeWrite) for (const record of records) await hooks.beforeWrite({ app, mode: 'create', record });
    // x-unique: a deleted record does not hold its value; one taken since (or twice in the selection) is refused
    const hidden = fieldAccess(request, spec).masked;
    const [clash] = await uniqueClashes(database(), spec, records, 1);
    if (clash) {
      const record = records[clash.index];
      const message =
        clash.earlier === undefined
          ? takenMessage(clash.rule, record, hidden)
          : repeatedMessage(clash.rule, record, hidden, `ID ${ids[clash.earlier]}的记录`);
      throw new ApiError(409, `无法恢复（ID ${ids[clash.index]}）：${message}`);
    }
    const db = database();
    try {
      await db.db.transaction().execute(async (trx) => {
        for (const record of records)
          await trx
            .insertInto(spec.table)
            .values(recordToRow(spec, record, db.dialect))
            .execute();
        // the records come back searchable by pinyin as they were
        if (pinyinFields(spec).length)
          await writePinyinKeys(
            trx,
            spec,
            records.map((r) => recordToRow(spec, r, db.dialect)),
          );
        await recordRestored(
          trx,
          db.dialect,
          spec,
          revisionActor(actorOf(request)),
          ids.map((i) => entries.get(i)!.id),
          ids,
        );
      });
    } catch (err) {
      // a value of a unique rule taken by a write that raced this one
      const taken = uniqueConflict(spec, err, {}, { hidden, prefix: '无法恢复：' });
      if (taken) throw taken;
      if (isUniqueViolation(err)) throw badRequest(RESTORE_CONFLICT);
      throw err;
    }
    tableChanged(db, spec.table);
    await hooks?.afterWrite?.({ app, mode: 'create', ids });
    return { count: ids.length };
  });

  app.delete(`${base}/recycleBin`, { preHandler: binKey }, async (request) => {
    const ids = idList(request.body);
    await entriesOf(request, ids);
    await purgeRevisions(database(), spec.name, ids);
    return { count: ids.length };
  });
}
