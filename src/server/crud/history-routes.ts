/**
 * The history and recycle-bin routes of one resource at `/${spec.path}` (revisions.ts, history.ts):
 *   GET    path/{id}/history                 `:list` (or a key the schema's `read` names) -> 200 {content: entries newest first, totalElements}
 *   POST   path/{id}/restore/{revisionId}    `:edit` -> 204; as an update (validation, scope, hooks), a revision `restore`
 *   GET    path/recycleBin?page=&size=       `:del`  -> 200 {content: deleted records with who and when, totalElements}
 *   POST   path/recycleBin/restore  [ids]    `:del`  -> 200 {count}; back with their ids, all or nothing
 *   DELETE path/recycleBin          [ids]    `:del`  -> 200 {count}; 彻底删除: the records and their history, for good
 * Personal fields (`x-mask`) are masked in history and in the recycle bin for callers without
 * `<perm>:sensitive`, as in lists.
 */
import { pinyinFields, writePinyinKeys } from './pinyin-search.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { permissionKey, readAccess, scopeField, type FieldSpec, type ReadAccess, type ResourceSpec } from '../../shared/resource-spec.ts';
import { inScope, requestScope } from '../auth/data-scope.ts';
import { ApiError, badRequest, forbidden, notFound } from '../errors.ts';
import type { Database } from '../types.ts';
import { tableChanged } from './count.ts';
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
import { recordHooks } from './hooks.ts';
import { accessFor, callerOf, OTHER_APPLICANT } from './owner-access.ts';
import { personalFields, seesPersonalData } from './personal-data.ts';
import { findById } from './repository.ts';
import { recordRestored, REVISION_TABLE, revisionActor } from './revisions.ts';
import { actorOf, NO_SELECTION, positiveId, updateFromBody } from './routes.ts';
import { assertReadable, assertRecordsInScope, RECORD_NOT_FOUND } from './scope.ts';
import { idField, recordToRow } from './values.ts';

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

  /** 404 unless the caller may read this record (its state now or as deleted). */
  async function assertMayRead(request: FastifyRequest, state: Record<string, unknown>): Promise<void> {
    const caller = callerOf(request);
    if (caller.kind === 'applicant') {
      if (!ownerScoped || Number(state[spec.ownedByApplicant!]) !== caller.applicantId) throw forbidden(OTHER_APPLICANT);
      return;
    }
    if (scoped) await assertReadable(database(), spec, request, state[scoped.name]);
  }

  // who may read the history: the resource's own readers; a picker elsewhere or 'any signed-in member'
  // reads names, not who changed what
  const historyRead: ReadAccess = {
    signedIn: false,
    keys: read.keys.filter((k) => k === permissionKey(spec, 'list') || spec.read?.includes(k)),
  };
  app.get(`${base}/:id/history`, { preHandler: accessFor(app, spec, 'list', historyRead) }, async (request) => {
    const recordId = pathNumber((request.params as { id?: unknown }).id, 'ID必须是正整数');
    const current = await findById(database(), spec, recordId);
    const revisions = await revisionsOf(database().db, spec, recordId);
    const latest =
      current ??
      (revisions.some((r) => r.action === 'delete')
        ? deletedRecord(
            spec,
            revisions.find((r) => r.action === 'delete')!,
          )
        : undefined);
    if (!latest) throw notFound(RECORD_NOT_FOUND);
    await assertMayRead(request, latest);
    const hidden = !seesPersonalData(request, spec);
    if (!hidden && personalFields(spec).length && request.user) {
      request.personalDataRead = { resource: spec.name, ids: [...(request.personalDataRead?.ids ?? []), recordId] };
    }
    const content = historyEntries(spec, current, revisions, hidden);
    return { content, totalElements: content.length };
  });

  if (can('edit')) {
    const perm = ownerScoped ? accessFor(app, spec, 'edit') : app.requirePermission(permissionKey(spec, 'edit'));
    app.post(`${base}/:id/restore/:revisionId`, { preHandler: perm }, async (request, reply) => {
      const params = request.params as { id?: unknown; revisionId?: unknown };
      const recordId = pathNumber(params.id, 'ID必须是正整数');
      const revisionId = pathNumber(params.revisionId, '历史版本ID必须是正整数');
      const current = await findById(database(), spec, recordId);
      const revisions = await revisionsOf(database().db, spec, recordId);
      if (!current && !revisions.length) throw notFound(RECORD_NOT_FOUND);
      if (current) await assertMayRead(request, current);
      let body: Record<string, unknown>;
      try {
        body = restoreBody(spec, current ?? {}, stateAt(spec, current, revisions, revisionId));
      } catch (err) {
        if (err instanceof RestoreRefused) throw new ApiError(err.status, err.message);
        throw err;
      }
      try {
        await updateFromBody(app, spec, request, body, 'restore');
      } catch (err) {
        if (isUniqueViolation(err)) throw badRequest(RESTORE_CONFLICT);
        throw err;
      }
      return reply.status(204).send();
    });
  }

  if (!can('del')) return;
  const binKey = app.requirePermission(permissionKey(spec, 'del'));
  const inBin = database().dialect === 'postgres' ? true : 1;

  app.get(`${base}/recycleBin`, { preHandler: binKey }, async (request) => {
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
      // filtered by the deleted record's scoped value, which only the snapshot holds
      const all = (await q.selectAll().orderBy('id', 'desc').limit(SCOPED_BIN_MAX).execute()).map((r) => toStoredRevision(r, spec));
      const visible = all.filter((r) => inScope(scope, scoped.scope!, deletedRecord(spec, r)[scoped.name]));
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

  app.post(`${base}/recycleBin/restore`, { preHandler: binKey }, async (request) => {
    const ids = idList(request.body);
    const entries = await binEntries(database(), spec, ids);
    const missing = ids.find((i) => !entries.has(i));
    if (missing !== undefined) throw notFound(`${NOT_IN_BIN}（ID ${missing}）`);
    const records = ids.map((i) => deletedRecord(spec, entries.get(i)!));
    if (scoped)
      await assertRecordsInScope(
        database(),
        spec,
        request,
        records.map((r) => r[scoped.name] ?? null),
      );
    for (let i = 0; i < ids.length; i += 500) {
      const existing = await database()
        .db.selectFrom(spec.table)
        .select(id.column)
        .where(id.column, 'in', ids.slice(i, i + 500))
        .executeTakeFirst();
      if (existing) throw badRequest(`${ALREADY_EXISTS}（ID ${Number((existing as Record<string, unknown>)[id.column])}）`);
    }
    await assertReferencesExist(database(), spec, specs, records);
    // the resource's own rules hold for a record coming back as for a create
    const hooks = recordHooks(spec.name);
    if (hooks?.beforeWrite) for (const record of records) await hooks.beforeWrite({ app, mode: 'create', record });
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
      if (isUniqueViolation(err)) throw badRequest(RESTORE_CONFLICT);
      throw err;
    }
    tableChanged(db, spec.table);
    await hooks?.afterWrite?.({ app, mode: 'create', ids });
    return { count: ids.length };
  });

  app.delete(`${base}/recycleBin`, { preHandler: binKey }, async (request) => {
    const ids = idList(request.body);
    const entries = await binEntries(database(), spec, ids);
    const missing = ids.find((i) => !entries.has(i));
    if (missing !== undefined) throw notFound(`${NOT_IN_BIN}（ID ${missing}）`);
    if (scoped)
      await assertRecordsInScope(
        database(),
        spec,
        request,
        ids.map((i) => deletedRecord(spec, entries.get(i)!)[scoped.name] ?? null),
      );
    // the deleted values live on in the record's revisions only: they go with it
    await database()
      .db.transaction()
      .execute(async (trx) => {
        for (let i = 0; i < ids.length; i += 500)
          await trx
            .deleteFrom(REVISION_TABLE)
            .where('resource', '=', spec.name)
            .where('record_id', 'in', ids.slice(i, i + 500))
            .execute();
      });
    return { count: ids.length };
  });
}
