/**
 * The hub's pub/sub adapter: how a message published on one server instance reaches the
 * sockets of every instance.
 * - InProcessPubSub: one server (SQLite, or PostgreSQL with a single instance): delivered in
 *   the same process, on the next tick.
 * - PostgresPubSub: an event log plus LISTEN/NOTIFY on the shared database. Publishing stores
 *   the message as a row of `sys_realtime_event` (its id comes from a sequence) and, in the
 *   same statement, sends a NOTIFY carrying the id (and the message when it fits in NOTIFY's
 *   8000-byte payload). Every instance listens on one channel (named after the database schema)
 *   on a connection of its own, and also receives what it published itself.
 *
 *   No push is lost while the listening connection is down (PostgreSQL restarting, failing
 *   over, a network cut): each instance remembers which events it delivered, and catches up
 *   from the table as soon as its listener is back, and every CATCH_UP_MS anyway (the safety
 *   net: a listener that died without a word, or a pool that works while LISTEN does not).
 *   An event delivered late goes only to the sockets that were open when it was published
 *   (a socket opened since re-read its state over HTTP when it connected). Rows older than
 *   EVENT_KEEP_MS are deleted.
 *
 *   Sequence values may commit out of order (two instances inserting at once) or be skipped (a
 *   failed insert): an instance keeps the ids it has seen over the last SETTLE_MS and reads
 *   from the highest id that has been settled that long, so a late-committing id is still read.
 */
import { sql } from 'kysely';
import type { Db } from '../types.ts';
import pg from 'pg';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/** How a message reached this instance: at once (live) or from the event table after a gap (late). */
export interface Delivery {
  late: boolean;
  /** epoch ms when it was published (publisher's clock) */
  created: number;
}

export interface PubSub {
  publish(message: string): Promise<void>;
  /** the handler is called with every published message, this instance's own included */
  subscribe(handler: (message: string, delivery: Delivery) => void): void;
  close(): Promise<void>;
}

export class InProcessPubSub implements PubSub {
  private readonly handlers: Array<(message: string, delivery: Delivery) => void> = [];

  publish(message: string): Promise<void> {
    const delivery = { late: false, created: Date.now() };
    // delivered after the publisher's current work, as a remote delivery would be
    setImmediate(() => {
      for (const h of this.handlers) h(message, delivery);
    });
    return Promise.resolve();
  }

  subscribe(handler: (message: string, delivery: Delivery) => void): void {
    this.handlers.push(handler);
  }

  close(): Promise<void> {
    this.handlers.length = 0;
    return Promise.resolve();
  }
}

/** Largest message sent inline in the NOTIFY (PostgreSQL refuses payloads of 8000 bytes and more). */
export const INLINE_PAYLOAD_BYTES = 7500;
export const EVENT_TABLE = 'sys_realtime_event';
/** Events are kept this long for instances catching up. */
export const EVENT_KEEP_MS = 10 * 60_000;
/** An id seen this long ago is settled: no lower id can still commit. */
const SETTLE_MS = 10_000;
const CATCH_UP_BATCH = 500;
const PRUNE_EVERY_MS = 60_000;
/** Delay between attempts to connect the listener again (kept short: recovery within seconds). */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 1000;

export interface PostgresPubSubOptions {
  /** catch up from the event table this often whatever happens (ms) */
  catchUpMs?: number;
  onError: (err: Error) => void;
}

export interface PubSubStats {
  live: number;
  late: number;
  listenerConnects: number;
  /** catch-up reads completed (the periodic one and those after a reconnect) */
  catchUps: number;
}

export class PostgresPubSub implements PubSub {
  private readonly handlers: Array<(message: string, delivery: Delivery) => void> = [];
  private client?: pg.Client;
  private closed = false;
  private reconnectTimer?: NodeJS.Timeout;
  private readonly ticker: NodeJS.Timeout;
  private lastPrune = 0;
  /** every id at or below is delivered or known never to come */
  private floor = 0;
  /** ids above the floor already delivered, with the local time they were seen */
  private readonly seen = new Map<number, number>();
  /** notifications and catch-ups are handled one at a time, in order */
  private queue: Promise<void> = Promise.resolve();
  private catchingUp = false;
  readonly stats: PubSubStats = { live: 0, late: 0, listenerConnects: 0, catchUps: 0 };
  /** an outage is logged once, not at every retry and catch-up */
  private outageLogged = false;

  private constructor(
    private readonly url: string,
    private readonly db: Db,
    private readonly channel: string,
    private readonly opts: PostgresPubSubOptions,
  ) {
    const every = opts.catchUpMs ?? 2000;
    this.ticker = setInterval(() => this.catchUp(), every);
    this.ticker.unref();
  }

  /** Connects the listening client; answers once LISTEN is in place. */
  static async open(url: string, db: Db, opts: PostgresPubSubOptions): Promise<PostgresPubSub> {
    const { rows } = await sql<{ schema: string; top: number | null }>`
      select current_schema() as schema, (select max(id) from ${sql.table(EVENT_TABLE)}) as top`.execute(db);
    const schema = String(rows[0]?.schema ?? 'public').replace(/[^a-zA-Z0-9_]/g, '_');
    const ps = new PostgresPubSub(url, db, `console_realtime_${schema}`.slice(0, 63), opts);
    // what was published before this instance started is not for its sockets
    ps.floor = Number(rows[0]?.top ?? 0);
    try {
      await ps.connect();
    } catch (err) {
      await ps.close();
      throw err;
    }
    return ps;
  }

  /** Whether the listening connection is up (for tests and the log). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, connectionTimeoutMillis: 5000 });
    client.on('error', (err) => {
      this.report(err);
      this.dropListener(client);
    });
    client.on('end', () => this.dropListener(client));
    client.on('notification', (n) => {
      if (n.channel !== this.channel || n.payload === undefined) return;
      const payload = n.payload;
      this.enqueue(() => this.received(payload));
    });
    try {
      await client.connect();
      await client.query(`listen "${this.channel}"`);
    } catch (err) {
      client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.stats.listenerConnects++;
    this.outageLogged = false;
    // whatever was published while no one listened
    this.catchUp();
  }

  /** The listening connection was lost: drop it and connect again until it works. */
  private dropListener(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.retry(RECONNECT_MIN_MS);
  }

  private retry(delayMs: number): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed || this.client) return;
      this.connect().catch((err: Error) => {
        this.report(err);
        this.retry(Math.min(delayMs * 2, RECONNECT_MAX_MS));
      });
    }, delayMs);
    this.reconnectTimer.unref();
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((err: Error) => {
      if (!this.closed) this.report(err);
    });
  }

  /** A NOTIFY: `id` or `id:message`. */
  private async received(payload: string): Promise<void> {
    const colon = payload.indexOf(':');
    const id = Number(colon < 0 ? payload : payload.slice(0, colon));
    if (!Number.isSafeInteger(id) || id <= this.floor || this.seen.has(id)) return;
    let message: string;
    let created = Date.now();
    if (colon >= 0) message = payload.slice(colon + 1);
    else {
      const row = await this.db.selectFrom(EVENT_TABLE).select(['body', 'created']).where('id', '=', id).executeTakeFirst();
      if (!row) return; // pruned already: the catch-up cannot find it either
      message = String(row.body);
      created = Number(row.created);
    }
    if (this.seen.has(id) || id <= this.floor) return;
    this.seen.set(id, Date.now());
    this.stats.live++;
    this.hand(message, { late: false, created });
  }

  private hand(message: string, delivery: Delivery): void {
    for (const h of this.handlers) {
      try {
        h(message, delivery);
      } catch (err) {
        this.report(err as Error);
      }
    }
  }

  /** Logs an error; while the database is away only the first one. */
  private report(err: Error): void {
    if (isDatabaseUnavailable(err)) {
      if (this.outageLogged) return;
      this.outageLogged = true;
    }
    this.opts.onError(err);
  }

  /** Reads the events this instance has not delivered yet (queued behind the notifications). */
  catchUp(): void {
    if (this.closed || this.catchingUp) return;
    this.catchingUp = true;
    this.enqueue(async () => {
      try {
        await this.catchUpNow();
      } finally {
        this.catchingUp = false;
      }
    });
  }

  private async catchUpNow(): Promise<void> {
    for (;;) {
      const rows = await this.db
        .selectFrom(EVENT_TABLE)
        .select(['id', 'body', 'created'])
        .where('id', '>', this.floor)
        .orderBy('id')
        .limit(CATCH_UP_BATCH)
        .execute();
      let last = this.floor;
      for (const row of rows) {
        const id = Number(row.id);
        last = id;
        if (this.seen.has(id)) continue;
        this.seen.set(id, Date.now());
        this.stats.late++;
        this.hand(String(row.body), { late: true, created: Number(row.created) });
      }
      if (rows.length < CATCH_UP_BATCH) break;
      // a long backlog: everything read is delivered, go on from there
      this.settle(last);
    }
    this.settle();
    this.stats.catchUps++;
    await this.prune();
  }

  /** Moves the floor up to the highest id seen at least SETTLE_MS ago (or to `upTo`). */
  private settle(upTo?: number): void {
    const limit = Date.now() - SETTLE_MS;
    let top = Math.max(this.floor, upTo ?? 0);
    for (const [id, at] of this.seen) if (at <= limit && id > top) top = id;
    for (const id of this.seen.keys()) if (id <= top) this.seen.delete(id);
    this.floor = top;
  }

  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.db
      .deleteFrom(EVENT_TABLE)
      .where('created', '<', now - EVENT_KEEP_MS)
      .execute();
  }

  async publish(message: string): Promise<void> {
    const inline = Buffer.byteLength(message, 'utf8') <= INLINE_PAYLOAD_BYTES;
    // stored and announced in one statement: the NOTIFY leaves at commit, in commit order
    await sql`
      with e as (insert into ${sql.table(EVENT_TABLE)} (body, created) values (${message}, ${Date.now()}) returning id)
      select pg_notify(${this.channel}, case when ${inline} then e.id::text || ':' || ${message} else e.id::text end) from e`.execute(
      this.db,
    );
  }

  subscribe(handler: (message: string, delivery: Delivery) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.ticker);
    const client = this.client;
    this.client = undefined;
    this.handlers.length = 0;
    await client?.end().catch(() => undefined);
  }
}
