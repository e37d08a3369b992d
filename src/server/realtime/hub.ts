/**
 * The websocket hub of one server instance. It knows the sockets open on this instance; every
 * message goes through the pub/sub adapter, so a message published on any instance reaches the
 * matching sockets of every instance.
 *
 * Two kinds of socket, as the console opens them:
 * - `layout` (/webSocket/{token}): INFO (system messages) and EXCEL (import/export progress);
 * - `chat` (/webSocket/{token}/{nickName}): CHAT, CONNECT and CLOSE of the staff chat.
 * Both count a user as online. Presence is kept in `sys_socket_presence` so that the online
 * list spans instances; each instance refreshes its rows at every heartbeat and rows of an
 * instance that stopped without closing are dropped after three missed heartbeats.
 *
 * A push made while the database cannot be reached (the pub/sub stores every message there) is
 * kept in an outbox, in order, and published as soon as the database answers again (retried
 * every OUTBOX_RETRY_MS; at most OUTBOX_MAX messages, each at most OUTBOX_MAX_AGE_MS old), so
 * the progress of a background export or a notice saved just before an outage is not lost.
 *
 * Heartbeat: a ping to every socket each interval; a socket that did not answer the previous
 * ping is terminated (proxies keep a connection with traffic open). The same tick checks that
 * the sessions of the open sockets still exist (expiry, or an end this instance was not told of)
 * and closes the sockets of ended sessions.
 */
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Database } from '../types.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { Delivery, PubSub } from './pubsub.ts';

export type SocketKind = 'layout' | 'chat';

export interface Connection {
  id: string;
  kind: SocketKind;
  socket: WebSocket;
  userId: number;
  username: string;
  nickName: string;
  sessionId: string;
  alive: boolean;
  /** epoch ms when the socket opened: a message delivered late reaches only sockets open before it was published */
  openedAt: number;
}

/** Who receives a push: every signed-in staff member, or some users; on one kind of socket. */
export interface Audience {
  kind: SocketKind;
  users?: number[];
}

type Envelope =
  | { k: 'push'; kind: SocketKind; users?: number[]; data: unknown }
  | { k: 'end'; sessions?: string[]; users?: number[] }
  | { k: 'sessions' };

export interface OnlineStaff {
  sid: string;
  name: string;
}

/** Close code sent when the session behind a socket has ended (logout, lock, expiry). */
export const SESSION_ENDED_CODE = 4001;
/** Online staff never listed in the chat (technical accounts). */
export const HIDDEN_STAFF = ['admin', 'deploy'];
/** A client that does not read its socket is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const OUTBOX_MAX = 2000;
const OUTBOX_MAX_AGE_MS = 5 * 60_000;
const OUTBOX_RETRY_MS = 500;
/** Presence announcements (CONNECT/CLOSE) are gathered over this many ms. */
const PRESENCE_GATHER_MS = 200;

export interface HubOptions {
  heartbeatMs: number;
  log: { warn(obj: unknown, msg?: string): void };
  now?: () => number;
}

export class Hub {
  readonly instance = randomUUID();
  private readonly connections = new Map<string, Connection>();
  private readonly sessionListeners: Array<() => void> = [];
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;
  private presenceTimer?: NodeJS.Timeout;
  private pendingPresence: Array<{ type: 'CONNECT' | 'CLOSE'; sid: string; name: string }> = [];
  private closed = false;
  /** messages waiting for the database, oldest first */
  private readonly outbox: Array<{ text: string; at: number }> = [];
  private outboxTimer?: NodeJS.Timeout;
  private flushing = false;

  constructor(
    private readonly database: Database,
    readonly pubsub: PubSub,
    private readonly opts: HubOptions,
  ) {
    this.now = opts.now ?? Date.now;
    pubsub.subscribe((message, delivery) => this.deliver(message, delivery));
    this.timer = setInterval(() => {
      this.heartbeat().catch((err: unknown) => opts.log.warn({ err }, 'websocket heartbeat failed'));
    }, opts.heartbeatMs);
    this.timer.unref();
  }

  /** Sockets open on this instance (all kinds). */
  /** messages sent to sockets of this instance since it started (the metrics read it) */
  sentMessages = 0;

  get size(): number {
    return this.connections.size;
  }

  /** Registers an open socket and announces the user in the chat. */
  async add(conn: Omit<Connection, 'id' | 'alive' | 'openedAt'>): Promise<Connection> {
    const c: Connection = { ...conn, id: randomUUID(), alive: true, openedAt: this.now() };
    this.connections.set(c.id, c);
    c.socket.on('pong', () => {
      c.alive = true;
    });
    await this.database.db
      .insertInto('sys_socket_presence')
      .values({
        id: c.id,
        instance: this.instance,
        user_id: c.userId,
        username: c.username,
        nick_name: c.nickName,
        session_id: c.sessionId,
        seen: this.now(),
      })
      // a heartbeat may have written it already (restorePresence)
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    this.announce('CONNECT', c);
    return c;
  }

  /** Forgets a closed socket and announces the change in the chat. */
  async remove(c: Connection): Promise<void> {
    if (!this.connections.delete(c.id)) return;
    if (this.closed) return;
    await this.database.db.deleteFrom('sys_socket_presence').where('id', '=', c.id).execute();
    this.announce('CLOSE', c);
  }

  /** Sends data to the audience's sockets on every instance. */
  async push(audience: Audience, data: unknown): Promise<void> {
    await this.publish({ k: 'push', kind: audience.kind, users: audience.users, data });
  }

  /** Closes the sockets of ended sessions (or of every session of some users) on every instance. */
  async endSessions(end: { sessions?: string[]; users?: number[] }): Promise<void> {
    await this.publish({ k: 'end', ...end });
  }

  /** Tells every instance that sessions or users changed (their session caches forget). */
  async announceSessionsChanged(): Promise<void> {
    await this.publish({ k: 'sessions' });
  }

  /** Registers a listener told when any instance ended sessions or changed sessions or users. */
  onSessionsChanged(listener: () => void): void {
    this.sessionListeners.push(listener);
  }

  /** Online staff across instances, one entry per user, technical accounts left out. */
  async onlineStaff(): Promise<OnlineStaff[]> {
    const since = this.now() - 3 * this.opts.heartbeatMs;
    const rows = await this.database.db
      .selectFrom('sys_socket_presence')
      .select(['username', 'nick_name'])
      .where('seen', '>', since)
      .where('username', 'not in', HIDDEN_STAFF)
      .orderBy('username')
      .$castTo<{ username: string; nick_name: string | null }>()
      .execute();
    const seen = new Map<string, OnlineStaff>();
    for (const r of rows) if (!seen.has(r.username)) seen.set(r.username, { sid: r.username, name: r.nick_name || r.username });
    return [...seen.values()];
  }

  /** Messages waiting for the database (for tests and the log). */
  get waiting(): number {
    return this.outbox.length;
  }

  private async publish(envelope: Envelope): Promise<void> {
    const text = JSON.stringify(envelope);
    // behind messages already waiting, so that the order holds
    if (this.outbox.length) return this.keep(text);
    try {
      await this.pubsub.publish(text);
    } catch (err) {
      if (this.closed || !isDatabaseUnavailable(err)) throw err;
      this.keep(text);
    }
  }

  private keep(text: string): void {
    if (this.outbox.length >= OUTBOX_MAX) {
      this.outbox.shift();
      this.opts.log.warn({}, 'realtime outbox full: the oldest waiting message is dropped');
    }
    this.outbox.push({ text, at: this.now() });
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.outboxTimer || this.closed) return;
    this.outboxTimer = setTimeout(() => {
      this.outboxTimer = undefined;
      void this.flush();
    }, OUTBOX_RETRY_MS);
    this.outboxTimer.unref();
  }

  /** Publishes the waiting messages in order; stops at the first failure and tries again later. */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.outbox.length) {
        const item = this.outbox[0];
        if (this.now() - item.at > OUTBOX_MAX_AGE_MS) {
          this.outbox.shift();
          this.opts.log.warn({}, 'realtime message dropped after waiting too long for the database');
          continue;
        }
        try {
          await this.pubsub.publish(item.text);
        } catch (err) {
          if (!isDatabaseUnavailable(err)) {
            this.outbox.shift();
            this.opts.log.warn({ err }, 'realtime message not published');
            continue;
          }
          this.scheduleFlush();
          return;
        }
        this.outbox.shift();
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * A message from the pub/sub: hand it to the matching local sockets. One that arrives late
   * (caught up after the listener was down) goes only to sockets that were open when it was
   * published; a socket opened since read the current state when it connected.
   */
  private deliver(message: string, delivery: Delivery = { late: false, created: 0 }): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      return;
    }
    if (envelope.k === 'push') {
      const text = JSON.stringify(envelope.data);
      const users = envelope.users ? new Set(envelope.users) : undefined;
      for (const c of this.connections.values()) {
        if (c.kind !== envelope.kind || (users && !users.has(c.userId))) continue;
        if (delivery.late && c.openedAt > delivery.created) continue;
        this.sendText(c, text);
      }
    } else if (envelope.k === 'sessions') {
      this.tellSessionListeners();
    } else if (envelope.k === 'end') {
      this.tellSessionListeners();
      const sessions = new Set(envelope.sessions ?? []);
      const users = new Set(envelope.users ?? []);
      for (const c of this.connections.values()) {
        if (sessions.has(c.sessionId) || users.has(c.userId)) c.socket.close(SESSION_ENDED_CODE, 'session ended');
      }
    }
  }

  private tellSessionListeners(): void {
    for (const listener of this.sessionListeners) {
      try {
        listener();
      } catch (err) {
        this.opts.log.warn({ err }, 'session change not applied');
      }
    }
  }

  private sendText(c: Connection, text: string): void {
    if (c.socket.readyState !== c.socket.OPEN) return;
    if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      c.socket.terminate();
      return;
    }
    this.sentMessages++;
    c.socket.send(text);
  }

  /** CONNECT / CLOSE with the online list, gathered so a burst of joins sends few messages. */
  private announce(type: 'CONNECT' | 'CLOSE', c: Connection): void {
    if (c.kind !== 'chat' || HIDDEN_STAFF.includes(c.username)) return;
    this.pendingPresence.push({ type, sid: c.username, name: c.nickName || c.username });
    if (this.presenceTimer) return;
    this.presenceTimer = setTimeout(() => {
      this.presenceTimer = undefined;
      const changes = this.pendingPresence;
      this.pendingPresence = [];
      if (this.closed) return;
      this.onlineStaff()
        .then(async (chats) => {
          for (const change of changes) {
            await this.push(
              { kind: 'chat' },
              { msgType: change.type, formUser: change.sid, formName: change.name, chats, createTime: new Date(this.now()).toISOString() },
            );
          }
        })
        .catch((err: unknown) => this.opts.log.warn({ err }, 'presence announcement failed'));
    }, PRESENCE_GATHER_MS);
  }

  /** One heartbeat: ping, drop silent sockets, refresh presence, close sockets of ended sessions. */
  async heartbeat(): Promise<void> {
    const now = this.now();
    for (const c of this.connections.values()) {
      if (!c.alive) {
        c.socket.terminate();
        continue;
      }
      c.alive = false;
      try {
        c.socket.ping();
      } catch {
        c.socket.terminate();
      }
    }
    const { db } = this.database;
    const refreshed = await db
      .updateTable('sys_socket_presence')
      .set({ seen: now })
      .where('instance', '=', this.instance)
      .executeTakeFirst();
    if (Number(refreshed.numUpdatedRows) < this.connections.size) await this.restorePresence(now);
    await db
      .deleteFrom('sys_socket_presence')
      .where('seen', '<', now - 3 * this.opts.heartbeatMs)
      .execute();
    const sessionIds = [...new Set([...this.connections.values()].map((c) => c.sessionId))];
    for (let i = 0; i < sessionIds.length; i += 500) {
      const batch = sessionIds.slice(i, i + 500);
      const live = await db.selectFrom('sys_session').select('id').where('id', 'in', batch).where('expires', '>', now).execute();
      const liveIds = new Set(live.map((r) => String(r.id)));
      const ended = new Set(batch.filter((id) => !liveIds.has(id)));
      if (!ended.size) continue;
      for (const c of this.connections.values()) if (ended.has(c.sessionId)) c.socket.close(SESSION_ENDED_CODE, 'session ended');
    }
  }

  /**
   * Rows of this instance's open sockets that are missing (another instance dropped them as
   * stale while the database was away for more than three heartbeats) are written again.
   */
  private async restorePresence(now: number): Promise<void> {
    const { db } = this.database;
    const rows = await db.selectFrom('sys_socket_presence').select('id').where('instance', '=', this.instance).execute();
    const present = new Set(rows.map((r) => String(r.id)));
    const missing = [...this.connections.values()].filter((c) => !present.has(c.id));
    if (!missing.length) return;
    await db
      .insertInto('sys_socket_presence')
      .values(
        missing.map((c) => ({
          id: c.id,
          instance: this.instance,
          user_id: c.userId,
          username: c.username,
          nick_name: c.nickName,
          session_id: c.sessionId,
          seen: now,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.presenceTimer);
    clearTimeout(this.outboxTimer);
    // one last try for messages still waiting (the database may be back)
    if (this.outbox.length) await Promise.race([this.flush(), new Promise((r) => setTimeout(r, 5000).unref())]);
    for (const c of this.connections.values()) c.socket.close(1001, 'server stopping');
    this.connections.clear();
    await this.database.db
      .deleteFrom('sys_socket_presence')
      .where('instance', '=', this.instance)
      .execute()
      .catch(() => undefined);
    await this.pubsub.close();
  }
}
