/**
 * The development outbox: where SMS and e-mail go when no real provider is configured.
 * A table, so that every instance writes to one place; an administrator reads it in the
 * console (发件箱) and the tests read the codes from it.
 */
import type { Db } from '../types.ts';
import { nowText } from '../db/index.ts';

export type OutboxChannel = 'sms' | 'email';

export async function writeOutbox(
  db: Db,
  message: { channel: OutboxChannel; target: string; subject?: string; content: string },
): Promise<void> {
  await db
    .insertInto('sys_outbox')
    .values({
      channel: message.channel,
      target: message.target,
      subject: message.subject ?? null,
      content: message.content,
      create_time: nowText(),
    })
    .execute();
}

/** The newest outbox message to a target (tests, and the console's 发件箱). */
export async function latestOutbox(
  db: Db,
  target: string,
): Promise<{ channel: string; content: string; subject: string | null } | undefined> {
  return db
    .selectFrom('sys_outbox')
    .select(['channel', 'content', 'subject'])
    .where('target', '=', target)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
