/**
 * npm run bench:export [-- --rows N --only sqlite|postgres --keep DIR --large-only --profile DIR --baseline BUNDLE]
 *
 * Seeds the feedback table with N/10 rows (default 100,000), then N rows (default 1,000,000),
 * and for each size downloads GET /api/sysQuestion/download as admin over 127.0.0.1, reading
 * the whole stream to a temp file. Each download is served by a fresh production server
 * (build/server/main.js under plain Node, as `npm start` runs it) on the seeded data; its RSS is
 * sampled from /proc every 20 ms, and its kernel peak (VmHWM) read at the end. The file is then checked
 * outside the timed part: a valid xlsx (exceljs streaming reader) with a title row plus one
 * row per record. Targets: the 100,000-row export within 3 s and 200 MB; 1,000,000 rows under
 * the same 200 MB. Figures only: exits 0 whatever they are, non-zero only when broken.
 *
 * `--baseline BUNDLE` (an earlier build's build/server/main.js) downloads each size from that
 * bundle too, right before this build's, on the same rows: a before/after on the same machine.
 */
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { get } from 'node:http';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import {
  benchEnv,
  buildBenchApp,
  cpuLine,
  cpuSnapshot,
  createTarget,
  fmt,
  heading,
  keptTarget,
  mb,
  parseArgs,
  printTable,
  timed,
  usage,
  verdict,
  type BenchOptions,
  type BenchTarget,
} from './common.ts';
import { seedQuestions } from './seed.ts';
import { memoryOf, withBenchServer } from './server-process.ts';
import { SERVER_NODE_FLAGS, buildServer } from '../build-server.ts';
import type { Dialect } from '../../src/server/types.ts';
import { plainText } from '../../src/shared/text.ts';

const TARGET_SECONDS = 3;
const TARGET_RSS = 200 * 1024 * 1024;
const TARGET_ROWS_FOR_TIME = 100_000;
const PATH = '/api/sysQuestion/download';

interface DownloadResult {
  status: number;
  contentType: string;
  bytes: number;
  seconds: number;
  /** time to the first byte of the body */
  firstByteSeconds: number;
  /** the server's RSS before the download, its peak sampled every 20 ms, and the kernel's peak */
  rssBefore: number;
  peakRssSampled: number;
  maxRss: number;
  /** CPU use during the download (benchmark + server, PostgreSQL, the rest of the machine) */
  cpu: string;
}

// ------------------------------------------------------------------ the server under test

/**
 * Starts the production server (`node build/server/main.js`, as `npm start` runs it) on the
 * benchmark's data, signs in as admin over HTTP, downloads the export into `out` while sampling
 * the server's RSS, then stops the server.
 */
async function serverDownload(entry: string, target: BenchTarget, out: string, extraFlags: string[]): Promise<DownloadResult> {
  return withBenchServer(entry, [...SERVER_NODE_FLAGS, ...extraFlags], benchEnv(target), async ({ base, token, pid, rss }) => {
    const cpu0 = cpuSnapshot([pid]);
    const t0 = performance.now();
    let firstByte = 0;
    const { status, contentType } = await new Promise<{ status: number; contentType: string }>((resolve, reject) => {
      const req = get(base + PATH, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.once('data', () => (firstByte = performance.now()));
        pipeline(res, createWriteStream(out)).then(
          () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? '') }),
          reject,
        );
      });
      req.on('error', reject);
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuLine(cpu0, cpuSnapshot([pid]), seconds);
    const sampled = rss();
    return {
      status,
      contentType,
      bytes: statSync(out).size,
      seconds,
      firstByteSeconds: firstByte ? (firstByte - t0) / 1000 : NaN,
      rssBefore: sampled.before,
      peakRssSampled: sampled.peak,
      maxRss: memoryOf(pid).hwm,
      cpu,
    };
  });
}

/** --profile DIR: the server writes a CPU profile of its whole run (sign-in, export) into DIR/<dialect>-<rows>.cpuprofile */
function profileFlags(opts: BenchOptions, name: string): string[] {
  if (typeof opts.profile !== 'string') return [];
  return ['--cpu-prof', `--cpu-prof-dir=${resolve(opts.profile)}`, `--cpu-prof-name=${name}.cpuprofile`];
}

// ------------------------------------------------------------------ parent

interface Check {
  valid: boolean;
  dataRows: number;
  titles: string[];
  error?: string;
}

async function checkXlsx(file: string): Promise<Check> {
  let rows = 0;
  let titles: string[] = [];
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
      sharedStrings: 'cache',
      styles: 'ignore',
      hyperlinks: 'ignore',
      worksheets: 'emit',
    });
    let sheets = 0;
    for await (const sheet of reader) {
      sheets++;
      for await (const row of sheet) {
        if (sheets === 1 && rows === 0) titles = (row.values as unknown[]).slice(1).map((v) => plainText(v ?? ''));
        if (sheets === 1) rows++;
      }
    }
    return { valid: sheets >= 1, dataRows: Math.max(0, rows - 1), titles };
  } catch (e) {
    return { valid: false, dataRows: rows, titles, error: (e as Error).message };
  }
}

interface Outcome {
  dialect: Dialect;
  /** this build, or the baseline bundle */
  build: string;
  rows: number;
  download: DownloadResult;
  check: Check;
}

async function benchDialect(dialect: Dialect, sizes: number[], builds: Array<[string, string]>, opts: BenchOptions): Promise<Outcome[]> {
  heading(`${dialect}: export of ${sizes.map((n) => fmt(n)).join(' then ')} rows`);
  // --keep DIR: each size's rows stay for the next run with the same DIR (a target per size)
  const keep = typeof opts.keep === 'string' ? resolve(opts.keep) : undefined;
  const temporary = keep ? undefined : await createTarget(dialect);
  const out: Outcome[] = [];
  try {
    for (const n of sizes) {
      const target = temporary ?? (await keptTarget(dialect, keep!, `export${n}`));
      const app = await buildBenchApp(target);
      try {
        await timed(`seed to ${fmt(n)} rows`, () => seedQuestions(app.database, n));
      } finally {
        await app.close();
      }
      for (const [build, entry] of builds) {
        const file = join(tmpdir(), `bench-export-${process.pid}-${dialect}-${n}.xlsx`);
        const label = builds.length > 1 ? `${build}, ` : '';
        try {
          const download = await serverDownload(
            entry,
            target,
            file,
            profileFlags(opts, `${dialect}-${n}${builds.length > 1 ? `-${build.replace(/\W+/g, '-')}` : ''}`),
          );
          const check = await checkXlsx(file);
          console.log(
            `${label}${fmt(n)} rows: HTTP ${download.status} ${download.contentType}, ${mb(download.bytes)} in ${fmt(download.seconds, 2)} s ` +
              `(first byte after ${fmt(download.firstByteSeconds, 2)} s), RSS ${mb(download.rssBefore)} before, peak ${mb(download.peakRssSampled)} sampled, ` +
              `kernel peak (VmHWM) ${mb(download.maxRss)}`,
          );
          if (download.cpu) console.log(`  ${download.cpu}`);
          console.log(
            `  file: ${check.valid ? 'valid xlsx' : `NOT a valid xlsx (${check.error ?? 'no worksheet'})`}, ${fmt(check.dataRows)} data rows` +
              `${check.dataRows === n ? ' (all)' : ` (expected ${fmt(n)})`}; titles: ${check.titles.join(' | ')}`,
          );
          out.push({ dialect, build, rows: n, download, check });
        } finally {
          rmSync(file, { force: true });
        }
      }
    }
    return out;
  } finally {
    await temporary?.cleanup();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let opts: BenchOptions;
  try {
    opts = parseArgs(argv, { rows: 1_000_000 });
  } catch (e) {
    console.error(`${(e as Error).message}\n${usage('export')}`);
    process.exit(2);
  }
  // --large-only: the full size alone (its time and memory targets), without the tenth before it
  const sizes = opts['large-only'] ? [opts.rows] : [Math.max(1, Math.round(opts.rows / 10)), opts.rows];
  console.log(`export benchmark: node ${process.version}, ${cpus().length} cores, dialects: ${opts.dialects.join(', ')}`);
  const entry = await timed('bundle the server', () => buildServer());
  const builds: Array<[string, string]> = [['this build', entry]];
  if (typeof opts.baseline === 'string') builds.unshift(['baseline', resolve(opts.baseline)]);
  const all: Outcome[] = [];
  for (const d of opts.dialects) all.push(...(await benchDialect(d, sizes, builds, opts)));

  heading('summary');
  const rows: string[][] = [
    ['dialect', 'build', 'rows', 'seconds', 'rows/s', 'MB', 'peak RSS', 'maxRSS', `time<=${TARGET_SECONDS}s`, 'RSS<=200MB', 'file'],
  ];
  for (const o of all) {
    const peak = Math.max(o.download.peakRssSampled, o.download.maxRss);
    const timeTarget =
      o.rows === TARGET_ROWS_FOR_TIME
        ? verdict(o.download.seconds <= TARGET_SECONDS)
        : o.rows < TARGET_ROWS_FOR_TIME
          ? `(${verdict(o.download.seconds <= TARGET_SECONDS)})`
          : '-';
    rows.push([
      o.dialect,
      o.build,
      fmt(o.rows),
      fmt(o.download.seconds, 2),
      fmt(o.rows / o.download.seconds),
      fmt(o.download.bytes / 1024 / 1024, 1),
      mb(o.download.peakRssSampled),
      mb(o.download.maxRss),
      timeTarget,
      verdict(peak <= TARGET_RSS),
      o.check.valid && o.check.dataRows === o.rows ? 'ok' : 'WRONG',
    ]);
  }
  printTable(rows);
  console.log(`time target applies to ${fmt(TARGET_ROWS_FOR_TIME)} rows (in brackets: a smaller run); RSS is of the whole server process`);
  const broken = all.filter((o) => o.download.status !== 200 || !o.check.valid || o.check.dataRows !== o.rows);
  if (broken.length) {
    console.log(`\nbroken: ${broken.map((o) => `${o.dialect} ${o.build} ${fmt(o.rows)}`).join('; ')} (bad answer or file)`);
    process.exitCode = 1;
  }
}

await main();
