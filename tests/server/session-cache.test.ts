/**
 * The session cache (auth/sessions.ts): a signed-in request is answered without the session
 * look-up query for a few seconds, yet logout, a deleted session row, a disabled user and a
 * password change end the session at once; with two instances on one PostgreSQL database, a
 * logout or a disable on A ends the session on B at once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CHANGE_QUIET_MS } from '../../src/server/auth/sessions.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { bearer, testApps, type TestApp } from './helpers.ts';
import { elapse, until } from '../support/wait.ts';

const PASSWORD = 'Passw0rd!x';

/** Runs `fn` and answers how many session look-up queries (sys_session joined with sys_user) it ran. */
async function lookupsDuring(app: FastifyInstance, fn: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(app.database.db, 'executeQuery');
  try {
    await fn();
    const sqlOf = (q: unknown) => String((q as { sql?: string }).sql ?? '');
    return spy.mock.calls.filter(([q]) => /from "sys_session" as "s" inner join "sys_user"/.test(sqlOf(q))).length;
  } finally {
    spy.mockRestore();
  }
}

const info = (app: FastifyInstance, token: string) => app.inject({ method: 'GET', url: '/api/info', headers: bearer(token) });

describe.each(testApps())('session cache on %s', (_name, start) => {
  let t: TestApp;
  let userId: number;

  beforeAll(async () => {
    t = await start();
    userId = await createStaff(t.app, { username: 'carol', password: PASSWORD, permissions: ['sysQuestion:list'] });
  });
  afterAll(async () => t?.close());

  it('answers repeated requests of a session from memory', async () => {
    const token = await loginAs(t.app, 'carol', PASSWORD);
    expect((await info(t.app, token)).statusCode).toBe(200);
    const n = await lookupsDuring(t.app, async () => {
      for (let i = 0; i < 5; i++) expect((await info(t.app, token)).statusCode).toBe(200);
    });
    expect(n).toBe(0);
  });

  it('a deleted session row, as other code deletes it, is refused on the very next request', async () => {
    const token = await loginAs(t.app, 'carol', PASSWORD);
    expect((await info(t.app, token)).statusCode).toBe(200);
    await t.app.database.db.deleteFrom('sys_session').where('user_id', '=', userId).execute();
    expect((await info(t.app, token)).statusCode).toBe(401);
  });

  it('disabling the user ends the session at once, and logout does too', async () => {
    let token = await loginAs(t.app, 'carol', PASSWORD);
    expect((await info(t.app, token)).statusCode).toBe(200);
    await t.app.database.db.updateTable('sys_user').set({ enabled: 0 }).where('id', '=', userId).execute();
    expect((await info(t.app, token)).statusCode).toBe(401);
    await t.app.database.db.updateTable('sys_user').set({ enabled: 1 }).where('id', '=', userId).execute();

    token = await loginAs(t.app, 'carol', PASSWORD);
    expect((await info(t.app, token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/logout', headers: bearer(token) })).statusCode).toBe(200);
    expect((await info(t.app, token)).statusCode).toBe(401);
  });

  it('a password change through the account route ends the other sessions at once', async () => {
    const other = await loginAs(t.app, 'carol', PASSWORD);
    expect((await info(t.app, other)).statusCode).toBe(200);
    const { setNewPassword } = await import('../../src/server/modules/account/password-policy.ts');
    const row = await t.app.database.db.selectFrom('sys_user').select('password').where('id', '=', userId).executeTakeFirstOrThrow();
    await setNewPassword(t.app.database.db, userId, 'NewPass2024', String(row.password));
    expect((await info(t.app, other)).statusCode).toBe(401);
  });
});

const postgres = testApps().filter(([name]) => name === 'postgres');
const cases = postgres.length ? postgres : [['postgres', undefined as never] as (typeof postgres)[number]];

describe.skipIf(postgres.length === 0).each(cases)('session cache with two instances on one %s database', (_name, start) => {
  let t: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let userId: number;

  beforeAll(async () => {
    t = await start();
    a = t.app;
    b = await t.reopen();
    userId = await createStaff(a, { username: 'dave', password: PASSWORD, permissions: [] });
  });
  afterAll(async () => t?.close());

  it('logout on A ends the session on B at once, though B held it in memory', async () => {
    const token = await loginAs(a, 'dave', PASSWORD);
    expect((await info(b, token)).statusCode).toBe(200);
    expect(await lookupsDuring(b, () => info(b, token))).toBe(0);
    expect((await a.inject({ method: 'DELETE', url: '/api/logout', headers: bearer(token) })).statusCode).toBe(200);
    expect((await info(b, token)).statusCode).toBe(401);
  });

  it('disabling the user on A ends the session on B within a moment', async () => {
    // the logout before keeps memory unused for a moment on both instances
    await elapse(CHANGE_QUIET_MS + 100); // the quiet time after a change must run out
    const token = await loginAs(a, 'dave', PASSWORD);
    expect((await info(b, token)).statusCode).toBe(200);
    expect(await lookupsDuring(b, () => info(b, token))).toBe(0);
    await a.database.db.updateTable('sys_user').set({ enabled: 0 }).where('id', '=', userId).execute();
    // told over LISTEN/NOTIFY: delivered in milliseconds, well before the cache's 5 s run out
    await until(async () => (await info(b, token)).statusCode === 401, 'B to refuse the disabled user', { timeoutMs: 4000 });
  });
});
