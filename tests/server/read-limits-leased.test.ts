/**
 * The per-user read budget on PostgreSQL is taken in leases of several reads per upsert
 * (db/leased-limits.ts). Two instances on one database, reads alternating or in bursts between
 * them, concurrent reads: the reads let through never exceed the budget, at most
 * (instances - 1) × (lease - 1) reads short of it, and a second user has a budget of their own.
 * The arithmetic of the grants is also checked against an in-memory counter (no database).
 * The PostgreSQL part runs only when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LeasedCounters, leaseSizeOf } from '../../src/server/db/leased-limits.ts';
import { SharedCounters } from '../../src/server/db/shared-limits.ts';
import { READ_LIMIT_MESSAGE } from '../../src/server/read-limits.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { elapse } from '../support/wait.ts';

/** The database counter's arithmetic (shared-limits.ts hitNow) in memory, counting its calls. */
function memoryCounter(windowMs = 60_000) {
  const rows = new Map<string, { hits: number; resetAt: number }>();
  let calls = 0;
  const counters = {
    async hit(key: string, _windowMs: number, n = 1) {
      // a round trip: the answer comes on a later turn, as the database's does
      await new Promise((r) => setImmediate(r));
      calls++;
      const now = Date.now();
      const row = rows.get(key);
      if (!row || row.resetAt <= now) rows.set(key, { hits: n, resetAt: now + windowMs });
      else row.hits += n;
      const r = rows.get(key)!;
      return { hits: r.hits, ttl: r.resetAt - now };
    },
  } as unknown as SharedCounters;
  return { counters, calls: () => calls };
}

describe('leased budgets (arithmetic, no database)', () => {
  it('lease sizes: a twentieth of the budget, 1 to 50 hits', () => {
    expect([6, 30, 39, 40, 600, 1000, 1_000_000_000].map(leaseSizeOf)).toEqual([1, 1, 1, 2, 30, 50, 50]);
  });

  it('three instances sharing one counter let through at most the budget, one upsert per lease', async () => {
    const { counters, calls } = memoryCounter();
    const instances = [0, 1, 2].map(() => new LeasedCounters(() => counters));
    const max = 600;
    let allowed = 0;
    // uneven traffic: instance 0 gets most reads, the others some
    for (let i = 0; i < 900; i++) {
      const inst = instances[i % 5 === 0 ? 1 : i % 7 === 0 ? 2 : 0];
      const { current } = await inst.hit('user:1', 60_000, max);
      if (current <= max) allowed++;
    }
    expect(allowed).toBeLessThanOrEqual(max);
    expect(allowed).toBeGreaterThanOrEqual(max - 2 * (leaseSizeOf(max) - 1));
    // 600 reads in leases of 30 over three instances, plus the refused leases at the end
    expect(calls()).toBeLessThan(40);
  });

  it('concurrent reads of one user wait for one lease; one instance alone gets exactly the budget', async () => {
    const { counters, calls } = memoryCounter();
    const inst = new LeasedCounters(() => counters);
    const results = await Promise.all(Array.from({ length: 120 }, () => inst.hit('user:2', 60_000, 100)));
    expect(results.filter((r) => r.current <= 100)).toHaveLength(100);
    expect(results.filter((r) => r.current > 100)).toHaveLength(20);
    // the last lease reaches the budget exactly: the reads past it are refused without asking again
    expect(calls()).toBe(100 / leaseSizeOf(100));
  });
});

const postgres = testApps().filter(([name]) => name === 'postgres');
const cases = postgres.length ? postgres : [['postgres', undefined as never] as (typeof postgres)[number]];
const READS = 100;
const WINDOW_SECONDS = 4;
const PASSWORD = 'Passw0rd!x';

describe.skipIf(postgres.length === 0).each(cases)('read budget in leases, two instances on one %s database', (_name, start) => {
  let t: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await start({ readLimitPerMinute: READS, readLimitWindowMs: WINDOW_SECONDS * 1000 });
    a = t.app;
    b = await t.reopen();
    await createStaff(a, { username: 'alice', password: PASSWORD, permissions: ['staff:list'], dataScope: '全部' });
    await createStaff(a, { username: 'bob', password: PASSWORD, permissions: ['staff:list'], dataScope: '全部' });
    alice = await loginAs(a, 'alice', PASSWORD);
    bob = await loginAs(a, 'bob', PASSWORD);
  });
  afterAll(async () => t?.close());

  const read = (app: FastifyInstance, token: string) =>
    app.inject({ method: 'GET', url: '/api/staff?page=0&size=1', headers: bearer(token) });

  it('reads alternating and in bursts between the instances never pass the budget; another user reads on', async () => {
    const lease = leaseSizeOf(READS);
    const upserts = vi.spyOn(SharedCounters.prototype, 'hit');
    const codes: number[] = [];
    // bursts of 3 on A, 2 on B, and some concurrent reads on both
    for (let i = 0; i < READS + 20; i++) codes.push((await read(i % 5 < 3 ? a : b, alice)).statusCode);
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => read(i % 2 ? a : b, alice)));
    const allowed = codes.filter((c) => c === 200).length + burst.filter((r) => r.statusCode === 200).length;
    expect(allowed).toBeLessThanOrEqual(READS);
    expect(allowed).toBeGreaterThanOrEqual(READS - (lease - 1));
    // once refused, both instances keep refusing, with the product's answer
    for (const app of [a, b]) {
      const res = await read(app, alice);
      expect(res.statusCode).toBe(429);
      expect(errorOf(res).message).toBe(READ_LIMIT_MESSAGE);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await read(b, bob)).statusCode).toBe(200);
    // the shared counter was written once per lease, not once per read (130 reads)
    expect(upserts.mock.calls.length).toBeLessThanOrEqual(Math.ceil(READS / lease) + 6);
    expect(upserts.mock.calls.length).toBeGreaterThanOrEqual(Math.ceil(READS / lease));
    upserts.mockRestore();
    // the budget comes back when the window ends, on both instances
    await elapse(WINDOW_SECONDS * 1000 + 300); // the window runs out
    expect((await read(a, alice)).statusCode).toBe(200);
    expect((await read(b, alice)).statusCode).toBe(200);
  });
});
