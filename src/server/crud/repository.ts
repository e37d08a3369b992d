/**
 * Reads and writes of a resource's table. Every write runs in one transaction and marks the
 * table changed (see count.ts) once committed.
 */
import { sql, type CompiledQuery, type RawBuilder } from 'kysely';
import type { FieldSpec, ResourceSpec } from '../../shared/resource-spec.ts';
import { badRequest } from '../errors.ts';
import { resourceIndexes } from '../../shared/column-types.ts';
import { nowText } from '../db/index.ts';
import type { Database, Db, TableQuery } from '../types.ts';
import { countedWithPage, countMatching, countsWithPage, tableChanged } from './query/count.ts';
import { bookmarkAt, bookmarkPosition } from './query/bookmarks.ts';
import { whereExpr, type Condition, type ListParams, type SortKey } from './query/query.ts';
import { idField, recordToRow, rowToRecord, toColumnValue } from './values.ts';
import {
  deletePinyinKeys,
  deletePinyinKeysWhere,
  PinyinKeyMemo,
  pinyinFields,
  rewritePinyinKeys,
  writePinyinKeys,
} from './pinyin/pinyin-search.ts';
import { pinyinBlurry, pinyinPagePlan } from './pinyin/pinyin-plan.ts';
import { keptPinyinPage } from './pinyin/pinyin-pages.ts';
import { HeapBound } from './sheets/heap-bound.ts';
import { insertPgImportBatch, pgImportBatch } from './sheets/pg-import-batch.ts';
import {
  diffRecords,
  revisionActor,
  snapshotChanges,
  updateReturningOld,
  updateWithKnownOldPg,
  updateWithRevisionPg,
  writeImportRevisions,
  writeRevisions,
  type ActorKind,
  type RevisionAction,
} from './history/revisions.ts';

export interface Page {
  content: Record<string, unknown>[];
  totalElements: number;
}

function columnsOf(spec: ResourceSpec): string[] {
  return spec.fields.map((f) => f.column);
}

/** SELECT <columns> FROM table WHERE <conditions>, without order or limit. */
export function filteredQuery(database: Database, spec: ResourceSpec, conditions: Condition[]): TableQuery {
  let q = database.db.selectFrom(spec.table).select(columnsOf(spec));
  if (conditions.length) q = q.where((eb) => whereExpr(eb, conditions, database.dialect));
  return q;
}

export function orderedQuery<O>(q: TableQuery<O>, sort: SortKey[]): TableQuery<O> {
  for (const k of sort) q = q.orderBy(sql.ref(k.field.column), k.desc ? 'desc' : 'asc');
  return q;
}

/** The page query of a list, exactly as the list endpoint runs it. */
export function pageQuery(database: Database, spec: ResourceSpec, params: ListParams): TableQuery {
  return pageQueryAt(database, spec, params, params.page * params.size);
}

/**
 * LIMIT and OFFSET of a page: parameters on SQLite (its statement cache is keyed by the text),
 * literals in the text on PostgreSQL. There a page query run again and again becomes a named
 * statement (db/pg-prepared.ts) whose generic plan PostgreSQL keeps only when it looks no costlier
 * than planning each run: with a parameter for the limit or the offset the planner guesses a
 * tenth of the rows for it, the generic plan looks a hundred times costlier and every run is
 * planned again (0.13-0.17 ms at 1,000,000 rows, as much as running the page).
 */
function limitOffset<O>(database: Database, q: TableQuery<O>, size: number, offset: number): TableQuery<O> {
  if (database.dialect !== 'postgres') return q.limit(size).offset(offset);
  // literals in SQL text: only plain non-negative integers (the list's parameters are checked before)
  if (!Number.isSafeInteger(size) || !Number.isSafeInteger(offset) || size < 0 || offset < 0)
    throw new Error(`page size ${size} and offset ${offset} must be non-negative integers`);
  return q.limit(sql.lit(size)).offset(sql.lit(offset));
}

function pageQueryAt(database: Database, spec: ResourceSpec, params: ListParams, offset: number, withTotal = false): TableQuery {
  const paged = <O>(q: TableQuery<O>) => limitOffset(database, orderedQuery(q, params.sort), params.size, offset);
  // the filter's total as one more column of every row (countsWithPage): a subquery run once
  const total = (q: TableQuery): TableQuery =>
    withTotal
      ? q.select(
          filteredQuery(database, spec, params.conditions)
            .clearSelect()
            .select(sql<number>`count(*)`.as('n'))
            .as(TOTAL_COLUMN),
        )
      : q;
  if (idsFirst(database, spec, params)) {
    // the page's ids from the (column, id) index alone, then only those rows
    const id = idField(spec).column;
    const ids = paged(filteredQuery(database, spec, params.conditions).clearSelect().select(id));
    return orderedQuery(total(database.db.selectFrom(spec.table).select(columnsOf(spec))).where(id, 'in', ids), params.sort);
  }
  return paged(total(filteredQuery(database, spec, params.conditions)));
}

/** the column a page's row carries the filter's total in, when asked along (no column is named so) */
const TOTAL_COLUMN = '__total';

/**
 * Equality filters whose columns an index holds followed by the id (one filter's (column, id),
 * or an `x-entity.indexes` composite for several), ordered by the id. PostgreSQL walks the primary key
 * and reads (and discards) every row that does not match up to the page; SQLite walks
 * (column, id) but still reads the table row of every entry it skips. The page's ids can come
 * from the (column, id) index alone, then only the page's rows are read by id. On SQLite this
 * pays off once the page starts SQLITE_IDS_FIRST_OFFSET rows or more into the result.
 */
function idsFirst(database: Database, spec: ResourceSpec, params: ListParams): boolean {
  if (!params.conditions.length) return false;
  if (database.dialect === 'sqlite' && params.page * params.size < SQLITE_IDS_FIRST_OFFSET) return false;
  const id = idField(spec);
  if (params.sort.length !== 1 || params.sort[0].field !== id) return false;
  const columns: string[] = [];
  for (const c of params.conditions) {
    const field = c.kind === 'eq' || (c.kind === 'in' && c.values.length === 1) ? c.field : undefined;
    if (!field || field === id) return false;
    columns.push(field.column);
  }
  let keyed = byColumnsAndId.get(spec);
  if (!keyed) {
    // (column, id) per filter, and (columns..., id) per x-entity.indexes entry: by their columns, sorted
    keyed = new Set(
      resourceIndexes(spec).flatMap((cols) => (cols.length >= 2 && cols.at(-1) === id.column ? [cols.slice(0, -1).sort().join(',')] : [])),
    );
    byColumnsAndId.set(spec, keyed);
  }
  return keyed.has(columns.sort().join(','));
}

const SQLITE_IDS_FIRST_OFFSET = 1000;

/** per spec: the column sets (sorted, comma-joined) with an index of those columns and the id */
const byColumnsAndId = new WeakMap<ResourceSpec, Set<string>>();

/**
 * Compiled page queries, per database and spec, by everything that decides the SQL and its
 * parameters except the page: sort, size and the filter (its canonical text). Paging through a
 * list then only swaps the offset parameter instead of building and compiling the query again.
 */
const PAGE_TEMPLATES_MAX = 500;
/** stands for the offset while a template is compiled; never a real offset */
const OFFSET_MARK = -7_919_113;

interface PageTemplate {
  compiled: CompiledQuery;
  /** index of the offset (the id, for the one-id statement) among the parameters; -1: none (PostgreSQL: in the text) */
  offsetAt: number;
  /** index of the bookmark's id among the parameters (anchored pages) */
  anchorAt?: number;
}

const pageTemplates = new WeakMap<Database, WeakMap<ResourceSpec, Map<string, PageTemplate | null>>>();

function templatesOf(database: Database, spec: ResourceSpec): Map<string, PageTemplate | null> {
  let bySpec = pageTemplates.get(database);
  if (!bySpec) {
    bySpec = new WeakMap();
    pageTemplates.set(database, bySpec);
  }
  let map = bySpec.get(spec);
  if (!map) {
    map = new Map();
    bySpec.set(spec, map);
  }
  return map;
}

/** The compiled page query of `params`: the same SQL and parameters pageQuery(...).compile() gives. */
export function compiledPageQuery(database: Database, spec: ResourceSpec, params: ListParams, withTotal = false): CompiledQuery {
  const templates = templatesOf(database, spec);
  // PostgreSQL: the offset is in the text (limitOffset), so each offset has a statement of its own
  const inText = database.dialect === 'postgres';
  // the total along is asked on PostgreSQL only (countsWithPage)
  if (withTotal && !inText) throw new Error('compiledPageQuery: a total along the page is for PostgreSQL');
  const offset = params.page * params.size;
  const key = `${idsFirst(database, spec, params) ? 'ids' : 'rows'}|${params.size}|${params.sort.map((k) => `${k.field.name}${k.desc ? '-' : '+'}`).join(',')}|${params.filterKey}${inText ? `|@${offset}${withTotal ? '|n' : ''}` : ''}`;
  let template = templates.get(key);
  if (template === undefined && inText) {
    template = { compiled: pageQueryAt(database, spec, params, offset, withTotal).compile(), offsetAt: -1 };
    if (templates.size >= PAGE_TEMPLATES_MAX) templates.delete(templates.keys().next().value!);
    templates.set(key, template);
  }
  if (template?.offsetAt === -1) return template.compiled;
  if (template === undefined) {
    const compiled = pageQueryAt(database, spec, params, OFFSET_MARK).compile();
    const offsetAt = compiled.parameters.indexOf(OFFSET_MARK);
    // a template only when the mark stands for exactly one parameter
    template = offsetAt >= 0 && compiled.parameters.lastIndexOf(OFFSET_MARK) === offsetAt ? { compiled, offsetAt } : null;
    if (templates.size >= PAGE_TEMPLATES_MAX) templates.delete(templates.keys().next().value!);
    templates.set(key, template);
  }
  if (!template) return pageQuery(database, spec, params).compile();
  const parameters = template.compiled.parameters.slice();
  parameters[template.offsetAt] = params.page * params.size;
  return { ...template.compiled, parameters };
}

/** Lists ordered by the id alone can start deep pages from a bookmark (bookmarks.ts). */
function bookmarkable(spec: ResourceSpec, params: ListParams): boolean {
  return params.sort.length === 1 && params.sort[0].field === idField(spec);
}

/** The page `params` starting its walk at the row `anchor` found at `position`. */
function pageFromAnchor(database: Database, spec: ResourceSpec, params: ListParams, position: number, anchor: number): TableQuery {
  return pageFromAnchorAt(database, spec, params, anchor, params.page * params.size - position);
}

/**
 * The bookmark's id in a page query: a literal in the text on PostgreSQL, like LIMIT and OFFSET,
 * so that with its filter values also literals (pg-literals.ts) the page's statement has no
 * parameters and is planned once per connection; a parameter on SQLite.
 */
function anchorValue(database: Database, anchor: number): number | RawBuilder<unknown> {
  if (database.dialect !== 'postgres') return anchor;
  if (!Number.isSafeInteger(anchor)) throw new Error(`bookmark id ${anchor} must be an integer`);
  return sql.lit(anchor);
}

function pageFromAnchorAt(database: Database, spec: ResourceSpec, params: ListParams, anchor: number, offset: number): TableQuery {
  const id = idField(spec).column;
  const desc = params.sort[0].desc;
  const from = filteredQuery(database, spec, params.conditions).where(id, desc ? '<=' : '>=', anchorValue(database, anchor));
  const paged = <O>(q: TableQuery<O>) => limitOffset(database, orderedQuery(q, params.sort), params.size, offset);
  if (idsFirst(database, spec, params)) {
    const ids = paged(from.clearSelect().select(id));
    return orderedQuery(database.db.selectFrom(spec.table).select(columnsOf(spec)).where(id, 'in', ids), params.sort);
  }
  return paged(from);
}

const oneIdTemplates = new WeakMap<Database, WeakMap<ResourceSpec, PageTemplate>>();
/** stands for the id while the one-id statement is compiled; never a real id */
const ID_MARK = -7_919_117;

/**
 * The first page of a read by one id and nothing else (`?id=N`, the caller sees every record):
 * the row by its primary key, without order, limit or offset (at most one row, so they change
 * nothing; in SQLite they cost as much again as the look-up). One compiled statement per spec,
 * whatever the id, where the page templates would compile one per id.
 */
function oneIdQuery(database: Database, spec: ResourceSpec, params: ListParams): CompiledQuery | undefined {
  if (params.page !== 0 || params.conditions.length !== 1) return undefined;
  const c = params.conditions[0];
  const id = idField(spec);
  if (c.kind !== 'in' || c.values.length !== 1 || c.field !== id) return undefined;
  let bySpec = oneIdTemplates.get(database);
  if (!bySpec) oneIdTemplates.set(database, (bySpec = new WeakMap()));
  let template = bySpec.get(spec);
  if (!template) {
    const compiled = database.db.selectFrom(spec.table).select(columnsOf(spec)).where(id.column, '=', ID_MARK).compile();
    template = { compiled, offsetAt: compiled.parameters.indexOf(ID_MARK) };
    bySpec.set(spec, template);
  }
  const parameters = template.compiled.parameters.slice();
  parameters[template.offsetAt] = toColumnValue(id, c.values[0], database.dialect);
  return { ...template.compiled, parameters };
}

/**
 * The rows of the page `params`. With `withTotal` (PostgreSQL, countsWithPage), a page read by
 * the plain page statement also carries the filter's total in each row's TOTAL_COLUMN; the other
 * kinds of page (one id, from a bookmark) do not, and the caller counts as usual.
 */
async function pageRows(database: Database, spec: ResourceSpec, params: ListParams, withTotal = false): Promise<Record<string, unknown>[]> {
  const byId = oneIdQuery(database, spec, params);
  if (byId) return (await database.db.executeQuery<Record<string, unknown>>(byId)).rows;
  const position = bookmarkable(spec, params) ? bookmarkPosition(params.page * params.size) : 0;
  if (position === 0) {
    return (await database.db.executeQuery<Record<string, unknown>>(compiledPageQuery(database, spec, params, withTotal))).rows;
  }
  const id = idField(spec).column;
  const desc = params.sort[0].desc;
  const anchor = await bookmarkAt(database, spec.table, `${desc ? 'desc' : 'asc'}|${params.filterKey}`, position, async (from) => {
    // from the nearest bookmark before this one when known: a walk of one step instead of `position` rows
    let q = filteredQuery(database, spec, params.conditions).clearSelect().select(id);
    if (from) q = q.where(id, desc ? '<=' : '>=', anchorValue(database, from.id));
    const row = await q
      .orderBy(id, desc ? 'desc' : 'asc')
      .limit(1)
      .offset(position - (from?.position ?? 0))
      .executeTakeFirst();
    return row ? Number(row[id]) : null;
  });
  // no row at the bookmark's position: the page lies past the end
  if (anchor === null) return [];
  return (await database.db.executeQuery<Record<string, unknown>>(compiledAnchoredPage(database, spec, params, position, anchor))).rows;
}

/** stands for the bookmark's id while an anchored page's template is compiled; never a real id */
const ANCHOR_MARK = -7_919_121;

/**
 * The compiled page `params` starting at the bookmark `anchor` found at `position`: the same SQL
 * and parameters pageFromAnchor(...).compile() gives, from a template per list whose anchor and
 * offset parameters are swapped (SQLite), or compiled once per list, offset and bookmark, both in
 * the text (PostgreSQL).
 */
export function compiledAnchoredPage(
  database: Database,
  spec: ResourceSpec,
  params: ListParams,
  position: number,
  anchor: number,
): CompiledQuery {
  const templates = templatesOf(database, spec);
  const offset = params.page * params.size - position;
  const inText = database.dialect === 'postgres';
  const key = `anchor|${idsFirst(database, spec, params) ? 'ids' : 'rows'}|${params.size}|${params.sort[0].desc ? '-' : '+'}|${params.filterKey}${inText ? `|@${offset}|#${anchor}` : ''}`;
  if (inText) {
    // PostgreSQL: offset and bookmark are in the text (limitOffset, anchorValue): one statement per both
    let known = templates.get(key);
    if (!known) {
      known = { compiled: pageFromAnchorAt(database, spec, params, anchor, offset).compile(), offsetAt: -1 };
      if (templates.size >= PAGE_TEMPLATES_MAX) templates.delete(templates.keys().next().value!);
      templates.set(key, known);
    }
    return known.compiled;
  }
  // SQLite: one template per list, the bookmark and the offset swapped in as parameters
  let template = templates.get(key);
  if (template === undefined) {
    const compiled = pageFromAnchorAt(database, spec, params, ANCHOR_MARK, OFFSET_MARK).compile();
    const anchorAt = compiled.parameters.indexOf(ANCHOR_MARK);
    const offsetAt = compiled.parameters.indexOf(OFFSET_MARK);
    const once = (mark: number, at: number) => at >= 0 && compiled.parameters.lastIndexOf(mark) === at;
    // a template only when each mark stands for exactly one parameter
    template = once(ANCHOR_MARK, anchorAt) && once(OFFSET_MARK, offsetAt) ? { compiled, offsetAt, anchorAt } : null;
    if (templates.size >= PAGE_TEMPLATES_MAX) templates.delete(templates.keys().next().value!);
    templates.set(key, template);
  }
  if (!template) return pageFromAnchor(database, spec, params, position, anchor).compile();
  const parameters = template.compiled.parameters.slice();
  parameters[template.anchorAt!] = anchor;
  parameters[template.offsetAt] = offset;
  return { ...template.compiled, parameters };
}

export async function listPage(database: Database, spec: ResourceSpec, params: ListParams): Promise<Page> {
  // a pinyin blurry on SQLite: its ids kept while the database is unchanged (pinyin-pages.ts)
  const kept = await keptPinyinPage(database, spec, params, {
    plan: () => pinyinPagePlan(database, spec, params),
    pageRows: (planned) => pageRows(database, spec, planned),
    filtered: () => filteredQuery(database, spec, params.conditions),
  });
  // PostgreSQL, a filter whose total is small: the total comes with the page (countsWithPage)
  const withTotal = !kept && !pinyinBlurry(params) && countsWithPage(database, spec.table, params.filterKey);
  // a pinyin blurry over a common prefix pages by walking the table (the total keeps `params`)
  const rows = kept ? kept.rows : await pageRows(database, spec, await pinyinPagePlan(database, spec, params), withTotal);
  const content = rows.map((r) => rowToRecord(spec, r));
  const along = withTotal && rows.length ? rows[0][TOTAL_COLUMN] : undefined;
  let totalElements: number;
  if (kept?.total !== undefined) {
    totalElements = kept.total;
  } else if (along !== undefined) {
    totalElements = Number(along);
    countedWithPage(database, spec.table, params.filterKey, totalElements);
  } else if (content.length > 0 && content.length < params.size) {
    // the result ends on this page, so its size is known exactly without counting
    totalElements = params.page * params.size + content.length;
  } else if (params.page === 0 && content.length === 0) {
    totalElements = 0;
  } else {
    totalElements = await countMatching(
      database,
      spec.table,
      params.filterKey,
      () => filteredQuery(database, spec, params.conditions),
      Date.now(),
      pinyinBlurry(params) ? 0 : undefined,
    );
  }
  return { content, totalElements };
}

export async function findById(database: Database, spec: ResourceSpec, id: number): Promise<Record<string, unknown> | undefined> {
  const row = await database.db.selectFrom(spec.table).select(columnsOf(spec)).where(idField(spec).column, '=', id).executeTakeFirst();
  return row ? rowToRecord(spec, row) : undefined;
}

export interface Actor {
  username: string;
  /** who the user name is, for the revision (default: a staff user) */
  kind?: ActorKind;
  /** the revision's action when the write is not a plain update (a status move, a restore) */
  revision?: RevisionAction;
}

/** Server-set values (times, user names) for a new record or an update. */
function autoValues(spec: ResourceSpec, actor: Actor | undefined, creating: boolean): Record<string, unknown> {
  const now = nowText();
  const out: Record<string, unknown> = {};
  for (const f of spec.fields) {
    switch (f.auto) {
      case 'createTime':
        if (creating) out[f.name] = now;
        break;
      case 'updateTime':
        out[f.name] = now;
        break;
      case 'createUser':
        if (creating) out[f.name] = actor?.username ?? null;
        break;
      case 'updateUser':
        out[f.name] = actor?.username ?? null;
        break;
    }
  }
  return out;
}

async function insertRows(
  db: Db,
  database: Database,
  spec: ResourceSpec,
  records: Record<string, unknown>[],
  actor: Actor | undefined,
): Promise<Record<string, unknown>[]> {
  const rows = records.map((r) => recordToRow(spec, { ...r, ...autoValues(spec, actor, true) }, database.dialect));
  const inserted: Record<string, unknown>[] = [];
  // stay well under the bound-parameter limits of both databases
  const perBatch = Math.max(1, Math.floor(5000 / Math.max(1, spec.fields.length)));
  for (let i = 0; i < rows.length; i += perBatch) {
    const batch = rows.slice(i, i + perBatch);
    const result = await db.insertInto(spec.table).values(batch).returning(columnsOf(spec)).execute();
    await writePinyinKeys(db, spec, result);
    inserted.push(...result);
  }
  return inserted.map((r) => rowToRecord(spec, r));
}

export async function createRecord(
  database: Database,
  spec: ResourceSpec,
  values: Record<string, unknown>,
  actor?: Actor,
): Promise<Record<string, unknown>> {
  const [record] = await database.db.transaction().execute(async (trx) => {
    const created = await insertRows(trx, database, spec, [values], actor);
    const changes = snapshotChanges(spec, created[0], 'new');
    await writeRevisions(trx, database.dialect, spec, revisionActor(actor), [
      { recordId: Number(created[0][idField(spec).name]), action: actor?.revision ?? 'create', changes },
    ]);
    return created;
  });
  tableChanged(database, spec.table);
  return record;
}

/** Lets the statements just started reach the driver before synchronous work fills the thread. */
const dispatched = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Inserts all records in one transaction (all or nothing); answers how many were written.
 * Records become rows a thousand at a time and nothing is read back, so a 100,000-row import
 * holds the validated records once, not three times (rows, returned rows, returned records).
 */
export async function insertAll(
  database: Database,
  spec: ResourceSpec,
  records: Record<string, unknown>[],
  actor?: Actor,
  /** told the rows stored so far (in the still open transaction) after each 1,000 (background imports) */
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  if (records.length === 0) return 0;
  const perBatch = Math.max(1, Math.floor(5000 / Math.max(1, spec.fields.length)));
  const marked = pinyinFields(spec);
  const idCol = idField(spec).column;
  // the new ids come back for their revisions, with the marked texts for their pinyin keys
  const returned = [idCol, ...marked.map((f) => f.column)];
  const by = revisionActor(actor);
  const known = new PinyinKeyMemo();
  const heap = new HeapBound();
  const rowsAt = (i: number) =>
    records.slice(i, i + 1000).map((r) => recordToRow(spec, { ...r, ...autoValues(spec, actor, true) }, database.dialect));
  const inserted = await database.db.transaction().execute(async (trx) => {
    let done = 0;
    // PostgreSQL: a thousand rows with their revisions and keys in one statement; the next
    // batch is built while the database writes this one (pg-import-batch.ts)
    let next = database.dialect === 'postgres' ? pgImportBatch(spec, rowsAt(0), marked, known) : null;
    for (let i = 0; i < records.length; i += 1000) {
      if (next) {
        const writing = insertPgImportBatch(trx, spec, next, by);
        await dispatched();
        next = i + 1000 < records.length ? pgImportBatch(spec, rowsAt(i + 1000), marked, known) : null;
        done += await writing;
        heap.check();
        onProgress?.(done, records.length);
        continue;
      }
      const rows = rowsAt(i);
      for (let j = 0; j < rows.length; j += perBatch) {
        const back = await trx
          .insertInto(spec.table)
          .values(rows.slice(j, j + perBatch))
          .returning(returned)
          .execute();
        if (marked.length) await writePinyinKeys(trx, spec, back, database.dialect, known);
        await writeImportRevisions(
          trx,
          database.dialect,
          spec,
          by,
          back.map((r) => Number(r[idCol])),
        );
        done += back.length;
      }
      if (database.dialect === 'postgres' && i + 1000 < records.length) next = pgImportBatch(spec, rowsAt(i + 1000), marked, known);
      heap.check();
      onProgress?.(done, records.length);
    }
    return done;
  });
  tableChanged(database, spec.table);
  return inserted;
}

/** Writes the given fields (and NULL to `cleared` ones); false when the id does not exist. */
export async function updateRecord(
  database: Database,
  spec: ResourceSpec,
  id: number,
  values: Record<string, unknown>,
  cleared: string[],
  actor?: Actor,
  /** the record as the caller read it just before (record form): PostgreSQL then writes update and revision in one plain statement */
  existing?: Record<string, unknown>,
): Promise<boolean> {
  const all: Record<string, unknown> = { ...values, ...autoValues(spec, actor, false) };
  for (const name of cleared) all[name] = null;
  const row = recordToRow(spec, all, database.dialect);
  const idCol = idField(spec).column;
  delete row[idCol];
  if (database.dialect === 'postgres' && Object.keys(row).length) {
    // the update and its revision in one statement; the pinyin keys of marked texts in the same transaction
    const by = revisionActor(actor);
    const action = actor?.revision ?? 'update';
    const write = async (db: Db) => {
      if (existing) {
        // the old values as read: one plain statement, unless the record changed since (then the locked read)
        const changes = diffRecords(spec, existing, rowToRecord(spec, row));
        const oldRow = recordToRow(spec, existing, database.dialect);
        if (await updateWithKnownOldPg(db, spec, idCol, id, row, oldRow, changes, by, action)) return true;
      }
      return updateWithRevisionPg(db, spec, idCol, id, row, by, action);
    };
    const found = pinyinFields(spec).length
      ? await database.db.transaction().execute(async (trx) => {
          const ok = await write(trx);
          if (ok) await rewritePinyinKeys(trx, spec, id, row);
          return ok;
        })
      : await write(database.db);
    if (found) tableChanged(database, spec.table);
    return found;
  }
  const changed = await database.db.transaction().execute(async (trx) => {
    if (Object.keys(row).length === 0) {
      const found = await trx.selectFrom(spec.table).select(idCol).where(idCol, '=', id).executeTakeFirst();
      return !!found;
    }
    // the stored values of the written columns, for the revision
    const before = await updateReturningOld(trx, spec.table, idCol, id, row);
    if (!before) return false;
    await rewritePinyinKeys(trx, spec, id, row);
    const changes = diffRecords(spec, rowToRecord(spec, before), rowToRecord(spec, row));
    if (Object.keys(changes).length)
      await writeRevisions(trx, database.dialect, spec, revisionActor(actor), [
        { recordId: id, action: actor?.revision ?? 'update', changes },
      ]);
    return true;
  });
  if (changed) tableChanged(database, spec.table);
  return changed;
}

/** A property of another resource that references this one with `x-ref.onDelete`. */
export interface Dependent {
  spec: ResourceSpec;
  field: FieldSpec;
}

/** The references to `spec` that say what happens when its records are deleted. */
export function dependentsOf(spec: ResourceSpec, specs: ResourceSpec[]): Dependent[] {
  return specs.flatMap((s) => s.fields.filter((f) => f.ref?.resource === spec.name && f.ref.onDelete).map((field) => ({ spec: s, field })));
}

/**
 * Deletes the rows with these ids in one transaction; answers how many existed. Dependents
 * with `onDelete: restrict` refuse (400 naming them) while they reference a row; those with
 * `cascade` are deleted in the same transaction.
 */
export async function deleteRecords(
  database: Database,
  spec: ResourceSpec,
  ids: number[],
  dependents: Dependent[] = [],
  actor?: Actor,
): Promise<number> {
  const idCol = idField(spec).column;
  const by = revisionActor(actor);
  // the rows as they were go to the recycle bin (a delete revision each)
  const binned = async (trx: Db, target: ResourceSpec, rows: Record<string, unknown>[]) => {
    const id = idField(target);
    await writeRevisions(
      trx,
      database.dialect,
      target,
      by,
      rows.map((r) => {
        const record = rowToRecord(target, r);
        return { recordId: Number(record[id.name]), action: 'delete', changes: snapshotChanges(target, record, 'old'), inBin: true };
      }),
    );
  };
  const deleted = await database.db.transaction().execute(async (trx) => {
    for (const d of dependents) {
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        if (d.field.ref!.onDelete === 'restrict') {
          const used = await trx
            .selectFrom(d.spec.table)
            .select(idField(d.spec).column)
            .where(d.field.column, 'in', chunk)
            .limit(1)
            .executeTakeFirst();
          if (used) throw badRequest(`所选数据在「${d.spec.title}」中仍被使用，请先删除或修改相关数据`);
        } else {
          await deletePinyinKeysWhere(trx, d.spec, d.field.column, chunk);
          const gone = await trx.deleteFrom(d.spec.table).where(d.field.column, 'in', chunk).returning(columnsOf(d.spec)).execute();
          await binned(trx, d.spec, gone);
        }
      }
    }
    let n = 0;
    for (let i = 0; i < ids.length; i += 500) {
      await deletePinyinKeys(trx, spec, ids.slice(i, i + 500));
      const gone = await trx
        .deleteFrom(spec.table)
        .where(idCol, 'in', ids.slice(i, i + 500))
        .returning(columnsOf(spec))
        .execute();
      await binned(trx, spec, gone);
      n += gone.length;
    }
    return n;
  });
  tableChanged(database, spec.table);
  for (const d of dependents) tableChanged(database, d.spec.table);
  return deleted;
}
