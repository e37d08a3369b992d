/**
 * Shared pieces of the benchmarks: command-line options, a throwaway data directory or
 * PostgreSQL database per run, building and starting the app on loopback, signing in,
 * and printing figures next to their targets.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { buildApp } from '../../src/server/app.ts';
import type { Dialect } from '../../src/server/types.ts';
import { fmt } from './print.ts';

export interface BenchOptions {
  rows: number;
  duration: number;
  connections: number;
  dialects: Dialect[];
  [key: string]: unknown;
}

export const usage = (script: string, extra = '') =>
  `usage: npm run bench:${script} -- [--rows N] [--duration SECONDS] [--connections N] [--only sqlite|postgres]${extra}\n` +
  'PostgreSQL runs too when DATABASE_URL or TEST_DATABASE_URL points at a server on this machine.';

/** Parses `--name value` pairs; numbers are checked against sane bounds so a run stays bounded. */
export function parseArgs(argv: string[], defaults: { rows: number; duration?: number; connections?: number }): BenchOptions {
  const out: BenchOptions = {
    rows: defaults.rows,
    duration: defaults.duration ?? 10,
    connections: defaults.connections ?? 32,
    dialects: pgServerUrl() ? ['sqlite', 'postgres'] : ['sqlite'],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const num = (min: number, max: number) => {
      const n = Number(next());
      if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${arg} must be an integer between ${min} and ${max}`);
      return n;
    };
    switch (arg) {
      case '--rows':
        out.rows = num(1, 5_000_000);
        break;
      case '--duration':
        out.duration = num(1, 120);
        break;
      case '--connections':
        out.connections = num(1, 256);
        break;
      case '--only': {
        const d = next();
        if (d !== 'sqlite' && d !== 'postgres') throw new Error('--only takes sqlite or postgres');
        if (d === 'postgres' && !pgServerUrl()) throw new Error('--only postgres needs DATABASE_URL or TEST_DATABASE_URL');
        out.dialects = [d];
        break;
      }
      default:
        if (arg.startsWith('--')) {
          const key = arg.slice(2);
          const v = argv[i + 1];
          if (v !== undefined && !v.startsWith('--')) out[key] = argv[++i];
          else out[key] = true;
          break;
        }
        throw new Error(`unknown argument ${arg}`);
    }
  }
  return out;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '']);

/** The PostgreSQL server to benchmark on, if any; only a server on this machine is used. */
export function pgServerUrl(): string | undefined {
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) return undefined;
  const host = new URL(url).hostname;
  if (!LOOPBACK.has(host)) {
    console.log(`PostgreSQL skipped: ${host} is not this machine (benchmarks only use loopback).`);
    return undefined;
  }
  return url;
}

/** A fresh database `bench_<random>` on the server; drop() removes it (and its connections). */
export async function createPgDatabase(serverUrl: string): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface BenchTarget {
  dialect: Dialect;
  dataDir: string;
  databaseUrl: string;
  /** removes the data directory and the PostgreSQL database */
  cleanup(): Promise<void>;
}

const pendingCleanups = new Set<() => Promise<void>>();
let signalsHooked = false;

/** Ctrl-C or a kill still removes the temp directories and drops the benchmark databases. */
function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      console.log(`\n${sig}: cleaning up`);
      void Promise.allSettled([...pendingCleanups].map((c) => c())).then(() => process.exit(130));
    });
  }
}

/** A temp data directory, plus a fresh PostgreSQL database for the postgres dialect. */
export async function createTarget(dialect: Dialect): Promise<BenchTarget> {
  hookSignals();
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${dialect}-`));
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl = '';
  if (dialect === 'postgres') {
    const created = await createPgDatabase(pgServerUrl()!);
    databaseUrl = created.url;
    drop = created.drop;
  }
  const cleanup = async () => {
    pendingCleanups.delete(cleanup);
    rmSync(dataDir, { recursive: true, force: true });
    if (drop) await drop().catch((e) => console.log(`could not drop the benchmark database: ${(e as Error).message}`));
  };
  pendingCleanups.add(cleanup);
  return { dialect, dataDir, databaseUrl, cleanup };
}

/** Where a kept target lives: its data directory and its PostgreSQL database's name. */
export function keptPlace(dialect: Dialect, dir: string, label: string): { dataDir: string; name: string } {
  const safe = (s: string) => s.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  return { dataDir: join(dir, `${dialect}-${safe(label)}`), name: `bench_keep_${safe(basename(dir))}_${safe(label)}` };
}

/**
 * A target kept between runs (`--keep DIR`): the data directory `DIR/<dialect>-<label>` and the
 * PostgreSQL database `bench_keep_<dir name>_<label>`, created when missing and never removed, so
 * a 1,000,000-row seed (minutes) is paid once. Delete the directory and drop the database by hand.
 */
export async function keptTarget(dialect: Dialect, dir: string, label: string): Promise<BenchTarget> {
  const { dataDir, name } = keptPlace(dialect, dir, label);
  mkdirSync(dataDir, { recursive: true });
  let databaseUrl = '';
  if (dialect === 'postgres') {
    const server = pgServerUrl()!;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (!found.rowCount) await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    const u = new URL(server);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
  }
  console.log(`kept data (not removed at the end): ${dialect === 'postgres' ? databaseUrl : dataDir}`);
  return { dialect, dataDir, databaseUrl, cleanup: async () => {} };
}

export const BENCH_ADMIN_PASSWORD = 'Bench@2024pass';

/** Read and export limits of the benchmarks' servers: high, a benchmark reads far beyond what a person does. */
export const BENCH_READ_LIMIT = 1_000_000_000;

export function benchConfig(target: Pick<BenchTarget, 'dataDir' | 'databaseUrl'>): Config {
  return loadConfig(
    {},
    {
      dataDir: target.dataDir,
      databaseUrl: target.databaseUrl,
      captchaEnabled: false,
      seedDemo: false,
      serveWeb: false,
      adminInitialPassword: BENCH_ADMIN_PASSWORD,
      host: '127.0.0.1',
      port: 0,
      logLevel: 'warn',
      // API_DOCS_ENABLED=false measures the server without the OpenAPI document's route collection
      apiDocsEnabled: process.env.API_DOCS_ENABLED !== 'false',
      // the benchmarks measure the streamed export, not the background one
      exportAsyncThreshold: 100_000_000,
      // the per-user read limits still run (their cost is measured) but never answer 429
      readLimitPerMinute: BENCH_READ_LIMIT,
      exportLimitPerMinute: BENCH_READ_LIMIT,
    },
  );
}

/** The same settings as environment variables, for a server started as its own process. */
export function benchEnv(target: Pick<BenchTarget, 'dataDir' | 'databaseUrl'>): Record<string, string> {
  return {
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.databaseUrl,
    CAPTCHA_ENABLED: 'false',
    SEED_DEMO: 'false',
    SERVE_WEB: 'false',
    ADMIN_INITIAL_PASSWORD: BENCH_ADMIN_PASSWORD,
    EXPORT_ASYNC_THRESHOLD: '100000000',
  };
}

/** Builds the app (tables are created on ready) without listening. */
export async function buildBenchApp(target: Pick<BenchTarget, 'dataDir' | 'databaseUrl'>): Promise<FastifyInstance> {
  const app = await buildApp(benchConfig(target));
  await app.ready();
  return app;
}

/** Listens on 127.0.0.1 on a free port and answers the base URL. */
export async function listenLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('the server did not report its port');
  return `http://127.0.0.1:${addr.port}`;
}

/** Signs in as admin through the real login route and answers the bearer token. */
export async function signInAdmin(app: FastifyInstance): Promise<string> {
  const { loginAs } = await import('../../tests/server/auth-helpers.ts');
  return loginAs(app, 'admin', BENCH_ADMIN_PASSWORD);
}

// ---------------------------------------------------------------- printing

export { fmt, heading, mb, printTable, verdict } from './print.ts';

export async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const r = await fn();
  console.log(`${label}: ${fmt((performance.now() - t0) / 1000, 1)} s`);
  return r;
}

/**
 * CPU time (seconds) used so far by the whole machine (/proc/stat), by this process (its worker
 * threads included) plus any server processes it started and by PostgreSQL server processes; Linux only, undefined elsewhere. Other
 * work on the machine during a run makes its figures unreliable, so the benchmarks print it.
 */
export function cpuSnapshot(
  serverPids: number[] = [],
  /** only these PostgreSQL processes (the benchmark database's backends): other work on a shared server is left out */
  pgPids?: number[],
): { machine: number; self: number; postgres: number } | undefined {
  const hz = 100;
  const ticks = (stat: string) => {
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / hz;
  };
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy = all but idle and iowait
    const machine = (cpu.slice(0, 8).reduce((a, b) => a + b, 0) - cpu[3] - cpu[4]) / hz;
    let self = ticks(readFileSync('/proc/self/stat', 'utf8'));
    for (const pid of serverPids) {
      try {
        self += ticks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        // the server ended meanwhile
      }
    }
    let postgres = 0;
    for (const pid of pgPids?.map(String) ?? readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (stat.slice(stat.indexOf('(') + 1).startsWith('postgres')) postgres += ticks(stat);
      } catch {
        // the process ended meanwhile
      }
    }
    return { machine, self, postgres };
  } catch {
    return undefined;
  }
}

/** "CPU: this process 1.4 cores, PostgreSQL 0.3, everything else 0.0" over a run of `seconds`. */
export function cpuLine(before: ReturnType<typeof cpuSnapshot>, after: ReturnType<typeof cpuSnapshot>, seconds: number): string {
  if (!before || !after) return '';
  const per = (k: 'machine' | 'self' | 'postgres') => Math.max(0, (after[k] - before[k]) / seconds);
  const other = Math.max(0, per('machine') - per('self') - per('postgres'));
  return (
    `CPU: benchmark and server ${fmt(per('self'), 1)} cores, PostgreSQL ${fmt(per('postgres'), 1)}, everything else ${fmt(other, 1)}` +
    (other >= 0.25 ? ' (the machine was busy with other work: figures unreliable)' : '')
  );
}

/** Requests sent by `injected` between two turns of the event loop, per worker. */
const INJECTS_PER_TURN = 32;

/**
 * Sends `request` through `inject`, `workers` at a time, while `more()` says so (it is asked once
 * before each request); answers how many were sent. An answer other than 200 throws.
 *
 * Each worker lets the event loop turn every INJECTS_PER_TURN requests. `inject` answers through
 * promises only, so a loop of awaited injects never reaches the timers and immediates phase: every
 * request's mock socket waits there on an immediate (light-my-request), the request and its
 * answer with it (about 10 KB each). A round of a few thousand requests then ended holding tens of
 * megabytes, and the collections of that heap, growing through the run, were billed to whichever
 * side ran next (the metrics pair moved by ±5 % run to run, a list request from 300 to 2,800 µs).
 * An HTTP server never keeps requests that way: its sockets turn the loop.
 */
export async function injected(
  app: FastifyInstance,
  request: { url: string; headers?: Record<string, string> },
  more: () => boolean,
  workers = 8,
): Promise<number> {
  let sent = 0;
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all(
    Array.from({ length: workers }, async () => {
      let sinceTurn = 0;
      while (more()) {
        const res = await app.inject({ method: 'GET', url: request.url, headers: request.headers });
        if (res.statusCode !== 200) throw new Error(`${request.url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
        sent++;
        if (++sinceTurn === INJECTS_PER_TURN) {
          sinceTurn = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    }),
  );
  return sent;
}
