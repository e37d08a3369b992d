/**
 * The tables of staff sign-in and access: departments, users, roles, menus, their links,
 * sessions, captchas, public settings and server secrets. Each table is described once as
 * data and created or extended additively on both databases: a missing table is created, a
 * missing column is added, nothing is ever dropped or rewritten. A later feature extends a
 * table by adding a column here (with a default when it is NOT NULL).
 *
 * Storage types are the same idea on both databases: ids are integers (bigserial on PostgreSQL, references bigint),
 * times are text 'YYYY-MM-DD HH:mm:ss' in SQLite and timestamp in PostgreSQL, flags are
 * integer 0/1 in SQLite and boolean in PostgreSQL (write 0/1, read with Boolean()), instants
 * used for expiry are epoch milliseconds (bigint).
 */
import { sql, type CreateTableBuilder } from 'kysely';
import type { Dialect, Db } from '../types.ts';

export type ColumnType = 'id' | 'int' | 'bigint' | 'text' | `varchar(${number})` | 'bool' | 'time' | 'bytes';

export interface ColumnDef {
  name: string;
  type: ColumnType;
  notNull?: boolean;
  unique?: boolean;
  primaryKey?: boolean;
  default?: string | number | boolean;
}

export interface TableDef {
  name: string;
  columns: ColumnDef[];
  /** composite primary key */
  primaryKey?: string[];
  indexes?: Array<{ name: string; columns: string[] }>;
}

const DATA_SCOPES = ['全部', '本级', '自定义'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];
export { DATA_SCOPES };

export const AUTH_TABLES: TableDef[] = [
  {
    name: 'sys_dept',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'pid', type: 'bigint' },
      { name: 'name', type: 'varchar(100)', notNull: true },
      { name: 'sort', type: 'int', notNull: true, default: 999 },
      { name: 'enabled', type: 'bool', notNull: true, default: true },
      { name: 'create_time', type: 'time' },
      { name: 'update_time', type: 'time' },
      /** the department's id in WeCom contacts (企业微信部门ID), once synced or created there */
      { name: 'wecom_dept_id', type: 'bigint' },
      /** the department note (部门备注) administrators keep */
      { name: 'remark', type: 'varchar(500)' },
    ],
    indexes: [{ name: 'sys_dept_pid', columns: ['pid'] }],
  },
  {
    name: 'sys_user',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'username', type: 'varchar(64)', notNull: true, unique: true },
      { name: 'nick_name', type: 'varchar(64)' },
      { name: 'password', type: 'varchar(100)', notNull: true },
      { name: 'phone', type: 'varchar(20)', unique: true },
      { name: 'email', type: 'varchar(100)' },
      /** 1 male, otherwise female */
      { name: 'sex', type: 'int', notNull: true, default: 1 },
      { name: 'img', type: 'varchar(255)' },
      { name: 'wx_img', type: 'varchar(255)' },
      { name: 'idno', type: 'varchar(32)' },
      { name: 'dept_id', type: 'bigint' },
      { name: 'org_id', type: 'bigint' },
      { name: 'enabled', type: 'bool', notNull: true, default: true },
      /** idle lock in minutes, 0 = never */
      { name: 'lock_time', type: 'int', notNull: true, default: 0 },
      { name: 'is_def_password', type: 'bool', notNull: true, default: false },
      { name: 'pwd_reset_time', type: 'time' },
      /** failed sign-ins in the current window, its start and the lock's end (epoch ms) */
      { name: 'login_fail_count', type: 'int', notNull: true, default: 0 },
      { name: 'login_fail_since', type: 'bigint' },
      { name: 'locked_until', type: 'bigint' },
      { name: 'create_time', type: 'time' },
      { name: 'update_time', type: 'time' },
    ],
    indexes: [
      { name: 'sys_user_dept', columns: ['dept_id'] },
      { name: 'sys_user_org', columns: ['org_id'] },
    ],
  },
  {
    name: 'sys_role',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'name', type: 'varchar(64)', notNull: true, unique: true },
      { name: 'level', type: 'int', notNull: true, default: 3 },
      /** 全部 | 本级 | 自定义 */
      { name: 'data_scope', type: 'varchar(16)', notNull: true, default: '本级' },
      { name: 'description', type: 'varchar(255)' },
      { name: 'create_time', type: 'time' },
      { name: 'update_time', type: 'time' },
    ],
  },
  {
    name: 'sys_users_roles',
    columns: [
      { name: 'user_id', type: 'bigint', notNull: true },
      { name: 'role_id', type: 'bigint', notNull: true },
    ],
    primaryKey: ['user_id', 'role_id'],
    indexes: [{ name: 'sys_users_roles_role', columns: ['role_id'] }],
  },
  {
    name: 'sys_menu',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'pid', type: 'bigint' },
      /** 0 directory, 1 menu (a screen), 2 button (a permission key) */
      { name: 'type', type: 'int', notNull: true, default: 1 },
      { name: 'title', type: 'varchar(100)', notNull: true },
      /** route / component name */
      { name: 'name', type: 'varchar(100)' },
      { name: 'component', type: 'varchar(255)' },
      { name: 'path', type: 'varchar(255)' },
      { name: 'icon', type: 'varchar(100)' },
      { name: 'menu_sort', type: 'int', notNull: true, default: 999 },
      { name: 'permission', type: 'varchar(100)' },
      { name: 'hidden', type: 'bool', notNull: true, default: false },
      { name: 'cache', type: 'bool', notNull: true, default: false },
      { name: 'i_frame', type: 'bool', notNull: true, default: false },
      { name: 'create_time', type: 'time' },
      { name: 'update_time', type: 'time' },
    ],
    indexes: [
      { name: 'sys_menu_pid', columns: ['pid'] },
      { name: 'sys_menu_permission', columns: ['permission'] },
    ],
  },
  {
    name: 'sys_roles_menus',
    columns: [
      { name: 'role_id', type: 'bigint', notNull: true },
      { name: 'menu_id', type: 'bigint', notNull: true },
    ],
    primaryKey: ['role_id', 'menu_id'],
    indexes: [{ name: 'sys_roles_menus_menu', columns: ['menu_id'] }],
  },
  {
    name: 'sys_session',
    columns: [
      /** sha256 (hex) of the bearer token; the token itself is never stored */
      { name: 'id', type: 'varchar(64)', primaryKey: true },
      { name: 'user_id', type: 'bigint', notNull: true },
      { name: 'kind', type: 'varchar(16)', notNull: true, default: 'staff' },
      { name: 'remember', type: 'bool', notNull: true, default: false },
      { name: 'created', type: 'time' },
      { name: 'last_seen', type: 'time' },
      /** epoch milliseconds */
      { name: 'expires', type: 'bigint', notNull: true },
      { name: 'ip', type: 'varchar(64)' },
      { name: 'browser', type: 'varchar(255)' },
    ],
    indexes: [
      { name: 'sys_session_user', columns: ['user_id'] },
      { name: 'sys_session_expires', columns: ['expires'] },
    ],
  },
  {
    name: 'sys_captcha',
    columns: [
      { name: 'uuid', type: 'varchar(64)', primaryKey: true },
      { name: 'answer', type: 'varchar(16)', notNull: true },
      /** epoch milliseconds */
      { name: 'expires', type: 'bigint', notNull: true },
    ],
    indexes: [{ name: 'sys_captcha_expires', columns: ['expires'] }],
  },
  {
    /** public settings shown before sign-in (logo, company name, filing number...) */
    name: 'sys_config',
    columns: [
      { name: 'key', type: 'varchar(64)', primaryKey: true },
      { name: 'value', type: 'text' },
      { name: 'update_time', type: 'time' },
    ],
  },
  {
    /** server secrets shared by every instance (the RSA key pair); never served */
    name: 'sys_secret',
    columns: [
      { name: 'name', type: 'varchar(64)', primaryKey: true },
      { name: 'value', type: 'text', notNull: true },
      { name: 'create_time', type: 'time' },
    ],
  },
];

function sqlType(type: ColumnType, dialect: Dialect): string {
  switch (type) {
    case 'id':
      return dialect === 'postgres' ? 'bigserial' : 'integer';
    case 'int':
      return 'integer';
    case 'bigint':
      return dialect === 'postgres' ? 'bigint' : 'integer';
    case 'text':
      return 'text';
    case 'bool':
      return dialect === 'postgres' ? 'boolean' : 'integer';
    case 'time':
      return dialect === 'postgres' ? 'timestamp' : 'text';
    case 'bytes':
      return dialect === 'postgres' ? 'bytea' : 'blob';
    default:
      return type; // varchar(n)
  }
}

function defaultValue(col: ColumnDef, dialect: Dialect): string | number | boolean | undefined {
  if (col.default === undefined) return undefined;
  if (col.type === 'bool') return dialect === 'postgres' ? Boolean(col.default) : col.default ? 1 : 0;
  return col.default;
}

async function existingColumns(db: Db, dialect: Dialect, table: string): Promise<Set<string> | null> {
  if (dialect === 'postgres') {
    const r = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db);
    return r.rows.length ? new Set(r.rows.map((x) => x.column_name)) : null;
  }
  const r = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return r.rows.length ? new Set(r.rows.map((x) => x.name)) : null;
}

/** Creates missing tables, adds missing columns and indexes. Never drops anything. */
export async function ensureTables(db: Db, dialect: Dialect, defs: TableDef[]): Promise<void> {
  for (const def of defs) {
    const have = await existingColumns(db, dialect, def.name);
    if (!have) {
      let builder: CreateTableBuilder<string, string> = db.schema.createTable(def.name).ifNotExists();
      for (const col of def.columns) {
        builder = builder.addColumn(col.name, sql.raw(sqlType(col.type, dialect)), (c) => {
          if (col.type === 'id') {
            c = c.primaryKey();
            if (dialect === 'sqlite') c = c.autoIncrement();
          }
          if (col.primaryKey) c = c.primaryKey();
          if (col.notNull) c = c.notNull();
          if (col.unique) c = c.unique();
          const d = defaultValue(col, dialect);
          if (d !== undefined) c = c.defaultTo(d);
          return c;
        });
      }
      if (def.primaryKey) builder = builder.addPrimaryKeyConstraint(`${def.name}_pkey`, def.primaryKey);
      await builder.execute();
    } else {
      for (const col of def.columns) {
        if (have.has(col.name)) continue;
        // an added column cannot be a key; NOT NULL needs a default to fill existing rows
        await db.schema
          .alterTable(def.name)
          .addColumn(col.name, sql.raw(sqlType(col.type, dialect)), (c) => {
            const d = defaultValue(col, dialect);
            if (d !== undefined) c = c.defaultTo(d);
            if (col.notNull && d !== undefined) c = c.notNull();
            return c;
          })
          .execute();
        if (col.unique) {
          await db.schema.createIndex(`${def.name}_${col.name}_key`).ifNotExists().unique().on(def.name).column(col.name).execute();
        }
      }
    }
    for (const idx of def.indexes ?? []) {
      await db.schema.createIndex(idx.name).ifNotExists().on(def.name).columns(idx.columns).execute();
    }
  }
}

/** A flag as stored: 0/1 works on both databases (PostgreSQL reads '1' as true). */
export const flag = (v: unknown): number => (v ? 1 : 0);
