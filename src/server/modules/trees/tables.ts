/** The brand tree table: one row per node, pid 0 for a brand (the root has no row). */
import type { TableDef } from '../../auth/tables.ts';

export const BRAND_TREE_TABLE = 'brand_tree';

export const TREE_TABLES: TableDef[] = [
  {
    name: BRAND_TREE_TABLE,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'pid', type: 'bigint', notNull: true, default: 0 },
      { name: 'name', type: 'varchar(50)', notNull: true },
      { name: 'level', type: 'int', notNull: true },
      /** brand | series | model | config | colour | pack */
      { name: 'kind', type: 'varchar(16)', notNull: true },
      { name: 'sort', type: 'int', notNull: true, default: 999 },
      { name: 'enabled', type: 'bool', notNull: true, default: true },
      { name: 'enabled_xs', type: 'bool', notNull: true, default: true },
      { name: 'org_id', type: 'bigint' },
      { name: 'brand_nature', type: 'varchar(16)' },
      { name: 'brand_tier', type: 'varchar(16)' },
      { name: 'origin', type: 'varchar(16)' },
      { name: 'body_type', type: 'varchar(16)' },
      { name: 'car_class', type: 'varchar(8)' },
      { name: 'fuel_type', type: 'varchar(16)' },
      { name: 'emission', type: 'varchar(16)' },
      { name: 'model_year', type: 'varchar(16)' },
      { name: 'engine', type: 'varchar(16)' },
      { name: 'gearbox', type: 'varchar(16)' },
      { name: 'color_code', type: 'varchar(20)' },
      { name: 'price', type: 'varchar(20)' },
      { name: 'remark', type: 'varchar(255)' },
      { name: 'create_time', type: 'time' },
      { name: 'update_time', type: 'time' },
    ],
    indexes: [
      { name: 'brand_tree_pid', columns: ['pid', 'sort'] },
      { name: 'brand_tree_level', columns: ['level'] },
    ],
  },
];
