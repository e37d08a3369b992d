/**
 * buildApp(config): the whole server without listen(). Three layers, in order:
 *  1. wiring: error and not-found handlers, rate limiting, multipart uploads, the database
 *     (closed with the app), the duplicate-submit guard;
 *  2. services: staff sign-in and access (tables, seed, app.authenticate/requirePermission),
 *     then the tables of every resource spec (created or extended additively);
 *  3. areas: the generic routes of every spec, then the hand-written areas in AREAS order,
 *     the demo data (first start) and the built web app.
 * A later feature adds its area by appending a registration function to AREAS.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { serializeRequest } from './log-safe-url.ts';
import { SharedCounters, databaseRateLimitStore, ensureLimitTables } from './db/shared-limits.ts';
import { countReadsByConstruction, createReadLimits } from './read-limits.ts';
import type { Config } from './config.ts';
import { resources } from '../generated/resources.ts';
import type { ResourceSpec } from '../shared/resource-spec.ts';
import { openDatabase } from './db/index.ts';
import { ensureResourceTables } from './db/migrate.ts';
import { ensureRevisionTables } from './crud/history/revisions.ts';
import { describeError, errorBody, installErrorHandling } from './errors.ts';
import { registerAuth } from './auth/index.ts';
import { registerSystem } from './modules/system/index.ts';
import { registerResources } from './crud/index.ts';
import { registerSubmitIdGuard } from './submit-id.ts';
import { registerStaffunZpRoutes } from './modules/recruitment/staffun-zp.ts';
import { registerDecisionRoutes } from './modules/decision/index.ts';
import { registerMenuBuildRoute } from './modules/menus/index.ts';
import { registerApplicantArea } from './modules/applicant/index.ts';
import { seedDemoData } from './modules/demo/seed.ts';
import { registerJobs } from './modules/jobs/index.ts';
import { registerBrandTree } from './modules/trees/index.ts';
import { registerHelpPages } from './modules/help/index.ts';
import { registerAccount } from './modules/account/index.ts';
import { registerAccessAdmin } from './modules/access/index.ts';
import { registerSalesRoutes } from './modules/sales/index.ts';
import { registerUploads } from './modules/uploads/index.ts';
import { registerSystemSettings } from './modules/system/settings.ts';
import { registerDealerArea } from './modules/dealer/index.ts';
import { registerPrivacy } from './modules/privacy/index.ts';
import { registerWebStatic, WEB_DIST } from './web-static.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { registerRequestDeadline } from './request-deadline.ts';
import { registerHealth } from './health.ts';
import { ensureHealthProbeTable } from './disk/write-probe.ts';
import { registerDraining } from './draining.ts';
import { registerDiskSpaceWatch } from './disk/space-watch.ts';
import { acquireStartLock, type StartLock } from './db/start-lock.ts';
import { registerRealtime } from './realtime/index.ts';
import { registerSystemMessageRoutes } from './modules/messages/system-messages.ts';
import { registerHomeRoutes } from './modules/home/summary.ts';
import { registerChatRoutes } from './modules/messages/chat.ts';
import { registerStaffArea } from './modules/staff/index.ts';
import { registerKfRoutes } from './modules/kf/index.ts';
import { registerTmsRoutes } from './modules/tms/index.ts';
import { registerBackups } from './modules/backup/index.ts';
import { createBackup } from './modules/backup/create.ts';
import { registerApiDocs, registerApiDocsRoutes } from './api-docs.ts';
import { trackRoutes } from './auth/route-catalogue.ts';
import { registerMetrics, registerMetricsRoute } from './metrics/index.ts';
import { registerTracing } from './tracing/index.ts';
import pkg from '../../package.json' with { type: 'json' };
import './decorations.ts';

export interface BuildOptions {
  logger?: boolean;
  /** where the log lines go (default standard output); with `logger` */
  logStream?: { write(line: string): void };
  /** resource specs to serve (default: the generated ones) */
  resources?: ResourceSpec[];
  /** committed schema migrations (default: config.migrationsDir) */
  migrationsDir?: string;
}

/** A hand-written area of the API: registers its routes (and tables) on the app. */
export type Area = (app: FastifyInstance, specs: ResourceSpec[]) => void | Promise<void>;

/** Hand-written areas, registered in this order after the generic resource routes. */
export const AREAS: Array<{ name: string; register: Area }> = [
  { name: 'recruitment', register: (app) => registerStaffunZpRoutes(app) },
  { name: 'decision', register: (app) => registerDecisionRoutes(app) },
  { name: 'menus', register: (app) => registerMenuBuildRoute(app) },
  { name: 'jobs', register: (app) => registerJobs(app) },
  { name: 'brandTree', register: (app) => registerBrandTree(app) },
  { name: 'help', register: (app) => registerHelpPages(app) },
  { name: 'account', register: (app, specs) => registerAccount(app, specs) },
  { name: 'realtime', register: (app) => registerRealtime(app) },
  { name: 'system-messages', register: (app) => registerSystemMessageRoutes(app) },
  { name: 'chat', register: (app) => registerChatRoutes(app) },
  { name: 'access-admin', register: (app, specs) => registerAccessAdmin(app, specs) },
  { name: 'sales', register: (app, specs) => registerSalesRoutes(app, specs) },
  { name: 'uploads', register: async (app) => void (await registerUploads(app)) },
  { name: 'system-settings', register: (app) => registerSystemSettings(app) },
  { name: 'applicant', register: (app) => registerApplicantArea(app) },
  { name: 'dealer', register: (app) => registerDealerArea(app) },
  { name: 'staff', register: (app, specs) => registerStaffArea(app, specs) },
  { name: 'kf', register: (app) => registerKfRoutes(app) },
  { name: 'tms', register: (app, specs) => registerTmsRoutes(app, specs) },
  { name: 'disk-space', register: (app) => registerDiskSpaceWatch(app) },
  { name: 'backup', register: (app) => registerBackups(app) },
  { name: 'home', register: (app, specs) => registerHomeRoutes(app, specs) },
  { name: 'privacy', register: (app, specs) => registerPrivacy(app, specs) },
];

/** Trust the nearest `hops` proxies (Fastify takes a count, its types do not say so). */
const hopsOf = (hops: number) => (_address: string, hop: number) => hop < hops;

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const specs = opts.resources ?? resources;
  const app = Fastify({
    logger: opts.logger
      ? {
          level: config.logLevel,
          // the address without the personal values a search or look-up carries (log-safe-url.ts)
          serializers: { req: serializeRequest },
          ...(opts.logStream ? { stream: opts.logStream } : {}),
        }
      : false,
    bodyLimit: config.bodyLimit,
    // how long a client may take to send its whole request (slow or endless bodies): 408
    requestTimeout: config.requestTimeoutMs,
    // the client address comes from X-Forwarded-For only through proxies the operator names
    trustProxy: typeof config.trustProxy === 'number' ? hopsOf(config.trustProxy) : config.trustProxy,
    // the spec's call list writes some paths with a closing slash (DELETE api/brandTree/, api/staff/)
    routerOptions: { ignoreTrailingSlash: true },
    // a request reaching a closing app gets the product's answer (draining.ts), not Fastify's English one
    return503OnClosing: false,
    // errors the router meets before any handler (a path that is not valid UTF-8 once decoded)
    // answer in the usual shape and in Chinese, like every other error
    frameworkErrors: (error, _request, reply) => {
      const { status, message } = describeError(error);
      void (reply as unknown as FastifyReply).status(status).type('application/json; charset=utf-8').send(errorBody(status, message));
    },
  });
  app.decorate('config', config);
  // every signed-in GET counts against the read budget unless declared exempt (read-limits.ts);
  // its hook runs before the catalogue's, which then records the result
  countReadsByConstruction(app);
  // the route catalogue (who may call what) sees every route, the first ones included
  trackRoutes(app);
  // Prometheus metrics (METRICS_TOKEN): their request hook joins each route as it is registered
  app.decorate('metrics', registerMetrics(app));
  // OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT): nothing is loaded or hooked without it
  await registerTracing(app);

  // 1. wiring
  // first of the request hooks: a closing app answers before any other work
  app.decorate('draining', registerDraining(app));
  registerSecurityHeaders(app, WEB_DIST);
  // per-address limits: in the database on PostgreSQL, so that every instance shares them
  let sharedCounters: SharedCounters | undefined;
  const counters = () => (sharedCounters ??= new SharedCounters(app.database.db));
  await app.register(rateLimit, { global: false, ...(config.databaseUrl ? { store: databaseRateLimitStore(counters) } : {}) });
  // per-user budgets of list, look-up and export reads (read-limits.ts)
  app.decorate(
    'readLimits',
    createReadLimits(app, { reads: config.readLimitPerMinute, exports: config.exportLimitPerMinute, windowMs: config.readLimitWindowMs }),
  );
  installErrorHandling(app);
  // the OpenAPI document collects every route registered from here on
  if (config.apiDocsEnabled) await registerApiDocs(app, { specs, version: pkg.version });
  registerRequestDeadline(app, config.requestTimeoutMs);
  await app.register(multipart, {
    limits: { fileSize: config.importMaxBytes, files: 1, fields: 10, parts: 12 },
  });
  const database = await openDatabase(config);
  app.decorate('database', database);
  app.addHook('onClose', async () => {
    await database.close();
  });
  app.decorate('health', registerHealth(app));
  registerMetricsRoute(app);
  // instances starting together take turns through tables and first-start data
  let startLock: StartLock | undefined;
  try {
    startLock = await acquireStartLock(config);
    await registerSubmitIdGuard(app);
    await ensureLimitTables(database);
    await ensureHealthProbeTable(database);

    // 2. services
    await registerAuth(app, { resources: specs });
    await registerSystem(app);
    // committed migrations, then the safe changes; a backup precedes a migration that rewrites values
    await ensureResourceTables(database, specs, {
      migrationsDir: opts.migrationsDir ?? config.migrationsDir,
      backup: () => createBackup(database, config, { reason: 'pre-migration' }),
    });
    await ensureRevisionTables(database);

    // 3. areas
    registerResources(app, specs);
    for (const area of AREAS) await area.register(app, specs);
    if (config.apiDocsEnabled) await registerApiDocsRoutes(app);
    await seedDemoData(app, specs);
    await startLock.release();
    startLock = undefined;

    // the built console on the same port
    if (config.serveWeb) await registerWebStatic(app);
  } catch (err) {
    await startLock?.release();
    await database.close().catch(() => undefined);
    throw err;
  }
  return app;
}
