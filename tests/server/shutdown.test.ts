/**
 * SIGTERM while PostgreSQL is stalled (a lock holds every query of the list): the real server
 * process (the bundle `npm start` runs) answers every request in the product's shape:
 * - a request still arriving on an open connection once the app closes gets 503
 *   服务正在停止，请稍后重试 (not Fastify's English `{"error":"Service Unavailable",...}`);
 * - requests in flight that the stalled database keeps past SHUTDOWN_GRACE_SECONDS get the
 *   same 503 before the process exits: none is dropped without an answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, buildServer } from '../../scripts/build-server.ts';
import { SERVICE_STOPPING } from '../../src/server/draining.ts';
import { encryptPassword } from './auth-helpers.ts';
import { ADMIN_PASSWORD } from './helpers.ts';

const PG = process.env.TEST_DATABASE_URL;
const GRACE_SECONDS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

describe.runIf(!!PG)('SIGTERM while PostgreSQL is stalled', () => {
  const dbName = `test_shutdown_${process.pid}_${randomBytes(3).toString('hex')}`;
  let dbUrl = '';
  let dataDir = '';
  let proc: ChildProcess;
  let base = '';
  const output: string[] = [];
  let exited: Promise<{ code: number | null; at: number }>;

  beforeAll(async () => {
    await admin(PG!, (c) => c.query(`create database ${dbName}`));
    const u = new URL(PG!);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    dataDir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    const [entry, port] = await Promise.all([buildServer(resolve(import.meta.dirname, '../../build/test-shutdown/main.js')), freePort()]);
    base = `http://127.0.0.1:${port}`;
    proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TZ: process.env.TZ,
        DATABASE_URL: dbUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SERVE_WEB: 'false',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        CAPTCHA_ENABLED: 'false',
        ADMIN_INITIAL_PASSWORD: ADMIN_PASSWORD,
        JOBS_ENABLED: 'false',
        SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout!.on('data', (d: Buffer) => output.push(String(d)));
    proc.stderr!.on('data', (d: Buffer) => output.push(String(d)));
    exited = new Promise((res) => proc.on('exit', (code) => res({ code, at: Date.now() })));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${base}/api/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start: ${output.join('').slice(-2000)}`);
      await sleep(200);
    }
  }, 120_000);

  afterAll(async () => {
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
    await admin(PG!, (c) => c.query(`drop database if exists ${dbName} with (force)`));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every request, late arrivals and those in flight, with 503 in the product shape', async () => {
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
    const { token } = (await login.json()) as { token: string };
    // warm the list once (its first run prepares and caches what it needs)
    expect((await fetch(`${base}/api/sysQuestion`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    // the database stalls: every query of the list waits for the lock
    const locker = new pg.Client({ connectionString: dbUrl });
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
      await sleep(300);
      const termAt = Date.now();
      proc.kill('SIGTERM');
      // past the drain delay (1 s): the app is closing
      await sleep(1500);
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
