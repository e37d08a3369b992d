/**
 * The history routes of a hand-written table (table-revisions.ts), as a generated entity has them
 * (history-routes.ts), under the table's own API path:
 *   GET  path/{id}/history                `<perm>:list` -> 200 {content: entries newest first, totalElements}
 *   POST path/{id}/restore/{revisionId}   `<perm>:edit` -> 200 {changes}; through the table's own edit code
 *                                         (its validation, scope and level rules), recorded as `restore`
 * Ids of other tables (departments, roles, menus, dictionaries) are answered with their names,
 * `name（ID n）`. Personal fields are masked for callers the table's `sees` says no to. A deleted
 * record's history stays readable (its delete revision holds its last values); it comes back
 * from the table's 回收站 (table-recycle-bin.ts). Every id passes the one decision of
 * record-door.ts on the record's last known values (the table's `visible`): absent, outside the
 * caller's scope and deleted outside it answer the same 404 数据不存在.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LABELLED, type LabelledBy, type TrackedTableName } from '../../../shared/table-history.ts';
import { ApiError, badRequest } from '../../errors.ts';
import type { Db } from '../../types.ts';
import { historyEntries, restoreBody, RestoreRefused, revisionsOf, stateAt, type HistoryEntry } from './history.ts';
import { RESTORE_CONFLICT, restoredChanges } from './history-routes.ts';
import { positiveId } from '../routes.ts';
import { guardRecord, lastKnown, type MaySee } from '../access/record-door.ts';
import { readLimit } from '../../read-limits.ts';
import { readTracked, type TrackedState, type TrackedTable } from './table-revisions.ts';

export interface TableHistoryOptions {
  key: TrackedTableName;
  table: TrackedTable;
  /** whether the caller sees the personal fields in full (default: everyone) */
  sees?: (request: FastifyRequest) => boolean;
  /** the resource name a full read of personal fields is logged under */
  personalResource?: string;
  /** the records this caller may see, judged on their last known values (e.g. users inside the data scope); default all */
  visible?: (request: FastifyRequest) => Promise<MaySee>;
  /** writes `state` (the record's writable fields as of the revision) through the table's edit code */
  restore?: (request: FastifyRequest, id: number, state: TrackedState) => Promise<void>;
}

const LABEL_SOURCES: Record<LabelledBy, { table: string; column: string }> = {
  dept: { table: 'sys_dept', column: 'name' },
  role: { table: 'sys_role', column: 'name' },
  menu: { table: 'sys_menu', column: 'title' },
  dict: { table: 'sys_dict', column: 'name' },
};

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

/** Replaces ids of other tables in the entries by `name（ID n）` (lists joined by 、). */
export async function nameIds(db: Db, labelled: Record<string, LabelledBy>, entries: HistoryEntry[]): Promise<void> {
  const wanted = new Map<LabelledBy, Set<number>>();
  const idsOf = (v: unknown): number[] => (Array.isArray(v) ? v : v === null || v === undefined || v === '' ? [] : [v]).map(Number);
  for (const e of entries)
    for (const c of e.changes) {
      const kind = labelled[c.field];
      if (!kind) continue;
      const set = wanted.get(kind) ?? new Set<number>();
      for (const id of [...idsOf(c.old), ...idsOf(c.new)]) if (Number.isSafeInteger(id) && id > 0) set.add(id);
      wanted.set(kind, set);
    }
  const names = new Map<string, string>();
  for (const [kind, set] of wanted) {
    const ids = [...set];
    const source = LABEL_SOURCES[kind];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db
        .selectFrom(source.table)
        .select(['id', source.column])
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows as Array<Record<string, unknown>>) names.set(`${kind}:${Number(r.id)}`, String(r[source.column]));
    }
  }
  const text = (kind: LabelledBy, v: unknown) => {
    if (v === null || v === undefined || v === '') return v;
    const one = (id: number) => (id === 0 ? '无' : `${names.get(`${kind}:${id}`) ?? ''}（ID ${id}）`);
    return Array.isArray(v) ? (v.length ? v.map((id) => one(Number(id))).join('、') : null) : one(Number(v));
  };
  for (const e of entries)
    for (const c of e.changes) {
      const kind = labelled[c.field];
      if (!kind) continue;
      c.old = text(kind, c.old);
      c.new = text(kind, c.new);
    }
}

export function registerTableHistory(app: FastifyInstance, opts: TableHistoryOptions): void {
  const { spec } = opts.table;
  const base = `/${spec.path}`;
  const db = () => app.database.db;
  const labelled = LABELLED[opts.key] ?? {};
  const recordId = (value: unknown) => {
    const id = positiveId(value);
    if (id === undefined) throw badRequest('ID必须是正整数');
    return id;
  };

  /** whether this caller sees the personal fields masked */
  const masksFor = (request: FastifyRequest) => spec.fields.some((f) => f.mask) && !(opts.sees ? opts.sees(request) : true);
  const visible = async (request: FastifyRequest): Promise<MaySee> => (opts.visible ? opts.visible(request) : () => true);

  app.get(`${base}/:id/history`, { preHandler: [app.requirePermission(`${spec.permission}:list`), ...readLimit(app)] }, async (request) => {
    const id = recordId((request.params as { id?: unknown }).id);
    const current = (await readTracked(db(), opts.table, [id])).get(id);
    const revisions = await revisionsOf(db(), spec, id);
    guardRecord(lastKnown(spec, current, revisions), id, await visible(request));
    const masked = masksFor(request);
    if (!masked && opts.personalResource && spec.fields.some((f) => f.mask) && request.user)
      request.personalDataRead = { resource: opts.personalResource, ids: [...(request.personalDataRead?.ids ?? []), id] };
    const content = historyEntries(spec, current, revisions, masked);
    await nameIds(db(), labelled, content);
    return { content, totalElements: content.length };
  });

  const restore = opts.restore;
  if (!restore) return;
  app.post(`${base}/:id/restore/:revisionId`, { preHandler: app.requirePermission(`${spec.permission}:edit`) }, async (request) => {
    const params = request.params as { id?: unknown; revisionId?: unknown };
    const id = recordId(params.id);
    const revisionId = positiveId(params.revisionId);
    if (revisionId === undefined) throw badRequest('历史版本ID必须是正整数');
    const current = (await readTracked(db(), opts.table, [id])).get(id);
    const revisions = await revisionsOf(db(), spec, id);
    guardRecord(lastKnown(spec, current, revisions), id, await visible(request));
    let state: TrackedState;
    let body: Record<string, unknown>;
    try {
      const target = { ...stateAt(spec, current, revisions, revisionId) };
      // a caller who sees the personal fields masked restores the others only: a masked field
      // stays as it is, so whether it differs from the version changes nothing in the answer
      if (masksFor(request)) for (const f of spec.fields) if (f.mask) delete target[f.name];
      body = restoreBody(spec, current!, target);
      // the whole record as of then (what the edit form would send), read-only fields as they are now
      state = { ...current };
      for (const f of spec.fields) if (!f.auto && !f.readOnly && f.name in target) state[f.name] = target[f.name];
    } catch (err) {
      if (err instanceof RestoreRefused) throw new ApiError(err.status, err.message);
      throw err;
    }
    try {
      await restore(request, id, state);
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(RESTORE_CONFLICT);
      throw err;
    }
    const changes = restoredChanges(spec, current!, body);
    await nameIds(db(), labelled, [{ id: 0, action: 'restore', actorKind: 'system', actorName: null, time: '', changes }]);
    return { changes };
  });
}
