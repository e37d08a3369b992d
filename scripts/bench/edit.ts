/**
 * npm run bench:edit [-- --rows N --edits N --only sqlite|postgres]
 *
 * The answer time of a single edit: on a fresh production server (the bundle `npm start` runs)
 * with N feedback records (default 10,000, made through the create route), PUT /api/sysQuestion changes one record's title and
 * status, one request at a time (a user saving a dialog), `--edits` times (default 2,000) over
 * records spread through the table, after 200 warm-up edits. Prints the median, mean and 95th
 * percentile answer times. Record history (a revision written in the edit's transaction) may
 * make an edit at most 10 % slower: run this on the build before and after and compare the
 * medians. Figures only: exits non-zero only when an edit fails.
 *
 * `--baseline <bundle>` (an earlier build's build/server/main.js, made by `node scripts/build-server.ts`
 * in a checkout of that commit) compares the two builds in one run: both servers run side by side on
 * databases of their own and the edits alternate between them (A, B, B, A, ...), so other work on
 * the machine slows both alike; it prints each build's figures and the ratio of the medians.
 */
import { cpus } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  benchEnv,
  createTarget,
  fmt,
  heading,
  parseArgs,
  printTable,
  timed,
  usage,
  type BenchOptions,
  type BenchTarget,
} from './common.ts';
import { withBenchServer } from './server-process.ts';
import { SERVER_NODE_FLAGS, buildServer } from '../build-server.ts';
import type { Dialect } from '../../src/server/types.ts';

const WARM_UP = 200;
const MODELS = ['销售', '售后', '人事', '系统'];

interface EditRun {
  dialect: Dialect;
  median: number;
  mean: number;
  p95: number;
  /** bytes of sys_revision (table and indexes) per create and per edit revision; undefined without record history */
  revisionBytes?: { perCreate: number; perEdit: number };
}

/** Bytes sys_revision takes (rows and indexes), undefined when there is no such table. */
async function revisionStorage(target: BenchTarget): Promise<number | undefined> {
  if (target.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      await client.query('vacuum analyze sys_revision').catch(() => undefined);
      const r = await client.query<{ n: string | null }>("select pg_total_relation_size(to_regclass('sys_revision')) as n");
      return r.rows[0].n === null ? undefined : Number(r.rows[0].n);
    } finally {
      await client.end();
    }
  }
  const db = new SQLite(join(target.dataDir, 'console.db'), { readonly: true });
  try {
    const r = db.prepare("select sum(pgsize) as n from dbstat where name like 'sys_revision%'").get() as { n: number | null };
    return r.n ?? undefined;
  } finally {
    db.close();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function seed(base: string, token: string, rows: number): Promise<number[]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  // through the create route, 50 at a time
  const ids: number[] = [];
  for (let i = 0; i < rows; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, rows - i) }, async (_, j) => {
        const n = i + j;
        const res = await fetch(`${base}/api/sysQuestion`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ userType: '员工', model: MODELS[n % 4], title: `样本${n}`, content: `第${n}条问题：保养预约页面打不开` }),
        });
        if (res.status !== 201) throw new Error(`seed create failed: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { id: number }).id;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

async function benchDialect(dialect: Dialect, entry: string, rows: number, edits: number): Promise<EditRun> {
  heading(`${dialect}: ${fmt(edits)} single edits on ${fmt(rows)} rows`);
  const target = await createTarget(dialect);
  try {
    return await withBenchServer(entry, SERVER_NODE_FLAGS, benchEnv(target), async ({ base, token }) => {
      const ids = await timed(`create ${fmt(rows)} records`, () => seed(base, token, rows));
      const afterCreates = await revisionStorage(target);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const times: number[] = [];
      for (let i = 0; i < WARM_UP + edits; i++) {
        const id = ids[(i * 7919) % ids.length];
        const t0 = performance.now();
        const res = await fetch(`${base}/api/sysQuestion`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ id, title: `修改${i}`, status: i % 2 === 0 }),
        });
        await res.arrayBuffer();
        const ms = performance.now() - t0;
        if (res.status !== 204) throw new Error(`edit failed: ${res.status}`);
        if (i >= WARM_UP) times.push(ms);
      }
      times.sort((a, b) => a - b);
      const afterEdits = await revisionStorage(target);
      const run: EditRun = {
        dialect,
        median: percentile(times, 0.5),
        mean: times.reduce((a, b) => a + b, 0) / times.length,
        p95: percentile(times, 0.95),
        ...(afterCreates !== undefined && afterEdits !== undefined
          ? { revisionBytes: { perCreate: afterCreates / rows, perEdit: (afterEdits - afterCreates) / (WARM_UP + edits) } }
          : {}),
      };
      console.log(`median ${fmt(run.median, 2)} ms, mean ${fmt(run.mean, 2)} ms, p95 ${fmt(run.p95, 2)} ms`);
      if (run.revisionBytes)
        console.log(
          `revision storage: ${fmt(run.revisionBytes.perCreate)} bytes per create revision, ${fmt(run.revisionBytes.perEdit)} bytes per edit revision (rows and indexes)`,
        );
      return run;
    });
  } finally {
    await target.cleanup();
  }
}

interface Side {
  base: string;
  token: string;
  ids: number[];
  times: number[];
}

async function editOnce(side: Side, i: number, record: boolean): Promise<void> {
  const id = side.ids[(i * 7919) % side.ids.length];
  const t0 = performance.now();
  const res = await fetch(`${side.base}/api/sysQuestion`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${side.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id, title: `修改${i}`, status: i % 2 === 0 }),
  });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 204) throw new Error(`edit failed: ${res.status}`);
  if (record) side.times.push(ms);
}

function summary(times: number[]): { median: number; mean: number; p95: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length, p95: percentile(sorted, 0.95) };
}

/** The baseline bundle and this build side by side, edits alternating between them. */
async function compareDialect(dialect: Dialect, baseline: string, entry: string, rows: number, edits: number): Promise<string[][]> {
  heading(`${dialect}: baseline and this build side by side, ${fmt(edits)} edits each on ${fmt(rows)} rows`);
  const targets = [await createTarget(dialect), await createTarget(dialect)];
  try {
    return await withBenchServer(baseline, SERVER_NODE_FLAGS, benchEnv(targets[0]), (a) =>
      withBenchServer(entry, SERVER_NODE_FLAGS, benchEnv(targets[1]), async (b) => {
        const sides: Side[] = [
          { base: a.base, token: a.token, ids: [], times: [] },
          { base: b.base, token: b.token, ids: [], times: [] },
        ];
        for (const side of sides) side.ids = await timed(`create ${fmt(rows)} records`, () => seed(side.base, side.token, rows));
        for (let i = 0; i < WARM_UP + edits; i++) {
          const order = i % 2 === 0 ? sides : [sides[1], sides[0]];
          for (const side of order) await editOnce(side, i, i >= WARM_UP);
        }
        const [before, after] = sides.map((side) => summary(side.times));
        const ratio = after.median / before.median;
        console.log(
          `baseline median ${fmt(before.median, 2)} ms, this build ${fmt(after.median, 2)} ms: ${ratio >= 1 ? '+' : ''}${fmt((ratio - 1) * 100, 1)} %`,
        );
        return [
          [dialect, 'baseline', fmt(before.median, 2), fmt(before.mean, 2), fmt(before.p95, 2), ''],
          [dialect, 'this build', fmt(after.median, 2), fmt(after.mean, 2), fmt(after.p95, 2), `${fmt((ratio - 1) * 100, 1)} %`],
        ];
      }),
    );
  } finally {
    for (const t of targets) await t.cleanup();
  }
}

async function main(): Promise<void> {
  let opts: BenchOptions;
  try {
    opts = parseArgs(process.argv.slice(2), { rows: 10_000 });
  } catch (e) {
    console.error(`${(e as Error).message}\n${usage('edit', ' [--edits N]')}`);
    process.exit(2);
  }
  const edits = opts.edits === undefined ? 2000 : Number(opts.edits);
  if (!Number.isInteger(edits) || edits < 10 || edits > 100_000) {
    console.error('--edits must be an integer between 10 and 100000');
    process.exit(2);
  }
  console.log(`edit benchmark: node ${process.version}, ${cpus().length} cores, dialects: ${opts.dialects.join(', ')}`);
  const entry = await timed('bundle the server', () => buildServer());
  if (typeof opts.baseline === 'string') {
    const table = [['dialect', 'build', 'median ms', 'mean ms', 'p95 ms', 'median vs baseline']];
    for (const d of opts.dialects) table.push(...(await compareDialect(d, opts.baseline, entry, opts.rows, edits)));
    heading('summary');
    printTable(table);
    return;
  }
  const runs: EditRun[] = [];
  for (const d of opts.dialects) runs.push(await benchDialect(d, entry, opts.rows, edits));
  heading('summary');
  const table = [['dialect', 'rows', 'edits', 'median ms', 'mean ms', 'p95 ms', 'bytes/create rev.', 'bytes/edit rev.']];
  for (const r of runs)
    table.push([
      r.dialect,
      fmt(opts.rows),
      fmt(edits),
      fmt(r.median, 2),
      fmt(r.mean, 2),
      fmt(r.p95, 2),
      r.revisionBytes ? fmt(r.revisionBytes.perCreate) : '-',
      r.revisionBytes ? fmt(r.revisionBytes.perEdit) : '-',
    ]);
  printTable(table);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
