/**
 * The run log of scheduled jobs. One row per run, written before the job function starts:
 * a scheduled run carries its firing time (epoch ms) and the unique index on (job_id,
 * fire_time) makes that insert the claim, so among several instances on one database
 * exactly one runs each firing. A manual run (执行) has no firing time and is never refused.
 */
import type { TableDef } from '../../auth/tables.ts';

export const JOB_LOG_TABLE = 'sys_job_log';

export const JOB_TABLES: TableDef[] = [
  {
    name: JOB_LOG_TABLE,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'job_id', type: 'bigint', notNull: true },
      { name: 'job_name', type: 'varchar(100)' },
      { name: 'bean_name', type: 'varchar(100)' },
      { name: 'method_name', type: 'varchar(100)' },
      { name: 'params', type: 'varchar(500)' },
      /** epoch ms of the scheduled firing; null for a manual run */
      { name: 'fire_time', type: 'bigint' },
      /** schedule | manual */
      { name: 'run_kind', type: 'varchar(16)', notNull: true, default: 'schedule' },
      { name: 'start_time', type: 'time', notNull: true },
      { name: 'time', type: 'bigint' },
      /** null while running */
      { name: 'is_success', type: 'bool' },
      { name: 'result', type: 'varchar(500)' },
      { name: 'exception_detail', type: 'text' },
      { name: 'instance', type: 'varchar(64)' },
    ],
    indexes: [{ name: 'sys_job_log_job', columns: ['job_id', 'id'] }],
  },
];
