/**
 * The generic routes of one resource at `/${spec.path}`; only the spec's actions exist:
 *   GET    path            list (read access: `:list`)    -> 200 {content, totalElements}
 *   POST   path            create (`${permission}:add`)   -> 201 created record
 *   PUT    path            update, id in body (`:edit`)   -> 204; 404 数据不存在
 *   DELETE path            JSON array of ids (`:del`)     -> 200
 *   GET    path/download   xlsx of the list (`:download`) -> 200 streamed
 *   POST   path/import     one xlsx, all or nothing (`:import`) -> 200 {count}
 *   GET    path/template   the import template (`:import`), import-template.ts
 * A value of an `x-unique` rule held by another record answers 409 on create, update and import
 * (unique.ts), and nothing is written.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { assertFreeSpace } from '../disk/free-space.ts';
import type { MultipartFile } from '@fastify/multipart';
import { permissionKey, readAccess, scopeField, type ReadAccess, type ResourceSpec } from '../../shared/resource-spec.ts';
import { ApiError, badRequest, errorBody, notFound } from '../errors.ts';
import { parseListQuery } from './query/query.ts';
import {
  createRecord,
  deleteRecords,
  filteredQuery,
  findById,
  insertAll,
  listPage,
  updateRecord,
  type Actor,
  type Dependent,
} from './repository.ts';
import { accessFor, callerOf, scopeBody, scopeListQuery } from './access/owner-access.ts';
import { timedImport } from '../metrics/transfers.ts';
import { attachmentHeader, exportFileName, exportStream, readImport, UnreadableSheetError, XLSX_MIME } from './sheets/spreadsheet.ts';
import { BODY_NOT_OBJECT, checkRecord } from './validation.ts';
import { InspectError, inspectXlsx } from './sheets/xlsx-inspect.ts';
import { guardRecords, personalFields, seesPersonalData, withoutMaskedFields } from './access/personal-data.ts';
import { recordHooks } from './hooks.ts';
import { fieldAccess } from './access/field-access.ts';
import { countMatching } from './query/count.ts';
import { ASYNC_STATUS, EXPORT_STARTED, IMPORT_STARTED, type LongTasks } from '../realtime/long-tasks.ts';
import { assertAllVisible, assertRecordsInScope, oneIdRead, RECORD_NOT_FOUND, scopedParams, storedScopeValues } from './access/scope.ts';
import { exportLimit, readLimit } from '../read-limits.ts';
import { assertUnique, repeatedMessage, takenMessage, uniqueClashes, uniqueConflict } from './unique.ts';

export const NO_SELECTION = '请至少选择一条数据';
export const IMPORT_NOT_XLSX = '上传模板只能是xlsx格式!';
export const IMPORT_UNREADABLE = '文件无法读取，请上传有效的xlsx文件';
/** room an import needs beyond DISK_MIN_FREE_MB, per byte of its xlsx (rows and indexes take more than the compressed sheet) */
const IMPORT_ROOM_FACTOR = 4;

export function actorOf(request: FastifyRequest): Actor | undefined {
  if (request.user) return { username: request.user.username };
  if (request.applicant) return applicantActor(request.applicant.staffunId);
  return undefined;
}

/** An applicant as the author of a change (their own registration included). */
export function applicantActor(staffunId: number): Actor {
  return { username: `应聘人员${staffunId}`, kind: 'applicant' };
}

/** A positive id from a JSON value or query text; undefined when it is not one. */
export function positiveId(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The background runner of long imports and exports, when the realtime area is registered. */
function longTasks(app: FastifyInstance): LongTasks | undefined {
  return app.hasDecorator('longTasks') ? app.longTasks : undefined;
}

function importTooLarge(maxBytes: number): string {
  return `上传模板大小不能超过 ${Math.round(maxBytes / 1024 / 1024)}MB!`;
}

export function registerCrudRoutes(
  app: FastifyInstance,
  spec: ResourceSpec,
  dependents: Dependent[] = [],
  read: ReadAccess = readAccess(spec, [spec]),
): void {
  const base = `/${spec.path}`;
  const can = (action: (typeof spec.actions)[number]) => spec.actions.includes(action);
  const ownerScoped = !!spec.ownedByApplicant;
  // applicant-owned resources also accept the applicant's own token (owner-access.ts)
  const perm = (action: string) => (ownerScoped ? accessFor(app, spec, action) : app.requirePermission(permissionKey(spec, action)));
  const database = () => app.database;
  const scoped = scopeField(spec);

  app.get(base, { preHandler: [accessFor(app, spec, 'list', read), ...readLimit(app)] }, async (request) => {
    const query = scopeListQuery(spec, callerOf(request), request.query as Record<string, unknown>);
    const params = parseListQuery(spec, query, fieldAccess(request, spec));
    const page = await listPage(database(), spec, await scopedParams(database(), spec, request, params));
    // a read by id (`?id=N`) of a record that is not there for the caller (none, outside the
    // data scope, another applicant's) answers 404, not an empty page
    if (page.content.length === 0 && oneIdRead(request.query as Record<string, unknown>) !== undefined) throw notFound(RECORD_NOT_FOUND);
    guardRecords(request, spec, page.content);
    return page;
  });

  const writes = crudWriteHandlers(app, spec);
  if (can('add')) app.post(base, { preHandler: perm('add') }, writes.create);
  if (can('edit')) app.put(base, { preHandler: perm('edit') }, writes.update);

  if (can('del')) {
    app.delete(base, { preHandler: perm('del') }, async (request, reply) => {
      const body = request.body;
      if (!Array.isArray(body)) throw badRequest(BODY_NOT_OBJECT);
      if (body.length === 0) throw badRequest(NO_SELECTION);
      if (body.length > 10_000) throw badRequest('一次最多删除10000条数据');
      const ids: number[] = [];
      for (const v of body) {
        const id = positiveId(v);
        if (id === undefined) throw badRequest('ID必须是正整数');
        ids.push(id);
      }
      const unique = [...new Set(ids)];
      // a record of another applicant or outside the data scope is not there for the caller:
      // the same 404 as an id that does not exist, and nothing is deleted
      await assertAllVisible(database(), spec, request, callerOf(request), unique);
      await deleteRecords(database(), spec, unique, dependents, actorOf(request));
      await recordHooks(spec.name)?.afterWrite?.({ app, mode: 'delete', ids: unique });
      return reply.status(200).send();
    });
  }

  if (can('download')) {
    app.get(`${base}/download`, { preHandler: [perm('download'), ...exportLimit(app)] }, async (request, reply) => {
      // an export (streamed, or a file kept for download) does not start on a disk that is nearly full
      await assertFreeSpace(app.config);
      const params = await scopedParams(
        database(),
        spec,
        request,
        parseListQuery(spec, request.query as Record<string, unknown>, fieldAccess(request, spec), { paging: false }),
      );
      const tasks = longTasks(app);
      if (tasks && request.user) {
        const total = await countMatching(database(), spec.table, params.filterKey, () =>
          filteredQuery(database(), spec, params.conditions),
        );
        if (total > app.config.exportAsyncThreshold) {
          const full = seesPersonalData(request, spec);
          // a full export started in the background is a full read as one below the threshold is
          if (full && personalFields(spec).length) request.personalDataRead = { resource: spec.name, ids: [] };
          tasks.startExport(request.user, spec, params, total, !full);
          return reply.status(ASYNC_STATUS).send(errorBody(ASYNC_STATUS, EXPORT_STARTED, { total }));
        }
      }
      const masked = !seesPersonalData(request, spec);
      if (!masked && personalFields(spec).length && request.user) request.personalDataRead = { resource: spec.name, ids: [] };
      const stream = exportStream(database(), spec, params, (err) => request.log.error({ err }, 'export failed'), undefined, masked);
      request.raw.on('close', () => {
        if (!reply.raw.writableFinished) stream.destroy();
      });
      return reply
        .header('content-type', XLSX_MIME)
        .header('content-disposition', attachmentHeader(exportFileName(spec), `${spec.name}.xlsx`))
        .header('cache-control', 'no-store')
        .send(stream);
    });
  }

  if (can('import')) {
    app.post(`${base}/import`, { preHandler: perm('import') }, async (request: FastifyRequest, reply: FastifyReply) => {
      const maxBytes = app.config.importMaxBytes;
      if (!request.isMultipart()) throw badRequest('请选择要上传的xlsx文件');
      let file: MultipartFile | undefined;
      try {
        file = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 12 } });
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(importTooLarge(maxBytes));
        throw err;
      }
      if (!file) throw badRequest('请选择要上传的xlsx文件');
      if (!/\.xlsx$/i.test(file.filename ?? '')) {
        file.file.resume();
        throw badRequest(IMPORT_NOT_XLSX);
      }
      let content: Buffer;
      try {
        content = await file.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(importTooLarge(maxBytes));
        throw err;
      }
      if (file.file.truncated) throw badRequest(importTooLarge(maxBytes));
      // the rows take room in the database: refuse (507) before the work when the disk is nearly full
      await assertFreeSpace(app.config, content.length * IMPORT_ROOM_FACTOR);
      try {
        await inspectXlsx(content, app.config.importMaxUnpackedBytes);
      } catch (err) {
        if (err instanceof InspectError) throw badRequest(err.message);
        throw err;
      }
      let result;
      try {
        result = await readImport(spec, content, app.config.importMaxUnpackedBytes);
      } catch (err) {
        if (err instanceof UnreadableSheetError) throw badRequest(IMPORT_UNREADABLE);
        throw err;
      }
      if (!result.ok) throw badRequest(result.message, result.errors.length ? { errors: result.errors } : undefined);
      if (scoped)
        await assertRecordsInScope(
          database(),
          spec,
          request,
          result.records.map((r) => r[scoped.name] ?? null),
        );
      // the resource's own rules hold for imported rows as for a create; the first broken one names its row
      const hooks = recordHooks(spec.name);
      if (hooks?.beforeWrite) {
        const shared = new Map<string, unknown>();
        for (const [i, record] of result.records.entries()) {
          try {
            await hooks.beforeWrite({ app, mode: 'create', record, shared });
          } catch (err) {
            if (err instanceof ApiError && err.status === 400)
              throw badRequest(`第${result.rows[i]}行: ${err.message}`, {
                errors: [{ row: result.rows[i], column: '', message: err.message }],
              });
            throw err;
          }
        }
      }
      // x-unique: a value stored already or repeated in the file refuses the whole file (409), naming the rows
      const clashes = await uniqueClashes(database(), spec, result.records);
      if (clashes.length) {
        const hidden = fieldAccess(request, spec).masked;
        const errors = clashes.map((c) => {
          const record = result.records[c.index];
          const message =
            c.earlier === undefined
              ? takenMessage(c.rule, record, hidden)
              : repeatedMessage(c.rule, record, hidden, `第${result.rows[c.earlier]}行`);
          return { row: result.rows[c.index], column: c.rule.map((f) => f.title).join('、'), message };
        });
        throw new ApiError(409, `第${errors[0].row}行「${errors[0].column}」: ${errors[0].message}`, { errors });
      }
      const tasks = longTasks(app);
      if (tasks && request.user && result.records.length > app.config.importAsyncThreshold) {
        tasks.startImport(request.user, spec, result.records);
        return reply.status(ASYNC_STATUS).send(errorBody(ASYNC_STATUS, IMPORT_STARTED, { total: result.records.length }));
      }
      const count = await timedImport(database(), () => insertAll(database(), spec, result.records, actorOf(request)));
      await hooks?.afterWrite?.({ app, mode: 'create', ids: [] });
      return reply.status(200).send({ count });
    });
  }
}

/**
 * The create (201 with the record) and update (204) handlers of a resource: validation, data
 * scope, record hooks. Its routes use them, and so may another path of the same writes (the
 * scheduled tasks' spec base api/code beside api/dj), behind the same permission key.
 */
export function crudWriteHandlers(app: FastifyInstance, spec: ResourceSpec): { create: RouteHandlerMethod; update: RouteHandlerMethod } {
  const database = () => app.database;
  const scoped = scopeField(spec);
  const create: RouteHandlerMethod = async (request, reply) => {
    const result = checkRecord(spec, scopeBody(spec, callerOf(request), request.body), 'create');
    if (!result.ok) throw badRequest(result.error.message);
    if (scoped) await assertRecordsInScope(database(), spec, request, [result.values[scoped.name]]);
    const hooks = recordHooks(spec.name);
    await hooks?.beforeWrite?.({ app, mode: 'create', record: result.values });
    const unique = { hidden: fieldAccess(request, spec).masked };
    await assertUnique(database(), spec, result.values, unique);
    let record: Record<string, unknown>;
    try {
      record = await createRecord(database(), spec, result.values, actorOf(request));
    } catch (err) {
      throw uniqueConflict(spec, err, result.values, unique) ?? err;
    }
    await hooks?.afterWrite?.({ app, mode: 'create', ids: [Number(record.id)] });
    return reply.status(201).send(record);
  };
  const update: RouteHandlerMethod = async (request, reply) => {
    await updateFromBody(app, spec, request, request.body);
    return reply.status(204).send();
  };
  return { create, update };
}

/**
 * An update as PUT <path> makes it: the body (with its id) validated, masked personal fields
 * left as stored, data scope, the resource's hooks, then the write. `revision` names the
 * revision's action when the update is a restore to an earlier version.
 */
export async function updateFromBody(
  app: FastifyInstance,
  spec: ResourceSpec,
  request: FastifyRequest,
  body: unknown,
  revision?: 'restore',
): Promise<void> {
  const database = () => app.database;
  const scoped = scopeField(spec);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(BODY_NOT_OBJECT);
  const id = positiveId((body as Record<string, unknown>).id);
  if (id === undefined) throw badRequest('ID不能为空');
  const caller = callerOf(request);
  // another applicant's record or one outside the data scope answers as a missing one
  await assertAllVisible(database(), spec, request, caller, [id]);
  const existing = await findById(database(), spec, id);
  if (!existing) throw notFound(RECORD_NOT_FOUND);
  // a caller who saw the personal fields masked cannot write them (the mask is not the value)
  const result = checkRecord(
    spec,
    scopeBody(spec, caller, withoutMaskedFields(request, spec, body as Record<string, unknown>)),
    'update',
    existing,
  );
  if (!result.ok) throw badRequest(result.error.message);
  if (scoped) {
    const stored = await storedScopeValues(database(), spec, [id]);
    if (!stored.length) throw notFound('数据不存在');
    const changes = scoped.name in result.values || result.cleared.includes(scoped.name) ? [result.values[scoped.name] ?? null] : [];
    await assertRecordsInScope(database(), spec, request, [...stored, ...changes]);
  }
  const hooks = recordHooks(spec.name);
  if (hooks?.beforeWrite) {
    const record: Record<string, unknown> = { ...existing, ...result.values };
    for (const name of result.cleared) record[name] = null;
    await hooks.beforeWrite({ app, mode: 'update', record });
    // a hook may rewrite the body's own fields (e.g. sanitise HTML)
    for (const name of Object.keys(result.values)) result.values[name] = record[name];
  }
  // x-unique: the record as it would be stored, against every other record
  const after: Record<string, unknown> = { ...existing, ...result.values };
  for (const name of result.cleared) after[name] = null;
  const unique = {
    exceptId: id,
    hidden: fieldAccess(request, spec).masked,
    changed: new Set([...Object.keys(result.values), ...result.cleared]),
  };
  await assertUnique(database(), spec, after, unique);
  const actor = actorOf(request);
  let found: boolean;
  try {
    found = await updateRecord(
      database(),
      spec,
      id,
      result.values,
      result.cleared,
      actor && revision ? { ...actor, revision } : actor,
      existing,
    );
  } catch (err) {
    throw uniqueConflict(spec, err, after, unique) ?? err;
  }
  if (!found) throw notFound('数据不存在');
  await hooks?.afterWrite?.({ app, mode: 'update', ids: [id] });
}
