/**
 * npm run bench:pinyin-import [-- --rows N --only sqlite|postgres]
 *
 * The import path of a table with marked fields (docs/pinyin-search.md): N rows (default
 * 100,000) of the roster (员工花名册: 姓名 `x-pinyin: name`, 岗位 `x-pinyin: text`, eight job
 * titles of four to six characters) stored by `insertAll` in one transaction, as an import
 * stores its sheet, the pinyin keys of both fields computed and written with them. Prints the
 * seconds, this process's peak RSS (sampled every 20 ms) and its rise over the RSS before the
 * import (the process holds the TypeScript loader too), the keys stored per text, then
 * checks that a few pinyin searches answer the count the rule gives in memory; then imports the
 * same rows again with the fields unmarked (no keys), for the share of the keys in the same run.
 * Each import also prints this process's CPU seconds (the database's own work included on SQLite,
 * not on PostgreSQL, whose server is another process).
 * Target (issue): 100,000 rows within 10 s and 300 MB with the readings computed. Figures only:
 * exits non-zero only when something is broken (a wrong count).
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { resourceByName } from '../../src/generated/resources.ts';
import { filteredQuery, insertAll } from '../../src/server/crud/repository.ts';
import { parseListQuery } from '../../src/server/crud/query/query.ts';
import { FULL_ACCESS } from '../../src/server/crud/access/field-access.ts';
import { pinyinTable } from '../../src/server/crud/pinyin/pinyin-search.ts';
import { pinyinKeys, pinyinQuery } from '../../src/shared/pinyin.ts';
import type { Dialect } from '../../src/server/types.ts';
import { JOBS, rosterRecords } from './roster-rows.ts';
import { buildBenchApp, createTarget, fmt, heading, mb, parseArgs, printTable, usage, verdict } from './common.ts';

const spec = resourceByName.staff;
const NAME = spec.fields.find((f) => f.name === 'name')!;
const JOB = spec.fields.find((f) => f.name === 'job')!;
const QUERIES = ['zs', 'zhang', 'zwei', 'zhangwm', 'xsgw', 'xiaoshougw', 'sctgjl', 'cqqyjl', 'zhongqingqy'];

/** CPU seconds of this process (user and system) since `from`: less moved by other work on the machine than the clock */
function cpuSeconds(from: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
}

async function runDialect(dialect: Dialect, rows: number): Promise<string[]> {
  const target = await createTarget(dialect);
  let app: FastifyInstance | undefined;
  try {
    app = await buildBenchApp(target);
    const database = app.database;
    const data = rosterRecords(rows);
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const stored = await insertAll(database, spec, data);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(c0);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
    const keys: number[] = [];
    for (const f of [NAME, JOB]) {
      const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(pinyinTable(spec, f))}`.execute(database.db);
      keys.push(Number(r.rows[0].n));
    }
    // the searches still answer what the rule says
    let wrong = 0;
    const jobKeys = new Map(JOBS.map((j) => [j, pinyinKeys(j, 'text')]));
    const ruleKeys = data.map((d) => [...pinyinKeys(d.name as string, 'name'), ...jobKeys.get(d.job as string)!]);
    for (const q of QUERIES) {
      const p = pinyinQuery(q)!;
      const want = ruleKeys.filter((keys) => keys.some((k) => k.startsWith(p))).length;
      const params = parseListQuery(spec, { page: '0', size: '10', blurry: q }, FULL_ACCESS);
      const got = await filteredQuery(database, spec, params.conditions)
        .clearSelect()
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      const n = Number((got as { n: number | string } | undefined)?.n ?? -1);
      console.log(`${dialect} blurry=${q}: ${fmt(n)} rows${n === want ? '' : ` (the rule gives ${fmt(want)})`}`);
      if (n !== want) wrong++;
    }
    if (wrong || stored !== rows) process.exitCode = 1;
    // the same rows again without keys (the fields unmarked), into the same table: what the
    // import costs without pinyin, measured in the same run
    const unmarked = { ...spec, fields: spec.fields.map((f) => ({ ...f, pinyin: undefined })) };
    const again = rosterRecords(rows).map((r, i) => ({ ...r, mobile: `137${String(10_000_000 + i).padStart(8, '0')}` }));
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    await insertAll(database, unmarked, again);
    const plain = (performance.now() - t1) / 1000;
    const plainCpu = cpuSeconds(c1);
    return [
      dialect,
      fmt(rows),
      fmt(seconds, 2),
      fmt(cpu, 2),
      fmt(plain, 2),
      fmt(plainCpu, 2),
      mb(peak),
      mb(peak - before),
      fmt(keys[0] / rows, 2),
      fmt(keys[1] / rows, 2),
      verdict(seconds <= 10),
      verdict(peak <= 300 * 1024 * 1024),
      wrong ? 'WRONG' : 'ok',
    ];
  } finally {
    await app?.close();
    await target.cleanup();
  }
}

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2), { rows: 100_000 });
  } catch (e) {
    console.error(`${(e as Error).message}\n${usage('pinyin-import')}`);
    process.exit(2);
  }
  heading(`import with pinyin keys: ${fmt(opts.rows)} rows of ${spec.title} through insertAll`);
  const table: string[][] = [
    [
      'db',
      'rows',
      'seconds',
      'CPU s',
      'same rows, no keys',
      'no keys: CPU s',
      'peak RSS',
      'RSS rise',
      'keys/姓名',
      'keys/岗位',
      '<= 10 s',
      '<= 300 MB',
      'searches',
    ],
  ];
  for (const d of opts.dialects) table.push(await runDialect(d, opts.rows));
  printTable(table);
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
