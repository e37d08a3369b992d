/**
 * Tables from resource specs: a missing table is created, a missing column is added, a longer
 * maxLength widens its column, missing indexes are created (the unique index of an `x-unique`
 * rule only when no two rows share a value, and one no rule asks for any more is dropped:
 * unique-plan.ts). A change that could lose, strand or reject rows (a rename, a type change, a
 * narrowing or a new rule that stored rows break, duplicates of a new unique rule among them) applies
 * only from a committed migration (schema-plan.ts, schema-migrations.ts); nothing is dropped but
 * by a migration, so a start on an existing database keeps every row (a column removed from a
 * schema simply stays). The one rewrite: a money column
 * (`x-money`) made before money was exact holds floating-point yuan; it is converted once, in
 * place and atomically, to integer cents (see convertMoneyColumns).
 *
 * Storage types (same meaning on both databases):
 *   integer            -> bigint (the id: autoincrement primary key / identity on PostgreSQL)
 *   number             -> double precision (PostgreSQL) / real (SQLite)
 *   number, x-money    -> bigint (PostgreSQL) / integer (SQLite): cents
 *   string             -> varchar(maxLength), or text without a maxLength
 *   string date-time   -> timestamp(0) (PostgreSQL) / text 'YYYY-MM-DD HH:mm:ss' (SQLite)
 *   string date        -> date (PostgreSQL) / text 'YYYY-MM-DD' (SQLite)
 *   boolean            -> boolean (PostgreSQL) / integer 0/1 (SQLite)
 * Columns other than the id are nullable: required-ness is the validator's job, and a column
 * added to a table that already has rows must accept them. A schema default becomes the
 * column default so existing rows read sensibly. The mapping itself lives in
 * shared/column-types.ts (codegen documents the same DDL from it); indexes: see resourceIndexes.
 */
import { sql } from 'kysely';
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import {
  columnDefault as defaultSql,
  columnType as typeSql,
  indexName,
  resourceIndexes,
  type ColumnSource,
} from '../../shared/column-types.ts';
import type { Database, Dialect, Db } from '../types.ts';
import { ensurePinyinTables } from '../crud/pinyin/pinyin-search.ts';
import { nowText } from './index.ts';
import { ensureUniqueIndexes } from './unique-plan.ts';
import { isUniqueViolation, knowUniqueIndexes } from './data-mismatch.ts';
import {
  deleteSnapshot,
  ensureSnapshotTable,
  planAll,
  planEntity,
  readSnapshots,
  refusal,
  shapeToKeep,
  writeSnapshot,
  type Change,
} from './schema-plan.ts';
import {
  appliedMigrations,
  applyMigrationSteps,
  editedAfterApplying,
  editedRefusal,
  ensureMigrationsTable,
  patchShape,
  readMigrationFiles,
  recordMigration,
  rewritesData,
} from './schema-migrations.ts';

const columnType = (field: ColumnSource, dialect: Dialect) => sql.raw(typeSql(field, dialect));
function columnDefault(field: ColumnSource, dialect: Dialect) {
  const d = defaultSql(field, dialect);
  return d === undefined ? undefined : sql.raw(d);
}

export { resourceIndexes };

async function existingColumns(db: Db, dialect: Dialect, table: string): Promise<Set<string> | null> {
  if (dialect === 'postgres') {
    const r = await sql<{ column_name: string }>`select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db);
    return r.rows.length ? new Set(r.rows.map((x) => x.column_name)) : null;
  }
  const r = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return r.rows.length ? new Set(r.rows.map((x) => x.name)) : null;
}

/** Marks the SQLite money columns already holding cents (SQLite cannot change a declared type). */
export const MONEY_MARKER_TABLE = 'schema_money_cents';

/**
 * Money columns of an existing table that still hold floating-point yuan become integer cents:
 * on PostgreSQL the column type changes (`double precision` -> `bigint`, rounding to the cent)
 * in one statement, so the type is the marker; on SQLite, whose declared type cannot change, the
 * values are rewritten and the column is recorded in schema_money_cents in the same transaction.
 * A column created as integer cents needs nothing. Values keep their meaning: 12.34 yuan reads
 * back as 12.34.
 */
async function convertMoneyColumns(db: Db, dialect: Dialect, spec: ResourceSpec, have: Set<string>): Promise<void> {
  const money = spec.fields.filter((f) => f.money && have.has(f.column));
  if (!money.length) return;
  if (dialect === 'postgres') {
    const r = await sql<{ column_name: string; data_type: string }>`select column_name, data_type from information_schema.columns
      where table_schema = current_schema() and table_name = ${spec.table}`.execute(db);
    const types = new Map(r.rows.map((x) => [x.column_name, x.data_type]));
    for (const f of money) {
      const type = types.get(f.column);
      if (type === 'bigint' || type === 'integer' || type === 'smallint') continue;
      const col = sql.ref(f.column);
      const d = columnDefault(f, dialect);
      // one transaction: the type, the values and the default change together or not at all
      await sql`begin`.execute(db);
      try {
        await sql`alter table ${sql.table(spec.table)} alter column ${col} drop default`.execute(db);
        await sql`alter table ${sql.table(spec.table)} alter column ${col} type bigint using round((${col})::numeric * 100)::bigint`.execute(
          db,
        );
        if (d !== undefined) await sql`alter table ${sql.table(spec.table)} alter column ${col} set default ${d}`.execute(db);
        await sql`commit`.execute(db);
      } catch (e) {
        await sql`rollback`.execute(db);
        throw e;
      }
    }
    return;
  }
  await sql`create table if not exists ${sql.table(MONEY_MARKER_TABLE)} (table_name text not null, column_name text not null, primary key (table_name, column_name))`.execute(
    db,
  );
  const declared = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${spec.table})`.execute(db);
  const types = new Map(declared.rows.map((x) => [x.name, x.type.toLowerCase()]));
  const done = await sql<{
    column_name: string;
  }>`select column_name from ${sql.table(MONEY_MARKER_TABLE)} where table_name = ${spec.table}`.execute(db);
  const converted = new Set(done.rows.map((x) => x.column_name));
  for (const f of money) {
    if (types.get(f.column) === 'integer' || converted.has(f.column)) continue;
    const col = sql.ref(f.column);
    await sql`update ${sql.table(spec.table)} set ${col} = cast(round(${col} * 100) as integer) where ${col} is not null`.execute(db);
    await sql`insert into ${sql.table(MONEY_MARKER_TABLE)} (table_name, column_name) values (${spec.table}, ${f.column})`.execute(db);
  }
}

async function ensureOne(db: Db, dialect: Dialect, spec: ResourceSpec): Promise<void> {
  const have = await existingColumns(db, dialect, spec.table);
  if (have) await convertMoneyColumns(db, dialect, spec, have);
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
  // x-unique: the plan found no duplicates (or a migration resolved them); a row written since
  // by an instance still serving refuses the start like the plan would
  try {
    await ensureUniqueIndexes(db, dialect, spec);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const blocking = (await planEntity(db, dialect, spec, undefined)).filter((c) => c.blocking && c.kind === 'uniqueAdded');
    if (blocking.length) throw refusal(blocking);
    throw err;
  }
  knowUniqueIndexes(spec);
  // the pinyin keys of x-pinyin fields, filled in for rows stored before (crud/pinyin/pinyin-search.ts)
  await ensurePinyinTables(db, dialect, spec);
}

/** Arbitrary constant for the advisory lock that serialises schema changes across instances. */
const MIGRATION_LOCK = 72_310_514;

export interface SchemaApplyOptions {
  /** the folder of committed migrations (migrations/); none: no migration applies */
  migrationsDir?: string;
  /** takes a backup; called before a migration that rewrites or drops stored values */
  backup?: () => Promise<unknown>;
}

/** Widening (and narrowing with every value fitting) on PostgreSQL, whose varchar enforces its length. */
async function alignLengths(db: Db, dialect: Dialect, changes: Change[], spec: ResourceSpec): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const c of changes) {
    if (c.entity !== spec.name || !c.auto || (c.kind !== 'widen' && c.kind !== 'narrow')) continue;
    const f = spec.fields.find((x) => x.name === c.property)!;
    await sql`alter table ${sql.table(spec.table)} alter column ${sql.ref(f.column)} type ${columnType(f, dialect)}`.execute(db);
  }
}

/**
 * Brings the database to the schemas: committed migrations not yet applied (each in its own
 * transaction, a backup first when one rewrites or drops values), then the plan of what is left
 * (schema-plan.ts): a change that could lose, strand or reject rows stops the start with a
 * message naming it and its rows; the rest applies (new tables, columns and indexes, widened
 * columns), and the shape applied is kept for the next start and plan.
 */
async function applySchema(db: Db, dialect: Dialect, specs: ResourceSpec[], opts: SchemaApplyOptions): Promise<void> {
  await ensureSnapshotTable(db);
  await ensureMigrationsTable(db);
  const snapshots = await readSnapshots(db, dialect);
  if (opts.migrationsDir) {
    const files = readMigrationFiles(opts.migrationsDir);
    const applied = await appliedMigrations(db, dialect);
    const edited = editedAfterApplying(files, applied);
    if (edited.length) throw editedRefusal(edited);
    const idOf = (table: string) => {
      const spec = specs.find((s) => s.table === table);
      if (spec) return spec.fields.find((f) => f.auto === 'id')?.column;
      for (const shape of snapshots.values()) if (shape.table === table) return shape.fields.find((f) => f.auto === 'id')?.column;
      return undefined;
    };
    for (const file of files) {
      if (applied.some((a) => a.name === file.name)) continue;
      if (rewritesData(file) && opts.backup) await opts.backup();
      const started = performance.now();
      await inTransaction(db, dialect, async (trx) => {
        await applyMigrationSteps(trx, dialect, file, idOf);
        for (const step of file.steps) {
          if (step.kind === 'dropTable') {
            snapshots.delete(step.entity);
            await deleteSnapshot(trx, step.entity);
            continue;
          }
          if (step.kind === 'renameEntity') {
            const moved = patchShape(snapshots.get(step.from), step);
            snapshots.delete(step.from);
            await deleteSnapshot(trx, step.from);
            if (moved) {
              snapshots.set(step.entity, moved);
              await writeSnapshot(trx, moved, nowText());
            }
            continue;
          }
          const patched = patchShape(snapshots.get(step.entity), step);
          if (patched) {
            snapshots.set(step.entity, patched);
            await writeSnapshot(trx, patched, nowText());
          }
        }
        await recordMigration(trx, file, nowText(), performance.now() - started);
      });
    }
  }
  const changes = await planAll(db, dialect, specs, snapshots);
  const blocking = changes.filter((c) => c.blocking);
  if (blocking.length) throw refusal(blocking);
  const ensure = async (trx: Db) => {
    for (const spec of specs) {
      await alignLengths(trx, dialect, changes, spec);
      await ensureOne(trx, dialect, spec);
      await writeSnapshot(trx, await shapeToKeep(trx, dialect, spec, snapshots.get(spec.name)), nowText());
    }
  };
  // SQLite: one transaction; PostgreSQL: statement by statement under the lock, as the money
  // conversion of ensureOne holds a transaction of its own
  if (dialect === 'sqlite') await db.transaction().execute(ensure);
  else await ensure(db);
}

/** One transaction: on PostgreSQL on the connection the caller holds, on SQLite Kysely's. */
async function inTransaction(db: Db, dialect: Dialect, work: (trx: Db) => Promise<void>): Promise<void> {
  if (dialect === 'sqlite') {
    await db.transaction().execute(work);
    return;
  }
  await sql`begin`.execute(db);
  try {
    // a migration may take longer than one request's statement timeout
    await sql`set local statement_timeout = 0`.execute(db);
    await work(db);
    await sql`commit`.execute(db);
  } catch (e) {
    await sql`rollback`.execute(db).catch(() => undefined);
    throw e;
  }
}

/**
 * Creates or extends the table of every spec (applySchema). On PostgreSQL the work runs under an
 * advisory lock so several instances starting at once take turns: the first applies, the
 * others find it done; on SQLite one server owns the file.
 */
export async function ensureResourceTables(database: Database, specs: ResourceSpec[], opts: SchemaApplyOptions = {}): Promise<void> {
  if (database.dialect === 'postgres') {
    await database.db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
      try {
        await applySchema(conn, 'postgres', specs, opts);
      } finally {
        await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
      }
    });
    return;
  }
  await applySchema(database.db, 'sqlite', specs, opts);
}
