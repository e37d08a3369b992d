/**
 * Helpers for the account-area server tests: codes from the development outbox, encrypted
 * passwords, the newest operation-log rows.
 */
import type { FastifyInstance } from 'fastify';
import { latestOutbox } from '../../src/server/providers/outbox.ts';
import { encryptPassword, publicKeyOf } from './auth-helpers.ts';

/** The 6-digit code of the newest outbox message to `target`. */
export async function codeFromOutbox(app: FastifyInstance, target: string): Promise<string> {
  const msg = await latestOutbox(app.database.db, target);
  const m = msg ? /(\d{6})/.exec(msg.content) : null;
  if (!m) throw new Error(`no code in the outbox for ${target}`);
  return m[1];
}

export async function encrypted(app: FastifyInstance, password: string): Promise<string> {
  return encryptPassword(await publicKeyOf(app), password);
}

export async function lastLogs(app: FastifyInstance, n = 1): Promise<Array<Record<string, any>>> {
  return app.database.db.selectFrom('sys_log').selectAll().orderBy('id', 'desc').limit(n).execute();
}
