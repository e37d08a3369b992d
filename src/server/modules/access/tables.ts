/**
 * Tables of the access administration, created or extended additively like the sign-in tables:
 * the departments a 自定义 role sees, the dictionaries with their details, and the business
 * dictionary tree (业务类别, 承保公司 ... with their entries).
 */
import type { TableDef } from '../../auth/tables.ts';

export const ACCESS_TABLES: TableDef[] = [
  {
    name: 'sys_roles_depts',
    columns: [
      { name: 'role_id', type: 'bigint', notNull: true },
      { name: 'dept_id', type: 'bigint', notNull: true },
    ],
    primaryKey: ['role_id', 'dept_id'],
    indexes: [{ name: 'sys_roles_depts_dept', columns: ['dept_id'] }],
  },
  {
    /** a dictionary: its name is what `x-dict` and api/dictDetail?dictName= use */
    name: 'sys_dict',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'name', type: 'varchar(64)', notNull: true, unique: true },
      { name: 'description', type: 'varchar(255)' },
      /** served without sign-in by /api/public?enumName= */
      { name: 'is_public', type: 'bool', notNull: true, default: false },
      { name: 'create_time', type: 'time' },
      { name: 'update_time', type: 'time' },
    ],
  },
  {
    name: 'sys_dict_detail',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'dict_id', type: 'bigint', notNull: true },
      { name: 'label', type: 'varchar(100)', notNull: true },
      { name: 'value', type: 'varchar(100)', notNull: true },
      { name: 'sort', type: 'int', notNull: true, default: 999 },
      { name: 'enabled', type: 'bool', notNull: true, default: true },
      { name: 'create_time', type: 'time' },
      { name: 'update_time', type: 'time' },
    ],
    indexes: [{ name: 'sys_dict_detail_dict', columns: ['dict_id', 'sort'] }],
  },
  {
    /** the business dictionary tree: categories at the root (pid null), entries below */
    name: 'sys_busidict',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'pid', type: 'bigint' },
      /** the entry's key, unique among its siblings (a category's key names it in the API) */
      { name: 'code', type: 'varchar(64)', notNull: true },
      { name: 'name', type: 'varchar(100)', notNull: true },
      { name: 'value', type: 'varchar(255)' },
      { name: 'sort', type: 'int', notNull: true, default: 999 },
      { name: 'enabled', type: 'bool', notNull: true, default: true },
      { name: 'create_time', type: 'time' },
      { name: 'update_time', type: 'time' },
    ],
    indexes: [
      { name: 'sys_busidict_pid', columns: ['pid', 'sort'] },
      { name: 'sys_busidict_code', columns: ['code'] },
    ],
  },
];
