/**
 * npm run bench:pinyin [-- --rows N --duration S --connections C --only sqlite|postgres]
 *
 * Pinyin search at scale (docs/pinyin-search.md). Seeds the vehicle settlement list (xsZjs: its
 * `blurry` searches the customer's name, `x-pinyin: name`, and the model, `x-pinyin: text`)
 * with N rows (default 1,000,000) of realistic Chinese names, their pinyin keys written beside
 * them as the app writes them, then for `blurry=zs` (initials), `blurry=zhang` (full pinyin),
 * `blurry=zhangw` (mixed) and the plain character search `blurry=张` prints:
 * - the total, checked against the rule applied in this process to every seeded name;
 * - the page plan (`set`: the key ranges as a set of ids; `walk`: the table in id order, each
 *   row's keys probed, for a common prefix) and the SQL of one uncached page and one uncached
 *   count (median of 5 each, ms);
 * - the first request (page and total counted), then the median of 30 requests one after the
 *   other (the count may come from the count cache, as it does in use), and the median of 10
 *   requests each right after a write elsewhere in the table (on SQLite nothing kept serves them);
 * - req/s and latency with C connections for S seconds (autocannon over HTTP on 127.0.0.1).
 * Targets (issue): page + total median <= 20 ms on SQLite and PostgreSQL, >= 800 req/s on SQLite.
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL or TEST_DATABASE_URL is set. Figures only.
 * First the same route without blurry (the reference of the run, on a shared machine), and the
 * ratio of each query's req/s to it. `--queries zs,zhang` runs only those.
 * `--keep DIR` keeps the seeded data for the next run with the same DIR (seeding 1M rows takes
 * minutes): the SQLite data directory is DIR/sqlite-pinyin, the PostgreSQL database is named after DIR,
 * and the expected totals are kept beside them; remove DIR (and drop the database) when done.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { resourceByName } from '../../src/generated/resources.ts';
import { pinyinKeys, pinyinQuery } from '../../src/shared/pinyin.ts';
import { pinyinTable } from '../../src/server/crud/pinyin/pinyin-search.ts';
import { pinyinStoredKeys } from '../../src/server/crud/pinyin/pinyin-keys.ts';
import { pinyinPagePlan } from '../../src/server/crud/pinyin/pinyin-plan.ts';
import { parseListQuery } from '../../src/server/crud/query/query.ts';
import { FULL_ACCESS } from '../../src/server/crud/access/field-access.ts';
import { compiledPageQuery, filteredQuery } from '../../src/server/crud/repository.ts';
import type { Database, Dialect } from '../../src/server/types.ts';
import {
  buildBenchApp,
  createTarget,
  keptTarget,
  fmt,
  heading,
  listenLoopback,
  parseArgs,
  printTable,
  signInAdmin,
  timed,
  usage,
  verdict,
} from './common.ts';
import { httpLoad, percentile } from './load.ts';
import { mulberry32 } from './random.ts';

const spec = resourceByName.xsZjs;
const PATH = `/${spec.path}`;
const column = (name: string) => spec.fields.find((f) => f.name === name)!.column;
const NAME = spec.fields.find((f) => f.name === 'customerName')!;
const MODEL = spec.fields.find((f) => f.name === 'cx')!;

// common surnames (roughly by frequency, with the polyphonic and surname-reading ones) and given-name characters
const SURNAMES = Array.from(
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤单解仇区朴',
);
const GIVEN = Array.from(
  '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉萍红娥玲芬燕彬鹏辉建国志文斌宇浩凯晨阳欣怡子轩梓涵雨泽一诺思远佳琪家豪俊杰嘉怡浩然天佑',
);
const MODELS = [
  '朗逸',
  '速腾',
  '迈腾',
  '帕萨特',
  '凯美瑞',
  '卡罗拉',
  '雅阁',
  '思域',
  '轩逸',
  '天籁',
  '奥迪A6L',
  '宝马5系',
  '汉EV',
  '秦PLUS',
  '理想L7',
  '长安CS75',
];
const BRANDS = ['大众', '丰田', '本田', '日产', '奥迪', '宝马', '比亚迪', '理想', '长安'];

interface Seeded {
  /** per query: rows the rule says match */
  expected: Map<string, number>;
}

const QUERIES = ['zs', 'zhang', 'zhangw', '张'];

/** Rows 1..N with names, the keys of both marked fields, and the expected totals. */
async function seed(database: Database, rows: number): Promise<Seeded> {
  const rand = mulberry32(7);
  // the keys as the server stores them; the expected totals come from the rule's keys in memory
  const modelKeys = new Map(MODELS.map((m) => [m, pinyinKeys(m, 'text')]));
  const modelStored = new Map(MODELS.map((m) => [m, pinyinStoredKeys(m, 'text')]));
  const expected = new Map(QUERIES.map((q) => [q, 0]));
  const prefixes = QUERIES.map((q) => [q, pinyinQuery(q)] as const);
  const batch = 20_000;
  const cols = ['orgId', 'settleDate', 'customerName', 'brand', 'cx', 'amount'].map(column);
  const nameSide = pinyinTable(spec, NAME);
  const modelSide = pinyinTable(spec, MODEL);
  let sqlite: SQLite.Database | undefined;
  if (database.dialect === 'sqlite') {
    const r = await sql<{ name: string; file: string }>`pragma database_list`.execute(database.db);
    sqlite = new SQLite(r.rows.find((x) => x.name === 'main')!.file);
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('cache_size = -500000');
  }
  for (let from = 1; from <= rows; from += batch) {
    const n = Math.min(batch, rows - from + 1);
    const data: unknown[][] = [];
    const nameKeys: Array<[string, number]> = [];
    const cxKeys: Array<[string, number]> = [];
    for (let i = 0; i < n; i++) {
      const id = from + i;
      const given = GIVEN[Math.floor(rand() * GIVEN.length)] + (rand() < 0.7 ? GIVEN[Math.floor(rand() * GIVEN.length)] : '');
      const name = SURNAMES[Math.floor(Math.pow(rand(), 1.6) * SURNAMES.length)] + given;
      const model = MODELS[Math.floor(rand() * MODELS.length)];
      const day = 1 + (id % 28);
      data.push([
        id,
        1,
        `2025-${String(1 + (id % 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
        name,
        BRANDS[id % BRANDS.length],
        model,
        100_000 + (id % 900) * 100,
      ]);
      const keys = pinyinKeys(name, 'name');
      for (const k of pinyinStoredKeys(name, 'name')) nameKeys.push([k, id]);
      const mk = modelKeys.get(model)!;
      for (const k of modelStored.get(model)!) cxKeys.push([k, id]);
      for (const [q, p] of prefixes) {
        const hit = p ? keys.some((k) => k.startsWith(p)) || mk.some((k) => k.startsWith(p)) : name.includes(q) || model.includes(q);
        if (hit) expected.set(q, expected.get(q)! + 1);
      }
    }
    if (sqlite) {
      const insertRow = sqlite.prepare(`insert into "${spec.table}" (id, ${cols.map((c) => `"${c}"`).join(',')}) values (?,?,?,?,?,?,?)`);
      const insertName = sqlite.prepare(`insert or ignore into "${nameSide}" (key, row_id) values (?, ?)`);
      const insertModel = sqlite.prepare(`insert or ignore into "${modelSide}" (key, row_id) values (?, ?)`);
      sqlite.transaction(() => {
        for (const d of data) insertRow.run(...d);
        for (const [k, id] of nameKeys) insertName.run(k, id);
        for (const [k, id] of cxKeys) insertModel.run(k, id);
      })();
    } else {
      const col = (i: number) => data.map((d) => d[i]);
      await sql`insert into ${sql.table(spec.table)} (id, ${sql.join(cols.map((c) => sql.ref(c)))})
        select * from unnest(${col(0)}::bigint[], ${col(1)}::bigint[], ${col(2)}::date[], ${col(3)}::text[], ${col(4)}::text[], ${col(5)}::text[], ${col(6)}::bigint[])`.execute(
        database.db,
      );
      for (const [table, keys] of [
        [nameSide, nameKeys],
        [modelSide, cxKeys],
      ] as const) {
        await sql`insert into ${sql.table(table)} (key, row_id) select * from unnest(${keys.map((k) => k[0])}::text[], ${keys.map((k) => k[1])}::bigint[])
          on conflict do nothing`.execute(database.db);
      }
    }
  }
  sqlite?.close();
  if (database.dialect === 'postgres') {
    await sql`select setval(pg_get_serial_sequence(${spec.table}, 'id'), ${rows})`.execute(database.db);
    for (const t of [spec.table, nameSide, modelSide]) await sql`vacuum analyze ${sql.table(t)}`.execute(database.db);
  } else {
    await sql`analyze`.execute(database.db);
  }
  return { expected };
}

async function medianMs(times: number, work: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await work();
    ms.push(performance.now() - t0);
  }
  return percentile(
    ms.sort((a, b) => a - b),
    50,
  );
}

async function get(base: string, path: string, token: string): Promise<{ totalElements: number; content: unknown[] }> {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { totalElements: number; content: unknown[] };
}

async function runDialect(dialect: Dialect, opts: ReturnType<typeof parseArgs>): Promise<string[][]> {
  const keep = typeof opts.keep === 'string' ? resolve(opts.keep) : undefined;
  const target = keep ? await keptTarget(dialect, keep, 'pinyin') : await createTarget(dialect);
  const kept = keep ? join(keep, `${dialect}-${opts.rows}.json`) : undefined;
  let app: FastifyInstance | undefined;
  try {
    app = await buildBenchApp(target);
    const database = app.database;
    let expected: Map<string, number>;
    if (kept && existsSync(kept)) {
      expected = new Map(JSON.parse(readFileSync(kept, 'utf8')) as Array<[string, number]>);
      console.log(`${dialect}: ${opts.rows} rows kept from an earlier run (${kept})`);
    } else {
      ({ expected } = await timed(`${dialect}: seeded ${opts.rows} rows with their pinyin keys`, () => seed(database, opts.rows)));
      if (kept) writeFileSync(kept, JSON.stringify([...expected]));
    }
    const base = await listenLoopback(app);
    const token = await signInAdmin(app);
    const out: string[][] = [];
    // the plain first page of the same route, without blurry, first: the reference of this run
    const asked = typeof opts.queries === 'string' ? opts.queries.split(',').filter((q) => QUERIES.includes(q)) : QUERIES;
    let reference = 0;
    for (const q of ['', ...asked]) {
      const path = `${PATH}?page=0&size=10&sort=id,desc${q ? `&blurry=${encodeURIComponent(q)}` : ''}`;
      const params = parseListQuery(spec, { page: '0', size: '10', sort: 'id,desc', ...(q ? { blurry: q } : {}) }, FULL_ACCESS);
      const planned = await pinyinPagePlan(database, spec, params);
      const plan = planned === params ? 'set' : 'walk';
      const pageSql = await medianMs(5, () => database.db.executeQuery(compiledPageQuery(database, spec, planned)));
      const countSql = await medianMs(5, () =>
        filteredQuery(database, spec, params.conditions)
          .clearSelect()
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst(),
      );
      const t0 = performance.now();
      const first = await get(base, path, token);
      const firstMs = performance.now() - t0;
      const median = await medianMs(30, () => get(base, path, token));
      // the same request right after a write that changes no row of the search (another row's
      // remark): on SQLite the change stamp moves, so nothing kept from before serves it
      const touch = sql`update ${sql.table(spec.table)} set ${sql.ref(column('remark'))} = ${sql.ref(column('remark'))} where id = 1`;
      const afterWrite: number[] = [];
      for (let i = 0; i < 10; i++) {
        await touch.execute(database.db);
        const t1 = performance.now();
        await get(base, path, token);
        afterWrite.push(performance.now() - t1);
      }
      const load = await httpLoad(base + path, {
        connections: opts.connections,
        duration: opts.duration,
        headers: { authorization: `Bearer ${token}` },
      });
      const want = q ? expected.get(q)! : opts.rows;
      if (!q) reference = load.perSecond;
      out.push([
        dialect,
        q ? `blurry=${q}` : 'no blurry',
        q ? plan : '-',
        `${first.totalElements}${first.totalElements === want ? '' : ` (expected ${want})`}`,
        fmt(pageSql, 1),
        fmt(countSql, 1),
        fmt(firstMs, 1),
        fmt(median, 1),
        fmt(
          percentile(
            afterWrite.sort((a, b) => a - b),
            50,
          ),
          1,
        ),
        fmt(load.perSecond),
        q ? fmt(load.perSecond / reference, 2) : '1',
        `${fmt(load.p50)}/${fmt(load.p95)}`,
        String(load.failures),
        !q ? 'reference' : q === '张' ? 'plain' : verdict(median <= 20 && (dialect !== 'sqlite' || load.perSecond >= 800)),
      ]);
    }
    return out;
  } finally {
    await app?.close();
    await target.cleanup();
  }
}

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2), { rows: 1_000_000, duration: 10, connections: 32 });
  } catch (e) {
    console.error(`${(e as Error).message}\n${usage('pinyin')}`);
    process.exit(2);
  }
  heading(`pinyin search, ${opts.rows} rows of ${spec.title}, ${opts.connections} connections, ${opts.duration} s`);
  const rows: string[][] = [
    [
      'db',
      'query',
      'plan',
      'total',
      'page SQL ms',
      'count SQL ms',
      'first req ms',
      'median ms',
      'after a write ms',
      'req/s',
      'req/s ÷ no blurry',
      'p50/p95 ms',
      'failed',
      'target',
    ],
  ];
  for (const d of opts.dialects) rows.push(...(await runDialect(d, opts)));
  printTable(rows);
  console.log(
    'target: median <= 20 ms (page + total) on both, >= 800 req/s on SQLite; "no blurry" is the same route without a search (the reference of the run: the machine may be busy), 张 the plain character search',
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
