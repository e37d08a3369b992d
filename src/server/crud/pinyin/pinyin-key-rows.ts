/**
 * Writing the rows of a pinyin side table (`<table>_<column>_py (key, row_id)`, see
 * pinyin-search.ts) in bulk: what an import, the migration's fill and a create write.
 *
 * An import of 100,000 roster rows writes about 820,000 key rows. As multi-row INSERTs built by
 * the query builder (2,000 rows, 4,000 parameters each) a good part of that time went to
 * building and compiling those statements in JavaScript. Here a batch is one statement with a
 * constant text, whatever its size, so it is prepared once and its rows travel as one value:
 * - SQLite: `INSERT ... SELECT value ->> 0, value ->> 1 FROM json_each(?)` over a JSON array
 *   of `[key, row_id]` pairs (the same way the import's revisions are written);
 * - PostgreSQL: `INSERT ... SELECT * FROM unnest($1::text[], $2::bigint[])`.
 * The rows stored are the same as before, in the same transaction as the caller's. (An import on
 * PostgreSQL writes its keys in the statement of its rows instead: pg-import-batch.ts.)
 */
import { sql } from 'kysely';
import type { Db, Dialect } from '../../types.ts';

export interface KeyRow {
  key: string;
  row_id: number;
}

/** key rows per statement: bounded so that one value stays small (about 30 bytes a row) */
const ROWS_PER_STATEMENT = 20_000;
/** side-table rows per INSERT of the query builder (two parameters each) */
const KEYS_PER_INSERT = 2000;

/** Inserts `rows` into the side table `table`; without a dialect, as multi-row INSERTs. */
export async function insertKeyRows(db: Db, table: string, rows: KeyRow[], dialect?: Dialect): Promise<void> {
  if (!rows.length) return;
  if (!dialect) {
    for (let i = 0; i < rows.length; i += KEYS_PER_INSERT)
      await db
        .insertInto(table)
        .values(rows.slice(i, i + KEYS_PER_INSERT))
        .execute();
    return;
  }
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.length <= ROWS_PER_STATEMENT ? rows : rows.slice(i, i + ROWS_PER_STATEMENT);
    if (dialect === 'postgres') {
      const keys = part.map((r) => r.key);
      const ids = part.map((r) => r.row_id);
      await sql`insert into ${sql.table(table)} (key, row_id) select * from unnest(${keys}::text[], ${ids}::bigint[])`.execute(db);
    } else {
      const pairs = JSON.stringify(part.map((r) => [r.key, r.row_id]));
      await sql`insert into ${sql.table(table)} (key, row_id) select value ->> 0, value ->> 1 from json_each(${pairs})`.execute(db);
    }
  }
}
