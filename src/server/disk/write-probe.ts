/**
 * Can this instance write? Readiness asks, so that a balancer stops sending writes to an
 * instance whose database or upload store is full (a `select 1` answers fine on a full disk).
 * One probe is a few small writes:
 *   - the database: one row of sys_health_probe updated (a write through the same path as
 *     every other, so PostgreSQL's 53100 or SQLite's SQLITE_FULL show here);
 *   - SQLite: a PROBE_FILE_BYTES file written, flushed and removed in DATA_DIR (SQLite may
 *     still rewrite a page in its WAL when the volume has no room to grow the database);
 *   - uploads kept on disk (STORAGE_PROVIDER=disk): the same file in DATA_DIR/uploads.
 * Probes run at most once every PROBE_EVERY_MS; readiness checks in between share the last
 * result, and callers arriving during a probe share that probe.
 *
 * The probe's table is created at start, under the start lock (ensureHealthProbeTable), never by
 * the probe itself: instances started together on one PostgreSQL used to create it from their
 * first readiness checks at the same moment, one CREATE failed on a duplicate catalogue row
 * (23505), and that instance reported 存储不可写 for 5 s. A failure that does not mean "storage
 * refuses writes" (a missing table, a broken connection, a duplicate key) is reported as what
 * it is (`error`, not `NOT_WRITABLE`) and not kept: the next readiness check probes again.
 */
import { open, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../types.ts';
import { ensureTables, type TableDef } from '../auth/tables.ts';
import { isStorageFull } from '../db/storage-full.ts';

export const PROBE_EVERY_MS = 5000;
const PROBE_TIMEOUT_MS = 2000;
/** big enough to need fresh blocks of the volume, small enough to cost nothing */
export const PROBE_FILE_BYTES = 64 * 1024;
const PROBE_FILE = '.write-probe';

export const HEALTH_PROBE_TABLE: TableDef = {
  name: 'sys_health_probe',
  columns: [
    { name: 'id', type: 'int', primaryKey: true },
    { name: 'at', type: 'bigint', notNull: true },
  ],
};

/** UP: takes writes; NOT_WRITABLE: storage refuses them (full, read-only, no permission); ERROR: the probe failed for another reason */
export type WriteState = 'UP' | 'NOT_WRITABLE' | 'ERROR';

/** Creates the probe's table; called at start under the start lock (app.ts). */
export async function ensureHealthProbeTable(database: Database): Promise<void> {
  await ensureTables(database.db, database.dialect, [HEALTH_PROBE_TABLE]);
}

/** Codes that say the storage itself refuses writes (besides those of a full disk). */
const NOT_WRITABLE_CODES = new Set([
  'EROFS',
  'EACCES',
  'EPERM',
  // SQLite: a read-only database file or volume, a file it cannot open for writing
  'SQLITE_READONLY',
  'SQLITE_READONLY_DBMOVED',
  'SQLITE_READONLY_DIRECTORY',
  'SQLITE_READONLY_RECOVERY',
  'SQLITE_READONLY_ROLLBACK',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  // PostgreSQL: read_only_sql_transaction (a standby, default_transaction_read_only), insufficient_privilege
  '25006',
  '42501',
]);

/** Whether a failed probe means that storage refuses writes (as opposed to the probe failing otherwise). */
export function refusesWrites(err: unknown): boolean {
  if (isStorageFull(err)) return true;
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && (NOT_WRITABLE_CODES.has(e.code) || e.code.startsWith('SQLITE_READONLY'))) return true;
  }
  return false;
}

export interface WriteProbeResult {
  /** the database takes a write */
  database: WriteState;
  /** where files go (DATA_DIR for SQLite, DATA_DIR/uploads for uploads on disk) takes a write */
  storage: WriteState;
  /** what failed, for operators: "database: SQLITE_FULL", "uploads: ENOSPC" (no paths, no SQL) */
  reasons: string[];
  /** whether a failure was for lack of space */
  full: boolean;
  /** whether a probe failed for another reason than storage refusing writes (database/storage is then ERROR) */
  error: boolean;
}

const codeOf = (err: unknown): string => {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e && typeof e.code === 'string') return e.code;
  return e && typeof e.message === 'string' && e.message === 'timeout' ? 'timeout' : 'error';
};

async function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Writes, flushes and removes a small file in `dir`. */
async function probeFolder(dir: string): Promise<void> {
  const path = join(dir, PROBE_FILE);
  await mkdir(dir, { recursive: true });
  const file = await open(path, 'w');
  try {
    await file.write(Buffer.alloc(PROBE_FILE_BYTES));
    await file.sync();
  } finally {
    await file.close();
    await rm(path, { force: true });
  }
}

export class WriteProbe {
  private last?: { at: number; result: WriteProbeResult };
  private running?: Promise<WriteProbeResult>;

  constructor(
    private readonly database: () => Database,
    private readonly config: Config,
    private readonly now: () => number = Date.now,
  ) {}

  /** The last result when it is fresh, else a new probe (shared by concurrent callers). */
  check(): Promise<WriteProbeResult> {
    if (this.last && this.now() - this.last.at < PROBE_EVERY_MS) return Promise.resolve(this.last.result);
    this.running ??= this.probe().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async probe(): Promise<WriteProbeResult> {
    const result: WriteProbeResult = { database: 'UP', storage: 'UP', reasons: [], full: false, error: false };
    /** the state a failure leaves: NOT_WRITABLE when storage refuses writes, else ERROR */
    const failed = (what: string, err: unknown): WriteState => {
      result.reasons.push(`${what}: ${codeOf(err)}`);
      if (isStorageFull(err)) result.full = true;
      if (refusesWrites(err)) return 'NOT_WRITABLE';
      result.error = true;
      return 'ERROR';
    };
    try {
      await withTimeout(this.probeDatabase());
    } catch (err) {
      result.database = failed('database', err);
    }
    const folders: Array<[string, string]> = [];
    if (!this.config.databaseUrl) folders.push(['data directory', this.config.dataDir]);
    if (this.config.storage === 'disk') folders.push(['uploads', join(this.config.dataDir, 'uploads')]);
    for (const [what, dir] of folders) {
      try {
        await withTimeout(probeFolder(dir));
      } catch (err) {
        const state = failed(what, err);
        if (result.storage !== 'NOT_WRITABLE') result.storage = state;
      }
    }
    // a probe that failed for another reason than storage is not kept: the next check probes again
    if (!result.error) this.last = { at: this.now(), result };
    return result;
  }

  private async probeDatabase(): Promise<void> {
    const { db } = this.database();
    const at = this.now();
    await sql`insert into sys_health_probe (id, at) values (1, ${at}) on conflict (id) do update set at = excluded.at`.execute(db);
  }
}
