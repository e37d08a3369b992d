/**
 * npm test: every test. Runs codegen, then ESLint and Prettier's check over the whole tree (each
 * counted as one test), then Vitest on the unit, web and server projects (the server suites run
 * on SQLite, and again on PostgreSQL when TEST_DATABASE_URL is set) and, beside them, the browser
 * tests in headless Chromium when it is installed (TEST_SERIAL=1 runs them one after the other;
 * up to three failed browser files run once more on their own at the end, and one that passes
 * then is listed as flaky, with its first failure), then the speed guard (npm run bench:guard,
 * one counted test: ratios to a bare route and to the raw query, bundle sizes, against a
 * recorded baseline). Suites that cannot run on this machine are skipped with the reason
 * printed. Ends with one summary line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCodegen } from '../codegen/main.ts';
import { clusterUnavailableReason } from '../tests/server/pg-cluster.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const outDir = mkdtempSync(join(tmpdir(), 'dealer-console-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const skippedSuites: string[] = [];
const failures: string[] = [];
const flaky: string[] = [];
let failedRuns = 0;

/** The parts of vitest's JSON report this summary reads (every member may be missing). */
interface VitestReport {
  success?: boolean;
  testResults?: Array<{
    name: string;
    status?: string;
    message?: string;
    assertionResults?: Array<{ status: string; fullName: string; failureMessages?: string[] }>;
  }>;
}

/** One test file's outcome in a run. */
interface FileOutcome {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
}

/** A vitest run's outcome per file, or null when it wrote no report. */
type RunOutcome = Map<string, FileOutcome> | null;

/**
 * Runs vitest on `projects` (and only `files`, when given). Its output goes to this terminal, or
 * to `logFile` (printed when it ends) when it runs beside another suite; its counts come from
 * its JSON report.
 */
async function vitest(
  label: string,
  projects: string[],
  env: NodeJS.ProcessEnv = {},
  logFile?: string,
  files: string[] = [],
): Promise<RunOutcome> {
  const out = join(outDir, `${label}.json`);
  rmSync(out, { force: true });
  const args = [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...files,
  ];
  console.log(
    `\n=== ${label}: vitest ${projects.join(', ')}${files.length ? ` (${files.join(' ')})` : ''}${logFile ? ' (beside the other suites; its output follows when it ends)' : ''} ===`,
  );
  const log = logFile ? openSync(logFile, 'w') : undefined;
  const status = await new Promise<number | null>((resolveRun) => {
    const child = spawn('npx', args, { stdio: log === undefined ? 'inherit' : ['ignore', log, log], env: { ...process.env, ...env } });
    child.on('close', (code) => resolveRun(code));
  });
  if (log !== undefined) {
    closeSync(log);
    console.log(`\n=== ${label}: output ===`);
    process.stdout.write(readFileSync(logFile!, 'utf8'));
  }
  if (!existsSync(out)) {
    console.log(`${label}: vitest wrote no report (exit ${status})`);
    return null;
  }
  const j = JSON.parse(readFileSync(out, 'utf8')) as VitestReport;
  const outcome = new Map<string, FileOutcome>();
  for (const file of j.testResults ?? []) {
    const name = file.name.replace(process.cwd() + '/', '');
    const o: FileOutcome = { passed: 0, failed: 0, skipped: 0, failures: [] };
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'passed') o.passed++;
      else if (t.status !== 'failed') o.skipped++;
      else {
        o.failed++;
        o.failures.push(`${label}: ${name} > ${t.fullName}\n    ${firstLines(String(t.failureMessages?.[0] ?? ''))}`);
      }
    }
    // a file that failed outside its tests (an import, a hook) counts as one failure
    if (file.status === 'failed' && o.failed === 0) {
      o.failed = 1;
      o.failures.push(`${label}: ${name}\n    ${firstLines(String(file.message ?? 'the file failed'))}`);
    }
    outcome.set(name, o);
  }
  // a run that failed with every file passing (a crash, an unhandled error) is a failure too
  if ((!j.success || status !== 0) && ![...outcome.values()].some((o) => o.failed)) {
    outcome.set(`(${label})`, { passed: 0, failed: 1, skipped: 0, failures: [`${label}: vitest exited ${status} with no failed test`] });
  }
  return outcome;
}

function firstLines(text: string): string {
  return text.split('\n').slice(0, 3).join(' / ').slice(0, 400);
}

/** Adds a run's outcome to the totals. */
function count(label: string, outcome: RunOutcome): void {
  if (!outcome) {
    failedRuns++;
    failures.push(`${label}: vitest wrote no report`);
    return;
  }
  for (const o of outcome.values()) {
    totals.passed += o.passed;
    totals.failed += o.failed;
    totals.skipped += o.skipped;
    failures.push(...o.failures);
  }
}

/**
 * The browser suite, with its failed files run once more on their own after everything else has
 * ended: a browser test sharing two cores with the server suites has failed on a timing that
 * never came back when run again. A file that passes the second time is listed as flaky with
 * what failed the first time; one that fails again counts as failed, with its second failure.
 */
async function browserSuite(logFile: string | undefined, othersDone: Promise<unknown>): Promise<void> {
  const env = { CHROMIUM_PATH: CHROMIUM };
  const first = await vitest('browser', ['e2e'], env, logFile);
  if (!first) return count('browser', first);
  const failed = [...first.entries()].filter(([name, o]) => o.failed && !name.startsWith('('));
  // more than a few failed files is no timing: they count as they are
  if (failed.length === 0 || failed.length > 3) return count('browser', first);
  await othersDone;
  const again = await vitest(
    'browser, failed files again',
    ['e2e'],
    env,
    undefined,
    failed.map(([name]) => name),
  );
  const merged = new Map(first);
  for (const [name, o] of failed) {
    const second = again?.get(name);
    if (second && second.failed === 0 && second.passed > 0) {
      flaky.push(...o.failures.map((f) => `${f}\n    (passed when its file ran again)`));
      merged.set(name, second);
    } else if (second) merged.set(name, second);
  }
  count('browser', merged);
}

/** One command that checks the whole tree (lint, format): counted as one test that passes or fails. */
function treeCheck(label: string, args: string[]): void {
  console.log(`\n=== ${label}: npx ${args.join(' ')} ===`);
  const r = spawnSync('npx', args, { stdio: 'inherit' });
  if (r.status === 0) {
    totals.passed++;
    console.log(`${label}: passed`);
  } else {
    totals.failed++;
    failures.push(`${label}: npx ${args.join(' ')} exited ${r.status ?? r.signal}; run it to see every finding`);
  }
}

await runCodegen('schemas', 'src/generated');
// after codegen: the type-aware rules read the generated types
treeCheck('lint', ['eslint', '.', '--max-warnings', '0']);
treeCheck('format', ['prettier', '--check', '.']);

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl)
  skippedSuites.push('server suites on PostgreSQL: TEST_DATABASE_URL is not set (.ci/run starts a throwaway cluster and sets it)');
const chaosSkipped = clusterUnavailableReason();
if (chaosSkipped) skippedSuites.push(`chaos test (three instances while PostgreSQL restarts): ${chaosSkipped}`);
// The browser suite and the unit, web and server suites share nothing (each starts its own
// servers on free ports, in temporary folders), so they run side by side unless TEST_SERIAL=1.
const suites: Array<Promise<void>> = [];
let browserRun: (() => Promise<void>) | undefined;
if (existsSync(CHROMIUM)) {
  console.log('\n=== building the web app for the browser tests ===');
  const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (b.status !== 0) failedRuns++;
  else browserRun = () => browserSuite(process.env.TEST_SERIAL === '1' ? undefined : join(outDir, 'browser.log'), others);
} else {
  skippedSuites.push(`browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium fonts-noto-cjk, or set CHROMIUM_PATH)`);
}
const serial = process.env.TEST_SERIAL === '1';
let others: Promise<void> = Promise.resolve();
if (browserRun && serial) await browserRun();
others = vitest('unit, web and server', ['unit', 'web', 'server']).then((o) => count('unit, web and server', o));
if (browserRun && !serial) suites.push(browserRun());
suites.push(others);
await Promise.all(suites);

// after the web build: the guard reads the gzipped bundle sizes from dist/ (and says so when there is none)
treeCheck('bench:guard', ['tsx', 'scripts/bench/guard.ts']);

rmSync(outDir, { recursive: true, force: true });
console.log('');
for (const s of skippedSuites) console.log(`skipped: ${s}`);
for (const f of flaky) console.log(`flaky: ${f}`);
for (const f of failures) console.log(`failed: ${f}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRuns || totals.failed ? 1 : 0);
