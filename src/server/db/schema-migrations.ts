/**
 * Committed migrations: `migrations/NNNN-<entity>-<property>.json` files written by
 * `npm run schema:plan`, reviewed, committed, and applied by the next start, each once, in name
 * order, under the start lock. Each file is `{ "steps": [...] }` (the steps of schema-plan.ts);
 * its choices are the reviewer's: what to do with values that do not convert
 * (`nonConverting`: refuse | null), with values too long (`tooLong`: refuse | truncate), the
 * value that fills rows lacking a new required property (`fill`), old enum values to rewrite
 * (`replace`), what to do with rows sharing the value of a new unique rule (`duplicates`: refuse |
 * null | suffix, unique-plan.ts). A choice left at refuse with rows in the way stops the start, naming them.
 *
 * Applied: one transaction per file (PostgreSQL runs DDL in transactions; on SQLite a changed
 * column is rebuilt inside the transaction: new column, values copied, old one dropped, the new
 * renamed), a backup first when a step rewrites or drops values, one row in schema_migrations
 * (name, checksum, applied at, by whom, duration). A file changed after it was applied stops
 * the start (its checksum no longer matches).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { columnDefinitionSql, columnType, type ColumnSource } from '../../shared/column-types.ts';
import type { Db, Dialect } from '../types.ts';
import {
  convertValue,
  FIRST_IDS,
  liveColumns,
  missingValue,
  outsideEnum,
  scanColumn,
  SchemaChangeRefused,
  tooLong,
  type EntityShape,
  type FieldShape,
  type MigrationStep,
} from './schema-plan.ts';
import { applyUniqueStep, UniqueStepRefused } from './unique-plan.ts';
import { PINYIN_MARKER_TABLE, pinyinTable } from '../crud/pinyin/pinyin-search.ts';
import { applyEntityRename } from './entity-rename.ts';
import { applyStepToRevisions } from './revision-steps.ts';

export const MIGRATIONS_TABLE = 'schema_migrations';

export const MIGRATION_NAME = /^\d{4}-[A-Za-z0-9_.-]+\.json$/;

export interface MigrationFile {
  /** file name, e.g. 0001-sysQuestion-suggestion.json */
  name: string;
  checksum: string;
  steps: MigrationStep[];
}

export interface AppliedMigration {
  name: string;
  checksum: string;
  applied_at: string;
  applied_by: string;
  duration_ms: number;
}

export const checksumOf = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

const STEP_KINDS = new Set([
  'rename',
  'typeChange',
  'narrow',
  'requiredAdded',
  'enumNarrowed',
  'dropColumn',
  'dropTable',
  'uniqueAdded',
  'renameEntity',
]);

/** The migration files of `dir` in name order (none when the folder does not exist). */
export function readMigrationFiles(dir: string): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => MIGRATION_NAME.test(f))
    .sort()
    .map((name) => {
      const raw = readFileSync(join(dir, name));
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch (err) {
        throw new SchemaChangeRefused(
          `迁移文件不是有效的 JSON / migration is not valid JSON: migrations/${name}: ${(err as Error).message}`,
        );
      }
      const steps = (parsed as { steps?: unknown }).steps;
      if (!Array.isArray(steps) || steps.some((s) => !s || typeof s !== 'object' || !STEP_KINDS.has((s as { kind?: string }).kind ?? ''))) {
        throw new SchemaChangeRefused(`迁移文件格式不正确 / migration has no valid "steps": migrations/${name}`);
      }
      return { name, checksum: checksumOf(raw), steps: steps as MigrationStep[] };
    });
}

export async function ensureMigrationsTable(db: Db): Promise<void> {
  await sql`create table if not exists ${sql.table(MIGRATIONS_TABLE)} (
    name varchar(200) primary key, checksum varchar(64) not null, applied_at varchar(19) not null,
    applied_by varchar(200) not null, duration_ms integer not null)`.execute(db);
}

export async function appliedMigrations(db: Db, dialect: Dialect): Promise<AppliedMigration[]> {
  if (!(await liveColumns(db, dialect, MIGRATIONS_TABLE))) return [];
  const r =
    await sql<AppliedMigration>`select name, checksum, applied_at, applied_by, duration_ms from ${sql.table(MIGRATIONS_TABLE)} order by name`.execute(
      db,
    );
  return r.rows.map((x) => ({ ...x, duration_ms: Number(x.duration_ms) }));
}

/** Applied migrations whose file now reads differently. */
export function editedAfterApplying(
  files: MigrationFile[],
  applied: AppliedMigration[],
): Array<{ file: MigrationFile; applied: AppliedMigration }> {
  const out = [];
  for (const a of applied) {
    const file = files.find((f) => f.name === a.name);
    if (file && file.checksum !== a.checksum) out.push({ file, applied: a });
  }
  return out;
}

export function editedRefusal(edited: Array<{ file: MigrationFile; applied: AppliedMigration }>): SchemaChangeRefused {
  return new SchemaChangeRefused(
    [
      '已应用的迁移文件在应用后被修改，服务未启动 / A migration was edited after it was applied; the server did not start:',
      ...edited.map(
        ({ file, applied }) =>
          `  migrations/${file.name}: 应用于 / applied ${applied.applied_at} by ${applied.applied_by}, checksum ${applied.checksum.slice(0, 12)} → ${file.checksum.slice(0, 12)}`,
      ),
      '请恢复该文件原样，把新的变更写进一个新的迁移（npm run schema:plan）/ Restore the file as applied and put further changes in a new migration (npm run schema:plan).',
    ].join('\n'),
  );
}

/** Whether applying the file rewrites or drops stored values (a backup comes first). */
export function rewritesData(file: MigrationFile): boolean {
  return file.steps.some(
    (s) =>
      s.kind === 'dropColumn' ||
      s.kind === 'dropTable' ||
      s.kind === 'typeChange' ||
      (s.kind === 'narrow' && s.tooLong === 'truncate') ||
      (s.kind === 'enumNarrowed' && Object.keys(s.replace ?? {}).length > 0) ||
      (s.kind === 'uniqueAdded' && s.duplicates !== 'refuse'),
  );
}

export const appliedBy = () => {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    /* no user name in this environment */
  }
  return `${user}@${hostname()} pid ${process.pid}`.slice(0, 200);
};

const idList = (ids: unknown[], rows: number) =>
  `id ${ids.map(String).join(', ')}${rows > ids.length ? ` …（共 ${rows} 行 / ${rows} rows）` : ''}`;

function stepRefused(file: string, step: MigrationStep & { property: string }, zh: string, en: string, ids: unknown[], rows: number) {
  return new SchemaChangeRefused(
    `迁移 migrations/${file} 无法应用，服务未启动 / Migration migrations/${file} cannot apply; the server did not start:\n` +
      `  schemas/${step.entity}.json ${step.property}: ${zh} / ${en}: ${rows} 行 / ${rows} rows: ${idList(ids, rows)}`,
  );
}

const bindable = (dialect: Dialect, v: unknown) => (dialect === 'sqlite' && typeof v === 'boolean' ? (v ? 1 : 0) : v);

async function dropIndexesOn(db: Db, dialect: Dialect, table: string, column: string): Promise<void> {
  if (dialect !== 'sqlite') return; // PostgreSQL drops them with the column
  const r = await sql<{ name: string }>`select distinct il.name as name from pragma_index_list(${table}) il
    join pragma_index_info(il.name) ii where ii.name = ${column} and il.origin = 'c'`.execute(db);
  for (const x of r.rows) await sql`drop index if exists ${sql.ref(x.name)}`.execute(db);
}

/** Replaces a column by one of the type of `to`, filled with `values` by id (the others null). */
async function rebuildColumn(
  db: Db,
  dialect: Dialect,
  table: string,
  idColumn: string,
  to: FieldShape,
  values: (id: unknown, v: unknown) => unknown,
): Promise<void> {
  const temp = `${to.column}__migrating`;
  const t = sql.table(table);
  await sql`alter table ${t} add column ${sql.raw(columnDefinitionSql({ ...(to as unknown as ColumnSource), column: temp, auto: undefined }, dialect))}`.execute(
    db,
  );
  // the default filled every row: values the old column did not hold are null, as they were
  await sql`update ${t} set ${sql.ref(temp)} = null`.execute(db);
  await scanColumn(db, table, idColumn, to.column, async (id, v) => {
    await sql`update ${t} set ${sql.ref(temp)} = ${bindable(dialect, values(id, v))} where ${sql.ref(idColumn)} = ${id}`.execute(db);
  });
  await dropIndexesOn(db, dialect, table, to.column);
  await sql`alter table ${t} drop column ${sql.ref(to.column)}`.execute(db);
  await sql`alter table ${t} rename column ${sql.ref(temp)} to ${sql.ref(to.column)}`.execute(db);
}

async function applyStep(db: Db, dialect: Dialect, file: string, step: MigrationStep, idOf: (table: string) => string | undefined) {
  if (step.kind === 'renameEntity') return applyEntityRename(db, dialect, step);
  const live = await liveColumns(db, dialect, step.table);
  if (!live) return; // a database that never had the table: it is created as the schema says
  const t = sql.table(step.table);
  switch (step.kind) {
    case 'rename':
      if (live.has(step.from) && !live.has(step.to.column)) {
        await dropIndexesOn(db, dialect, step.table, step.from);
        await sql`alter table ${t} rename column ${sql.ref(step.from)} to ${sql.ref(step.to.column)}`.execute(db);
      }
      return;
    case 'dropColumn':
      if (live.has(step.column)) {
        await dropIndexesOn(db, dialect, step.table, step.column);
        await sql`alter table ${t} drop column ${sql.ref(step.column)}`.execute(db);
      }
      return;
    case 'dropTable':
      await sql`drop table if exists ${t}`.execute(db);
      return;
    case 'uniqueAdded':
      // a property new to the table: the start adds its column, then the index
      if (!step.fields.every((f) => live.has(f.column))) return;
      try {
        await applyUniqueStep(db, dialect, step, idOf(step.table));
      } catch (err) {
        if (err instanceof UniqueStepRefused) throw stepRefused(file, step, err.zh, err.en, err.ids, err.rows);
        throw err;
      }
      return;
  }
  const to = step.to;
  const idColumn = idOf(step.table);
  if (!live.has(to.column)) {
    if (step.kind !== 'requiredAdded') return; // nothing stored to change
    await sql`alter table ${t} add column ${sql.raw(columnDefinitionSql(to as unknown as ColumnSource, dialect))}`.execute(db);
  }
  const col = sql.ref(to.column);
  switch (step.kind) {
    case 'typeChange': {
      if (!idColumn) throw new SchemaChangeRefused(`migrations/${file}: table ${step.table} has no id column`);
      let rows = 0;
      const ids: unknown[] = [];
      await scanColumn(db, step.table, idColumn, to.column, (id, v) => {
        if (convertValue(v, to).ok) return;
        rows++;
        if (ids.length < FIRST_IDS) ids.push(id);
      });
      if (rows && step.nonConverting !== 'null') {
        throw stepRefused(
          file,
          step,
          `${rows} 个值无法转换为新类型（nonConverting 为 refuse）`,
          `${rows} values do not convert (nonConverting: refuse)`,
          ids,
          rows,
        );
      }
      await rebuildColumn(db, dialect, step.table, idColumn, to, (_id, v) => {
        const c = convertValue(v, to);
        return c.ok ? c.value : null;
      });
      return;
    }
    case 'narrow': {
      const max = to.maxLength;
      if (max === undefined) return;
      const long = await tooLong(db, dialect, step.table, idColumn, to.column, max);
      if (long.rows && step.tooLong !== 'truncate') {
        throw stepRefused(
          file,
          step,
          `${long.rows} 行超过 ${max} 个字符（tooLong 为 refuse）`,
          `${long.rows} rows longer than ${max} (tooLong: refuse)`,
          long.ids,
          long.rows,
        );
      }
      if (long.rows) {
        const cut = dialect === 'postgres' ? sql`left(${col}, ${max})` : sql`substr(${col}, 1, ${max})`;
        const len = dialect === 'postgres' ? sql`char_length(${col})` : sql`length(${col})`;
        await sql`update ${t} set ${col} = ${cut} where ${len} > ${max}`.execute(db);
      }
      if (dialect === 'postgres')
        await sql`alter table ${t} alter column ${col} type ${sql.raw(columnType(to as unknown as ColumnSource, dialect))}`.execute(db);
      return;
    }
    case 'requiredAdded': {
      if (step.fill !== null && step.fill !== undefined) {
        const fill = convertValue(step.fill, to);
        if (!fill.ok) throw new SchemaChangeRefused(`migrations/${file}: "fill" ${JSON.stringify(step.fill)} is not a value of ${to.name}`);
        await sql`update ${t} set ${col} = ${bindable(dialect, fill.value)} where ${col} is null`.execute(db);
      }
      const lacking = await missingValue(db, step.table, idColumn, to.column);
      if (lacking.rows) {
        throw stepRefused(
          file,
          step,
          `${lacking.rows} 行没有值（请在迁移中填写 fill）`,
          `${lacking.rows} rows have no value (set "fill" in the migration)`,
          lacking.ids,
          lacking.rows,
        );
      }
      return;
    }
    case 'enumNarrowed': {
      for (const [from, into] of Object.entries(step.replace ?? {})) {
        const was = to.type === 'string' ? from : (JSON.parse(from) as unknown);
        await sql`update ${t} set ${col} = ${bindable(dialect, into)} where ${col} = ${bindable(dialect, was)}`.execute(db);
      }
      const outside = await outsideEnum(db, dialect, step.table, idColumn, to.column, to.enum ?? []);
      if (outside.rows) {
        throw stepRefused(
          file,
          step,
          `${outside.rows} 行的值已不在可选值中（请在迁移的 replace 中写出替换值）`,
          `${outside.rows} rows hold a removed value (map it in "replace")`,
          outside.ids,
          outside.rows,
        );
      }
      return;
    }
  }
}

/** The snapshot after a step: the property as the step left it. */
export function patchShape(shape: EntityShape | undefined, step: MigrationStep): EntityShape | undefined {
  // a unique rule lives in the catalog (its index), not in the snapshot
  if (!shape || step.kind === 'dropTable' || step.kind === 'uniqueAdded') return shape;
  if (step.kind === 'renameEntity') return { ...shape, name: step.entity, table: step.table, permission: step.permission };
  if (step.kind === 'dropColumn') {
    return {
      ...shape,
      fields: shape.fields.filter((f) => f.column !== step.column),
      removed: shape.removed?.filter((f) => f.column !== step.column),
    };
  }
  const fields = shape.fields.filter((f) => f.name !== step.to.name && (step.kind !== 'rename' || f.column !== step.from));
  return { ...shape, fields: [...fields, step.to] };
}

/** Runs the steps of one migration on `db` (the caller holds the transaction). */
export async function applyMigrationSteps(
  db: Db,
  dialect: Dialect,
  file: MigrationFile,
  idOf: (table: string) => string | undefined,
): Promise<void> {
  for (const step of file.steps) {
    await applyStep(db, dialect, file.name, step, idOf);
    await applyStepToRevisions(db, dialect, step);
    if (step.kind !== 'renameEntity') await forgetPinyinKeys(db, dialect, step);
  }
}

/** The columns whose stored values a step may rewrite, rename or drop (all of them: dropTable). */
function columnsOf(step: MigrationStep): string[] | 'all' {
  switch (step.kind) {
    case 'rename':
      return [step.from];
    case 'dropColumn':
      return [step.column];
    case 'dropTable':
    case 'renameEntity':
      return 'all';
    case 'uniqueAdded':
      return step.fields.map((f) => f.column);
    default:
      return [step.to.column];
  }
}

/**
 * A step that rewrote a column's values (a suffix, a cut, a conversion, a fill) or moved it left
 * its pinyin keys describing the old values: its fill marker is dropped, so the start after the
 * migration computes the keys of every row again (pinyin-search.ts); the side table of a column
 * that is gone (renamed or dropped) goes too.
 */
async function forgetPinyinKeys(db: Db, dialect: Dialect, step: MigrationStep): Promise<void> {
  if (!(await liveColumns(db, dialect, PINYIN_MARKER_TABLE))) return;
  const columns = columnsOf(step);
  let forget = db.deleteFrom(PINYIN_MARKER_TABLE).where('table_name', '=', step.table);
  if (columns !== 'all') forget = forget.where('column_name', 'in', columns);
  await forget.execute();
  const gone = step.kind === 'rename' ? [step.from] : step.kind === 'dropColumn' ? [step.column] : [];
  for (const column of gone) await sql`drop table if exists ${sql.table(pinyinTable({ table: step.table }, { column }))}`.execute(db);
}

export async function recordMigration(db: Db, file: MigrationFile, at: string, durationMs: number): Promise<void> {
  await sql`insert into ${sql.table(MIGRATIONS_TABLE)} (name, checksum, applied_at, applied_by, duration_ms)
    values (${file.name}, ${file.checksum}, ${at}, ${appliedBy()}, ${Math.round(durationMs)})`.execute(db);
}

/**
 * The migration `npm run schema:plan` writes for `changes`: a step for every change a start may
 * not apply itself, and with `drop` the drops of removed properties and entities. Its name is
 * the next number in `existing` and the first change it carries (0001-sysQuestion-suggestion.json).
 */
export function migrationFromPlan(
  changes: Array<{ blocking: boolean; kind: string; entity: string; property?: string; step?: MigrationStep }>,
  existing: string[],
  opts: { drop?: boolean } = {},
): { name: string; content: string } | null {
  const steps = changes
    .filter((c) => c.step && (c.blocking || (opts.drop && (c.kind === 'removedProperty' || c.kind === 'removedEntity'))))
    .map((c) => c.step!);
  if (!steps.length) return null;
  const numbers = existing.map((n) => Number(/^(\d{4})-/.exec(n)?.[1] ?? 0));
  const next = String(Math.max(0, ...numbers) + 1).padStart(4, '0');
  const first = changes.find((c) => c.step === steps[0])!;
  const label = `${first.entity}-${first.property ?? first.kind}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  return { name: `${next}-${label}.json`, content: `${JSON.stringify({ steps }, null, 2)}\n` };
}
