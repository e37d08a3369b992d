/**
 * Stopping the real server process (the bundle `npm start` runs):
 * SIGTERM under load, on SQLite and PostgreSQL: clients on keep-alive connections send requests
 * without pause through the signal; every request the server received is answered (200, or 503
 * 服务正在停止，请稍后重试 in the product's shape), none on an open connection is cut. From the
 * signal on every answer closes its connection, so a client's next request goes on a new one;
 * only connections the server never accepted (its listener closing) are refused or reset.
 *
 * SIGTERM while PostgreSQL is stalled (a lock holds every query of the list): every request is
 * answered in the product's shape:
 * - a request still arriving on an open connection once the app closes gets 503
 *   服务正在停止，请稍后重试 (not Fastify's English `{"error":"Service Unavailable",...}`);
 * - requests in flight that the stalled database keeps past SHUTDOWN_GRACE_SECONDS get the
 *   same 503 before the process exits: none is dropped without an answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, buildServer } from '../../scripts/build-server.ts';
import { SERVICE_STOPPING } from '../../src/server/draining.ts';
import { encryptPassword } from './auth-helpers.ts';
import { ADMIN_PASSWORD } from './helpers.ts';
import { elapse, until } from '../support/wait.ts';

const PG = process.env.TEST_DATABASE_URL;
const GRACE_SECONDS = 3;

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

interface Server {
  proc: ChildProcess;
  base: string;
  output: string[];
  exited: Promise<{ code: number | null; at: number }>;
}

/** Starts the server bundle on a free port with `env` and waits until it is ready. */
async function startServer(dataDir: string, env: Record<string, string>): Promise<Server> {
  const [entry, port] = await Promise.all([buildServer(resolve(import.meta.dirname, '../../build/test-shutdown/main.js')), freePort()]);
  const base = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TZ: process.env.TZ,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SERVE_WEB: 'false',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      CAPTCHA_ENABLED: 'false',
      ADMIN_INITIAL_PASSWORD: ADMIN_PASSWORD,
      JOBS_ENABLED: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  proc.stdout.on('data', (d: Buffer) => output.push(String(d)));
  proc.stderr.on('data', (d: Buffer) => output.push(String(d)));
  const exited = new Promise<{ code: number | null; at: number }>((res) => proc.on('exit', (code) => res({ code, at: Date.now() })));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${base}/api/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start: ${output.join('').slice(-2000)}`);
    await elapse(200);
  }
  return { proc, base, output, exited };
}

async function signIn(base: string): Promise<string> {
  const { publicKey } = (await (await fetch(`${base}/api/publicKey`)).json()) as { publicKey: string };
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'admin',
      password: encryptPassword(publicKey, ADMIN_PASSWORD),
      code: '',
      uuid: '',
      rememberMe: false,
    }),
  });
  expect(login.status).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

/** A fresh PostgreSQL database for one server (dropped by the caller). */
async function freshDatabase(): Promise<{ name: string; url: string }> {
  const name = `test_shutdown_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin(PG!, (c) => c.query(`create database ${name}`));
  const u = new URL(PG!);
  u.pathname = `/${name}`;
  return { name, url: u.toString() };
}

interface Outcome {
  /** answers by status */
  statuses: Record<number, number>;
  /** bodies of the 5xx answers */
  failures: Array<Record<string, unknown>>;
  /** errors of requests sent on a connection that had already carried one (the server had accepted it) */
  onOpenConnections: string[];
  /** errors of requests on a new connection (refused, or reset before the server accepted it) */
  onNewConnections: string[];
  sentAfterSignal: number;
}

/**
 * `clients` keep-alive clients send requests one after another until the server refuses
 * connections; SIGTERM goes to the server `signalAfterMs` after they start.
 */
async function loadThroughSigterm(server: Server, token: string, clients: number, signalAfterMs: number): Promise<Outcome> {
  const port = Number(new URL(server.base).port);
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const out: Outcome = { statuses: {}, failures: [], onOpenConnections: [], onNewConnections: [], sentAfterSignal: 0 };
  let signalled = false;
  let stop = false;
  const once = () =>
    new Promise<void>((done) => {
      const req = http.request(
        { host: '127.0.0.1', port, path: '/api/sysQuestion?page=0&size=10', agent, headers: { authorization: `Bearer ${token}` } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => {
            const status = res.statusCode!;
            out.statuses[status] = (out.statuses[status] ?? 0) + 1;
            if (status >= 500) out.failures.push(JSON.parse(text) as Record<string, unknown>);
            done();
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        (req.reusedSocket ? out.onOpenConnections : out.onNewConnections).push(err.code ?? err.message);
        if (err.code === 'ECONNREFUSED') stop = true;
        done();
      });
      req.end();
    });
  const workers = Array.from({ length: clients }, async () => {
    while (!stop) {
      if (signalled) out.sentAfterSignal++;
      await once();
    }
  });
  await elapse(signalAfterMs); // the load runs a while before the signal
  signalled = true;
  server.proc.kill('SIGTERM');
  await Promise.all(workers);
  agent.destroy();
  return out;
}

describe.each(PG ? ['sqlite', 'postgres'] : ['sqlite'])('SIGTERM under load on %s', (dialect) => {
  let server: Server;
  let dataDir = '';
  let db: { name: string; url: string } | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    if (dialect === 'postgres') db = await freshDatabase();
    server = await startServer(dataDir, { ...(db ? { DATABASE_URL: db.url } : {}), READ_LIMIT_PER_MINUTE: '1000000000' });
  }, 120_000);
  afterAll(async () => {
    if (server && server.proc.exitCode === null) server.proc.kill('SIGKILL');
    if (db) await admin(PG!, (c) => c.query(`drop database if exists ${db!.name} with (force)`));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every request it received, and cuts none on an open keep-alive connection', async () => {
    const token = await signIn(server.base);
    const out = await loadThroughSigterm(server, token, 12, 800);
    const { code } = await server.exited;
    expect(code).toBe(0);
    // the requests went on through the drain delay and were answered
    expect(out.sentAfterSignal).toBeGreaterThan(12);
    expect(out.statuses[200]).toBeGreaterThan(12);
    expect(Object.keys(out.statuses).filter((s) => s !== '200' && s !== '503')).toEqual([]);
    for (const body of out.failures) expect(body).toMatchObject({ status: 503, message: SERVICE_STOPPING });
    // before, Node's close of "idle" keep-alive connections cut requests already on their way (ECONNRESET)
    expect(out.onOpenConnections).toEqual([]);
    expect(out.onNewConnections.filter((c) => c !== 'ECONNREFUSED' && c !== 'ECONNRESET')).toEqual([]);
  }, 60_000);
});

describe.runIf(!!PG)('SIGTERM while PostgreSQL is stalled', () => {
  let db: { name: string; url: string };
  let dataDir = '';
  let proc: ChildProcess;
  let base = '';
  let exited: Server['exited'];
  let output: string[] = [];

  beforeAll(async () => {
    db = await freshDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    ({ proc, base, exited, output } = await startServer(dataDir, {
      DATABASE_URL: db.url,
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      LOG_LEVEL: 'info', // the test waits for the line that says the app closes
    }));
  }, 120_000);

  afterAll(async () => {
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
    if (db) await admin(PG!, (c) => c.query(`drop database if exists ${db.name} with (force)`));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every request, late arrivals and those in flight, with 503 in the product shape', async () => {
    const token = await signIn(base);
    // warm the list once (its first run prepares and caches what it needs)
    expect((await fetch(`${base}/api/sysQuestion`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    // the database stalls: every query of the list waits for the lock
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table sys_question in access exclusive mode');
      const inFlight = [1, 2, 3].map(() =>
        fetch(`${base}/api/sysQuestion`, { headers: { authorization: `Bearer ${token}` } }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
          (e: unknown) => ({ status: 'dropped' as const, body: { error: String(e) } }),
        ),
      );
      // a connection whose request is still on its way when the app closes
      const late = connect(Number(new URL(base).port), '127.0.0.1');
      await new Promise((r) => late.once('connect', r));
      late.write(`GET /api/sysQuestion HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n`);
      const lateAnswer = new Promise<string>((res) => {
        let text = '';
        late.on('data', (d: Buffer) => (text += String(d)));
        late.on('close', () => res(text));
        late.on('error', () => res(text));
      });
      // the list requests are on the server, waiting for the lock (or for a connection, or for the same read)
      await until(async () => {
        const r = await locker.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        return r.rows[0].n >= 1;
      }, 'the list requests to wait for the lock');
      const termAt = Date.now();
      proc.kill('SIGTERM');
      // past the drain delay (1 s): the app is closing
      await until(() => output.join('').includes('drain delay over, closing'), 'the app to start closing');
      late.write('\r\n');

      const answer = await lateAnswer;
      expect(answer).toMatch(/^HTTP\/1\.1 503/);
      expect(answer.toLowerCase()).toContain('connection: close');
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      expect(body).toMatchObject({ status: 503, message: SERVICE_STOPPING });
      expect(answer).not.toContain('"error":"Service Unavailable"');

      const answers = await Promise.all(inFlight);
      for (const a of answers) expect(a).toMatchObject({ status: 503, body: { status: 503, message: SERVICE_STOPPING } });
      const { at } = await exited;
      // bounded: the grace period, then the time for the answers to go out
      expect(at - termAt).toBeLessThan((GRACE_SECONDS + 3) * 1000);
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
    }
  }, 60_000);
});
