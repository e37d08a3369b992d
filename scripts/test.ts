/**
 * npm test: every test. Runs codegen, then ESLint and Prettier's check over the whole tree (each
 * counted as one test), then Vitest on the unit, web and server projects (the server suites run
 * on SQLite, and again on PostgreSQL when TEST_DATABASE_URL is set) and, beside them, the browser
 * tests in headless Chromium when it is installed (TEST_SERIAL=1 runs them one after the other), then the speed guard (npm run bench:guard, one counted
 * test: ratios to a bare route and to the raw query, bundle sizes, against a recorded baseline). Suites that cannot run on this machine are skipped with
 * the reason printed. Ends with one summary line.
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
let failedRuns = 0;

/** The parts of vitest's JSON report this summary reads (every member may be missing). */
interface VitestReport {
  success?: boolean;
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults?: Array<{
    name: string;
    assertionResults?: Array<{ status: string; fullName: string; failureMessages?: string[] }>;
  }>;
}

/**
 * Runs vitest on `projects`. Its output goes to this terminal, or to `logFile` (printed when it
 * ends) when it runs beside another suite; its counts come from its JSON report.
 */
async function vitest(label: string, projects: string[], env: NodeJS.ProcessEnv = {}, logFile?: string): Promise<void> {
  const out = join(outDir, `${label}.json`);
  const args = [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ];
  console.log(
    `\n=== ${label}: vitest ${projects.join(', ')}${logFile ? ' (beside the other suites; its output follows when it ends)' : ''} ===`,
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
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8')) as VitestReport;
    totals.passed += j.numPassedTests ?? 0;
    totals.failed += j.numFailedTests ?? 0;
    totals.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
    for (const file of j.testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        if (t.status !== 'failed') continue;
        const why = String(t.failureMessages?.[0] ?? '')
          .split('\n')
          .slice(0, 3)
          .join(' / ')
          .slice(0, 400);
        failures.push(`${label}: ${file.name.replace(process.cwd() + '/', '')} > ${t.fullName}\n    ${why}`);
      }
    }
    if (!j.success || status !== 0) failedRuns++;
  } else {
    console.log(`${label}: vitest wrote no report (exit ${status})`);
    failedRuns++;
  }
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
if (existsSync(CHROMIUM)) {
  console.log('\n=== building the web app for the browser tests ===');
  const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (b.status !== 0) failedRuns++;
  else {
    const browser = () =>
      vitest('browser', ['e2e'], { CHROMIUM_PATH: CHROMIUM }, process.env.TEST_SERIAL === '1' ? undefined : join(outDir, 'browser.log'));
    if (process.env.TEST_SERIAL === '1') await browser();
    else suites.push(browser());
  }
} else {
  skippedSuites.push(`browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium fonts-noto-cjk, or set CHROMIUM_PATH)`);
}
suites.push(vitest('unit, web and server', ['unit', 'web', 'server']));
await Promise.all(suites);

// after the web build: the guard reads the gzipped bundle sizes from dist/ (and says so when there is none)
treeCheck('bench:guard', ['tsx', 'scripts/bench/guard.ts']);

rmSync(outDir, { recursive: true, force: true });
console.log('');
for (const s of skippedSuites) console.log(`skipped: ${s}`);
for (const f of failures) console.log(`failed: ${f}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRuns || totals.failed ? 1 : 0);
