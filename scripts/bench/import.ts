/**
 * npm run bench:import [-- --rows N --only sqlite|postgres --marked --baseline BUNDLE]
 *
 * Writes an xlsx of N feedback rows (default 100,000) with the console's own column titles,
 * then POSTs it to /api/sysQuestion/import as admin on a fresh production server (the bundle
 * `npm start` runs), with the answer awaited in the request (IMPORT_ASYNC_THRESHOLD above N),
 * sampling the server's RSS every 20 ms. Then the same file with one bad row near the end
 * (position N-1): it must answer 400 naming that row and leave nothing stored.
 * Then four zip bombs at once (512 MB unpacked each) on one server: each answered 400 within 2 s,
 * the server's RSS rising by at most 150 MB.
 * Targets (issue: hostile input): N = 100,000 stored all or nothing within 10 s, peak RSS at
 * most 300 MB, on SQLite and on PostgreSQL. Figures only: exits non-zero only when broken.
 *
 * `--marked` also imports N roster rows (员工花名册, /api/staff/import: 姓名 and 岗位 marked
 * `x-pinyin`, so the import computes and stores their pinyin keys, and the roster's record rules
 * run on every row) on a fresh server of each database, printed beside the feedback import of
 * the same run. `--baseline BUNDLE` (an earlier build's build/server/main.js) runs the valid
 * imports on that bundle too, right after this build's, for a before/after on the same machine.
 * Each import prints the server's CPU seconds beside its wall time (less moved by other work), and
 * on PostgreSQL the CPU seconds of the database's backends serving the server.
 */
import { createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { resourceByName } from '../../src/generated/resources.ts';
import { xlsxStream, type CellValue } from '../../src/server/crud/sheets/xlsx-writer.ts';
import { sheetFields } from '../../src/server/crud/sheets/spreadsheet.ts';
import { benchEnv, createTarget, fmt, heading, mb, parseArgs, printTable, timed, usage, verdict, type BenchOptions } from './common.ts';
import { cpuSecondsOf, withBenchServer } from './server-process.ts';
import { rosterRecords } from './roster-rows.ts';
import { bombXlsx } from '../../tests/server/zip-fixtures.ts';
import { SERVER_NODE_FLAGS, buildServer } from '../build-server.ts';
import type { Dialect } from '../../src/server/types.ts';

const TARGET_SECONDS = 10;
const TARGET_RSS = 300 * 1024 * 1024;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const spec = resourceByName.sysQuestion;
const roster = resourceByName.staff;
const MODELS = ['销售', '售后', '人事', '系统'];

/** One valid feedback row as the sheet holds it (titles and labels as the export writes them). */
function row(i: number, bad: boolean): CellValue[] {
  const named = i % 3 === 0;
  const values: Record<string, CellValue> = {
    userType: '员工',
    model: MODELS[i % MODELS.length],
    title: `导入样本${i}`,
    content: bad ? '' : `第${i}条问题：保养预约页面打不开，换了浏览器也一样，请尽快处理`,
    remark: i % 2 ? '建议增加提醒' : null,
    status: i % 5 === 0 ? '已处理' : '未处理',
    username: named ? `客户${i % 1000}` : null,
    mobile: named ? `139${String(10_000_000 + (i % 89_999_999)).padStart(8, '0')}` : null,
  };
  return sheetFields(spec).map((f) => {
    const v = values[f.name];
    if (v === undefined || v === null) return null;
    return v;
  });
}

async function writeSheet(file: string, rows: number, badAt?: number): Promise<void> {
  await writeRows(file, spec, rows, (i) => row(i, i === badAt));
}

/** A roster sheet of `rows` rows (roster-rows.ts), options written as their labels as the export does. */
async function writeRosterSheet(file: string, rows: number): Promise<void> {
  const records = rosterRecords(rows);
  const fields = sheetFields(roster);
  await writeRows(file, roster, rows, (i) =>
    fields.map((f) => {
      const v = records[i - 1][f.name];
      if (v === undefined || v === null) return null;
      const label = f.options?.find((o) => o.value === v)?.label;
      return (label ?? v) as CellValue;
    }),
  );
}

async function writeRows(file: string, target: typeof spec, rows: number, rowAt: (i: number) => CellValue[]): Promise<void> {
  function* batches(): Generator<CellValue[][]> {
    for (let i = 1; i <= rows; i += 1000) {
      const batch: CellValue[][] = [];
      for (let j = i; j < Math.min(rows + 1, i + 1000); j++) batch.push(rowAt(j));
      yield batch;
    }
  }
  const columns = sheetFields(target).map((f) => ({ title: f.title, width: 20 }));
  await pipeline(
    xlsxStream(target.title, columns, batches(), (err) => console.error(err)),
    createWriteStream(file),
  );
}

interface ImportRun {
  status: number;
  body: string;
  seconds: number;
  /** the server's CPU seconds during the request */
  cpu: number;
  /** PostgreSQL: CPU seconds of the backends serving the server's connections during the request */
  pgCpu?: number;
  rssBefore: number;
  peakRss: number;
  stored: number;
}

async function serverImport(
  entry: string,
  env: Record<string, string>,
  file: string,
  rows: number,
  target: typeof spec = spec,
): Promise<ImportRun> {
  const settings = {
    ...env,
    IMPORT_ASYNC_THRESHOLD: String(rows + 1),
    IMPORT_MAX_BYTES: String(100 * 1024 * 1024),
    REQUEST_TIMEOUT_SECONDS: '300',
  };
  return withBenchServer(entry, SERVER_NODE_FLAGS, settings, async ({ base, token, rss, pid }) => {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(file)], { type: XLSX_TYPE }), `${target.name}.xlsx`);
    const pg0 = env.DATABASE_URL ? await pgBackendCpu(env.DATABASE_URL) : undefined;
    const cpu0 = cpuSecondsOf(pid);
    const t0 = performance.now();
    const res = await fetch(`${base}/${target.path}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = await res.text();
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSecondsOf(pid) - cpu0;
    let pgCpu: number | undefined;
    if (pg0 && env.DATABASE_URL) {
      pgCpu = 0;
      for (const [backend, seconds] of await pgBackendCpu(env.DATABASE_URL)) pgCpu += seconds - (pg0.get(backend) ?? 0);
    }
    const mem = rss();
    const count = await fetch(`${base}/${target.path}?size=1`, { headers: { authorization: `Bearer ${token}` } });
    const stored = ((await count.json()) as { totalElements: number }).totalElements;
    return { status: res.status, body: body.slice(0, 200), seconds, cpu, pgCpu, rssBefore: mem.before, peakRss: mem.peak, stored };
  });
}

/**
 * CPU seconds so far of each PostgreSQL backend connected to the database of `url` (other than
 * the one asking): the server's pool. Backends started during a request count from zero.
 */
async function pgBackendCpu(url: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    const out = new Map<number, number>();
    for (const { pid } of r.rows) {
      try {
        out.set(Number(pid), cpuSecondsOf(Number(pid)));
      } catch {
        // ended meanwhile
      }
    }
    return out;
  } finally {
    await client.end();
  }
}

interface BombRun {
  statuses: number[];
  messages: string[];
  slowestSeconds: number;
  rssBefore: number;
  peakRss: number;
}

/** Four zip bombs (a 512 MB sheet in about 500 KB each) posted at once to one server. */
async function serverBombs(entry: string, env: Record<string, string>): Promise<BombRun> {
  const bomb = new Uint8Array(bombXlsx(512 * 1024 * 1024));
  return withBenchServer(entry, SERVER_NODE_FLAGS, env, async ({ base, token, rss }) => {
    const one = async () => {
      const form = new FormData();
      form.append('file', new Blob([bomb], { type: XLSX_TYPE }), 'bomb.xlsx');
      const t0 = performance.now();
      const res = await fetch(`${base}/api/sysQuestion/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const body = (await res.json()) as { message?: string };
      return { status: res.status, message: String(body.message), seconds: (performance.now() - t0) / 1000 };
    };
    const runs = await Promise.all([one(), one(), one(), one()]);
    const mem = rss();
    return {
      statuses: runs.map((r) => r.status),
      messages: [...new Set(runs.map((r) => r.message))],
      slowestSeconds: Math.max(...runs.map((r) => r.seconds)),
      rssBefore: mem.before,
      peakRss: mem.peak,
    };
  });
}

interface Outcome {
  dialect: Dialect;
  /** which import: the feedback sheet or the roster's (marked fields) */
  table: string;
  /** this build, or the baseline bundle */
  build: string;
  good: ImportRun;
  /** the feedback sheet with a bad row near its end (this build only) */
  bad?: ImportRun;
}

/** One valid import on a fresh database of `dialect`. */
async function goodImport(dialect: Dialect, entry: string, file: string, rows: number, target: typeof spec): Promise<ImportRun> {
  const db = await createTarget(dialect);
  try {
    return await serverImport(entry, benchEnv(db), file, rows, target);
  } finally {
    await db.cleanup();
  }
}

interface Files {
  good: string;
  bad: string;
  /** the roster sheet, with --marked */
  roster?: string;
}

async function benchDialect(dialect: Dialect, rows: number, builds: Array<[string, string]>, files: Files): Promise<Outcome[]> {
  heading(`${dialect}: import of ${fmt(rows)} rows`);
  const out: Outcome[] = [];
  // the bad file first, on an empty table: nothing may be stored
  const badTarget = await createTarget(dialect);
  let bad: ImportRun;
  try {
    bad = await serverImport(builds[0][1], benchEnv(badTarget), files.bad, rows);
  } finally {
    await badTarget.cleanup();
  }
  console.log(
    `bad row ${fmt(rows - 1)}: HTTP ${bad.status} in ${fmt(bad.seconds, 2)} s, ${fmt(bad.stored)} rows stored, peak RSS ${mb(bad.peakRss)}; ${bad.body}`,
  );
  const sheets: Array<[typeof spec, string]> = [[spec, files.good]];
  if (files.roster) sheets.push([roster, files.roster]);
  for (const [target, file] of sheets) {
    for (const [build, entry] of builds) {
      const good = await goodImport(dialect, entry, file, rows, target);
      console.log(
        `${target.title} (${build}): HTTP ${good.status} in ${fmt(good.seconds, 2)} s (${fmt(rows / good.seconds)} rows/s, server CPU ${fmt(good.cpu, 2)} s${good.pgCpu === undefined ? '' : `, PostgreSQL CPU ${fmt(good.pgCpu, 2)} s`}), ${fmt(good.stored)} rows stored, RSS ${mb(good.rssBefore)} before, peak ${mb(good.peakRss)}; ${good.body}`,
      );
      out.push({ dialect, table: target.title, build, good, bad: target === spec && build === builds[0][0] ? bad : undefined });
    }
  }
  return out;
}

async function main(): Promise<void> {
  let opts: BenchOptions;
  try {
    opts = parseArgs(process.argv.slice(2), { rows: 100_000 });
  } catch (e) {
    console.error(`${(e as Error).message}\n${usage('import')}`);
    process.exit(2);
  }
  const rows = opts.rows;
  console.log(`import benchmark: node ${process.version}, ${cpus().length} cores, dialects: ${opts.dialects.join(', ')}`);
  const entry = await timed('bundle the server', () => buildServer());
  const builds: Array<[string, string]> = [['this build', entry]];
  if (typeof opts.baseline === 'string') builds.push(['baseline', opts.baseline]);
  const goodFile = join(tmpdir(), `bench-import-${process.pid}-good.xlsx`);
  const badFile = join(tmpdir(), `bench-import-${process.pid}-bad.xlsx`);
  const rosterFile = opts.marked ? join(tmpdir(), `bench-import-${process.pid}-roster.xlsx`) : undefined;
  try {
    await timed(`write ${fmt(rows)} rows`, () => writeSheet(goodFile, rows));
    await writeSheet(badFile, rows, rows - 1);
    console.log(`file: ${mb(statSync(goodFile).size)}`);
    if (rosterFile) {
      await timed(`write ${fmt(rows)} roster rows`, () => writeRosterSheet(rosterFile, rows));
      console.log(`roster file: ${mb(statSync(rosterFile).size)}`);
    }
    const all: Outcome[] = [];
    for (const d of opts.dialects) all.push(...(await benchDialect(d, rows, builds, { good: goodFile, bad: badFile, roster: rosterFile })));
    heading('four zip bombs at once (512 MB unpacked each)');
    const bombTarget = await createTarget('sqlite');
    let bombs: BombRun;
    try {
      bombs = await serverBombs(entry, benchEnv(bombTarget));
    } finally {
      await bombTarget.cleanup();
    }
    const rise = bombs.peakRss - bombs.rssBefore;
    console.log(
      `answers ${bombs.statuses.join(', ')} (${bombs.messages.join(' / ')}), slowest ${fmt(bombs.slowestSeconds, 2)} s; RSS ${mb(bombs.rssBefore)} before, peak ${mb(bombs.peakRss)} (+${mb(rise)}): ${verdict(rise <= 150 * 1024 * 1024)} (<= 150 MB), ${verdict(bombs.slowestSeconds <= 2)} (<= 2 s)`,
    );
    if (bombs.statuses.some((st) => st !== 400)) process.exitCode = 1;

    heading('summary');
    const table: string[][] = [
      [
        'dialect',
        'table',
        'build',
        'rows',
        'seconds',
        'server CPU s',
        'PostgreSQL CPU s',
        'rows/s',
        'peak RSS',
        `time<=${TARGET_SECONDS}s`,
        'RSS<=300MB',
        'all stored',
        'bad row: 400, none stored, named',
      ],
    ];
    for (const o of all) {
      // the sheet's row number of the bad data row: the title row is row 1
      const named = o.bad?.body.includes(`第${rows}行`);
      table.push([
        o.dialect,
        o.table,
        o.build,
        fmt(rows),
        fmt(o.good.seconds, 2),
        fmt(o.good.cpu, 2),
        o.good.pgCpu === undefined ? '' : fmt(o.good.pgCpu, 2),
        fmt(rows / o.good.seconds),
        mb(o.good.peakRss),
        verdict(o.good.seconds <= TARGET_SECONDS),
        verdict(Math.max(o.good.peakRss, o.bad?.peakRss ?? 0) <= TARGET_RSS),
        o.good.status === 200 && o.good.stored === rows ? 'ok' : 'WRONG',
        o.bad ? (o.bad.status === 400 && o.bad.stored === 0 && named ? 'ok' : 'WRONG') : '',
      ]);
    }
    printTable(table);
    if (all.some((o) => o.good.status !== 200 || o.good.stored !== rows || (o.bad && (o.bad.status !== 400 || o.bad.stored !== 0))))
      process.exitCode = 1;
  } finally {
    rmSync(goodFile, { force: true });
    rmSync(badFile, { force: true });
    if (rosterFile) rmSync(rosterFile, { force: true });
  }
}

await main();
