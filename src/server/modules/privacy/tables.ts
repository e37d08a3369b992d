/**
 * Tables of personal information requests (个人信息保护):
 * - pi_request: each look-up, copy, erasure and retention run, with who, when, the reason, the
 *   status and the result. The identifier itself is never stored: its mask and its keyed hash.
 * - pi_erasure_ledger: the keyed one-way hash (HMAC-SHA256 with the server's ledger secret) of
 *   every identifier erased, so that a restore of an older backup can erase the person again.
 * - pi_secret: the ledger secret, made on first use (or PI_LEDGER_SECRET from the environment),
 *   and on SQLite the time the file was first rebuilt by an erasure (secureErase).
 */
import type { TableDef } from '../../auth/tables.ts';

export const REQUEST_TABLE = 'pi_request';
export const LEDGER_TABLE = 'pi_erasure_ledger';
export const SECRET_TABLE = 'pi_secret';

export const PRIVACY_TABLES: TableDef[] = [
  {
    name: REQUEST_TABLE,
    columns: [
      { name: 'id', type: 'id' },
      /** search | copy | erase | retention */
      { name: 'kind', type: 'varchar(16)', notNull: true },
      /** id | phone (empty for retention) */
      { name: 'subject_kind', type: 'varchar(16)' },
      /** the identifier masked (1101*********1002X) */
      { name: 'subject_masked', type: 'varchar(64)' },
      /** HMAC of the identifier: requests about one person are found together */
      { name: 'subject_hash', type: 'varchar(64)' },
      { name: 'reason', type: 'varchar(500)', notNull: true },
      /** 已完成 | 失败 | 试运行 */
      { name: 'status', type: 'varchar(16)', notNull: true },
      { name: 'result_count', type: 'int', notNull: true, default: 0 },
      /** JSON: per resource, the records found or what was done */
      { name: 'detail', type: 'text' },
      { name: 'username', type: 'varchar(64)' },
      { name: 'create_time', type: 'time', notNull: true },
    ],
    indexes: [
      { name: 'pi_request_time', columns: ['create_time'] },
      { name: 'pi_request_subject', columns: ['subject_hash'] },
    ],
  },
  {
    name: LEDGER_TABLE,
    columns: [
      { name: 'hash', type: 'varchar(64)', primaryKey: true },
      /** id | phone */
      { name: 'subject_kind', type: 'varchar(16)', notNull: true },
      { name: 'create_time', type: 'time', notNull: true },
    ],
  },
  {
    name: SECRET_TABLE,
    columns: [
      { name: 'name', type: 'varchar(32)', primaryKey: true },
      { name: 'value', type: 'varchar(128)', notNull: true },
    ],
  },
];
