/**
 * Sign-in helpers for server tests:
 * - loginAs(app, username, password): signs in through the real routes (public key, RSA-OAEP,
 *   POST /api/login) and answers the bearer token; needs the captcha switched off.
 * - createStaff(app, {...}): a staff user whose one role carries exactly the given permission
 *   keys, written straight to the database.
 * - authTestApp(...): a bare app with only the auth area, for tests that need what buildApp
 *   does not offer: an injected clock, or several instances starting at once.
 */
import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { nowText, openDatabase } from '../../src/server/db/index.ts';
import { installErrorHandling } from '../../src/server/errors.ts';
import { hashPassword, registerAuth, type AuthOptions } from '../../src/server/auth/index.ts';
import { registerSystem } from '../../src/server/modules/system/index.ts';
import type { Dialect } from '../../src/server/types.ts';

/** RSA-OAEP(SHA-256) of a password under the server's public key, base64, as the sign-in page sends it. */
export function encryptPassword(publicKeyBase64: string, password: string): string {
  return publicEncrypt(
    {
      key: createPublicKey({ key: Buffer.from(publicKeyBase64, 'base64'), format: 'der', type: 'spki' }),
      padding: constants.RSA_PKCS1_OAEP_PADDING,
      oaepHash: 'sha256',
    },
    Buffer.from(password, 'utf8'),
  ).toString('base64');
}

export async function publicKeyOf(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/publicKey' });
  if (res.statusCode !== 200) throw new Error(`GET /api/publicKey answered ${res.statusCode}: ${res.body}`);
  return res.json<{ publicKey: string }>().publicKey;
}

export async function loginAs(app: FastifyInstance, username: string, password: string): Promise<string> {
  if (app.config.captchaEnabled) throw new Error('loginAs needs CAPTCHA_ENABLED=false in the test config');
  const publicKey = await publicKeyOf(app);
  const res = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username, password: encryptPassword(publicKey, password), code: '', uuid: '', platTypeId: 100001, rememberMe: false },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

export interface StaffSpec {
  username: string;
  password: string;
  permissions: string[];
  deptId?: number;
  phone?: string;
  enabled?: boolean;
  dataScope?: '全部' | '本级' | '自定义';
  /** the departments of a 自定义 data scope */
  customDepts?: number[];
}

/** Creates a role whose menus carry the given keys and a user holding it; answers the user id. */
export async function createStaff(app: FastifyInstance, spec: StaffSpec): Promise<number> {
  const { db } = app.database;
  const now = nowText();
  const root = await db.selectFrom('sys_dept').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirstOrThrow();
  const deptId = spec.deptId ?? Number(root.id);
  const role = await db
    .insertInto('sys_role')
    .values({ name: `${spec.username}的岗位`, level: 3, data_scope: spec.dataScope ?? '本级', description: 'test role', create_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const roleId = Number(role.id);
  for (const dept of spec.customDepts ?? []) await db.insertInto('sys_roles_depts').values({ role_id: roleId, dept_id: dept }).execute();
  for (const key of spec.permissions) {
    let menu = await db.selectFrom('sys_menu').select('id').where('permission', '=', key).executeTakeFirst();
    if (!menu) {
      menu = await db
        .insertInto('sys_menu')
        .values({ pid: null, type: 2, title: key, permission: key, menu_sort: 999, hidden: 0, cache: 0, i_frame: 0, create_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
    }
    await db
      .insertInto('sys_roles_menus')
      .values({ role_id: roleId, menu_id: Number(menu.id) })
      .execute();
  }
  const user = await db
    .insertInto('sys_user')
    .values({
      username: spec.username,
      nick_name: spec.username,
      password: await hashPassword(spec.password),
      phone: spec.phone ?? null,
      sex: 1,
      dept_id: deptId,
      org_id: Number(root.id),
      enabled: spec.enabled === false ? 0 : 1,
      lock_time: 0,
      is_def_password: 0,
      pwd_reset_time: now,
      create_time: now,
      update_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const userId = Number(user.id);
  await db.insertInto('sys_users_roles').values({ user_id: userId, role_id: roleId }).execute();
  return userId;
}

/** The databases the server suites run on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const testDialects: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface AuthTestApp {
  app: FastifyInstance;
  /** every app started at first (`instances` of them, concurrently, on one fresh database) */
  apps: FastifyInstance[];
  config: Config;
  /** a second app on the same data (same data directory / same PostgreSQL schema) */
  restart(options?: AuthOptions): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** A bare Fastify app with config, database, error handling and the auth area on a fresh database. */
export interface AuthTestOptions {
  config?: Partial<Config>;
  auth?: AuthOptions;
  /** how many apps start at once on the fresh database (several instances' first start) */
  instances?: number;
}

export async function authTestApp(dialect: Dialect, opts: AuthTestOptions = {}): Promise<AuthTestApp> {
  const { config: overrides = {}, auth: options = {}, instances = 1 } = opts;
  const dataDir = mkdtempSync(join(tmpdir(), 'auth-test-'));
  let databaseUrl = '';
  let dropSchema: (() => Promise<void>) | undefined;
  if (dialect === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `auth_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    databaseUrl = withSearchPath(base, schema);
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
  }
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl,
      captchaEnabled: false,
      seedDemo: true,
      adminInitialPassword: 'Admin@123456',
      logLevel: 'warn',
      // the tests walk every route many times as one user; the per-user read limits have a test of their own
      readLimitPerMinute: 1_000_000_000,
      exportLimitPerMinute: 1_000_000_000,
      ...overrides,
    },
  );
  const apps: FastifyInstance[] = [];
  const start = async (opts: AuthOptions) => {
    const app = Fastify({ logger: false, trustProxy: true });
    app.decorate('config', config);
    app.decorate('database', await openDatabase(config));
    installErrorHandling(app);
    await registerAuth(app, opts);
    await registerSystem(app);
    app.addHook('onClose', async () => app.database.close());
    await app.ready();
    apps.push(app);
    return app;
  };
  const close = async () => {
    for (const a of apps) await a.close().catch(() => undefined);
    await dropSchema?.();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let first: FastifyInstance[];
  try {
    first = await Promise.all(Array.from({ length: instances }, () => start(options)));
  } catch (err) {
    await close();
    throw err;
  }
  return { app: first[0], apps: first, config, restart: (opts = options) => start(opts), close };
}
