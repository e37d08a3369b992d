/**
 * Server test apps on every database the suite runs on:
 * - SQLite always (a fresh temporary data directory per app);
 * - PostgreSQL when TEST_DATABASE_URL is set (a fresh database per app, dropped on close).
 * Use with `describe.each(testApps())('... on %s', (name, start) => ...)`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { Dialect } from '../../src/server/types.ts';
import type { ErrorBody, Row } from '../support/answers.ts';

export const ADMIN_PASSWORD = 'Admin@123456';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dialect: Dialect;
  /** builds another app on the same data (a restart, or a second instance) */
  reopen(opts?: BuildOptions): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export type StartApp = (overrides?: Partial<Config>, opts?: BuildOptions) => Promise<TestApp>;

async function withAdminClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function startApp(dialect: Dialect, overrides: Partial<Config> = {}, opts: BuildOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'core-test-'));
  let databaseUrl = '';
  let dbName = '';
  if (dialect === 'postgres') {
    dbName = `test_core_${process.pid}_${randomBytes(4).toString('hex')}`;
    await withAdminClient((c) => c.query(`create database ${dbName}`));
    const u = new URL(process.env.TEST_DATABASE_URL!);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl,
      captchaEnabled: false,
      seedDemo: false,
      adminInitialPassword: ADMIN_PASSWORD,
      logLevel: 'warn',
      serveWeb: false,
      // the tests walk every route many times as one user; the per-user read limits have a test of their own
      readLimitPerMinute: 1_000_000_000,
      exportLimitPerMinute: 1_000_000_000,
      ...overrides,
    },
  );
  const apps: FastifyInstance[] = [];
  const open = async (o: BuildOptions = opts) => {
    const app = await buildApp(config, o);
    apps.push(app);
    await app.ready();
    return app;
  };
  const cleanup = async () => {
    for (const a of apps) await a.close().catch(() => undefined);
    if (dbName) await withAdminClient((c) => c.query(`drop database if exists ${dbName} with (force)`));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const app = await open();
    return { app, config, dialect, reopen: open, close: cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** [name, start] pairs for describe.each: sqlite always, postgres when TEST_DATABASE_URL is set. */
export function testApps(): Array<[Dialect, StartApp]> {
  const dialects: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  return dialects.map((d) => [d, (overrides, opts) => startApp(d, overrides, opts)]);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A random 32-digit submit_id as the web client sends it. */
export function submitId(): string {
  let s = '';
  for (let i = 0; i < 32; i++) s += Math.floor(Math.random() * 10);
  return s;
}

/** Asserts the API's error shape and answers the body. */
export function errorOf(res: { statusCode: number; json(): unknown }): ErrorBody & Row {
  const body = res.json() as Row;
  if (body.status !== res.statusCode)
    throw new Error(`error body status ${JSON.stringify(body.status)} differs from HTTP ${res.statusCode}`);
  if (typeof body.message !== 'string' || typeof body.timestamp !== 'string') throw new Error(`not an error body: ${JSON.stringify(body)}`);
  return body as ErrorBody & Row;
}
