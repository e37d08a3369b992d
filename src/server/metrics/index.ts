/**
 * Prometheus metrics at GET /metrics (text exposition format), for a scrape that presents
 * `Authorization: Bearer <METRICS_TOKEN>`, or on a listener of its own (METRICS_PORT, bound to
 * 127.0.0.1 by default; the token is then asked for only when set). Without either the metrics are
 * off: nothing is timed or counted (no hooks, no statement log) and /metrics answers 401 like a
 * wrong token.
 *
 * Every label takes values from a bounded set the code fixes (route templates, operations, table
 * names of the schema, job names, status classes, error codes): never a raw URL, an id, a user
 * name or a value. The list of metrics and their labels is in docs/operations-monitoring.md.
 *
 * What each instance reports is its own (Prometheus's `instance` label tells them apart), except
 * shared facts read from the shared database or backup folder at scrape time (the last backup,
 * the last scheduled backup's outcome): every instance reports the same value, and the alert
 * rules and the dashboard take `max without (instance)` of them. A job run is counted by the
 * one instance that ran it (one firing per job across instances), so a sum counts each run once.
 *
 * The request hook is attached to each route as it is registered (onRoute), with its route
 * template fixed: per request it costs one histogram observation, no look-up of the route. A
 * statement is labelled from its operation tree, children kept by operation and table: no look-up
 * by its SQL text (bench:guard's pair keeps what metrics cost a list within 5 %).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { statfs, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import client from 'prom-client';
import { metricsOn } from '../config.ts';
import { errorBody } from '../errors.ts';
import { markIdentity } from '../auth/route-catalogue.ts';
import { observeStatements, poolState } from '../db/index.ts';
import { listBackups } from '../modules/backup/store.ts';
import { lastScheduled } from '../modules/backup/index.ts';
import { setTransferSink, type TransferKind } from './transfers.ts';
import { FastHistogram, type HistogramChild } from './histogram.ts';
import { errorCodeLabel, statementLabels, TableNames, type Operation } from './statements.ts';

export const METRICS_PATH = '/metrics';
export const METRICS_UNAUTHORIZED = '需要有效的监控令牌（METRICS_TOKEN）';

export interface Metrics {
  readonly enabled: boolean;
  /** a failed sign-in (wrong password or captcha) or an account locked by it, by front door */
  signIn(door: 'staff' | 'dealer', outcome: 'failure' | 'lockout'): void;
  /** a read refused by the per-user read or export budget (read-limits.ts) */
  readLimitRefused(kind: 'read' | 'export'): void;
  /** a job run on this instance: its registered name (bean.method), outcome and duration */
  jobRan(job: string, ok: boolean, ms: number): void;
  /** a backup (scheduled, manual) that failed on this instance */
  backupFailed(): void;
  /**
   * The first step of the not-found handler: a request no route matched is timed under the one
   * route label `unmatched` once its answer is gone (a hook for every request would cost each one).
   */
  unmatched(this: void, request: FastifyRequest, reply: FastifyReply, done: () => void): void;
}

const OFF: Metrics = {
  enabled: false,
  signIn: () => undefined,
  readLimitRefused: () => undefined,
  jobRan: () => undefined,
  backupFailed: () => undefined,
  unmatched: (_request, _reply, done) => done(),
};

const STATUS_CLASSES = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
/** seconds: from a cached one-row read to the request deadline */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
/** statements whose labels are kept by SQL text (texts are parameterised: their number is bounded by the code) */
const STATEMENT_CACHE = 5000;

const digest = (s: string) => createHash('sha256').update(s).digest();

const registries = new WeakMap<FastifyInstance, client.Registry>();

/**
 * Whether a scrape presenting `authorization` may read the metrics: with METRICS_TOKEN set it must
 * be `Bearer <token>`; without one only the listener of METRICS_PORT answers (the main port never).
 */
function scrapeAllowed(app: FastifyInstance, onOwnPort: boolean): (authorization: string | undefined) => boolean {
  const { metricsToken } = app.config;
  const expected = metricsToken ? digest(`Bearer ${metricsToken}`) : undefined;
  if (!registries.has(app)) return () => false;
  if (!expected) return () => onOwnPort;
  return (given) => typeof given === 'string' && timingSafeEqual(digest(given), expected);
}

const unauthorized = () => JSON.stringify(errorBody(401, METRICS_UNAUTHORIZED));

/**
 * GET /metrics: 401 unless the request carries the token; the registry's text. Registered after
 * the API documentation is set up (app.ts), so that the route is in the OpenAPI document.
 * With METRICS_PORT set it is served on a listener of its own instead (METRICS_HOST, 127.0.0.1 by
 * default), opened when the app is ready and closed with it, and the main port does not serve it.
 */
export function registerMetricsRoute(app: FastifyInstance): void {
  const registry = registries.get(app);
  if (app.config.metricsPort !== null) {
    if (registry) serveOnOwnPort(app, registry);
    return;
  }
  const allowed = scrapeAllowed(app, false);
  const checkToken = markIdentity(async (request: FastifyRequest, reply: FastifyReply) => {
    if (!allowed(request.headers.authorization)) return reply.code(401).type('application/json; charset=utf-8').send(unauthorized());
  }, 'metrics');
  app.get(METRICS_PATH, { preHandler: checkToken }, async (_request, reply: FastifyReply) => {
    const text = registry ? await registry.metrics() : '';
    return reply
      .header('content-type', registry?.contentType ?? 'text/plain')
      .header('cache-control', 'no-store')
      .send(text);
  });
}

/** The metrics listener of METRICS_PORT: GET /metrics and nothing else. */
function serveOnOwnPort(app: FastifyInstance, registry: client.Registry): void {
  const allowed = scrapeAllowed(app, true);
  const server = createServer((req, res) => {
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const path = (req.url ?? '').split('?')[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== METRICS_PATH) {
      send(404, 'application/json; charset=utf-8', JSON.stringify(errorBody(404, '接口不存在')));
      return;
    }
    if (!allowed(req.headers.authorization)) {
      send(401, 'application/json; charset=utf-8', unauthorized());
      return;
    }
    registry.metrics().then(
      (text) => send(200, registry.contentType, text),
      (err: unknown) => {
        app.log.warn({ err }, 'metrics scrape failed');
        send(503, 'application/json; charset=utf-8', JSON.stringify(errorBody(503, '监控指标暂时不可用')));
      },
    );
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  let address: { host: string; port: number } | undefined;
  metricsAddresses.set(app, () => address);
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(app.config.metricsPort!, app.config.metricsHost, () => {
        server.off('error', reject);
        const a = server.address() as AddressInfo;
        address = { host: a.address, port: a.port };
        app.log.info(`metrics on http://${app.config.metricsHost}:${a.port}${METRICS_PATH}`);
        resolve();
      });
    });
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

const metricsAddresses = new WeakMap<FastifyInstance, () => { host: string; port: number } | undefined>();

/** Where the metrics listener of METRICS_PORT listens once the app is ready; undefined without one. */
export function metricsAddress(app: FastifyInstance): { host: string; port: number } | undefined {
  return metricsAddresses.get(app)?.();
}

/** The Prometheus metrics of the app (no-ops without METRICS_TOKEN and METRICS_PORT); call before any route is registered. */
export function registerMetrics(app: FastifyInstance): Metrics {
  if (!metricsOn(app.config)) return OFF;
  const registry = new client.Registry();
  registries.set(app, registry);
  client.collectDefaultMetrics({ register: registry });
  const m = makeMetrics(registry);

  // requests: one hook per route, its template fixed
  app.addHook('onRoute', (route) => {
    const hook = requestHook(m, route.url);
    const own = route.onResponse;
    route.onResponse = own ? [...(Array.isArray(own) ? own : [own]), hook] : [hook];
  });
  // requests no route matched (404 of unknown paths) under one label, from the not-found handler (errors.ts)
  const unmatchedHook = requestHook(m, 'unmatched');
  const noop = () => undefined;

  // the database and transfers once it is open
  app.addHook('onReady', (done) => {
    watchDatabase(app, m);
    done();
  });

  registerScrapeCollectors(app, m);

  return {
    enabled: true,
    signIn: (door, outcome) => (outcome === 'failure' ? m.signInFailures : m.lockouts).labels(door).inc(),
    readLimitRefused: (kind) => m.readLimitRefusals.labels(kind).inc(),
    jobRan: (job, ok, ms) => {
      m.jobRuns.labels(job, ok ? 'success' : 'failure').inc();
      m.jobDuration.labels(job).observe(ms / 1000);
    },
    backupFailed: () => m.backupFailures.inc(),
    unmatched: (request, reply, done) => {
      reply.raw.once('close', () => unmatchedHook.call(app, request, reply, noop));
      done();
    },
  };
}

type Made = ReturnType<typeof makeMetrics>;

function makeMetrics(registry: client.Registry) {
  const registers = [registry];
  return {
    registry,
    requestDuration: new FastHistogram(
      'http_request_duration_seconds',
      'Requests by method, route template and status class, from arrival to the answer sent',
      ['method', 'route', 'status_class'],
      REQUEST_BUCKETS,
      registry,
    ),
    forbidden: new client.Counter({
      name: 'dealer_forbidden_total',
      help: 'Answers 403 (no permission) by route template',
      labelNames: ['route'] as const,
      registers,
    }),
    statementDuration: new FastHistogram(
      'dealer_db_statement_duration_seconds',
      'Database statements by operation and (first) table',
      ['operation', 'table'],
      STATEMENT_BUCKETS,
      registry,
    ),
    dbErrors: new client.Counter({
      name: 'dealer_db_errors_total',
      help: 'Database statements that failed, by error code (SQLSTATE or SQLite code)',
      labelNames: ['code'] as const,
      registers,
    }),
    transfersInFlight: new client.Gauge({
      name: 'dealer_transfers_in_flight',
      help: 'Spreadsheet imports and exports running on this instance',
      labelNames: ['kind'] as const,
      registers,
    }),
    transferRows: new client.Counter({
      name: 'dealer_transfer_rows_total',
      help: 'Rows imported or exported',
      labelNames: ['kind'] as const,
      registers,
    }),
    transferDuration: new client.Histogram({
      name: 'dealer_transfer_duration_seconds',
      help: 'Imports and exports by kind and outcome',
      labelNames: ['kind', 'result'] as const,
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers,
    }),
    readLimitRefusals: new client.Counter({
      name: 'dealer_read_limit_refusals_total',
      help: 'Reads refused by the per-user read or export budget (429)',
      labelNames: ['kind'] as const,
      registers,
    }),
    signInFailures: new client.Counter({
      name: 'dealer_sign_in_failures_total',
      help: 'Failed sign-ins (wrong password, captcha) by front door',
      labelNames: ['door'] as const,
      registers,
    }),
    lockouts: new client.Counter({
      name: 'dealer_sign_in_lockouts_total',
      help: 'Accounts locked after too many failed passwords, by front door',
      labelNames: ['door'] as const,
      registers,
    }),
    jobRuns: new client.Counter({
      name: 'dealer_job_runs_total',
      help: 'Scheduled and manual job runs on this instance, by job (bean.method) and result',
      labelNames: ['job', 'result'] as const,
      registers,
    }),
    jobDuration: new client.Histogram({
      name: 'dealer_job_duration_seconds',
      help: 'Job runs by job',
      labelNames: ['job'] as const,
      buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
      registers,
    }),
    backupFailures: new client.Counter({
      name: 'dealer_backup_failures_total',
      help: 'Backups that failed on this instance (scheduled or manual)',
      registers,
    }),
  };
}

/** The onResponse hook of one route template. */
function requestHook(m: Made, route: string): onResponseHookHandler {
  // children by method and status class, made on first use (a route has one or two methods)
  const children: Record<string, Array<HistogramChild | undefined>> = {};
  let forbidden: client.Counter.Internal | undefined;
  return function (request, reply, done) {
    const status = reply.statusCode;
    const cls = status >= 100 && status < 600 ? (status / 100) | 0 : 5;
    const byClass = (children[request.method] ??= []);
    const child = (byClass[cls] ??= m.requestDuration.labels(request.method, route, STATUS_CLASSES[cls]));
    child.observe(reply.elapsedTime / 1000);
    if (status === 403) (forbidden ??= m.forbidden.labels(route)).inc();
    done();
  };
}

function watchDatabase(app: FastifyInstance, m: Made): void {
  const tables = new TableNames();
  type Child = HistogramChild;
  // children by operation and table name as the operation tree names it (built statements), or by
  // SQL text (raw SQL: parameterised, so their number is bounded by the code)
  const byTable: Record<Operation, Map<string, Child>> = {
    select: new Map(),
    insert: new Map(),
    update: new Map(),
    delete: new Map(),
    other: new Map(),
  };
  const bySql = new Map<string, Child>();
  const child = (operation: Operation, table: string) => m.statementDuration.labels(operation, tables.label(table));
  observeStatements(app.database, (event) => {
    const node = event.query.query;
    let found: Child | undefined;
    if (node.kind === 'RawNode') {
      const text = event.query.sql;
      found = bySql.get(text);
      if (!found) {
        const { operation, table } = statementLabels(node, text);
        found = child(operation, table);
        if (bySql.size < STATEMENT_CACHE) bySql.set(text, found);
      }
    } else {
      const { operation, table } = statementLabels(node, '');
      const known = byTable[operation];
      found = known.get(table);
      if (!found) {
        found = child(operation, table);
        if (known.size < STATEMENT_CACHE) known.set(table, found);
      }
    }
    found.observe(event.queryDurationMillis / 1000);
    if (event.level === 'error') m.dbErrors.labels(errorCodeLabel(event.error)).inc();
  });
  const kinds: Record<TransferKind, { inFlight: client.Gauge.Internal<'kind'>; rows: client.Counter.Internal }> = {
    import: { inFlight: m.transfersInFlight.labels('import'), rows: m.transferRows.labels('import') },
    export: { inFlight: m.transfersInFlight.labels('export'), rows: m.transferRows.labels('export') },
  };
  setTransferSink(app.database, {
    started(kind) {
      const k = kinds[kind];
      k.inFlight.inc();
      const start = performance.now();
      let ended = false;
      return {
        rows: (n) => k.rows.inc(n),
        end(ok) {
          if (ended) return;
          ended = true;
          k.inFlight.dec();
          m.transferDuration.labels(kind, ok ? 'success' : 'failure').observe((performance.now() - start) / 1000);
        },
      };
    },
  });
}

/** Free bytes and the free share of the volume holding `dir`, or undefined when it cannot be read. */
async function freeSpace(dir: string): Promise<{ bytes: number; ratio: number } | undefined> {
  try {
    const s = await statfs(dir);
    const total = s.blocks * s.bsize;
    return { bytes: s.bavail * s.bsize, ratio: total > 0 ? s.bavail / s.blocks : 0 };
  } catch {
    return undefined;
  }
}

/** Gauges read when Prometheus scrapes: pool, sockets, readiness, disks, backups. */
function registerScrapeCollectors(app: FastifyInstance, m: Made): void {
  const registers = [m.registry];
  const { config } = app;
  new client.Gauge({
    name: 'dealer_db_pool_connections',
    help: 'PostgreSQL pool connections of this instance, in use and idle (absent on SQLite)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const s = poolState(app.database);
      if (!s) return;
      this.set({ state: 'in_use' }, s.total - s.idle);
      this.set({ state: 'idle' }, s.idle);
    },
  });
  new client.Gauge({
    name: 'dealer_db_pool_waiting',
    help: 'Requests waiting for a PostgreSQL pool connection on this instance',
    registers,
    collect() {
      const s = poolState(app.database);
      if (s) this.set(s.waiting);
    },
  });
  const hub = () => (app.hasDecorator('hub') ? app.hub : undefined);
  new client.Gauge({
    name: 'dealer_realtime_sockets_open',
    help: 'Websockets open on this instance',
    registers,
    collect() {
      this.set(hub()?.size ?? 0);
    },
  });
  let sentSeen = 0;
  new client.Counter({
    name: 'dealer_realtime_messages_sent_total',
    help: 'Messages sent to websockets by this instance',
    registers,
    collect() {
      const sent = hub()?.sentMessages ?? 0;
      if (sent > sentSeen) this.inc(sent - sentSeen);
      sentSeen = sent;
    },
  });
  new client.Gauge({
    name: 'dealer_ready',
    help: 'Whether GET /api/health/ready answers 200 on this instance (1) or not (0)',
    registers,
    async collect() {
      this.set((await app.health.ready()) ? 1 : 0);
    },
  });
  const dirs: Array<[string, string]> = [
    ['data', config.dataDir],
    ['backup', config.backupDir],
  ];
  new client.Gauge({
    name: 'dealer_disk_free_bytes',
    help: 'Free bytes (for the server user) of the volume holding DATA_DIR (dir="data") and BACKUP_DIR (dir="backup")',
    labelNames: ['dir'] as const,
    registers,
    async collect() {
      for (const [dir, path] of dirs) {
        const free = await freeSpace(path);
        if (free) this.set({ dir }, free.bytes);
      }
    },
  });
  new client.Gauge({
    name: 'dealer_disk_free_ratio',
    help: 'Free share (0 to 1) of the volume holding DATA_DIR (dir="data") and BACKUP_DIR (dir="backup")',
    labelNames: ['dir'] as const,
    registers,
    async collect() {
      for (const [dir, path] of dirs) {
        const free = await freeSpace(path);
        if (free) this.set({ dir }, free.ratio);
      }
    },
  });
  // shared facts: the backup folder and the job log (every instance reports the same values)
  const lastBackup = async () => {
    const newest = (await listBackups(config.backupDir).catch(() => []))[0];
    if (!newest) return undefined;
    const s = await stat(join(config.backupDir, newest.name)).catch(() => undefined);
    return s ? { at: s.mtimeMs / 1000, size: newest.size } : undefined;
  };
  new client.Gauge({
    name: 'dealer_backup_last_success_timestamp_seconds',
    help: 'When the newest backup in BACKUP_DIR was written (Unix seconds; shared: the same on every instance)',
    registers,
    async collect() {
      const b = await lastBackup();
      if (b) this.set(b.at);
    },
  });
  new client.Gauge({
    name: 'dealer_backup_last_success_bytes',
    help: 'Size of the newest backup in BACKUP_DIR (shared: the same on every instance)',
    registers,
    async collect() {
      const b = await lastBackup();
      if (b) this.set(b.size);
    },
  });
  new client.Gauge({
    name: 'dealer_backup_last_scheduled_failed',
    help: 'Whether the last scheduled backup (定时备份) failed (1) or not (0), from the job log (shared: the same on every instance)',
    registers,
    async collect() {
      const last = await lastScheduled(app.database).catch(() => undefined);
      this.set(last && !last.success ? 1 : 0);
    },
  });
}
