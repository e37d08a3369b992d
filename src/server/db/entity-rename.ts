/**
 * A renamed entity (`x-entity.renamedFrom`), applied by its migration step: everything kept
 * under the old name moves to the new one inside the migration's transaction.
 * - the table, when its name changed too; its `idx_`/`uq_` indexes are named after the table, so
 *   they are dropped and the start creates them again under the new name (the rows already obey
 *   the unique rules, so a rule's index applies by itself); on PostgreSQL its primary key and id
 *   sequence take the new name;
 * - its history and recycle bin (`sys_revision.resource`);
 * - its pinyin keys: the side tables are dropped with their fill markers and the start computes
 *   them again for the new table;
 * - its menus: the keys `old:*` become `new:*` on the same menu rows, so every role holding them
 *   keeps them (roles hold menus by id) and help pages stay with their menu; the screen's menu
 *   opens `#/<new name>` where it opened `#/<old name>`.
 * The snapshot is moved by the caller (migrate.ts). Nothing is done when the old table is gone
 * (already applied) or was never there (a database created after the rename).
 */
import { sql } from 'kysely';
import type { Db, Dialect } from '../types.ts';
import { REVISION_TABLE } from '../crud/history/revisions.ts';
import { PINYIN_MARKER_TABLE, pinyinTable } from '../crud/pinyin/pinyin-search.ts';
import { liveColumns, type MigrationStep } from './schema-plan.ts';

type RenameStep = Extract<MigrationStep, { kind: 'renameEntity' }>;

/** The indexes on `table` whose names the engine derives from the table's name. */
async function derivedIndexes(db: Db, dialect: Dialect, table: string): Promise<string[]> {
  const r =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes
          where schemaname = current_schema() and tablename = ${table}`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db);
  return r.rows.map((x) => x.name).filter((n) => n.startsWith(`idx_${table}_`) || n.startsWith(`uq_${table}_`));
}

async function moveTable(db: Db, dialect: Dialect, step: RenameStep): Promise<void> {
  if (step.fromTable === step.table || (await liveColumns(db, dialect, step.table))) return;
  for (const name of await derivedIndexes(db, dialect, step.fromTable)) await sql`drop index if exists ${sql.ref(name)}`.execute(db);
  await sql`alter table ${sql.table(step.fromTable)} rename to ${sql.table(step.table)}`.execute(db);
  if (dialect !== 'postgres') return;
  await sql`alter index if exists ${sql.ref(`${step.fromTable}_pkey`)} rename to ${sql.ref(`${step.table}_pkey`)}`.execute(db);
  const seq = await sql<{ seq: string | null }>`select pg_get_serial_sequence(${step.table}, 'id') as seq`.execute(db);
  const name = seq.rows[0]?.seq;
  if (name && name.replace(/^.*\./, '').replace(/"/g, '') === `${step.fromTable}_id_seq`)
    await sql`alter sequence ${sql.raw(name)} rename to ${sql.ref(`${step.table}_id_seq`)}`.execute(db);
}

async function forgetPinyin(db: Db, dialect: Dialect, table: string): Promise<void> {
  if (!(await liveColumns(db, dialect, PINYIN_MARKER_TABLE))) return;
  const marked = await db.selectFrom(PINYIN_MARKER_TABLE).select('column_name').where('table_name', '=', table).execute();
  for (const m of marked)
    await sql`drop table if exists ${sql.table(pinyinTable({ table }, { column: String(m.column_name) }))}`.execute(db);
  await db.deleteFrom(PINYIN_MARKER_TABLE).where('table_name', '=', table).execute();
}

async function moveMenus(db: Db, dialect: Dialect, step: RenameStep): Promise<void> {
  if (!(await liveColumns(db, dialect, 'sys_menu'))) return;
  if (step.fromPermission !== step.permission) {
    const prefix = `${step.fromPermission}:`;
    // the start seeds menus before it migrates (auth/seed.ts): a key already made under the new
    // name gives way to the old one, which the roles hold
    const old = await sql<{ permission: string }>`select permission from sys_menu
      where substr(permission, 1, ${prefix.length}) = ${prefix}`.execute(db);
    const seeded = old.rows.map((r) => `${step.permission}:${r.permission.slice(prefix.length)}`);
    if (seeded.length) {
      const ids = await db.selectFrom('sys_menu').select('id').where('permission', 'in', seeded).execute();
      if (ids.length) {
        const menuIds = ids.map((r) => Number(r.id));
        await db.deleteFrom('sys_roles_menus').where('menu_id', 'in', menuIds).execute();
        await db.deleteFrom('sys_menu').where('id', 'in', menuIds).execute();
      }
    }
    await sql`update sys_menu set permission = ${`${step.permission}:`} || substr(permission, ${prefix.length + 1})
      where substr(permission, 1, ${prefix.length}) = ${prefix}`.execute(db);
  }
  // the screen's menu: its address and component were the entity's name (auth/seed.ts)
  for (const column of ['path', 'component', 'name'] as const) {
    await sql`update sys_menu set ${sql.ref(column)} = ${step.entity}
      where type = 1 and permission = ${`${step.permission}:list`} and ${sql.ref(column)} = ${step.from}`.execute(db);
  }
}

export async function applyEntityRename(db: Db, dialect: Dialect, step: RenameStep): Promise<void> {
  if (!(await liveColumns(db, dialect, step.fromTable)) && step.fromTable !== step.table) return;
  await forgetPinyin(db, dialect, step.fromTable);
  await moveTable(db, dialect, step);
  if (await liveColumns(db, dialect, REVISION_TABLE)) {
    await sql`update ${sql.table(REVISION_TABLE)} set resource = ${step.entity} where resource = ${step.from}`.execute(db);
  }
  await moveMenus(db, dialect, step);
}
