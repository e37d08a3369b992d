/**
 * Two server instances on one PostgreSQL database (LISTEN/NOTIFY): a chat message sent through
 * instance A reaches a socket on instance B, a notice published on B reaches A, a logout on A
 * closes the socket on B, the online list spans both, and a message over NOTIFY's 8000-byte
 * payload limit still arrives. Runs only when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SESSION_ENDED_CODE } from '../../src/server/realtime/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { bearer, testApps, type TestApp } from './helpers.ts';
import { listen, openSocket } from './ws-helpers.ts';
import type { Created, Page } from '../support/answers.ts';
import type { SocketMessage } from '../support/shapes.ts';
import { until } from '../support/wait.ts';

const PASSWORD = 'Passw0rd!x';
const postgres = testApps().filter(([name]) => name === 'postgres');

// without PostgreSQL the suite is listed as skipped (an empty table would register no suite at all)
const cases = postgres.length ? postgres : [['postgres', undefined as never] as (typeof postgres)[number]];

describe.skipIf(postgres.length === 0).each(cases)('two instances on one %s database', (_name, start) => {
  let t: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let baseA: string;
  let baseB: string;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await start();
    a = t.app;
    b = await t.reopen();
    baseA = await listen(a);
    baseB = await listen(b);
    await createStaff(a, { username: 'alice', password: PASSWORD, permissions: ['sysSocket:add'] });
    await createStaff(a, { username: 'bob', password: PASSWORD, permissions: [] });
    alice = await loginAs(a, 'alice', PASSWORD);
    bob = await loginAs(b, 'bob', PASSWORD);
  });
  afterAll(async () => t?.close());

  it('a chat message sent through A reaches a client on B; the online list spans both', async () => {
    const onB = await openSocket(`${baseB}/webSocket/${bob}/bob`);
    const onA = await openSocket(`${baseA}/webSocket/${alice}/alice`);
    const joined: SocketMessage = await onB.next((m: SocketMessage) => m.msgType === 'CONNECT' && m.formUser === 'alice');
    expect(joined.chats.map((c) => c.sid)).toEqual(['alice', 'bob']);
    const list = await b.inject({ method: 'GET', url: '/api/sysSocketChat/wssList', headers: bearer(bob) });
    expect(list.json()).toEqual([
      { sid: 'alice', name: 'alice' },
      { sid: 'bob', name: 'bob' },
    ]);

    const sent = await a.inject({ method: 'POST', url: '/api/sysSocketChat', headers: bearer(alice), payload: { msg: '来自实例A' } });
    expect(sent.statusCode).toBe(201);
    const got: SocketMessage = await onB.next((m: SocketMessage) => m.msgType === 'CHAT' && m.id === sent.json<Created>().id);
    expect(got).toMatchObject({ formUser: 'alice', msg: '来自实例A' });
    await onA.next((m: SocketMessage) => m.msgType === 'CHAT' && m.id === sent.json<Created>().id);

    const history = await b.inject({ method: 'GET', url: '/api/sysSocketChat?page=0&size=20&sort=id,desc', headers: bearer(bob) });
    expect(history.json<Page>().content[0]).toMatchObject({ msg: '来自实例A' });
    onA.close();
    const left: SocketMessage = await onB.next((m: SocketMessage) => m.msgType === 'CLOSE' && m.formUser === 'alice');
    expect(left.chats.map((c) => c.sid)).toEqual(['bob']);
    onB.close();
  });

  it('a notice published on B pushes INFO to a console socket on A', async () => {
    const onA = await openSocket(`${baseA}/webSocket/${bob}`);
    const res = await b.inject({
      method: 'POST',
      url: '/api/sysSocket',
      headers: bearer(alice),
      payload: { title: '跨实例通知', msg: 'x', type: 1, enabled: true, sort: 1 },
    });
    expect(res.statusCode).toBe(201);
    const info: SocketMessage = await onA.next((m: SocketMessage) => m.msgType === 'INFO');
    expect(info.msg).toBe('您有新的系统消息：跨实例通知');
    onA.close();
  });

  it('a message larger than a NOTIFY payload arrives whole', async () => {
    const onB = await openSocket(`${baseB}/webSocket/${bob}`);
    const big = '消'.repeat(6000); // 18,000 bytes in UTF-8
    await a.hub.push({ kind: 'layout', users: [] }, { msgType: 'INFO', msg: 'nobody' });
    const bobId = Number(
      (await a.database.db.selectFrom('sys_user').select('id').where('username', '=', 'bob').executeTakeFirstOrThrow()).id,
    );
    await a.hub.push({ kind: 'layout', users: [bobId] }, { msgType: 'INFO', msg: big });
    const got: SocketMessage = await onB.next((m: SocketMessage) => m.msgType === 'INFO' && m.msg.length > 100);
    expect(got.msg).toBe(big);
    expect(onB.messages.some((m: SocketMessage) => m.msg === 'nobody')).toBe(false);
    onB.close();
  });

  it('an instance whose LISTEN connection was cut connects again and keeps delivering', async () => {
    const onB = await openSocket(`${baseB}/webSocket/${bob}/bob`);
    const { sql } = await import('kysely');
    const cut = await sql<{ n: number }>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`.execute(a.database.db);
    expect(cut.rows[0].n).toBe(2);
    // both instances reconnect within a second or two; a message sent after that arrives
    let got: SocketMessage | undefined;
    for (let i = 0; i < 20 && !got; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const sent = await a.inject({ method: 'POST', url: '/api/sysSocketChat', headers: bearer(alice), payload: { msg: `重连后${i}` } });
      expect(sent.statusCode).toBe(201);
      got = await onB.next((m: SocketMessage) => m.msgType === 'CHAT' && m.id === sent.json<Created>().id, 300).catch(() => undefined);
    }
    expect(got?.msg).toMatch(/^重连后/);
    onB.close();
  });

  it('messages published while both LISTEN connections are down reach the sockets open then, once, in order', async () => {
    const onB = await openSocket(`${baseB}/webSocket/${bob}/bob`);
    const onA = await openSocket(`${baseA}/webSocket/${alice}/alice`);
    await onB.next((m: SocketMessage) => m.msgType === 'CONNECT' && m.formUser === 'alice');
    const { sql } = await import('kysely');
    // cut both listeners and publish before they can have reconnected: no NOTIFY reaches anyone
    const cut = await sql<{ n: number }>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`.execute(a.database.db);
    expect(cut.rows[0].n).toBe(2);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const sent = await a.inject({ method: 'POST', url: '/api/sysSocketChat', headers: bearer(alice), payload: { msg: `断线期间${i}` } });
      expect(sent.statusCode).toBe(201);
      ids.push(sent.json<Created>().id);
    }
    // a socket opened after the messages were published does not get them late (it reads the history)
    const later = await openSocket(`${baseB}/webSocket/${bob}/bob`);
    for (const sock of [onA, onB]) {
      for (const id of ids) await sock.next((m: SocketMessage) => m.msgType === 'CHAT' && m.id === id, 8000);
      const got = sock.messages.filter((m: SocketMessage) => m.msgType === 'CHAT' && ids.includes(m.id)).map((m: SocketMessage) => m.id);
      expect(got).toEqual(ids);
    }
    const pubB = b.hub.pubsub as import('../../src/server/realtime/pubsub.ts').PostgresPubSub;
    expect(pubB.stats.late).toBeGreaterThanOrEqual(3);
    // a message after the listeners are back arrives live, to the later socket too
    const after = await a.inject({ method: 'POST', url: '/api/sysSocketChat', headers: bearer(alice), payload: { msg: '恢复后' } });
    await later.next((m: SocketMessage) => m.msgType === 'CHAT' && m.id === after.json<Created>().id, 8000);
    expect(later.messages.some((m: SocketMessage) => m.msgType === 'CHAT' && ids.includes(m.id))).toBe(false);
    // the periodic catch-up does not send anything twice: two more of its reads on each instance
    const pubA = a.hub.pubsub as import('../../src/server/realtime/pubsub.ts').PostgresPubSub;
    const [doneA, doneB] = [pubA.stats.catchUps, pubB.stats.catchUps];
    await until(() => pubA.stats.catchUps >= doneA + 2 && pubB.stats.catchUps >= doneB + 2, 'two more catch-up reads on each instance');
    expect(onB.messages.filter((m: SocketMessage) => m.msgType === 'CHAT' && ids.includes(m.id))).toHaveLength(3);
    for (const sock of [onA, onB, later]) sock.close();
  });

  it('a logout on A closes the sockets of that session on B', async () => {
    const token = await loginAs(a, 'bob', PASSWORD);
    const onB = await openSocket(`${baseB}/webSocket/${token}/bob`);
    const res = await a.inject({ method: 'DELETE', url: '/api/logout', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect((await onB.closed).code).toBe(SESSION_ENDED_CODE);
  });
});
