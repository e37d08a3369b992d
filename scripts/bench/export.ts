/**
 * npm run bench:export [-- --rows N --only sqlite|postgres]
 *
 * Seeds the feedback table with N/10 rows (default 100,000), then N rows (default 1,000,000),
 * and for each size downloads GET /api/sysQuestion/download as admin over 127.0.0.1, reading
 * the whole stream to a temp file. Each download runs in a fresh child process that only
 * builds the app, signs in and downloads, so its peak RSS is the server's own (sampled every
 * 20 ms, and the kernel's maxRSS from process.resourceUsage()). The file is then checked
 * outside the timed part: a valid xlsx (exceljs streaming reader) with a title row plus one
 * row per record. Targets: the 100,000-row export within 3 s and 200 MB; 1,000,000 rows under
 * the same 200 MB. Figures only: exits 0 whatever they are, non-zero only when broken.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import {
  buildBenchApp,
  cpuLine,
  cpuSnapshot,
  createTarget,
  fmt,
  heading,
  listenLoopback,
  mb,
  parseArgs,
  printTable,
  signInAdmin,
  timed,
  usage,
  verdict,
  type BenchOptions,
  type BenchTarget,
} from './common.ts';
import { seedQuestions } from './seed.ts';
import type { Dialect } from '../../src/server/types.ts';

const TARGET_SECONDS = 3;
const TARGET_RSS = 200 * 1024 * 1024;
const TARGET_ROWS_FOR_TIME = 100_000;
const SAMPLE_MS = 20;
const RESULT_MARK = 'BENCH_EXPORT_RESULT ';
const PATH = '/api/sysQuestion/download';

interface DownloadResult {
  status: number;
  contentType: string;
  bytes: number;
  seconds: number;
  /** time to the first byte of the body */
  firstByteSeconds: number;
  rssBefore: number;
  peakRssSampled: number;
  maxRss: number;
  heapUsedPeak: number;
  /** Buffers and other memory outside the JS heap (zlib, streams, SQLite's own is not in it) */
  externalPeak: number;
  /** CPU use during the download (this process, PostgreSQL, the rest of the machine) */
  cpu: string;
}

// ------------------------------------------------------------------ child: one download

async function child(dataDir: string, databaseUrl: string, out: string): Promise<void> {
  const app = await buildBenchApp({ dataDir, databaseUrl });
  try {
    const token = await signInAdmin(app);
    const base = await listenLoopback(app);
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    let peak = rssBefore;
    let heapPeak = 0;
    let externalPeak = 0;
    const timer = setInterval(() => {
      const m = process.memoryUsage();
      if (m.rss > peak) peak = m.rss;
      if (m.heapUsed > heapPeak) heapPeak = m.heapUsed;
      if (m.external > externalPeak) externalPeak = m.external;
    }, SAMPLE_MS);
    const cpu0 = cpuSnapshot();
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
    const cpu = cpuLine(cpu0, cpuSnapshot(), seconds);
    clearInterval(timer);
    const rss = process.memoryUsage.rss();
    if (rss > peak) peak = rss;
    const result: DownloadResult = {
      status,
      contentType,
      bytes: statSync(out).size,
      seconds,
      firstByteSeconds: firstByte ? (firstByte - t0) / 1000 : NaN,
      rssBefore,
      peakRssSampled: peak,
      // resourceUsage().maxRSS is in kilobytes
      maxRss: process.resourceUsage().maxRSS * 1024,
      heapUsedPeak: heapPeak,
      externalPeak,
      cpu,
    };
    console.log(RESULT_MARK + JSON.stringify(result));
  } finally {
    await app.close();
  }
}

function runChild(target: BenchTarget, out: string): Promise<DownloadResult> {
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...process.execArgv, self, '--child', target.dataDir, target.databaseUrl || '-', out], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    p.stdout.on('data', (d) => (stdout += d));
    const killer = setTimeout(() => p.kill('SIGKILL'), 10 * 60_000);
    p.on('close', (code) => {
      clearTimeout(killer);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
      if (code !== 0 || !line) reject(new Error(`the download process ended with ${code}:\n${stdout}`));
      else resolve(JSON.parse(line.slice(RESULT_MARK.length)));
    });
  });
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
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore', worksheets: 'emit' });
    let sheets = 0;
    for await (const sheet of reader) {
      sheets++;
      for await (const row of sheet) {
        if (sheets === 1 && rows === 0) titles = (row.values as unknown[]).slice(1).map((v) => String(v ?? ''));
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
  rows: number;
  download: DownloadResult;
  check: Check;
}

async function benchDialect(dialect: Dialect, sizes: number[]): Promise<Outcome[]> {
  heading(`${dialect}: export of ${sizes.map((n) => fmt(n)).join(' then ')} rows`);
  const target = await createTarget(dialect);
  const out: Outcome[] = [];
  try {
    for (const n of sizes) {
      const app = await buildBenchApp(target);
      try {
        await timed(`seed to ${fmt(n)} rows`, () => seedQuestions(app.database, n));
      } finally {
        await app.close();
      }
      const file = join(tmpdir(), `bench-export-${process.pid}-${dialect}-${n}.xlsx`);
      try {
        const download = await runChild(target, file);
        const check = await checkXlsx(file);
        console.log(
          `${fmt(n)} rows: HTTP ${download.status} ${download.contentType}, ${mb(download.bytes)} in ${fmt(download.seconds, 2)} s ` +
            `(first byte after ${fmt(download.firstByteSeconds, 2)} s), RSS ${mb(download.rssBefore)} before, peak ${mb(download.peakRssSampled)} sampled, ` +
            `maxRSS ${mb(download.maxRss)}, JS heap peak ${mb(download.heapUsedPeak)}, external peak ${mb(download.externalPeak)}`,
        );
        if (download.cpu) console.log(`  ${download.cpu}`);
        console.log(
          `  file: ${check.valid ? 'valid xlsx' : `NOT a valid xlsx (${check.error ?? 'no worksheet'})`}, ${fmt(check.dataRows)} data rows` +
            `${check.dataRows === n ? ' (all)' : ` (expected ${fmt(n)})`}; titles: ${check.titles.join(' | ')}`,
        );
        out.push({ dialect, rows: n, download, check });
      } finally {
        rmSync(file, { force: true });
      }
    }
    return out;
  } finally {
    await target.cleanup();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') {
    await child(argv[1], argv[2] === '-' ? '' : argv[2], argv[3]);
    return;
  }
  let opts: BenchOptions;
  try {
    opts = parseArgs(argv, { rows: 1_000_000 });
  } catch (e) {
    console.error(`${(e as Error).message}\n${usage('export')}`);
    process.exit(2);
  }
  const sizes = [Math.max(1, Math.round(opts.rows / 10)), opts.rows];
  console.log(`export benchmark: node ${process.version}, ${cpus().length} cores, dialects: ${opts.dialects.join(', ')}`);
  const all: Outcome[] = [];
  for (const d of opts.dialects) all.push(...(await benchDialect(d, sizes)));

  heading('summary');
  const rows: string[][] = [['dialect', 'rows', 'seconds', 'rows/s', 'MB', 'peak RSS', 'maxRSS', `time<=${TARGET_SECONDS}s`, 'RSS<=200MB', 'file']];
  for (const o of all) {
    const peak = Math.max(o.download.peakRssSampled, o.download.maxRss);
    const timeTarget = o.rows === TARGET_ROWS_FOR_TIME ? verdict(o.download.seconds <= TARGET_SECONDS) : o.rows < TARGET_ROWS_FOR_TIME ? `(${verdict(o.download.seconds <= TARGET_SECONDS)})` : '-';
    rows.push([
      o.dialect,
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
    console.log(`\nbroken: ${broken.map((o) => `${o.dialect} ${fmt(o.rows)}`).join('; ')} (bad answer or file)`);
    process.exitCode = 1;
  }
}

await main();
