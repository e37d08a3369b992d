/**
 * Per-user limits for reading (read-limits.ts): list, look-up and export routes count against the
 * signed-in user's budget, one budget over every read route; over it the answer is 429 in
 * Chinese in the product's error shape, another user is not affected, and the budget comes back
 * when the window ends. This file tries a few routes; that every signed-in read route counts is
 * read-limits-every-route.test.ts, generated from the route table. On PostgreSQL a second instance on the same database shares the counts.
 * The limits are set low (READ_LIMIT_PER_MINUTE and friends) so the test stays quick.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { EXPORT_LIMIT_MESSAGE, READ_LIMIT_MESSAGE } from '../../src/server/read-limits.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { elapse } from '../support/wait.ts';

const PASSWORD = 'Passw0rd!x';
const READS = 6;
const EXPORTS = 2;
const WINDOW_SECONDS = 2;

describe.each(testApps())('read limits per user on %s', (dialect, start) => {
  let t: TestApp;
  let apps: FastifyInstance[];
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await start({ readLimitPerMinute: READS, exportLimitPerMinute: EXPORTS, readLimitWindowMs: WINDOW_SECONDS * 1000 });
    // on PostgreSQL every other request goes to a second instance: the counts are shared
    apps = dialect === 'postgres' ? [t.app, await t.reopen()] : [t.app];
    const keys = ['staff:list', 'staff:download'];
    await createStaff(t.app, { username: 'alice', password: PASSWORD, permissions: keys, dataScope: '全部' });
    await createStaff(t.app, { username: 'bob', password: PASSWORD, permissions: keys, dataScope: '全部' });
    alice = await loginAs(t.app, 'alice', PASSWORD);
    bob = await loginAs(t.app, 'bob', PASSWORD);
  });
  afterAll(async () => t?.close());

  const get = (i: number, token: string, url: string) => apps[i % apps.length].inject({ method: 'GET', url, headers: bearer(token) });
  // a list, a hand-written look-up and the user picker share one budget
  const READ_URLS = ['/api/staff?page=0&size=1', '/api/staff/search?search=13', '/api/users/pick?page=0&size=1'];

  async function readUntilLimited(token: string): Promise<number[]> {
    const codes: number[] = [];
    for (let i = 0; i < READS + 2; i++) codes.push((await get(i, token, READ_URLS[i % READ_URLS.length])).statusCode);
    return codes;
  }

  it('a list, a look-up and the user picker share one budget: past it 429 查询过于频繁; another user still reads; the budget comes back', async () => {
    const codes = await readUntilLimited(alice);
    expect(codes.slice(0, READS)).toEqual(Array(READS).fill(200));
    expect(codes.slice(READS)).toEqual([429, 429]);
    const limited = await get(0, alice, '/api/staff?page=0&size=1');
    expect(limited.statusCode).toBe(429);
    expect(errorOf(limited)).toMatchObject({ status: 429, message: READ_LIMIT_MESSAGE });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // bob is not affected by alice's budget
    expect((await get(1, bob, '/api/staff?page=0&size=1')).statusCode).toBe(200);
    await elapse(WINDOW_SECONDS * 1000 + 300); // the window runs out
    expect((await get(0, alice, '/api/staff?page=0&size=1')).statusCode).toBe(200);
  });

  it('exports have a budget of their own: past it 429 导出过于频繁, reads go on', async () => {
    const codes: number[] = [];
    for (let i = 0; i < EXPORTS + 1; i++) codes.push((await get(i, bob, '/api/staff/download')).statusCode);
    expect(codes.slice(0, EXPORTS)).toEqual(Array(EXPORTS).fill(200));
    const last = await get(EXPORTS, bob, '/api/staff/download');
    expect(last.statusCode).toBe(429);
    expect(errorOf(last).message).toBe(EXPORT_LIMIT_MESSAGE);
    await elapse(WINDOW_SECONDS * 1000 + 300); // the window runs out
    expect((await get(0, bob, '/api/staff?page=0&size=1')).statusCode).toBe(200);
    expect((await get(1, bob, '/api/staff/download')).statusCode).toBe(200);
  });

  it('a request without a token is refused before it counts (401, not 429)', async () => {
    for (let i = 0; i < READS + 2; i++) {
      const res = await apps[i % apps.length].inject({ method: 'GET', url: '/api/staff?page=0&size=1' });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('read limit settings', () => {
  it('defaults to 600 reads and 30 exports a minute; bad values are refused at start', () => {
    const config = loadConfig({}, {});
    expect([config.readLimitPerMinute, config.exportLimitPerMinute, config.readLimitWindowMs]).toEqual([600, 30, 60_000]);
    expect(loadConfig({ READ_LIMIT_PER_MINUTE: '100000', EXPORT_LIMIT_PER_MINUTE: '5' }, {}).readLimitPerMinute).toBe(100_000);
    expect(() => loadConfig({ READ_LIMIT_PER_MINUTE: '0' }, {})).toThrow(/READ_LIMIT_PER_MINUTE/);
    expect(() => loadConfig({ EXPORT_LIMIT_PER_MINUTE: 'many' }, {})).toThrow(/EXPORT_LIMIT_PER_MINUTE/);
  });
});
