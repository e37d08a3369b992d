/**
 * A stamp of the SQLite database's content: it changes whenever a row may have changed, whoever
 * wrote it. Two figures from SQLite itself, read in one statement (about 3 µs):
 * - `total_changes()`: rows inserted, updated or deleted through this connection (the app's own
 *   writes, any code path, counted as each statement runs, before its transaction commits, and
 *   never undone by a rollback, so a rolled-back write changes the stamp too);
 * - `PRAGMA data_version`: changes when another connection commits to the file (another
 *   process, a command-line tool, a second handle of this process).
 * An answer computed from the database and kept with the stamp taken before it was computed is
 * still exact while the stamp reads the same. PostgreSQL has no such figure: undefined there.
 */
import type SQLite from 'better-sqlite3';
import type { Database } from '../types.ts';
import { sqliteHandleOf } from './index.ts';

const statements = new WeakMap<SQLite.Database, SQLite.Statement>();

export function changeStamp(database: Database): string | undefined {
  if (database.dialect !== 'sqlite') return undefined;
  const handle = sqliteHandleOf(database);
  if (!handle) return undefined;
  try {
    let statement = statements.get(handle.sqlite);
    if (!statement) {
      statement = handle.sqlite.prepare('SELECT total_changes(), data_version FROM pragma_data_version').raw(true);
      statements.set(handle.sqlite, statement);
    }
    const [changes, version] = statement.get() as [number, number];
    return `${changes}/${version}`;
  } catch {
    // a closed or failing connection: nothing can be trusted as unchanged
    return undefined;
  }
}
