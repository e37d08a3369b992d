/**
 * Per-address limits on PostgreSQL are counted in the database, not per process: two instances
 * on one database share the chat flood limit (an app.rateLimit guard), a route's own limit
 * (GET /api/code), and the sign-in brake (staff and dealer). Requests alternate between the
 * instances; with counters per process each instance would allow the full limit again.
 * On SQLite (one server) the limits stay in memory; runs only when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CHAT_RATE_MAX } from '../../src/server/modules/messages/chat.ts';
import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS } from '../../src/server/auth/login-throttle.ts';
import { SharedCounters } from '../../src/server/db/shared-limits.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { bearer, testApps, type TestApp } from './helpers.ts';

const PASSWORD = 'Passw0rd!x';
const postgres = testApps().filter(([name]) => name === 'postgres');
const cases = postgres.length ? postgres : [['postgres', undefined as never] as (typeof postgres)[number]];

describe.skipIf(postgres.length === 0).each(cases)('limits shared by two instances on one %s database', (_name, start) => {
  let t: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    t = await start();
    a = t.app;
    b = await t.reopen();
  });
  afterAll(async () => t?.close());

  /** Sends `count` requests alternating A, B, A ...; answers their status codes. */
  async function alternate(count: number, send: (app: FastifyInstance, i: number) => Promise<number>): Promise<number[]> {
    const codes: number[] = [];
    for (let i = 0; i < count; i++) codes.push(await send(i % 2 === 0 ? a : b, i));
    return codes;
  }

  it('the chat flood limit counts the messages sent through both instances', async () => {
    await createStaff(a, { username: 'chatty', password: PASSWORD, permissions: [] });
    const token = await loginAs(a, 'chatty', PASSWORD);
    const codes = await alternate(CHAT_RATE_MAX + 4, async (app, i) => {
      const res = await app.inject({ method: 'POST', url: '/api/sysSocketChat', headers: bearer(token), payload: { msg: `第${i}条` } });
      return res.statusCode;
    });
    expect(codes.filter((c) => c === 201)).toHaveLength(CHAT_RATE_MAX);
    expect(codes.slice(CHAT_RATE_MAX)).toEqual([429, 429, 429, 429]);
    const stored = await a.database.db
      .selectFrom('sys_socket_chat')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('form_user', '=', 'chatty')
      .executeTakeFirst();
    expect(Number(stored?.n)).toBe(CHAT_RATE_MAX);
  });

  it("a route's own limit (captcha images, 120 a minute) holds across instances", async () => {
    const codes = await alternate(
      124,
      async (app) => (await app.inject({ method: 'GET', url: '/api/code', remoteAddress: '10.1.1.1' })).statusCode,
    );
    expect(codes.slice(0, 120).every((c) => c === 200)).toBe(true);
    expect(codes.slice(120)).toEqual([429, 429, 429, 429]);
    // another address has its own count, on both instances
    expect((await b.inject({ method: 'GET', url: '/api/code', remoteAddress: '10.1.1.2' })).statusCode).toBe(200);
  });

  it('the sign-in brake counts failures on both instances (staff and dealer)', async () => {
    const ip = '10.2.2.2';
    const staff = async (app: FastifyInstance) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: ip,
          payload: { username: 'nobody', password: 'not-encrypted' },
        })
      ).statusCode;
    const dealer = async (app: FastifyInstance) =>
      (
        await app.inject({
          method: 'POST',
          url: '/comp/dbcCompany/auth/login',
          remoteAddress: ip,
          payload: { username: 'nobody', password: 'not-encrypted' },
        })
      ).statusCode;
    // each failure costs a password hash: the first LIMIT - 2 are counted straight into the table
    const counters = new SharedCounters(a.database.db);
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 2; i++) await counters.hit(`login:staff:${ip}`, LOGIN_FAILURE_WINDOW_MS);
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i++) await counters.hit(`login:dealer:${ip}`, LOGIN_FAILURE_WINDOW_MS);
    expect(await staff(a)).toBe(400);
    expect(await staff(b)).toBe(400);
    // the limit is reached by one failure on A and one on B: both instances refuse now
    expect(await staff(a)).toBe(429);
    expect(await staff(b)).toBe(429);
    // the dealer sign-in has a brake of its own, shared as well
    expect(await dealer(b)).toBe(400);
    expect(await dealer(a)).toBe(429);
    // another address is not braked
    expect(
      (await a.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.3.3.3', payload: { username: 'nobody', password: 'x' } }))
        .statusCode,
    ).toBe(400);
  });
});
