/**
 * Staff sessions. A token is 32 random bytes (base64url) handed to the client once; only its
 * sha256 is stored (sys_session.id). A session lives for SESSION_IDLE_MINUTES after the last
 * request, or REMEMBER_ME_DAYS with remember-me; each use slides the expiry, written at most
 * once a minute. Deleting the row ends the session at once on every instance.
 *
 * A full disk must not lock everybody out (an admin has to sign in to clean up): a session
 * whose row cannot be stored for lack of space (507 errors, see db/storage-full.ts) is kept in
 * this instance's memory (at most PENDING_MAX of them), serves its requests from there and is
 * written to sys_session as soon as space returns (tried every PENDING_RETRY_MS). Until then it
 * is known to this instance only, and a restart ends it. Sliding the expiry and sweeping
 * expired rows are skipped while the disk is full; they catch up afterwards.
 *
 * A looked-up session is answered from memory for SESSION_CACHE_MS (the look-up joined
 * sys_session and sys_user on every request). What ends or changes a session still takes effect
 * at once: any UPDATE or DELETE of sys_session or sys_user, from whatever code, is seen by the
 * database's write watch (db/write-watch.ts) and empties the memory, which then stays unused for
 * CHANGE_QUIET_MS (a transaction that deleted a session commits within it: a look-up meanwhile
 * reads the database and keeps nothing); `changedElsewhere()` does the same for a change another
 * instance announced over the instances' shared channel (realtime). The memory is used only while
 * `useMemory()` says so: the realtime module allows it when the channel is up (in process, or
 * PostgreSQL's LISTEN connection connected); until then every look-up reads the database.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import type { Db } from '../types.ts';
import { nowText } from '../db/index.ts';
import { isStorageFull } from '../db/storage-full.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { flag } from './tables.ts';
import type { WatchedWrite } from '../db/write-watch.ts';

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const TOUCH_EVERY_MS = 60_000;
/** most sessions kept in memory while the disk is full; beyond them a sign-in answers 507 */
export const PENDING_MAX = 1000;
export const PENDING_RETRY_MS = 5000;
/** How long a looked-up session is answered from memory. */
export const SESSION_CACHE_MS = 5_000;
/** After a change to sessions or users, how long nothing is kept in memory. */
export const CHANGE_QUIET_MS = 2_000;
const MAX_CACHED = 10_000;
/**
 * Writes that change nothing a look-up answers: the store's own sliding of the expiry, and the
 * sign-in bookkeeping of failed passwords (the look-up never read the lock).
 */
const IGNORED_COLUMNS: Record<string, Set<string>> = {
  sys_session: new Set(['last_seen', 'expires']),
  sys_user: new Set(['login_fail_count', 'login_fail_since', 'locked_until']),
};

export interface SessionOptions {
  idleMinutes: number;
  rememberMeDays: number;
  now?: () => number;
}

export interface SessionRecord {
  sessionId: string;
  userId: number;
  username: string;
  nickName: string;
  deptId: number | null;
  orgId: number | null;
}

/** What ended: sessions by id (logout, expiry), or every session of a user. */
export interface SessionEnd {
  sessionIds?: string[];
  userId?: number;
}

export const newToken = (): string => randomBytes(32).toString('base64url');
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

const optionalId = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A session joined with its user, as the lookup query reads it. */
interface SessionRow {
  expires: number;
  enabled: number | boolean;
  remember: number | boolean;
  user_id: number;
  username: string;
  nick_name: string | null;
  dept_id: number | null;
  org_id: number | null;
}

/** A sys_session row that is waiting for space. */
interface PendingSession {
  id: string;
  user_id: number;
  kind: 'staff';
  remember: number | boolean;
  created: string;
  last_seen: string;
  expires: number;
  ip: string | null;
  browser: string | null;
}

/** Runs a write that may be skipped while the disk is full; other errors still fail. */
async function unlessFull(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (!isStorageFull(err)) throw err;
  }
}

/** Whether a write cannot change what a look-up answers (so the memory stays). */
function changesNoLookup(write: WatchedWrite): boolean {
  if (write.kind === 'update') {
    const ignored = IGNORED_COLUMNS[write.table];
    return Boolean(ignored && write.columns.length && write.columns.every((c) => ignored.has(c)));
  }
  // the sweeps of expired sessions (`expires <= now`, maybe by kind): memory never answers an expired session
  return (
    write.table === 'sys_session' &&
    Boolean(write.conditions?.some(([c, op]) => c === 'expires' && (op === '<' || op === '<='))) &&
    Boolean(write.conditions?.every(([c, op]) => (c === 'expires' && (op === '<' || op === '<=')) || (c === 'kind' && op === '=')))
  );
}

interface CachedSession {
  record: SessionRecord;
  expires: number;
  lifetime: number;
  /** answered from memory until then */
  until: number;
}

export class SessionStore {
  private readonly now: () => number;
  /** sessions not yet stored for lack of space, by id */
  private readonly pending = new Map<string, PendingSession>();
  private retryTimer?: NodeJS.Timeout;
  private lastSweep = 0;
  private readonly memory = new Map<string, CachedSession>();
  /** token -> its hash, for the tokens seen lately (a SHA-256 per request is a few µs) */
  private readonly hashes = new Map<string, string>();
  /** bumped by every change: a look-up that began before one keeps nothing */
  private generation = 0;
  private quietUntil = 0;
  private memoryAllowed: () => boolean = () => false;
  /** told of every change to sessions or users seen on this instance (announced to the others) */
  private readonly changeListeners: Array<() => Promise<unknown> | void> = [];
  /** the latest announcement of a change to the other instances */
  private announcing: Promise<unknown> = Promise.resolve();
  /** the session look-up, compiled once: each request only binds the token hash */
  private lookupQuery?: { compiled: CompiledQuery; idAt: number };
  /** told whenever this store ends sessions (open websockets of those sessions close) */
  private readonly endListeners: Array<(end: SessionEnd) => void> = [];

  constructor(
    private readonly db: Db,
    private readonly opts: SessionOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  lifetimeMs(remember: boolean): number {
    return remember ? this.opts.rememberMeDays * 86_400_000 : this.opts.idleMinutes * 60_000;
  }

  /** Opens a session and returns its token (the only time the token exists on the server). */
  async create(userId: number, info: { remember: boolean; ip?: string; browser?: string }): Promise<string> {
    const now = this.now();
    await unlessFull(this.sweep(now));
    const token = newToken();
    const row: PendingSession = {
      id: tokenHash(token),
      user_id: userId,
      kind: 'staff',
      remember: flag(info.remember),
      created: nowText(new Date(now)),
      last_seen: nowText(new Date(now)),
      expires: now + this.lifetimeMs(info.remember),
      ip: info.ip?.slice(0, 64) ?? null,
      browser: info.browser?.slice(0, 255) ?? null,
    };
    try {
      await this.db.insertInto('sys_session').values(row).execute();
    } catch (err) {
      if (!isStorageFull(err) || this.pending.size >= PENDING_MAX) throw err;
      this.pending.set(row.id, row);
      this.scheduleRetry();
    }
    return token;
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.pending.size === 0) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.storePending();
    }, PENDING_RETRY_MS);
    this.retryTimer.unref();
  }

  /** Writes the sessions kept in memory; stops at the first that still finds no space. */
  async storePending(): Promise<void> {
    for (const row of [...this.pending.values()]) {
      if (!this.pending.has(row.id)) continue; // ended meanwhile
      try {
        await this.db
          .insertInto('sys_session')
          .values(row)
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        this.pending.delete(row.id);
      } catch (err) {
        // still full, or the database away for a moment: try again later; anything else (the
        // database closed with the app) ends the retries until the next session is kept
        if (isStorageFull(err) || isDatabaseUnavailable(err)) this.scheduleRetry();
        return;
      }
    }
  }

  /** A session kept in memory, with its user read from the database. */
  private async lookupPending(id: string): Promise<SessionRecord | null> {
    const row = this.pending.get(id);
    if (!row) return null;
    const now = this.now();
    if (row.expires <= now) {
      this.pending.delete(id);
      this.ended({ sessionIds: [id] });
      return null;
    }
    const user = await this.db
      .selectFrom('sys_user')
      .select(['username', 'nick_name', 'dept_id', 'org_id', 'enabled'])
      .where('id', '=', row.user_id)
      .executeTakeFirst();
    if (!user || !user.enabled) return null;
    row.expires = now + this.lifetimeMs(Boolean(row.remember));
    row.last_seen = nowText(new Date(now));
    return {
      sessionId: id,
      userId: row.user_id,
      username: String(user.username),
      nickName: (user.nick_name as string | null) ?? '',
      deptId: optionalId(user.dept_id),
      orgId: optionalId(user.org_id),
    };
  }

  /** The live session of a token with its (enabled) user, or null; slides the expiry. */
  async lookup(token: string): Promise<SessionRecord | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    let id = this.hashes.get(token);
    if (id === undefined) {
      id = tokenHash(token);
      if (this.hashes.size >= MAX_CACHED) this.hashes.clear();
      this.hashes.set(token, id);
    }
    const hit = this.memory.get(id);
    if (hit) {
      const now = this.now();
      // past its time in memory, expired, or due for sliding: read the database
      if (now < hit.until && hit.expires > now && now - (hit.expires - hit.lifetime) < TOUCH_EVERY_MS && this.memoryAllowed()) {
        return hit.record;
      }
      this.memory.delete(id);
    }
    const generation = this.generation;
    const { compiled, idAt } = this.lookupQuery ?? this.compileLookup();
    const parameters = compiled.parameters.slice();
    parameters[idAt] = id;
    const { rows } = await this.db.executeQuery<SessionRow>({ ...compiled, parameters });
    const row = rows[0];
    if (!row) return this.pending.size ? this.lookupPending(id) : null;
    const now = this.now();
    const expires = Number(row.expires);
    if (expires <= now) {
      await unlessFull(this.db.deleteFrom('sys_session').where('id', '=', id).execute());
      this.ended({ sessionIds: [id] });
      return null;
    }
    if (!row.enabled) return null;
    const lifetime = this.lifetimeMs(Boolean(row.remember));
    let liveUntil = expires;
    if (now - (expires - lifetime) >= TOUCH_EVERY_MS) {
      liveUntil = now + lifetime;
      // on a full disk the expiry slides later (the row keeps the last one it could store)
      await unlessFull(
        this.db
          .updateTable('sys_session')
          .set({ last_seen: nowText(new Date(now)), expires: liveUntil })
          .where('id', '=', id)
          .execute(),
      );
    }
    const record: SessionRecord = {
      sessionId: id,
      userId: Number(row.user_id),
      username: String(row.username),
      nickName: row.nick_name ?? '',
      deptId: optionalId(row.dept_id),
      orgId: optionalId(row.org_id),
    };
    this.remember(id, record, liveUntil, lifetime, generation);
    return record;
  }

  private remember(id: string, record: SessionRecord, expires: number, lifetime: number, generation: number): void {
    const now = this.now();
    if (generation !== this.generation || now < this.quietUntil || !this.memoryAllowed()) return;
    if (this.memory.size >= MAX_CACHED) this.memory.clear();
    this.memory.set(id, { record, expires, lifetime, until: now + SESSION_CACHE_MS });
  }

  /** Decides whether look-ups may be answered from memory (the realtime module sets it). */
  useMemory(allowed: () => boolean): void {
    this.memoryAllowed = allowed;
  }

  /** Forgets every session held in memory, and keeps nothing for CHANGE_QUIET_MS. */
  private forgetAll(): void {
    this.generation++;
    this.quietUntil = this.now() + CHANGE_QUIET_MS;
    this.memory.clear();
  }

  /** A change to sessions or users was seen on this instance (the write watch calls it): forget, and tell the others. */
  changed(write?: WatchedWrite): void {
    if (write && changesNoLookup(write)) return;
    this.forgetAll();
    const told: Array<Promise<unknown>> = [];
    for (const listener of this.changeListeners) {
      try {
        told.push(Promise.resolve(listener()));
      } catch {
        // telling the other instances must not fail the change
      }
    }
    this.announcing = Promise.allSettled(told);
  }

  /** Another instance changed sessions or users: forget here too. */
  changedElsewhere(): void {
    this.forgetAll();
  }

  /** Registers a listener told of every change to sessions or users on this instance (its promise is awaited by logout). */
  onChanged(listener: () => Promise<unknown> | void): void {
    this.changeListeners.push(listener);
  }

  private compileLookup(): { compiled: CompiledQuery; idAt: number } {
    const mark = '\u0000session id';
    const compiled = this.db
      .selectFrom('sys_session as s')
      .innerJoin('sys_user as u', 'u.id', 's.user_id')
      .select(['s.user_id', 's.remember', 's.expires', 'u.username', 'u.nick_name', 'u.dept_id', 'u.org_id', 'u.enabled'])
      .where('s.id', '=', mark)
      .where('s.kind', '=', 'staff')
      .limit(1)
      .compile();
    this.lookupQuery = { compiled, idAt: compiled.parameters.indexOf(mark) };
    return this.lookupQuery;
  }

  async destroy(sessionId: string): Promise<void> {
    this.pending.delete(sessionId);
    await this.db.deleteFrom('sys_session').where('id', '=', sessionId).where('kind', '=', 'staff').execute();
    this.ended({ sessionIds: [sessionId] });
    // the other instances have been told before the logout answers
    await this.announcing;
  }

  /** Ends every session of a user (disabled user, password changed...). */
  async destroyUser(userId: number): Promise<void> {
    for (const row of this.pending.values()) if (row.user_id === userId) this.pending.delete(row.id);
    await this.db.deleteFrom('sys_session').where('user_id', '=', userId).where('kind', '=', 'staff').execute();
    this.ended({ userId });
    await this.announcing;
  }

  /** Registers a listener told of every session this store ends. */
  onEnded(listener: (end: SessionEnd) => void): void {
    this.endListeners.push(listener);
  }

  private ended(end: SessionEnd): void {
    this.forgetAll();
    for (const listener of this.endListeners) {
      try {
        listener(end);
      } catch {
        // a listener's failure must not undo the end of a session
      }
    }
  }

  /** Deletes expired sessions, at most once a minute. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.db.deleteFrom('sys_session').where('expires', '<=', now).execute();
  }
}
