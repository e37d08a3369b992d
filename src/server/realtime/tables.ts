/**
 * Tables of the realtime area, created or extended additively like the auth tables:
 * - sys_socket_presence: one row per open websocket on any instance (online staff across instances);
 * - sys_realtime_event: every message published to sockets, by sequence, kept a few minutes so
 *   that an instance whose LISTEN connection was down catches up (PostgreSQL; see pubsub.ts);
 * - sys_socket_read: per-user read state of system messages;
 * - sys_socket_chat: the staff chat history;
 * - sys_download_file / sys_download_chunk: files of background exports, in the database so that
 *   every instance can serve them, kept until they expire.
 */
import { sql } from 'kysely';
import type { Database } from '../types.ts';
import { ensureTables, type TableDef } from '../auth/tables.ts';

export const REALTIME_TABLES: TableDef[] = [
  {
    name: 'sys_socket_presence',
    columns: [
      { name: 'id', type: 'varchar(40)', primaryKey: true },
      { name: 'instance', type: 'varchar(40)', notNull: true },
      { name: 'user_id', type: 'bigint', notNull: true },
      { name: 'username', type: 'varchar(64)', notNull: true },
      { name: 'nick_name', type: 'varchar(64)' },
      { name: 'session_id', type: 'varchar(64)', notNull: true },
      /** epoch ms of the last heartbeat of its instance */
      { name: 'seen', type: 'bigint', notNull: true },
    ],
    indexes: [
      { name: 'sys_socket_presence_instance', columns: ['instance'] },
      { name: 'sys_socket_presence_seen', columns: ['seen'] },
    ],
  },
  {
    name: 'sys_realtime_event',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'body', type: 'text', notNull: true },
      /** epoch ms when it was published */
      { name: 'created', type: 'bigint', notNull: true },
    ],
    indexes: [{ name: 'sys_realtime_event_created', columns: ['created'] }],
  },
  {
    name: 'sys_socket_read',
    columns: [
      { name: 'socket_id', type: 'bigint', notNull: true },
      { name: 'user_id', type: 'bigint', notNull: true },
      { name: 'read_time', type: 'time' },
    ],
    primaryKey: ['socket_id', 'user_id'],
    indexes: [{ name: 'sys_socket_read_user', columns: ['user_id'] }],
  },
  {
    name: 'sys_socket_chat',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'form_user', type: 'varchar(64)', notNull: true },
      { name: 'form_name', type: 'varchar(64)' },
      { name: 'form_img', type: 'varchar(255)' },
      { name: 'msg', type: 'text', notNull: true },
      { name: 'msg_type', type: 'varchar(16)', notNull: true, default: 'CHAT' },
      { name: 'create_time', type: 'time' },
    ],
  },
  {
    name: 'sys_download_file',
    columns: [
      { name: 'id', type: 'varchar(40)', primaryKey: true },
      { name: 'user_id', type: 'bigint', notNull: true },
      { name: 'file_name', type: 'varchar(255)', notNull: true },
      { name: 'mime', type: 'varchar(128)', notNull: true },
      { name: 'size', type: 'bigint', notNull: true, default: 0 },
      /** false while the file is being written */
      { name: 'complete', type: 'bool', notNull: true, default: false },
      { name: 'create_time', type: 'time' },
      /** epoch ms */
      { name: 'expires', type: 'bigint', notNull: true },
      /** the resource whose personal data the file holds in full (its fetch is a full read), or null */
      { name: 'personal_resource', type: 'varchar(64)' },
    ],
    indexes: [{ name: 'sys_download_file_expires', columns: ['expires'] }],
  },
  {
    name: 'sys_download_chunk',
    columns: [
      { name: 'file_id', type: 'varchar(40)', notNull: true },
      { name: 'seq', type: 'int', notNull: true },
      { name: 'data', type: 'bytes', notNull: true },
    ],
    primaryKey: ['file_id', 'seq'],
  },
];

/** Creates the tables; on PostgreSQL under an advisory lock so instances may start together. */
export async function ensureRealtimeTables(database: Database): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('dealer-console:realtime-setup'))`.execute(trx);
    await ensureTables(trx, database.dialect, REALTIME_TABLES);
  });
}
