/**
 * Staff sign-in and access, registered on the app by registerAuth(app) once `config` and
 * `database` are decorated:
 * - creates/extends its tables and seeds the first start (root company, admin, menus and
 *   permission keys of every resource), under a lock so that several instances can start at once;
 * - loads or creates the RSA key pair;
 * - decorates app.authenticate, app.requirePermission(key), requireAnyPermission and requireAllPermissions;
 * - serves the sign-in routes.
 * The system area (public settings, department list) is registered right after it
 * (registerSystem), and fills in the user directory the sign-in answer reads.
 */
import { sql } from 'kysely';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import '../decorations.ts';
import type { Database, SessionUser } from '../types.ts';
import type { Config } from '../config.ts';
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import { resources as generatedResources } from '../../generated/resources.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { cachedAccess } from './access.ts';
import { CaptchaStore } from './captcha.ts';
import { loginThrottleFor } from './login-throttle.ts';
import { loadOrCreateKeys } from './rsa.ts';
import { registerAuthRoutes } from './routes.ts';
import { ADMIN_USERNAME, seedAuth } from './seed.ts';
import { writeWatchOf } from '../db/write-watch.ts';
import { SessionStore } from './sessions.ts';
import { AUTH_TABLES, ensureTables } from './tables.ts';
import { markAllPermissions, markAuthenticated, markPermission, trackRoutes } from './route-catalogue.ts';

export { invalidateAccess, loadAccess } from './access.ts';
export { hashPassword, checkPassword } from './passwords.ts';
export { ROLE_SYSTEM_DEFAULT } from './session-user.ts';
export { ADMIN_USERNAME, ADMIN_ROLE } from './seed.ts';
export { AUTH_TABLES, ensureTables, flag, type TableDef, type ColumnDef } from './tables.ts';
export { routeCatalogue, type RouteEntry } from './route-catalogue.ts';

export interface AuthOptions {
  /** clock in epoch ms (tests) */
  now?: () => number;
  /** resources whose menus and permission keys are seeded (default: the generated ones) */
  resources?: ResourceSpec[];
}

/** Tables and first-start data, in one transaction; on PostgreSQL under an advisory lock. */
export async function prepareAuthStorage(database: Database, config: Config, resources: ResourceSpec[]): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('dealer-console:auth-setup'))`.execute(trx);
    await ensureTables(trx, database.dialect, AUTH_TABLES);
    await seedAuth(trx, { adminInitialPassword: config.adminInitialPassword, seedDemo: config.seedDemo, resources });
  });
}

export async function registerAuth(app: FastifyInstance, options: AuthOptions = {}): Promise<void> {
  const { db } = app.database;
  const config = app.config;
  const now = options.now ?? Date.now;
  trackRoutes(app);
  await prepareAuthStorage(app.database, config, options.resources ?? generatedResources);
  const keys = await loadOrCreateKeys(db);
  const sessions = new SessionStore(db, { idleMinutes: config.sessionIdleMinutes, rememberMeDays: config.rememberMeDays, now });
  // any change to sessions or users, from any code, empties the session cache at once
  writeWatchOf(db)?.on(['sys_session', 'sys_user'], (write) => sessions.changed(write));
  const captchas = new CaptchaStore(db, { now });
  const throttle = loginThrottleFor(app.database, 'staff');

  if (!app.hasRequestDecorator('user')) app.decorateRequest('user', undefined);

  const authenticate: preHandlerAsyncHookHandler = async function (request) {
    if (request.user) return;
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthorized();
    const session = await sessions.lookup(match[1]);
    if (!session) throw unauthorized();
    const access = await cachedAccess(db, session.userId, now());
    const user: SessionUser = {
      kind: 'staff',
      id: session.userId,
      username: session.username,
      nickName: session.nickName,
      deptId: session.deptId,
      orgId: session.orgId,
      isAdmin: session.username === ADMIN_USERNAME,
      permissions: access.permissions,
      roles: access.roles,
      sessionId: session.sessionId,
    };
    request.user = user;
  };

  app.decorate('sessions', sessions);
  app.decorate('authenticate', markAuthenticated(authenticate));
  app.decorate('requirePermission', (key: string): preHandlerAsyncHookHandler => {
    const check: preHandlerAsyncHookHandler = async function (this: FastifyInstance, request, reply) {
      await authenticate.call(this, request, reply);
      const user = request.user!;
      if (!user.isAdmin && !user.permissions.has(key)) throw forbidden();
    };
    return markPermission(check, key);
  });
  app.decorate('requireAnyPermission', (keys: string[]): preHandlerAsyncHookHandler => {
    const check: preHandlerAsyncHookHandler = async function (this: FastifyInstance, request, reply) {
      await authenticate.call(this, request, reply);
      const user = request.user!;
      if (!user.isAdmin && !keys.some((k) => user.permissions.has(k))) throw forbidden();
    };
    return markPermission(check, keys[0], keys);
  });
  app.decorate('requireAllPermissions', (keys: string[]): preHandlerAsyncHookHandler => {
    const check: preHandlerAsyncHookHandler = async function (this: FastifyInstance, request, reply) {
      await authenticate.call(this, request, reply);
      const user = request.user!;
      if (!user.isAdmin && !keys.every((k) => user.permissions.has(k))) throw forbidden();
    };
    return markAllPermissions(check, keys);
  });

  registerAuthRoutes(app, { keys, sessions, captchas, throttle, now });
}
