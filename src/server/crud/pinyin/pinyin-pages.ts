/**
 * Pages of pinyin searches kept in memory on SQLite, exact by the database's change stamp.
 *
 * A pinyin `blurry` reads its key ranges on every request: zs at 1M rows 5,017 keys for a page of
 * ten (1.5 ms of SQL), zhang its walk over the table (0.6 ms), against 0.1 ms for the same list
 * without a search. On SQLite the answer of a search can be kept and served again while the
 * change stamp (db/change-stamp.ts) reads the same, which it does only while no row of the file
 * changed, whoever wrote it; the stamp is read before the answer is computed, so a write while it
 * is computed makes it unusable at once. Per list (table, order direction, filter key: the
 * search text, the fields it searches for this caller, every other filter and the data scope):
 *
 * - **set plan** (fewer keys than PROBE_FROM_KEYS): every matching id, read once in id order
 *   (at most SET_MAX_IDS), so any page is a slice, its total the length, and the page's rows are
 *   read by id (`id IN (10 ids)`): the plain list's cost;
 * - **walk plan** (a common prefix): each page's ids as the walk found them; the total stays with
 *   the count cache.
 *
 * Bounded: ids are kept as 8-byte numbers, an entry's bytes counted, BUDGET_BYTES in all per
 * database, least recently used dropped first. Pages of more than MAX_PAGE_ROWS rows, lists not
 * ordered by the id alone, and PostgreSQL (no change stamp) take the usual path.
 */
import type { CompiledQuery } from 'kysely';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import type { Database, TableQuery } from '../../types.ts';
import { changeStamp } from '../../db/change-stamp.ts';
import { tableVersion } from '../query/count.ts';
import type { ListParams } from '../query/query.ts';
import { idField } from '../values.ts';
import { pinyinBlurry } from './pinyin-plan.ts';

/** the most ids a set-plan search keeps (fewer keys than PROBE_FROM_KEYS give fewer ids) */
export const SET_MAX_IDS = 20_000;
/** larger pages are read the usual way */
export const MAX_PAGE_ROWS = 500;
/** memory for kept ids, per database */
export const BUDGET_BYTES = 16 * 1024 * 1024;
const PAGES_PER_LIST = 64;
/** an entry's own cost beside its ids */
const ENTRY_BYTES = 200;

interface Entry {
  stamp: string;
  version: number;
  /** every matching id, ascending (set plan), shared by the requests that wait for it; null past SET_MAX_IDS */
  ids?: Promise<Float64Array | null>;
  /** `page|size` -> the page's ids in page order (walk plan) */
  pages: Map<string, Promise<Float64Array>>;
  bytes: number;
}

interface Kept {
  lists: Map<string, Entry>;
  bytes: number;
  budget: number;
}

const byDatabase = new WeakMap<Database, Kept>();

function keptOf(database: Database): Kept {
  let k = byDatabase.get(database);
  if (!k) byDatabase.set(database, (k = { lists: new Map(), bytes: 0, budget: BUDGET_BYTES }));
  return k;
}

function drop(kept: Kept, key: string): void {
  const e = kept.lists.get(key);
  if (!e) return;
  kept.bytes -= e.bytes;
  kept.lists.delete(key);
}

function grow(kept: Kept, key: string, entry: Entry, bytes: number): void {
  entry.bytes += bytes;
  kept.bytes += bytes;
  // least recently used first (the Map's order: an entry is moved to the end when used)
  for (const k of kept.lists.keys()) {
    if (kept.bytes <= kept.budget) break;
    if (k !== key) drop(kept, k);
  }
  if (kept.bytes > kept.budget) drop(kept, key);
}

/** The rows of `ids` (in that order), by their primary key. */
async function rowsByIds(database: Database, spec: ResourceSpec, ids: ArrayLike<number>): Promise<Record<string, unknown>[]> {
  if (!ids.length) return [];
  const compiled = byIdsStatement(database, spec, ids.length);
  const { rows } = await database.db.executeQuery<Record<string, unknown>>({ ...compiled, parameters: Array.from(ids) });
  const id = idField(spec).column;
  const at = new Map(rows.map((r) => [Number(r[id]), r]));
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < ids.length; i++) {
    const r = at.get(ids[i]);
    if (r) out.push(r);
  }
  return out;
}

/** `select <columns> from t where id in (?, ...n)`, compiled once per spec and n */
const byIdsStatements = new WeakMap<Database, WeakMap<ResourceSpec, Map<number, CompiledQuery>>>();

function byIdsStatement(database: Database, spec: ResourceSpec, n: number): CompiledQuery {
  let bySpec = byIdsStatements.get(database);
  if (!bySpec) byIdsStatements.set(database, (bySpec = new WeakMap()));
  let byCount = bySpec.get(spec);
  if (!byCount) bySpec.set(spec, (byCount = new Map<number, CompiledQuery>()));
  let compiled = byCount.get(n);
  if (!compiled) {
    compiled = database.db
      .selectFrom(spec.table)
      .select(spec.fields.map((f) => f.column))
      .where(
        idField(spec).column,
        'in',
        Array.from({ length: n }, (_, i) => -1 - i),
      )
      .compile();
    byCount.set(n, compiled);
  }
  return compiled;
}

export interface KeptPage {
  rows: Record<string, unknown>[];
  /** the exact total when the kept answer knows it */
  total?: number;
}

export interface PinyinPageSources {
  /** the list's page plan (pinyin-plan.ts pinyinPagePlan) */
  plan(): Promise<ListParams>;
  /** the page's rows read with those parameters */
  pageRows(planned: ListParams): Promise<Record<string, unknown>[]>;
  /** SELECT ... FROM table WHERE <the list's conditions> */
  filtered(): TableQuery;
}

/**
 * The page of a pinyin search from what is kept (or computed now and kept), or undefined when
 * the list takes the usual path (not SQLite, not a pinyin search ordered by the id, a large page,
 * more than SET_MAX_IDS matches).
 */
export async function keptPinyinPage(
  database: Database,
  spec: ResourceSpec,
  params: ListParams,
  from: PinyinPageSources,
): Promise<KeptPage | undefined> {
  if (database.dialect !== 'sqlite' || params.size > MAX_PAGE_ROWS) return undefined;
  const id = idField(spec);
  if (params.sort.length !== 1 || params.sort[0].field !== id || !pinyinBlurry(params)) return undefined;
  // read before anything is computed: a write from here on changes it
  const stamp = changeStamp(database);
  if (stamp === undefined) return undefined;
  const version = tableVersion(database, spec.table);
  const desc = params.sort[0].desc;
  const kept = keptOf(database);
  const key = `${spec.table}|${desc ? 'desc' : 'asc'}|${params.filterKey}`;
  let entry = kept.lists.get(key);
  if (entry && (entry.stamp !== stamp || entry.version !== version)) {
    drop(kept, key);
    entry = undefined;
  }
  if (entry) {
    // most recently used: to the end
    kept.lists.delete(key);
    kept.lists.set(key, entry);
    if (entry.ids) {
      const ids = await entry.ids;
      return ids ? fromSet(database, spec, params, ids) : undefined;
    }
    const page = entry.pages.get(`${params.page}|${params.size}`);
    if (page) return { rows: await rowsByIds(database, spec, await page) };
  } else {
    entry = { stamp, version, pages: new Map(), bytes: ENTRY_BYTES };
    kept.lists.set(key, entry);
    grow(kept, key, entry, 0);
  }
  const planned = await from.plan();
  const current = entry;
  const keep = (work: Promise<Float64Array | null>) =>
    work.then(
      (ids) => {
        if (ids && kept.lists.get(key) === current) grow(kept, key, current, ids.byteLength + 64);
        return ids;
      },
      (e: unknown) => {
        // nothing kept after a failed read: the next request reads again
        if (kept.lists.get(key) === current) drop(kept, key);
        throw e;
      },
    );
  if (planned === params) {
    // the set plan: every matching id, once (requests arriving meanwhile wait for the same read)
    entry.ids ??= keep(
      from
        .filtered()
        .clearSelect()
        .select(id.column)
        .orderBy(id.column, 'asc')
        .limit(SET_MAX_IDS + 1)
        .execute()
        .then((found) => (found.length > SET_MAX_IDS ? null : Float64Array.from(found, (r) => Number(r[id.column])))),
    );
    const ids = await entry.ids;
    return ids ? fromSet(database, spec, params, ids) : undefined;
  }
  // the walk plan: this page's ids as the walk finds them
  const rows = from.pageRows(planned);
  if (entry.pages.size < PAGES_PER_LIST) {
    const ids = keep(rows.then((found) => Float64Array.from(found, (r) => Number(r[id.column]))));
    entry.pages.set(`${params.page}|${params.size}`, ids as Promise<Float64Array>);
    // its failure is the rows' failure, answered below
    ids.catch(() => {});
  }
  return { rows: await rows };
}

/** The page of `params` out of every matching id (ascending). */
async function fromSet(database: Database, spec: ResourceSpec, params: ListParams, ids: Float64Array): Promise<KeptPage> {
  const n = ids.length;
  const start = params.page * params.size;
  if (start >= n) return { rows: [], total: n };
  const end = Math.min(n, start + params.size);
  const page = params.sort[0].desc
    ? ids
        .subarray(n - end, n - start)
        .slice()
        .reverse()
    : ids.subarray(start, end);
  return { rows: await rowsByIds(database, spec, page), total: n };
}

/** What is kept now, and the budget (tests may lower it). */
export function keptPinyinMemory(database: Database, budget?: number): { lists: number; bytes: number; budget: number } {
  const k = keptOf(database);
  if (budget !== undefined) k.budget = budget;
  return { lists: k.lists.size, bytes: k.bytes, budget: k.budget };
}
