/**
 * Tables of the account area, created or extended additively like the auth tables:
 * verification codes, the development outbox, WeCom sign-in states, avatars, the operation
 * log, and the WeCom user id on the staff row.
 */
import type { TableDef } from '../../auth/tables.ts';

export const ACCOUNT_TABLES: TableDef[] = [
  {
    /** added to the staff table: the WeCom user id the QR sign-in matches */
    name: 'sys_user',
    columns: [{ name: 'wecom_user_id', type: 'varchar(64)', unique: true }],
  },
  {
    /** one live code per target and purpose; kept after use so that the 60 s resend rule holds */
    name: 'sys_verify_code',
    columns: [
      { name: 'target', type: 'varchar(100)', notNull: true },
      { name: 'purpose', type: 'varchar(32)', notNull: true },
      /** sha256 of purpose, target and code: the code itself is never stored */
      { name: 'code_hash', type: 'varchar(64)', notNull: true },
      /** epoch milliseconds */
      { name: 'sent_at', type: 'bigint', notNull: true },
      { name: 'expires', type: 'bigint', notNull: true },
      { name: 'attempts', type: 'int', notNull: true, default: 0 },
      { name: 'used', type: 'bool', notNull: true, default: false },
      /** sends to this target and purpose since day_start (epoch ms): the daily cap */
      { name: 'day_start', type: 'bigint', notNull: true, default: 0 },
      { name: 'day_count', type: 'int', notNull: true, default: 0 },
    ],
    primaryKey: ['target', 'purpose'],
    indexes: [{ name: 'sys_verify_code_expires', columns: ['expires'] }],
  },
  {
    /** messages the development SMS / e-mail providers "send": read by an administrator and by tests */
    name: 'sys_outbox',
    columns: [
      { name: 'id', type: 'id' },
      /** sms | email */
      { name: 'channel', type: 'varchar(16)', notNull: true },
      { name: 'target', type: 'varchar(100)', notNull: true },
      { name: 'subject', type: 'varchar(200)' },
      { name: 'content', type: 'text', notNull: true },
      { name: 'create_time', type: 'time' },
    ],
    indexes: [{ name: 'sys_outbox_target', columns: ['target'] }],
  },
  {
    /** WeCom sign-in states handed out by getQywxInfo: single use, short-lived */
    name: 'sys_wecom_state',
    columns: [
      { name: 'state', type: 'varchar(64)', primaryKey: true },
      /** epoch milliseconds */
      { name: 'expires', type: 'bigint', notNull: true },
    ],
    indexes: [{ name: 'sys_wecom_state_expires', columns: ['expires'] }],
  },
  {
    /** avatars in the database, so that every instance serves them */
    name: 'sys_avatar',
    columns: [
      { name: 'user_id', type: 'bigint', primaryKey: true },
      { name: 'mime', type: 'varchar(32)', notNull: true },
      /** base64 of the image bytes */
      { name: 'data', type: 'text', notNull: true },
      { name: 'version', type: 'varchar(32)', notNull: true },
      { name: 'update_time', type: 'time' },
    ],
  },
  {
    name: 'sys_log',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'user_id', type: 'bigint' },
      { name: 'username', type: 'varchar(64)' },
      { name: 'description', type: 'varchar(255)' },
      { name: 'method', type: 'varchar(255)' },
      { name: 'params', type: 'text' },
      { name: 'request_ip', type: 'varchar(64)' },
      { name: 'address', type: 'varchar(255)' },
      { name: 'browser', type: 'varchar(255)' },
      /** milliseconds the request took */
      { name: 'time', type: 'bigint', notNull: true, default: 0 },
      /** INFO | ERROR */
      { name: 'log_type', type: 'varchar(10)', notNull: true, default: 'INFO' },
      { name: 'exception_detail', type: 'text' },
      { name: 'create_time', type: 'time' },
    ],
    indexes: [
      { name: 'sys_log_user', columns: ['user_id', 'id'] },
      { name: 'sys_log_create_time', columns: ['create_time'] },
    ],
  },
];
