/**
 * Tables from resource specs, additively: a missing table is created, a missing column is
 * added, missing indexes are created. Nothing is ever dropped, altered or rewritten, so a start
 * on an existing database keeps every row (a column removed from a schema simply stays).
 *
 * Storage types (same meaning on both databases):
 *   integer            -> bigint (the id: autoincrement primary key / identity on PostgreSQL)
 *   number             -> double precision (PostgreSQL) / real (SQLite)
 *   string             -> varchar(maxLength), or text without a maxLength
 *   string date-time   -> timestamp(0) (PostgreSQL) / text 'YYYY-MM-DD HH:mm:ss' (SQLite)
 *   string date        -> date (PostgreSQL) / text 'YYYY-MM-DD' (SQLite)
 *   boolean            -> boolean (PostgreSQL) / integer 0/1 (SQLite)
 * Columns other than the id are nullable: required-ness is the validator's job, and a column
 * added to a table that already has rows must accept them. A schema default becomes the
 * column default so existing rows read sensibly. The mapping itself lives in
 * shared/column-types.ts (codegen documents the same DDL from it); indexes: see resourceIndexes.
 */
import { sql, type Kysely } from 'kysely';
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import { columnDefault as defaultSql, columnType as typeSql, indexName, resourceIndexes, type ColumnSource } from '../../shared/column-types.ts';
import type { Database, Dialect } from '../types.ts';

const columnType = (field: ColumnSource, dialect: Dialect) => sql.raw(typeSql(field, dialect));
function columnDefault(field: ColumnSource, dialect: Dialect) {
  const d = defaultSql(field, dialect);
  return d === undefined ? undefined : sql.raw(d);
}

export { resourceIndexes };

async function existingColumns(db: Kysely<any>, dialect: Dialect, table: string): Promise<Set<string> | null> {
  if (dialect === 'postgres') {
    const r = await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db);
    return r.rows.length ? new Set(r.rows.map((x) => x.column_name)) : null;
  }
  const r = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return r.rows.length ? new Set(r.rows.map((x) => x.name)) : null;
}

async function ensureOne(db: Kysely<any>, dialect: Dialect, spec: ResourceSpec): Promise<void> {
  const have = await existingColumns(db, dialect, spec.table);
  if (!have) {
    let builder = db.schema.createTable(spec.table).ifNotExists();
    for (const f of spec.fields) {
      builder = builder.addColumn(f.column, columnType(f, dialect), (c) => {
        if (f.auto === 'id') {
          c = c.primaryKey();
          return dialect === 'sqlite' ? c.autoIncrement() : c.generatedByDefaultAsIdentity();
        }
        const d = columnDefault(f, dialect);
        return d === undefined ? c : c.defaultTo(d);
      });
    }
    await builder.execute();
  } else {
    for (const f of spec.fields) {
      if (have.has(f.column)) continue;
      if (f.auto === 'id') {
        throw new Error(`table ${spec.table} exists without its key column ${f.column}; it cannot be added without rewriting the table`);
      }
      await db.schema
        .alterTable(spec.table)
        .addColumn(f.column, columnType(f, dialect), (c) => {
          const d = columnDefault(f, dialect);
          return d === undefined ? c : c.defaultTo(d);
        })
        .execute();
    }
  }
  for (const cols of resourceIndexes(spec)) {
    await db.schema.createIndex(indexName(spec.table, cols)).ifNotExists().on(spec.table).columns(cols).execute();
  }
}

/** Arbitrary constant for the advisory lock that serialises schema changes across instances. */
const MIGRATION_LOCK = 72_310_514;

/**
 * Creates or extends the table of every spec. On PostgreSQL the work runs under an advisory
 * lock so several instances starting at once do not race on CREATE TABLE; on SQLite it runs in
 * one transaction.
 */
export async function ensureResourceTables(database: Database, specs: ResourceSpec[]): Promise<void> {
  if (database.dialect === 'postgres') {
    await database.db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
      try {
        for (const spec of specs) await ensureOne(conn, 'postgres', spec);
      } finally {
        await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
      }
    });
    return;
  }
  // one transaction holds SQLite's single connection, so concurrent callers take turns
  await database.db.transaction().execute(async (trx) => {
    for (const spec of specs) await ensureOne(trx, 'sqlite', spec);
  });
}
