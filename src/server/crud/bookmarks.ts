/**
 * Page bookmarks for deep pages of lists ordered by the id. A page far into a result costs a
 * walk over every row before it (offset 7,500: 7,515 index entries). A bookmark remembers the id
 * found at every BOOKMARK_STEP-th position of a filtered result, so a later page starts its walk
 * there: `... AND id <= <bookmark> ORDER BY id DESC OFFSET <offset - step>` reads at most
 * BOOKMARK_STEP entries before the page.
 *
 * A bookmark is only used while it is exact: it belongs to the table's write counter on this
 * instance (any write through the app drops it) and lives as long as the cached counts
 * (5 s on PostgreSQL, where other instances may write; 10 minutes on SQLite, which one server
 * owns). Within those 5 s a write made by another instance can shift a PostgreSQL page by the
 * rows it added or removed above it, as it would between two page loads anyway.
 */
import type { Database } from '../types.ts';
import { cacheLifetimeMs, tableVersion } from './count.ts';

export const BOOKMARK_STEP = 1000;
const MAX_LISTS = 500;

interface Marks {
  version: number;
  at: number;
  /** position -> id at that position, or null when the result is shorter */
  ids: Map<number, number | null>;
}

const byDatabase = new WeakMap<Database, Map<string, Marks>>();

function marksOf(database: Database, table: string, key: string, now: number): Marks {
  let lists = byDatabase.get(database);
  if (!lists) {
    lists = new Map();
    byDatabase.set(database, lists);
  }
  const version = tableVersion(database, table);
  const full = `${table}|${key}`;
  let m = lists.get(full);
  if (!m || m.version !== version || now - m.at > cacheLifetimeMs(database)) {
    m = { version, at: now, ids: new Map() };
    lists.delete(full);
    if (lists.size >= MAX_LISTS) lists.delete(lists.keys().next().value!);
    lists.set(full, m);
  }
  return m;
}

/** The bookmark position for an offset (0 when the page is near enough the start). */
export function bookmarkPosition(offset: number): number {
  return Math.floor(offset / BOOKMARK_STEP) * BOOKMARK_STEP;
}

/**
 * The id at `position` of the list `key` (filter and order) of `table`: from the bookmarks when
 * known and still exact, else looked up with `find` and remembered. `find` answers null when
 * the result has no row at that position.
 */
export async function bookmarkAt(
  database: Database,
  table: string,
  key: string,
  position: number,
  find: () => Promise<number | null>,
  now = Date.now(),
): Promise<number | null> {
  const marks = marksOf(database, table, key, now);
  if (marks.ids.has(position)) return marks.ids.get(position)!;
  const version = marks.version;
  const id = await find();
  // a write during the look-up makes it useless for later pages (still right for this one)
  if (tableVersion(database, table) === version) marks.ids.set(position, id);
  return id;
}
