/**
 * Websocket endpoints with real clients: the token is checked on connect, sockets close when
 * their session ends (logout, expiry, disabled user), heartbeats drop silent clients, chat
 * fan-out with CONNECT/CLOSE lists, and system messages with per-user read state.
 */
import type { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { handshakeStatus, listen, openSocket } from './ws-helpers.ts';
import { elapse, until } from '../support/wait.ts';
import { SESSION_ENDED_CODE } from '../../src/server/realtime/index.ts';
import { tokenHash } from '../../src/server/auth/sessions.ts';
import type { Created, Page } from '../support/answers.ts';
import type { OnlineChat, SocketMessage } from '../support/shapes.ts';

const PASSWORD = 'Passw0rd!x';

describe.each(testApps())('realtime sockets on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let base: string;
  let adminToken: string;
  let publisher: string;
  let reader: string;
  let other: string;

  beforeAll(async () => {
    t = await start();
    app = t.app;
    base = await listen(app);
    adminToken = await loginAs(app, 'admin', ADMIN_PASSWORD);
    await createStaff(app, { username: 'publisher', password: PASSWORD, permissions: ['sysSocket:add', 'sysSocket:edit'] });
    await createStaff(app, { username: 'reader', password: PASSWORD, permissions: [] });
    await createStaff(app, { username: 'other', password: PASSWORD, permissions: [] });
    publisher = await loginAs(app, 'publisher', PASSWORD);
    reader = await loginAs(app, 'reader', PASSWORD);
    other = await loginAs(app, 'other', PASSWORD);
  });
  afterAll(async () => t?.close());

  it('refuses a socket without a live session (401) and opens one for a valid token', async () => {
    expect(await handshakeStatus(`${base}/webSocket/not-a-token`)).toBe(401);
    expect(await handshakeStatus(`${base}/webSocket/${'A'.repeat(43)}`)).toBe(401);
    expect(await handshakeStatus(`${base}/webSocket/${'A'.repeat(43)}/nick`)).toBe(401);
    expect(await handshakeStatus(`${base}/webSocket/${reader}`)).toBe(101);
    expect(await handshakeStatus(`${base}/webSocket/${reader}/${encodeURIComponent('读者')}`)).toBe(101);
    expect(await handshakeStatus(`${base}/webSocket?token=${reader}`)).toBe(101);
    expect(await handshakeStatus(`${base}/webSocket?token=nope`)).toBe(401);
    expect(await handshakeStatus(`${base}/webSocket`)).toBe(401);
    expect(await handshakeStatus(`${base}/webSocket/${reader}/${'x'.repeat(65)}`)).toBe(400);
  });

  it('closes every socket of a user whose sessions were all ended', async () => {
    const id = await createStaff(app, { username: 'leaver', password: PASSWORD, permissions: [] });
    const token = await loginAs(app, 'leaver', PASSWORD);
    const s = await openSocket(`${base}/webSocket/${token}`);
    await app.sessions.destroyUser(id);
    expect((await s.closed).code).toBe(SESSION_ENDED_CODE);
  });

  it('closes the sockets of a session when it logs out, and refuses the token afterwards', async () => {
    const token = await loginAs(app, 'reader', PASSWORD);
    const layout = await openSocket(`${base}/webSocket/${token}`);
    const chat = await openSocket(`${base}/webSocket/${token}/reader`);
    const stays = await openSocket(`${base}/webSocket/${reader}`);
    const res = await app.inject({ method: 'DELETE', url: '/api/logout', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect((await layout.closed).code).toBe(SESSION_ENDED_CODE);
    expect((await chat.closed).code).toBe(SESSION_ENDED_CODE);
    expect(stays.ws.readyState).toBe(stays.ws.OPEN);
    expect(await handshakeStatus(`${base}/webSocket/${token}`)).toBe(401);
    stays.close();
  });

  it('closes a socket at the heartbeat after its session expired', async () => {
    const token = await loginAs(app, 'reader', PASSWORD);
    const s = await openSocket(`${base}/webSocket/${token}`);
    await app.database.db
      .updateTable('sys_session')
      .set({ expires: Date.now() - 1000 })
      .where('id', '=', tokenHash(token))
      .execute();
    await app.hub.heartbeat();
    expect((await s.closed).code).toBe(SESSION_ENDED_CODE);
  });

  it('a socket whose presence row was dropped while the database was away is listed again at the next heartbeat', async () => {
    const s = await openSocket(`${base}/webSocket/${reader}/reader`);
    await expect.poll(async () => (await app.hub.onlineStaff()).some((o) => o.sid === 'reader'), { timeout: 3000 }).toBe(true);
    // what another instance's heartbeat does to rows not refreshed for three beats
    await app.database.db.deleteFrom('sys_socket_presence').where('username', '=', 'reader').execute();
    expect((await app.hub.onlineStaff()).some((o) => o.sid === 'reader')).toBe(false);
    await app.hub.heartbeat();
    expect((await app.hub.onlineStaff()).some((o) => o.sid === 'reader')).toBe(true);
    s.close();
  });

  it('terminates a client that stops answering pings', async () => {
    const s = await openSocket(`${base}/webSocket/${reader}`);
    // a client whose pong never arrives: stop the automatic pong of the ws client
    (s.ws as unknown as { _receiver: EventEmitter })._receiver.removeAllListeners('ping');
    (s.ws as unknown as { _receiver: EventEmitter })._receiver.on('ping', () => undefined);
    await app.hub.heartbeat(); // ping sent, marked not alive
    await elapse(100); // time in which an answering client's pong would come back; this one sends none
    await app.hub.heartbeat(); // no pong since: terminated
    const closed = await s.closed;
    expect(closed.code).toBe(1006);
  });

  it('chat: CONNECT carries the online list, a message reaches every chat socket, CLOSE updates the list', async () => {
    const a = await openSocket(`${base}/webSocket/${publisher}/publisher`);
    const connect: SocketMessage = await a.next((m: SocketMessage) => m.msgType === 'CONNECT' && m.formUser === 'publisher');
    expect(connect.chats).toEqual(expect.arrayContaining([{ sid: 'publisher', name: 'publisher' }]));
    const admin = await openSocket(`${base}/webSocket/${adminToken}/admin`);
    const b = await openSocket(`${base}/webSocket/${reader}/reader`);
    // an earlier test's short-lived reader socket may still be announced (CONNECT then CLOSE, gathered
    // over 200 ms) on a busy machine: wait for the announcement of this socket, which lists it
    const seen: SocketMessage = await a.next(
      (m: SocketMessage) => m.msgType === 'CONNECT' && m.formUser === 'reader' && m.chats.some((c) => c.sid === 'reader'),
    );
    expect(seen.chats.map((c) => c.sid)).toEqual(expect.arrayContaining(['publisher', 'reader']));
    expect(seen.chats.map((c) => c.sid)).not.toContain('admin');
    expect(a.messages.some((m: SocketMessage) => m.formUser === 'admin')).toBe(false);

    const online = await app.inject({ method: 'GET', url: '/api/sysSocketChat/wssList', headers: bearer(other) });
    expect(online.statusCode).toBe(200);
    const sids = online.json<OnlineChat[]>().map((c) => c.sid);
    expect(sids).toEqual(expect.arrayContaining(['publisher', 'reader']));
    expect(sids).not.toContain('admin');

    const sent = await app.inject({
      method: 'POST',
      url: '/api/sysSocketChat',
      headers: bearer(reader),
      payload: { msg: '  你好<script>alert(1)</script><b>大家</b> a < b  ' },
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ formUser: 'reader', formName: 'reader', msg: '你好大家 a < b', msgType: 'CHAT' });
    for (const s of [a, b, admin]) {
      const chat: SocketMessage = await s.next((m: SocketMessage) => m.msgType === 'CHAT' && m.id === sent.json<Created>().id);
      expect(chat.msg).toBe('你好大家 a < b');
      expect(typeof chat.createTime).toBe('string');
    }
    // a layout socket gets no chat
    const layout = await openSocket(`${base}/webSocket/${other}`);
    const again = await app.inject({ method: 'POST', url: '/api/sysSocketChat', headers: bearer(publisher), payload: { msg: '第二条' } });
    await a.next((m: SocketMessage) => m.msgType === 'CHAT' && m.id === again.json<Created>().id);
    await elapse(100); // a quiet spell after the chat socket got it: the layout socket gets nothing meanwhile
    expect(layout.messages.filter((m: SocketMessage) => m.msgType === 'CHAT')).toEqual([]);

    // an earlier test's reader socket may still be announced late (its CLOSE lists this test's
    // reader, still online): only an announcement after this close counts, and it must list
    // reader no more; a product that never announces the departure fails by the wait's timeout
    const before = a.messages.length;
    b.close();
    const close: SocketMessage = await a.next(
      (m: SocketMessage) =>
        (a.messages as unknown[]).indexOf(m) >= before &&
        m.msgType === 'CLOSE' &&
        m.formUser === 'reader' &&
        !m.chats.some((c) => c.sid === 'reader'),
    );
    expect(close.chats.map((c) => c.sid)).toContain('publisher');
    a.close();
    admin.close();
    layout.close();
  });

  it('chat: history page 0 size 20 sort id desc; empty, too long and foreign edits are refused', async () => {
    for (let i = 0; i < 22; i++) {
      // from an address of its own: the send limit of the shared test address stays free
      const r = await app.inject({
        method: 'POST',
        url: '/api/sysSocketChat',
        headers: bearer(other),
        payload: { msg: `历史${i}` },
        remoteAddress: '10.0.0.22',
      });
      expect(r.statusCode).toBe(201);
    }
    const page = await app.inject({ method: 'GET', url: '/api/sysSocketChat?page=0&size=20&sort=id,desc', headers: bearer(reader) });
    expect(page.statusCode).toBe(200);
    const body = page.json<Page<Created>>();
    expect(body.content).toHaveLength(20);
    expect(body.content[0].msg).toBe('历史21');
    expect(body.totalElements).toBeGreaterThanOrEqual(22);
    const ids = body.content.map((m) => m.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);

    const empty = await app.inject({ method: 'POST', url: '/api/sysSocketChat', headers: bearer(other), payload: { msg: '<i></i>  ' } });
    expect(errorOf(empty)).toMatchObject({ status: 400, message: '消息内容不能为空' });
    const long = await app.inject({
      method: 'POST',
      url: '/api/sysSocketChat',
      headers: bearer(other),
      payload: { msg: '长'.repeat(501) },
    });
    expect(errorOf(long)).toMatchObject({ status: 400, message: '消息内容不能超过500个字符' });
    const notString = await app.inject({ method: 'POST', url: '/api/sysSocketChat', headers: bearer(other), payload: { msg: 5 } });
    expect(errorOf(notString).status).toBe(400);
    const badSort = await app.inject({ method: 'GET', url: '/api/sysSocketChat?sort=msg,desc', headers: bearer(other) });
    expect(errorOf(badSort).status).toBe(400);
    const badSize = await app.inject({ method: 'GET', url: '/api/sysSocketChat?size=abc', headers: bearer(other) });
    expect(errorOf(badSize).status).toBe(400);
    const anonymous = await app.inject({ method: 'POST', url: '/api/sysSocketChat', payload: { msg: 'x' } });
    expect(anonymous.statusCode).toBe(401);
    const array = await app.inject({ method: 'POST', url: '/api/sysSocketChat', headers: bearer(other), payload: ['x'] });
    expect(errorOf(array)).toMatchObject({ status: 400, message: '消息内容不能为空' });

    const mine = body.content[0].id;
    const foreign = await app.inject({
      method: 'PUT',
      url: '/api/sysSocketChat',
      headers: bearer(reader),
      payload: { id: mine, msg: '改' },
    });
    expect(errorOf(foreign).status).toBe(403);
    const delForeign = await app.inject({ method: 'DELETE', url: '/api/sysSocketChat', headers: bearer(reader), payload: [mine] });
    expect(errorOf(delForeign).status).toBe(403);
    const edit = await app.inject({
      method: 'PUT',
      url: '/api/sysSocketChat',
      headers: bearer(other),
      payload: { id: mine, msg: '<b>改过</b>' },
    });
    expect(edit.statusCode).toBe(204);
    const del = await app.inject({ method: 'DELETE', url: '/api/sysSocketChat', headers: bearer(other), payload: [mine] });
    expect(del.statusCode).toBe(200);
    const after = await app.inject({ method: 'GET', url: '/api/sysSocketChat?size=1', headers: bearer(reader) });
    expect(after.json<Page<Created>>().content[0].id).not.toBe(mine);
  });

  it('chat: one address sending more than 30 messages in 10 s gets 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/sysSocketChat',
        headers: bearer(other),
        payload: { msg: `快速${i}` },
        remoteAddress: '10.9.8.7',
      });
      statuses.push(r.statusCode);
    }
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(30);
    expect(statuses.at(-1)).toBe(429);
  });

  it('system messages: publish pushes INFO, each user has their own read state, msg is sanitised', async () => {
    const readerSocket = await openSocket(`${base}/webSocket/${reader}`);
    const otherSocket = await openSocket(`${base}/webSocket/${other}`);
    const before = (await app.inject({ method: 'GET', url: '/api/sysSocket/getNotRead', headers: bearer(reader) })).json<Page>()
      .totalElements;

    const missingType = await app.inject({
      method: 'POST',
      url: '/api/sysSocket',
      headers: bearer(publisher),
      payload: { title: '无类型', msg: 'x', enabled: true, sort: 1, type: null },
    });
    expect(errorOf(missingType)).toMatchObject({ status: 400, message: '消息类型1系统消息不能为空' });
    const noRight = await app.inject({ method: 'POST', url: '/api/sysSocket', headers: bearer(reader), payload: { title: 't', type: 1 } });
    expect(errorOf(noRight).status).toBe(403);

    const created = await app.inject({
      method: 'POST',
      url: '/api/sysSocket',
      headers: bearer(publisher),
      payload: {
        title: '系统升级通知',
        msg: '<p onclick="steal()">今晚<b>22点</b>升级<script>alert(1)</script><a href="javascript:alert(1)">链接</a><img src=x onerror=alert(1)></p>',
        enabled: true,
        sort: 1,
        type: 1,
        url: '',
      },
    });
    expect(created.statusCode).toBe(201);
    const message = created.json<Created>();
    expect(message.msg).toContain('<b>22点</b>');
    expect(message.msg).not.toMatch(/script|onclick|onerror|javascript:/);

    for (const s of [readerSocket, otherSocket]) {
      const info: SocketMessage = await s.next((m: SocketMessage) => m.msgType === 'INFO' && m.msg.includes('系统升级通知'));
      expect(info.msg).toBe('您有新的系统消息：系统升级通知');
    }
    const unread = (await app.inject({ method: 'GET', url: '/api/sysSocket/getNotRead', headers: bearer(reader) })).json<Page>();
    expect(unread.totalElements).toBe(before + 1);
    expect(unread.content[0]).toMatchObject({ id: message.id, title: '系统升级通知', status: 0 });

    const read = await app.inject({ method: 'PUT', url: '/api/sysSocket/read', headers: bearer(reader), payload: { id: message.id } });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ unread: before });
    // reading twice changes nothing
    const again = await app.inject({ method: 'PUT', url: '/api/sysSocket/read', headers: bearer(reader), payload: { id: message.id } });
    expect(again.json()).toEqual({ unread: before });

    const list = (await app.inject({ method: 'GET', url: '/api/sysSocket/getSocket?page=0&size=9999', headers: bearer(reader) })).json<
      Page<Created>
    >();
    expect(list.content.find((n) => n.id === message.id)).toMatchObject({ status: 1, title: '系统升级通知' });
    const othersList = (await app.inject({ method: 'GET', url: '/api/sysSocket/getSocket', headers: bearer(other) })).json<Page<Created>>();
    expect(othersList.content.find((n) => n.id === message.id)).toMatchObject({ status: 0 });

    const readers = await app.inject({
      method: 'GET',
      url: `/api/sysSocket/getReadUser?id=${message.id}&sort=readTime,desc&page=0&size=9999`,
      headers: bearer(publisher),
    });
    expect(readers.statusCode).toBe(200);
    expect(readers.json<Page>().content.map((r) => r.username)).toEqual(['reader']);
    expect(
      errorOf(await app.inject({ method: 'GET', url: `/api/sysSocket/getReadUser?id=${message.id}`, headers: bearer(reader) })).status,
    ).toBe(403);
    expect(errorOf(await app.inject({ method: 'GET', url: '/api/sysSocket/getReadUser?id=x', headers: bearer(publisher) })).status).toBe(
      400,
    );
    expect(
      errorOf(await app.inject({ method: 'PUT', url: '/api/sysSocket/read', headers: bearer(reader), payload: { id: 'abc' } })).status,
    ).toBe(400);
    expect(
      errorOf(await app.inject({ method: 'PUT', url: '/api/sysSocket/read', headers: bearer(reader), payload: { id: 99999999 } })).status,
    ).toBe(404);

    // the latest enabled message, as the marquee asks for it
    const latest = await app.inject({
      method: 'GET',
      url: '/api/sysSocket?sort=createTime,desc&sort=id,desc&size=1&page=0&enabled=true',
      headers: bearer(other),
    });
    expect(latest.statusCode).toBe(200);
    expect(latest.json<Page>().content[0]).toMatchObject({ id: message.id, title: '系统升级通知' });

    // disabling hides it from the notices; deleting removes the read state
    const disable = await app.inject({
      method: 'PUT',
      url: '/api/sysSocket',
      headers: bearer(publisher),
      payload: { id: message.id, title: message.title, msg: message.msg, type: 1, sort: 1, url: '', enabled: false },
    });
    expect(disable.statusCode, disable.body).toBe(204);
    await otherSocket.next((m: SocketMessage) => m.msgType === 'INFO' && m.msg === '系统消息已更新');
    const hidden = (await app.inject({ method: 'GET', url: '/api/sysSocket/getSocket', headers: bearer(other) })).json<Page<Created>>();
    expect(hidden.content.some((n) => n.id === message.id)).toBe(false);
    const removed = await app.inject({ method: 'DELETE', url: '/api/sysSocket', headers: bearer(adminToken), payload: [message.id] });
    expect(removed.statusCode).toBe(200);
    await until(
      async () =>
        (await app.database.db.selectFrom('sys_socket_read').selectAll().where('socket_id', '=', message.id).execute()).length === 0,
      'the read state of the deleted message to be removed',
    );
    readerSocket.close();
    otherSocket.close();
  });
});
