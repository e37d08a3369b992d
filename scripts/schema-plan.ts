/**
 * npm run schema:plan [-- --drop] [-- --dry-run]: compares schemas/ with the database the
 * server would open (DATABASE_URL, or SQLite in DATA_DIR) and prints, per entity, every change
 * and what it does to the rows present; writes a migration into MIGRATIONS_DIR (default
 * migrations/) for the changes a start may not apply by itself, to review and commit. `--drop`
 * adds the drops of removed properties and entities; `--dry-run` writes nothing.
 * npm run schema:status: the migrations applied (name, checksum, when, by whom, how long) and
 * the ones waiting for the next start.
 * See docs/adding-an-entity.md, "Changing an entity".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadSchemas, SchemaError } from '../codegen/main.ts';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/index.ts';
import { changeLine, planAll, readSnapshots, type Change, type MigrationStep } from '../src/server/db/schema-plan.ts';
import { appliedMigrations, editedAfterApplying, migrationFromPlan, readMigrationFiles } from '../src/server/db/schema-migrations.ts';

const args = process.argv.slice(2);
const statusOnly = args.includes('status');
const drop = args.includes('--drop');
const dryRun = args.includes('--dry-run');

let config;
let specs;
try {
  config = loadConfig();
  specs = loadSchemas('schemas').map((l) => l.spec);
} catch (err) {
  if (err instanceof ConfigError || err instanceof SchemaError) {
    console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : `codegen: ${err.message}`);
    process.exit(1);
  }
  throw err;
}

const stepKey = (s: MigrationStep) => `${s.table}:${s.kind}:${'column' in s ? s.column : 'property' in s ? s.property : ''}`;
const shown = (dir: string) => relative(process.cwd(), dir) || '.';

const database = await openDatabase(config);
try {
  const files = readMigrationFiles(config.migrationsDir);
  const applied = await appliedMigrations(database.db, database.dialect);
  const pending = files.filter((f) => !applied.some((a) => a.name === f.name));
  const edited = editedAfterApplying(files, applied);

  console.log(`migrations (${shown(config.migrationsDir)}), ${database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}:`);
  if (!applied.length && !pending.length) console.log('  none');
  for (const a of applied) {
    const mark = edited.some((e) => e.applied.name === a.name) ? '  EDITED after applying: the next start refuses' : '';
    console.log(`  applied  ${a.name}  ${a.checksum.slice(0, 12)}  ${a.applied_at}  by ${a.applied_by}  ${a.duration_ms} ms${mark}`);
  }
  for (const p of pending) console.log(`  pending  ${p.name}  ${p.checksum.slice(0, 12)}  (applies at the next start)`);

  if (!statusOnly) {
    const covered = new Map<string, string>();
    for (const p of pending) for (const s of p.steps) covered.set(stepKey(s), p.name);
    const changes = await planAll(database.db, database.dialect, specs, await readSnapshots(database.db, database.dialect));
    const open: Change[] = [];
    const byEntity = new Map<string, Change[]>();
    for (const c of changes) {
      if (c.kind === 'createTable') continue;
      byEntity.set(c.entity, [...(byEntity.get(c.entity) ?? []), c]);
    }
    const created = changes.filter((c) => c.kind === 'createTable').map((c) => c.entity);
    console.log('');
    console.log(
      `plan: ${byEntity.size ? '' : 'nothing to change'}${created.length ? `${byEntity.size ? '' : '; '}new tables at the next start: ${created.join(', ')}` : ''}`,
    );
    for (const [entity, list] of byEntity) {
      console.log(`\n${entity} (${list[0].table})`);
      for (const c of list) {
        const inFile = c.step ? covered.get(stepKey(c.step)) : undefined;
        const how = inFile
          ? `planned in ${inFile}`
          : c.auto
            ? 'applies at start'
            : c.blocking
              ? 'needs a migration'
              : drop
                ? 'dropped by the migration (a backup is taken first)'
                : 'kept (npm run schema:plan -- --drop drops it)';
        console.log(`  [${how}] ${c.kind}: ${changeLine(c)}`);
        console.log(`      rows: ${c.effect}`);
        if (!inFile && (c.blocking || (drop && c.step))) open.push(c);
      }
    }
    const migration = migrationFromPlan(
      open,
      files.map((f) => f.name),
      { drop },
    );
    if (migration) {
      const path = join(config.migrationsDir, migration.name);
      if (dryRun) console.log(`\nwould write ${shown(path)} (--dry-run):\n${migration.content}`);
      else {
        mkdirSync(config.migrationsDir, { recursive: true });
        writeFileSync(path, migration.content);
        console.log(`\nwrote ${shown(path)}: review it and commit it; the next start applies it in one transaction.`);
      }
      console.log(
        'choices to review: "nonConverting" refuse|null (values that do not convert), "tooLong" refuse|truncate,\n' +
          '"fill" (the value for rows lacking a new required property), "replace" {"old value": "new value"} (removed enum values),\n' +
          '"duplicates" refuse|null|suffix (rows sharing the value of a new unique rule: the first of each group keeps it).\n' +
          'A step left at refuse with rows in the way stops the start and names them.',
      );
    } else if (!pending.length) {
      console.log('\nno migration needed: the next start applies what is listed by itself.');
    }
  }
  if (edited.length) process.exitCode = 1;
} finally {
  await database.close();
}
