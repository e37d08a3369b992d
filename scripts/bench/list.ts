/**
 * npm run bench:list [-- --rows N --duration S --connections C --only sqlite|postgres --keep DIR --scenario TEXT]
 *
 * Seeds the feedback table (default 1,000,000 rows), signs in as admin, then for each scenario:
 * - HTTP: autocannon, C connections for S seconds against GET /api/sysQuestion?... on 127.0.0.1
 *   with the bearer token (the full route: auth, validation, query, count, JSON);
 * - direct: the SQL that route ran for one request (captured from Kysely, so the same text and
 *   parameters, page select and count as the route does them), replayed by C async callers in
 *   this process for S seconds on the app's own connection.
 * Prints req/s and latency percentiles, pages/s, their ratio and the targets (ratio >= 0.9,
 * p95 < 50 ms). Runs on SQLite, and on PostgreSQL when DATABASE_URL or TEST_DATABASE_URL is set.
 * Figures only: exits 0 whatever they are, non-zero only when something is broken.
 */
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { sql, type CompiledQuery, type SelectQueryBuilder } from 'kysely';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  buildBenchApp,
  cpuLine,
  cpuSnapshot,
  createTarget,
  fmt,
  heading,
  keptTarget,
  listenLoopback,
  parseArgs,
  printTable,
  signInAdmin,
  timed,
  usage,
  verdict,
  type BenchOptions,
} from './common.ts';
import { captureQueries } from './capture.ts';
import { directLoad, httpLoad, settle, type LoadResult } from './load.ts';
import { QUESTION_TABLE, SPAN_SECONDS, col, createTimeAt, seedQuestions } from './seed.ts';
import type { Dialect, Tables } from '../../src/server/types.ts';
import { resourceByName } from '../../src/generated/resources.ts';
import { parseListQuery } from '../../src/server/crud/query/query.ts';
import { FULL_ACCESS } from '../../src/server/crud/access/field-access.ts';
import { listPage } from '../../src/server/crud/repository.ts';

const spec = resourceByName.sysQuestion;

const TARGET_RATIO = 0.9;
const TARGET_P95_MS = 50;
const PATH = '/api/sysQuestion';

interface Scenario {
  name: string;
  query: string;
  /** the true number of matching rows, counted here with plain SQL */
  trueCount: number;
  /** the first id the page must show */
  firstId: number | null;
  /** rows before the page */
  offset: number;
  pageSize: number;
}

interface Outcome {
  dialect: Dialect;
  scenario: Scenario;
  totalElements: number;
  contentOk: boolean;
  /** SQL on the table of the first request (may include the full count that fills the cache) */
  coldSql: string[];
  /** SQL on the table of a steady-state request */
  sqlText: string[];
  sameSql: boolean;
  /** every query of a steady-state request, the sign-in check included */
  queriesPerRequest: number;
  httpCpu: string;
  directCpu: string;
  http: LoadResult;
  direct: LoadResult;
  /** a bare Fastify answering the same JSON text: the cost of HTTP itself on this machine */
  floor: LoadResult;
}

/**
 * The HTTP floor: a bare Fastify app in this process that answers the route's own response text
 * with no auth, no query and no serialisation, loaded the same way. No route can be faster, so
 * the best ratio any route can reach for a query is db / (db + floor).
 */
async function httpFloor(bodyText: string, opts: BenchOptions): Promise<LoadResult> {
  const bare = Fastify({ logger: false });
  bare.get('/floor', (_req, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8').send(bodyText);
  });
  try {
    const base = await listenLoopback(bare);
    await httpLoad(`${base}/floor`, { connections: opts.connections, duration: 1, headers: {} });
    return await httpLoad(`${base}/floor`, { connections: opts.connections, duration: opts.duration, headers: {} });
  } finally {
    await bare.close();
  }
}

/** A scenario's filter on the feedback table's query, whatever the query selects. */
type Filter = <O>(q: SelectQueryBuilder<Tables, string, O>) => SelectQueryBuilder<Tables, string, O>;

async function countWhere(app: FastifyInstance, build: Filter): Promise<number> {
  const r = await build(
    app.database.db.selectFrom(QUESTION_TABLE).select((eb) => eb.fn.countAll<number>().as('n')),
  ).executeTakeFirstOrThrow();
  return Number(r.n);
}

async function firstIdWhere(app: FastifyInstance, build: Filter, offset: number): Promise<number | null> {
  const r = await build(app.database.db.selectFrom(QUESTION_TABLE).select('id'))
    .orderBy('id', 'desc')
    .limit(1)
    .offset(offset)
    .executeTakeFirst();
  return r ? Number(r.id) : null;
}

async function scenarios(app: FastifyInstance, rows: number): Promise<Scenario[]> {
  const model: Filter = (q) => q.where(col('model'), '=', '销售');
  const page = 500;
  const size = 15;
  const probeId = Math.max(1, Math.floor(rows * 0.37));
  const byId: Filter = (q) => q.where('id', '=', probeId);
  // a window holding about 40 rows (one hour at 1M rows)
  const windowSeconds = Math.max(3600, Math.ceil((SPAN_SECONDS * 40) / rows));
  const from = createTimeAt(Math.floor(rows / 2), rows);
  const to = new Date(Date.parse(from.replace(' ', 'T') + 'Z') + windowSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
  const range: Filter = (q) => q.where(col('createTime'), '>=', from).where(col('createTime'), '<=', to);
  const enc = encodeURIComponent;
  const done = app.database.dialect === 'sqlite' ? 1 : true;
  const modelDone: Filter = (q) => q.where(col('model'), '=', '销售').where(col('status'), '=', done as never);
  return [
    {
      name: `page ${page}, model=销售`,
      query: `${PATH}?page=${page}&size=${size}&sort=id,desc&model=${enc('销售')}`,
      trueCount: await countWhere(app, model),
      firstId: await firstIdWhere(app, model, page * size),
      offset: page * size,
      pageSize: size,
    },
    {
      // the issue's scenario: two filters served by the schema's (model, status, id) index
      name: `page ${page}, model=销售 status=已处理`,
      query: `${PATH}?page=${page}&size=${size}&sort=id,desc&model=${enc('销售')}&status=true`,
      trueCount: await countWhere(app, modelDone),
      firstId: await firstIdWhere(app, modelDone, page * size),
      offset: page * size,
      pageSize: size,
    },
    {
      name: `blurry=${probeId}`,
      query: `${PATH}?page=0&size=${size}&sort=id,desc&blurry=${probeId}`,
      trueCount: await countWhere(app, byId),
      firstId: await firstIdWhere(app, byId, 0),
      offset: 0,
      pageSize: size,
    },
    {
      name: `createTime ${Math.round(windowSeconds / 60)} min`,
      query: `${PATH}?page=0&size=${size}&sort=id,desc&createTime=${enc(from)}&createTime=${enc(to)}`,
      trueCount: await countWhere(app, range),
      firstId: await firstIdWhere(app, range, 0),
      offset: 0,
      pageSize: size,
    },
  ];
}

async function getJson(base: string, path: string, token: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, body };
}

function oneLine(q: CompiledQuery): string {
  const params = q.parameters.map((p) => JSON.stringify(p)).join(', ');
  return `${q.sql.replace(/\s+/g, ' ')}${params ? `  -- [${params}]` : ''}`;
}

/** The query string as Fastify hands it to the route: repeated keys become arrays. */
function queryObject(path: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URL(path, 'http://x').searchParams) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

const sqlOf = (qs: CompiledQuery[]) => qs.filter((q) => q.sql.includes(QUESTION_TABLE)).map(oneLine);

async function runScenario(
  app: FastifyInstance,
  dialect: Dialect,
  base: string,
  token: string,
  sc: Scenario,
  opts: BenchOptions,
): Promise<Outcome> {
  const headers = { authorization: `Bearer ${token}` };
  await settle(captureQueries);
  // the first request may count everything and fill the count cache; the third is the steady state
  const cold = await captureQueries(() => getJson(base, sc.query, token));
  await getJson(base, sc.query, token);
  const probeStart = performance.now();
  const { result: probe, queries } = await captureQueries(() => getJson(base, sc.query, token));
  // a slow query gains nothing from warming up, and 32 of them in flight take long to drain
  const warmUp = performance.now() - probeStart < 100;
  if (probe.status !== 200) throw new Error(`GET ${sc.query} answered ${probe.status}: ${JSON.stringify(probe.body)}`);
  const body = probe.body as { content: Array<{ id: number }>; totalElements: number };
  const expectedLength = Math.min(sc.pageSize, Math.max(0, sc.trueCount - sc.offset));
  const contentOk =
    Array.isArray(body.content) && body.content.length === expectedLength && (expectedLength === 0 || body.content[0].id === sc.firstId);

  // the direct run: the route's own page + count function on the app's database, same parameters
  const params = parseListQuery(spec, queryObject(sc.query), FULL_ACCESS);
  const work = () => listPage(app.database, spec, params);
  const direct1 = await captureQueries(work);
  const httpSql = sqlOf(queries);
  const directSql = sqlOf(direct1.queries);
  const sameSql = httpSql.join('\n') === directSql.join('\n');
  if (!sameSql)
    console.log(
      `  note: the direct run's SQL differs from the route's:\n    route:  ${httpSql.join('\n            ')}\n    direct: ${directSql.join('\n            ')}`,
    );

  if (warmUp) {
    await httpLoad(base + sc.query, { connections: opts.connections, duration: 1, headers });
    await settle(captureQueries);
  }
  // PostgreSQL's CPU: only the backends of this benchmark's database (the pool is warm by now)
  const pgPids =
    dialect === 'postgres'
      ? (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(app.database.db)).rows.map(
          (r) => r.pid,
        )
      : [];
  const snap = () => cpuSnapshot([], pgPids);
  let cpu0 = snap();
  const http = await httpLoad(base + sc.query, { connections: opts.connections, duration: opts.duration, headers });
  const cpu1 = snap();
  const httpCpu = cpuLine(cpu0, cpu1, http.seconds) + perRequestCpu(cpu0, cpu1, http.perSecond * http.seconds);
  await settle(captureQueries);
  if (warmUp) await directLoad(work, { connections: opts.connections, duration: 1 });
  cpu0 = snap();
  const direct = await directLoad(work, { connections: opts.connections, duration: opts.duration });
  const cpu2 = snap();
  const directCpu = cpuLine(cpu0, cpu2, direct.seconds) + perRequestCpu(cpu0, cpu2, direct.perSecond * direct.seconds);
  const floor = await httpFloor(JSON.stringify(probe.body), opts);
  return {
    dialect,
    scenario: sc,
    totalElements: body.totalElements,
    contentOk,
    coldSql: sqlOf(cold.queries),
    sqlText: httpSql,
    queriesPerRequest: queries.length,
    sameSql,
    http,
    direct,
    httpCpu,
    directCpu,
    floor,
  };
}

/**
 * CPU time per request of this process (server and load generator) and of PostgreSQL: unlike the
 * rates, waiting for a core that other work holds does not add to it, so runs on a busy machine
 * can still be compared (contention still inflates it somewhat: caches, context switches).
 */
function perRequestCpu(a: ReturnType<typeof cpuSnapshot>, b: ReturnType<typeof cpuSnapshot>, requests: number): string {
  if (!a || !b || !requests) return '';
  const us = (k: 'self' | 'postgres') => fmt(((b[k] - a[k]) * 1e6) / requests);
  return `; per request: this process ${us('self')} µs, PostgreSQL ${us('postgres')} µs`;
}

/** db / (db + floor): the ratio of a route that added nothing to HTTP and the query */
const bestRatio = (o: Outcome) => 1 / o.direct.perSecond / (1 / o.direct.perSecond + 1 / o.floor.perSecond);
/** time per request spent neither in HTTP itself nor in the query: auth, checks, serialisation */
const stackMs = (o: Outcome) => 1000 * (1 / o.http.perSecond - 1 / o.direct.perSecond - 1 / o.floor.perSecond);

async function benchDialect(dialect: Dialect, opts: BenchOptions): Promise<Outcome[]> {
  heading(`${dialect}: ${fmt(opts.rows)} rows, ${opts.connections} connections, ${opts.duration} s per run`);
  // --keep DIR: the seeded rows stay for the next run with the same DIR
  const target =
    typeof opts.keep === 'string' ? await keptTarget(dialect, resolve(opts.keep), `list${opts.rows}`) : await createTarget(dialect);
  let app: FastifyInstance | undefined;
  try {
    app = await timed('build app', () => buildBenchApp(target));
    const added = await timed('seed', () => seedQuestions(app!.database, opts.rows));
    console.log(`rows added: ${fmt(added)}`);
    const token = await signInAdmin(app);
    const base = await listenLoopback(app);
    // --scenario TEXT: only the scenarios whose name holds TEXT (e.g. status, the issue's one)
    const only = typeof opts.scenario === 'string' ? opts.scenario : '';
    const list = (await scenarios(app, opts.rows)).filter((sc) => sc.name.includes(only));
    const out: Outcome[] = [];
    for (const sc of list) {
      const o = await runScenario(app, dialect, base, token, sc, opts);
      console.log(`\n${sc.name}: GET ${sc.query}`);
      console.log(
        `  totalElements ${fmt(o.totalElements)} (true count ${fmt(sc.trueCount)}${o.totalElements === sc.trueCount ? ', exact' : ', NOT exact'}), page content ${o.contentOk ? 'correct' : 'WRONG'}`,
      );
      console.log(`  SQL of the first request:`);
      for (const line of o.coldSql) console.log(`    ${line}`);
      console.log(
        `  SQL of each later request on ${QUESTION_TABLE}${o.sameSql ? ' (the direct run runs the same)' : ''}; ${o.queriesPerRequest} queries per request in all:`,
      );
      for (const line of o.sqlText) console.log(`    ${line}`);
      const failures = o.http.failures ? `, ${fmt(o.http.failures)} failed (${JSON.stringify(o.http.statusCodes)})` : '';
      console.log(
        `  HTTP ${fmt(o.http.perSecond)} req/s, p50 ${fmt(o.http.p50)} ms, p95 ${fmt(o.http.p95)} ms, p99 ${fmt(o.http.p99)} ms${failures}`,
      );
      if (o.httpCpu) console.log(`    ${o.httpCpu}`);
      console.log(`  direct ${fmt(o.direct.perSecond)} pages/s (${fmt(1000 / o.direct.perSecond, 2)} ms of database work per page)`);
      if (o.directCpu) console.log(`    ${o.directCpu}`);
      console.log(
        `  HTTP floor (bare Fastify, same JSON): ${fmt(o.floor.perSecond)} req/s; best ratio reachable ${fmt(bestRatio(o), 2)}; our stack adds ${fmt(stackMs(o) * 1000)} µs per request`,
      );
      out.push(o);
    }
    return out;
  } finally {
    await app?.close();
    await target.cleanup();
  }
}

async function main(): Promise<void> {
  let opts: BenchOptions;
  try {
    opts = parseArgs(process.argv.slice(2), { rows: 1_000_000 });
  } catch (e) {
    console.error(`${(e as Error).message}\n${usage('list')}`);
    process.exit(2);
  }
  console.log(`list benchmark: node ${process.version}, ${cpus().length} cores, dialects: ${opts.dialects.join(', ')}`);
  const all: Outcome[] = [];
  for (const d of opts.dialects) all.push(...(await benchDialect(d, opts)));

  heading('summary');
  const rows: string[][] = [
    [
      'dialect',
      'scenario',
      'HTTP req/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'direct pages/s',
      'ratio',
      'best ratio',
      `ratio>=${TARGET_RATIO}`,
      `p95<${TARGET_P95_MS}ms`,
      'count',
    ],
  ];
  for (const o of all) {
    const ratio = o.http.perSecond / o.direct.perSecond;
    rows.push([
      o.dialect,
      o.scenario.name,
      fmt(o.http.perSecond),
      fmt(o.http.p50),
      fmt(o.http.p95),
      fmt(o.http.p99),
      fmt(o.direct.perSecond),
      fmt(ratio, 2),
      fmt(bestRatio(o), 2),
      verdict(ratio >= TARGET_RATIO),
      verdict(o.http.p95 < TARGET_P95_MS),
      o.totalElements === o.scenario.trueCount ? 'exact' : `${o.totalElements} vs ${o.scenario.trueCount}`,
    ]);
  }
  printTable(rows);
  // slow is a figure; wrong answers and error statuses mean something is broken
  const broken = all.filter(
    (o) => !o.contentOk || o.totalElements !== o.scenario.trueCount || Object.keys(o.http.statusCodes).some((c) => !c.startsWith('2')),
  );
  if (broken.length) {
    console.log(`\nbroken: ${broken.map((o) => `${o.dialect} ${o.scenario.name}`).join('; ')} (wrong page, wrong count or error answers)`);
    process.exitCode = 1;
  }
}

await main();
