/**
 * The hub's pub/sub adapter: how a message published on one server instance reaches the
 * sockets of every instance.
 * - InProcessPubSub: one server (SQLite, or PostgreSQL with a single instance): delivered in
 *   the same process, on the next tick.
 * - PostgresPubSub: LISTEN/NOTIFY on the shared database; every instance listens on one channel
 *   (named after the database schema) on a connection of its own, and also receives what it
 *   published itself, so every instance delivers in the same order. NOTIFY payloads are limited
 *   to 8000 bytes: a larger message is stored in `sys_realtime_payload` and only its id is sent;
 *   the rows are deleted after PAYLOAD_KEEP_MS.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';

export interface PubSub {
  publish(message: string): Promise<void>;
  /** the handler is called with every published message, this instance's own included */
  subscribe(handler: (message: string) => void): void;
  close(): Promise<void>;
}

export class InProcessPubSub implements PubSub {
  private readonly handlers: Array<(message: string) => void> = [];

  async publish(message: string): Promise<void> {
    // delivered after the publisher's current work, as a remote delivery would be
    setImmediate(() => {
      for (const h of this.handlers) h(message);
    });
  }

  subscribe(handler: (message: string) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.handlers.length = 0;
  }
}

/** Largest NOTIFY payload sent inline (PostgreSQL refuses 8000 bytes and more). */
export const INLINE_PAYLOAD_BYTES = 7500;
const PAYLOAD_KEEP_MS = 5 * 60_000;
const REF_PREFIX = '\u0001ref:';

export class PostgresPubSub implements PubSub {
  private readonly handlers: Array<(message: string) => void> = [];
  private client?: pg.Client;
  private closed = false;
  private reconnectTimer?: NodeJS.Timeout;
  private lastCleanup = 0;

  private constructor(
    private readonly url: string,
    private readonly db: Kysely<any>,
    private readonly channel: string,
    private readonly onError: (err: Error) => void,
  ) {}

  /** Connects the listening client; answers once LISTEN is in place. */
  static async open(url: string, db: Kysely<any>, onError: (err: Error) => void): Promise<PostgresPubSub> {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const schema = String(rows[0]?.schema ?? 'public').replace(/[^a-zA-Z0-9_]/g, '_');
    const ps = new PostgresPubSub(url, db, `console_realtime_${schema}`.slice(0, 63), onError);
    await ps.connect();
    return ps;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', (err) => {
      this.onError(err);
      this.scheduleReconnect(client);
    });
    client.on('end', () => this.scheduleReconnect(client));
    client.on('notification', (n) => {
      if (n.channel !== this.channel || n.payload === undefined) return;
      void this.received(n.payload);
    });
    await client.connect();
    await client.query(`listen "${this.channel}"`);
    this.client = client;
  }

  /** The listening connection was lost: drop it and connect again until it works. */
  private scheduleReconnect(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.retry(500);
  }

  private retry(delayMs: number): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed || this.client) return;
      this.connect().catch((err: Error) => {
        this.onError(err);
        this.retry(Math.min(delayMs * 2, 10_000));
      });
    }, delayMs);
  }

  private async received(payload: string): Promise<void> {
    let message = payload;
    if (payload.startsWith(REF_PREFIX)) {
      const id = Number(payload.slice(REF_PREFIX.length));
      try {
        const row = await this.db.selectFrom('sys_realtime_payload').select('body').where('id', '=', id).executeTakeFirst();
        if (!row) return;
        message = String(row.body);
      } catch (err) {
        this.onError(err as Error);
        return;
      }
    }
    for (const h of this.handlers) h(message);
  }

  async publish(message: string): Promise<void> {
    let payload = message;
    if (Buffer.byteLength(message, 'utf8') > INLINE_PAYLOAD_BYTES) {
      const row = await this.db
        .insertInto('sys_realtime_payload')
        .values({ body: message, created: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      payload = `${REF_PREFIX}${Number(row.id)}`;
      await this.cleanup();
    }
    await sql`select pg_notify(${this.channel}, ${payload})`.execute(this.db);
  }

  private async cleanup(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < 60_000) return;
    this.lastCleanup = now;
    await this.db.deleteFrom('sys_realtime_payload').where('created', '<', now - PAYLOAD_KEEP_MS).execute();
  }

  subscribe(handler: (message: string) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    this.handlers.length = 0;
    await client?.end().catch(() => undefined);
  }
}
