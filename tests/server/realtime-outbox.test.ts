/**
 * Pushes made while the database cannot be reached (PostgreSQL restarting) are kept in order
 * and published once it answers again, instead of being lost (the progress of a background
 * export, a notice saved just before the outage). Other publishing errors still reach the caller.
 */
import { describe, expect, it } from 'vitest';
import { Hub } from '../../src/server/realtime/hub.ts';
import type { Delivery, PubSub } from '../../src/server/realtime/pubsub.ts';
import type { Database } from '../../src/server/types.ts';
import { elapse, until } from '../support/wait.ts';

class FlakyPubSub implements PubSub {
  down = false;
  published: string[] = [];
  failWith?: Error;
  publish(message: string): Promise<void> {
    if (this.failWith) return Promise.reject(this.failWith);
    if (this.down) return Promise.reject(Object.assign(new Error('Connection terminated unexpectedly'), {}));
    this.published.push(message);
    return Promise.resolve();
  }
  subscribe(_handler: (message: string, delivery: Delivery) => void): void {}
  async close(): Promise<void> {}
}

const log = { warn: () => undefined };
/** only what closing the hub touches (its presence rows) */
const database = { db: { deleteFrom: () => ({ where: () => ({ execute: () => Promise.resolve(undefined) }) }) } } as unknown as Database;

describe('the hub while the database is away', () => {
  it('keeps pushes made during the outage and publishes them in order once it is back', async () => {
    const pubsub = new FlakyPubSub();
    const hub = new Hub(database, pubsub, { heartbeatMs: 3_600_000, log });
    await hub.push({ kind: 'layout', users: [1] }, { msgType: 'EXCEL', code: 100, msg: '开始' });
    pubsub.down = true;
    await hub.push({ kind: 'layout', users: [1] }, { msgType: 'EXCEL', code: 100, msg: '进行中' });
    await hub.push({ kind: 'layout', users: [1] }, { msgType: 'EXCEL', code: 200, msg: '完成' });
    expect(hub.waiting).toBe(2);
    // a quiet spell of retries against the dead database: nothing is dropped meanwhile
    await elapse(700);
    expect(hub.waiting).toBe(2);
    pubsub.down = false;
    // a push made now waits behind the older ones
    await hub.push({ kind: 'layout', users: [1] }, { msgType: 'INFO', msg: '之后' });
    await until(() => hub.waiting === 0, 'the waiting pushes to be published');
    expect(pubsub.published.map((m) => (JSON.parse(m) as { data: { msg: string } }).data.msg)).toEqual(['开始', '进行中', '完成', '之后']);
    await hub.close();
  });

  it('an error that is not an outage still reaches the caller', async () => {
    const pubsub = new FlakyPubSub();
    const hub = new Hub(database, pubsub, { heartbeatMs: 3_600_000, log });
    pubsub.failWith = new Error('payload rejected');
    await expect(hub.push({ kind: 'chat' }, { msgType: 'CHAT' })).rejects.toThrow('payload rejected');
    expect(hub.waiting).toBe(0);
    await hub.close();
  });
});
