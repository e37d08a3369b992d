/**
 * Helpers for the account-area server tests: codes from the development outbox, encrypted
 * passwords, the newest operation-log rows.
 */
import type { FastifyInstance } from 'fastify';
import { latestOutbox } from '../../src/server/providers/outbox.ts';
import { encryptPassword, publicKeyOf } from './auth-helpers.ts';

/** The 6-digit code of the newest outbox message to `target`. */
export async function codeFromOutbox(app: FastifyInstance, target: string): Promise<string> {
  await app.verificationCodes.settled();
  const msg = await latestOutbox(app.database.db, target);
  const m = msg ? /(\d{6})/.exec(msg.content) : null;
  if (!m) throw new Error(`no code in the outbox for ${target}`);
  return m[1];
}

export async function encrypted(app: FastifyInstance, password: string): Promise<string> {
  return encryptPassword(await publicKeyOf(app), password);
}

/** a sys_log row as the database answers it (PostgreSQL answers bigints as strings) */
export interface LogRow {
  id: number | string;
  user_id: number | string | null;
  username: string | null;
  description: string | null;
  method: string | null;
  params: string | null;
  request_ip: string | null;
  address: string | null;
  browser: string | null;
  time: number | string;
  log_type: string;
  exception_detail: string | null;
  create_time: string | null;
}

export async function lastLogs(app: FastifyInstance, n = 1): Promise<LogRow[]> {
  const rows = await app.database.db.selectFrom('sys_log').selectAll().orderBy('id', 'desc').limit(n).execute();
  return rows as LogRow[];
}
