/**
 * 回收站 of a hand-written table (users, roles, menus, departments, dictionaries and their
 * details; table-revisions.ts records their deletes with `in_bin`), with the same routes and
 * answers as a generated entity's (history-routes.ts), under the table's own API path:
 *   GET    path/recycleBin?page=&size=   `<perm>:list` + `<perm>:del` -> 200 {content: deleted records with who and when, totalElements}
 *   POST   path/recycleBin/restore [ids] `<perm>:list` + `<perm>:del` -> 200 {count}; back with their ids and link rows, all or nothing
 *   DELETE path/recycleBin         [ids] `<perm>:list` + `<perm>:del` -> 200 {count}; 彻底删除: the records and their history, for good
 * A record comes back as its delete revision recorded it: its tracked columns and the link rows
 * the table keeps elsewhere (a user's roles, a role's departments and menus, the roles granting a
 * menu or scoped to a department). Before anything is written, every record must pass: still in
 * the bin, its id free, every reference it holds still there (or coming back in the same call),
 * and the table's own rules of a create (data scope, role levels, a name or user name taken
 * since); any refusal is a 4xx naming the record and changes nothing.
 * Ids of other tables are answered as `name（ID n）`, personal fields masked as in the history.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LABELLED, type LabelledBy, type TrackedTableName } from '../../../shared/table-history.ts';
import { nowText } from '../../db/index.ts';
import { ApiError, badRequest, notFound } from '../../errors.ts';
import type { Db, Dialect } from '../../types.ts';
import { binEntries, deletedRecord, maskValue, toStoredRevision, type HistoryEntry, type StoredRevision } from './history.ts';
import { ALREADY_EXISTS, idList, NOT_IN_BIN, RESTORE_CONFLICT } from './history-routes.ts';
import { purgeRevisions, recordRestored, REVISION_TABLE, revisionActor } from './revisions.ts';
import { actorOf } from '../routes.ts';
import { isUniqueViolation, nameIds } from './table-history-routes.ts';
import type { TrackedState, TrackedTable } from './table-revisions.ts';
import type { MaySee } from '../access/record-door.ts';
import { readLimit } from '../../read-limits.ts';

const BIN_PAGE_MAX = 100;
/** a recycle bin filtered by the caller's data scope is filtered in memory, over at most this many entries */
const FILTERED_BIN_MAX = 10_000;

/** A deleted record coming back: its id, its state as deleted, and when it was first created. */
export interface BinRecord {
  id: number;
  state: TrackedState;
  /** the time of its create revision, else now */
  createTime: string;
}

export interface TableBinOptions {
  key: TrackedTableName;
  table: TrackedTable;
  /** whether the caller sees the personal fields in full (default: no one) */
  sees?: (request: FastifyRequest) => boolean;
  /** the resource name a full read of personal fields is logged under */
  personalResource?: string;
  /** the records this caller may see and act on, judged on their last known values (the table's history takes the same) */
  visible?: (request: FastifyRequest) => Promise<MaySee>;
  /** list properties whose ids no longer there are dropped on restore instead of refusing it (the other side's links) */
  optionalLinks?: string[];
  /** the table's own rules of a create for a record coming back (throws its 4xx) */
  check: (request: FastifyRequest, record: BinRecord) => Promise<void>;
  /** writes the record back with its id and its link rows, in the restore's transaction */
  insert: (trx: Db, record: BinRecord, dialect: Dialect) => Promise<void>;
  /** after records came back (e.g. the access cache is cleared) */
  afterRestore?: () => void;
}

const LINK_TABLES: Record<LabelledBy, { table: string; title: string }> = {
  dept: { table: 'sys_dept', title: '部门' },
  role: { table: 'sys_role', title: '岗位' },
  menu: { table: 'sys_menu', title: '菜单' },
  dict: { table: 'sys_dict', title: '字典' },
};
/** the kind of id a table's own records are (a menu's parent is a menu) */
const OWN_KIND: Partial<Record<TrackedTableName, LabelledBy>> = { dept: 'dept', role: 'role', menu: 'menu', dict: 'dict' };

const idsOf = (v: unknown): number[] =>
  (Array.isArray(v) ? v : v === null || v === undefined || v === '' ? [] : [v]).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);

/** Parents before children: a record whose `parent` is coming back in the same call waits for it. */
function parentsFirst(records: BinRecord[], parent: string | undefined): BinRecord[] {
  if (!parent) return records;
  const byId = new Map(records.map((r) => [r.id, r]));
  const out: BinRecord[] = [];
  const placed = new Set<number>();
  const place = (r: BinRecord, seen: Set<number>) => {
    if (placed.has(r.id) || seen.has(r.id)) return;
    seen.add(r.id);
    const up = byId.get(Number(r.state[parent]));
    if (up) place(up, seen);
    placed.add(r.id);
    out.push(r);
  };
  for (const r of records) place(r, new Set());
  return out;
}

export function registerTableBin(app: FastifyInstance, opts: TableBinOptions): void {
  const { spec } = opts.table;
  const base = `/${spec.path}`;
  const database = () => app.database;
  const labelled = LABELLED[opts.key] ?? {};
  const ownKind = OWN_KIND[opts.key];
  const idColumn = opts.table.idColumn ?? 'id';
  // the bin opens with the table's list key and its delete key together (docs/history.md)
  const key = app.requireAllPermissions([`${spec.permission}:del`, `${spec.permission}:list`]);
  const inBin = () => (database().dialect === 'postgres' ? true : 1);
  const masked = spec.fields.some((f) => f.mask);

  /** The records as the answer shows them: personal fields masked, ids of other tables named. */
  const shown = async (request: FastifyRequest, records: Array<Record<string, unknown>>) => {
    // closed by default: a table with personal fields shows them in full only to whom `sees` names
    const hide = masked && !(opts.sees ? opts.sees(request) : false);
    const out = records.map((r) => {
      const copy = { ...r };
      if (hide) for (const f of spec.fields) if (f.mask) copy[f.name] = maskValue(f, copy[f.name]);
      return copy;
    });
    // names through the history's own naming: each record as one entry of `[value, null]` changes
    const entries: HistoryEntry[] = out.map((r) => ({
      id: 0,
      action: 'delete',
      actorKind: 'system',
      actorName: null,
      time: '',
      changes: Object.keys(labelled).map((field) => ({ field, title: '', old: r[field], new: null })),
    }));
    await nameIds(database().db, labelled, entries);
    entries.forEach((e, i) => {
      for (const c of e.changes) out[i][c.field] = c.old;
    });
    if (masked && !hide && opts.personalResource && request.user && out.length)
      request.personalDataRead = {
        resource: opts.personalResource,
        ids: [...(request.personalDataRead?.ids ?? []), ...out.map((r) => Number(r.id))],
      };
    return out;
  };

  app.get(`${base}/recycleBin`, { preHandler: [key, ...readLimit(app)] }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const page = query.page === undefined ? 0 : Number(query.page);
    const size = query.size === undefined ? 10 : Number(query.size);
    if (!Number.isInteger(page) || page < 0) throw badRequest('页码必须是非负整数');
    if (!Number.isInteger(size) || size < 1 || size > BIN_PAGE_MAX) throw badRequest(`每页条数必须在1到${BIN_PAGE_MAX}之间`);
    const q = database()
      .db.selectFrom(REVISION_TABLE)
      .where('resource', '=', spec.name)
      .where('in_bin', '=', inBin())
      .where('action', '=', 'delete');
    let rows: StoredRevision[];
    let total: number;
    if (opts.visible) {
      const may = await opts.visible(request);
      const all = (await q.selectAll().orderBy('id', 'desc').limit(FILTERED_BIN_MAX).execute()).map((r) => toStoredRevision(r, spec));
      const seen = all.filter((r) => may(deletedRecord(spec, r), r.recordId));
      total = seen.length;
      rows = seen.slice(page * size, page * size + size);
    } else {
      total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      rows = (
        await q
          .selectAll()
          .orderBy('id', 'desc')
          .limit(size)
          .offset(page * size)
          .execute()
      ).map((r) => toStoredRevision(r, spec));
    }
    const records = await shown(
      request,
      rows.map((r) => deletedRecord(spec, r)),
    );
    const content = rows.map((r, i) => ({
      id: r.recordId,
      revisionId: r.id,
      deleteUser: r.actorName,
      actorKind: r.actorKind,
      deleteTime: r.time,
      record: records[i],
    }));
    return { content, totalElements: total };
  });

  /** The bin's entries of these ids, each one the caller may act on (404 for one not in the bin or not visible). */
  const entriesOf = async (request: FastifyRequest, ids: number[]) => {
    const entries = await binEntries(database(), spec, ids);
    const may = opts.visible ? await opts.visible(request) : () => true;
    const missing = ids.find((i) => !entries.has(i) || !may(deletedRecord(spec, entries.get(i)!), i));
    if (missing !== undefined) throw notFound(`${NOT_IN_BIN}（ID ${missing}）`);
    return entries;
  };

  /** 400 naming the first reference of the records that is gone (ids coming back in the same call count as there). */
  const assertReferences = async (records: BinRecord[]) => {
    const coming = new Set(records.map((r) => r.id));
    for (const [field, kind] of Object.entries(labelled)) {
      if (opts.optionalLinks?.includes(field)) continue;
      const title = spec.fields.find((f) => f.name === field)?.title ?? field;
      const wanted = [...new Set(records.flatMap((r) => idsOf(r.state[field])))].filter((id) => !(kind === ownKind && coming.has(id)));
      for (let i = 0; i < wanted.length; i += 500) {
        const part = wanted.slice(i, i + 500);
        const rows = await database().db.selectFrom(LINK_TABLES[kind].table).select('id').where('id', 'in', part).execute();
        const have = new Set(rows.map((r) => Number(r.id)));
        const gone = part.find((id) => !have.has(id));
        if (gone !== undefined)
          throw badRequest(`「${title}」引用的${LINK_TABLES[kind].title}（ID ${gone}）已被删除，无法恢复，请先恢复或修改相关数据`);
      }
    }
  };

  /** Drops ids of the optional links that are gone (a role deleted since no longer grants the menu). */
  const dropGoneLinks = async (records: BinRecord[]) => {
    for (const field of opts.optionalLinks ?? []) {
      const kind = labelled[field];
      if (!kind) continue;
      const wanted = [...new Set(records.flatMap((r) => idsOf(r.state[field])))];
      const have = new Set<number>();
      for (let i = 0; i < wanted.length; i += 500) {
        const rows = await database()
          .db.selectFrom(LINK_TABLES[kind].table)
          .select('id')
          .where('id', 'in', wanted.slice(i, i + 500))
          .execute();
        for (const r of rows) have.add(Number(r.id));
      }
      for (const r of records) r.state[field] = idsOf(r.state[field]).filter((id) => have.has(id));
    }
  };

  /** When each record was created (its create revision), by id. */
  const createTimes = async (ids: number[]) => {
    const out = new Map<number, string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await database()
        .db.selectFrom(REVISION_TABLE)
        .select(['record_id', 'create_time'])
        .where('resource', '=', spec.name)
        .where('record_id', 'in', ids.slice(i, i + 500))
        .where('action', '=', 'create')
        .execute();
      for (const r of rows as Array<{ record_id: unknown; create_time: unknown }>)
        out.set(Number(r.record_id), toStoredRevision({ ...r, id: 0, resource: spec.name, action: 'create' }, spec).time);
    }
    return out;
  };

  app.post(`${base}/recycleBin/restore`, { preHandler: key }, async (request) => {
    const ids = idList(request.body);
    const entries = await entriesOf(request, ids);
    for (let i = 0; i < ids.length; i += 500) {
      const existing = await database()
        .db.selectFrom(spec.table)
        .select(idColumn)
        .where(idColumn, 'in', ids.slice(i, i + 500))
        .executeTakeFirst();
      if (existing) throw badRequest(`${ALREADY_EXISTS}（ID ${Number((existing as Record<string, unknown>)[idColumn])}）`);
    }
    const created = await createTimes(ids);
    const now = nowText();
    const records: BinRecord[] = ids.map((id) => {
      const { [spec.fields[0].name]: _id, ...state } = deletedRecord(spec, entries.get(id)!);
      return { id, state, createTime: created.get(id) ?? now };
    });
    await assertReferences(records);
    await dropGoneLinks(records);
    for (const record of records) {
      try {
        await opts.check(request, record);
      } catch (err) {
        if (err instanceof ApiError) throw new ApiError(err.status, `无法恢复（ID ${record.id}）：${err.message}`, err.details);
        throw err;
      }
    }
    const db = database();
    const ordered = parentsFirst(records, ownKind ? Object.keys(labelled).find((f) => labelled[f] === ownKind) : undefined);
    try {
      await db.db.transaction().execute(async (trx) => {
        for (const record of ordered) await opts.insert(trx, record, db.dialect);
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
    opts.afterRestore?.();
    return { count: ids.length };
  });

  app.delete(`${base}/recycleBin`, { preHandler: key }, async (request) => {
    const ids = idList(request.body);
    await entriesOf(request, ids);
    await purgeRevisions(database(), spec.name, ids);
    return { count: ids.length };
  });
}
