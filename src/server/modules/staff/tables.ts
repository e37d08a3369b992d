/**
 * The staff roster's job history (调岗记录): one row per change of department, job or job type
 * (调岗) and per leaving (离职), written in the same transaction as the change.
 */
import type { TableDef } from '../../auth/tables.ts';

export const JOB_HISTORY_TABLE = 'staff_job_history';

/** kinds of history rows */
export const HistoryKind = { transfer: '调岗', leave: '离职' } as const;

export const STAFF_TABLES: TableDef[] = [
  {
    name: JOB_HISTORY_TABLE,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'staff_id', type: 'bigint', notNull: true },
      /** 调岗 | 离职 */
      { name: 'kind', type: 'varchar(8)', notNull: true },
      { name: 'from_dept_id', type: 'bigint' },
      { name: 'to_dept_id', type: 'bigint' },
      { name: 'from_job', type: 'varchar(50)' },
      { name: 'to_job', type: 'varchar(50)' },
      { name: 'from_jp_type_id', type: 'bigint' },
      { name: 'to_jp_type_id', type: 'bigint' },
      /** the linked user's role names after the change, when they were changed */
      { name: 'roles', type: 'varchar(500)' },
      /** 离职: the leaving date */
      { name: 'leave_date', type: 'varchar(10)' },
      /** the reason (调岗 remark or 离职 cause) */
      { name: 'remark', type: 'varchar(500)' },
      { name: 'create_user', type: 'varchar(64)' },
      { name: 'create_time', type: 'time' },
    ],
    indexes: [{ name: 'staff_job_history_staff', columns: ['staff_id', 'id'] }],
  },
];
