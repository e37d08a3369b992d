/**
 * Hand-written storage of the dealer area, on top of the schema tables:
 * - dbc_company gains the sign-in columns (bcrypt password, failed-sign-in count and lock), which
 *   the schema leaves out so that no list, export or record ever carries them; user names are unique;
 * - dbc_info_history records every status change of a request: from, to, action, reason, who, when.
 */
import { sql } from 'kysely';
import type { Database } from '../../types.ts';
import { ensureTables, type TableDef } from '../../auth/tables.ts';

export const DEALER_TABLES: TableDef[] = [
  {
    name: 'dbc_company',
    columns: [
      { name: 'password', type: 'varchar(100)' },
      { name: 'login_fail_count', type: 'int', notNull: true, default: 0 },
      { name: 'login_fail_since', type: 'bigint' },
      { name: 'locked_until', type: 'bigint' },
      { name: 'pwd_reset_time', type: 'time' },
      /** the idle lock of the portal (锁屏时间), minutes; 0 never locks */
      { name: 'lock_time', type: 'int', notNull: true, default: 0 },
    ],
  },
  {
    name: 'dbc_info_history',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'info_id', type: 'bigint', notNull: true },
      { name: 'from_status', type: 'int' },
      { name: 'to_status', type: 'int', notNull: true },
      { name: 'action', type: 'varchar(16)', notNull: true },
      { name: 'reason', type: 'varchar(500)' },
      /** staff | dealer */
      { name: 'actor_kind', type: 'varchar(16)', notNull: true },
      { name: 'actor', type: 'varchar(64)', notNull: true },
      { name: 'create_time', type: 'time', notNull: true },
    ],
    indexes: [{ name: 'dbc_info_history_info', columns: ['info_id', 'id'] }],
  },
];

export async function ensureDealerTables(database: Database): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('dealer-console:dealer-setup'))`.execute(trx);
    await ensureTables(trx, database.dialect, DEALER_TABLES);
    // user names are unique by the schema's x-unique (its index uq_dbc_company_username, made by
    // the engine before this); the index this module made before that is no longer needed
    await trx.schema.dropIndex('dbc_company_username_key').ifExists().execute();
    await trx.schema.createIndex('dbc_user_info_comp_mobile').ifNotExists().on('dbc_user_info').columns(['comp_id', 'mobile']).execute();
    await trx.schema.createIndex('dbc_info_comp').ifNotExists().on('dbc_info').columns(['comp_id', 'id']).execute();
  });
}
