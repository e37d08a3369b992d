/**
 * npm run fuzz [-- --pg]: the full hostile corpus (tests/server/fuzz-corpus.ts) over every route
 * the server registers, against a fresh app with demo data on SQLite (or on the PostgreSQL of
 * TEST_DATABASE_URL with --pg). Prints the number of requests by status, the slowest answers and
 * every failure: a 5xx, an answer slower than 5 s, a 4xx without a Chinese message, or rows
 * changed by a route whose requests were all refused. Exits 1 when there is any.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { changedTables, fuzzCases, tableFingerprint } from '../tests/server/fuzz-corpus.ts';
import { loginAs } from '../tests/server/auth-helpers.ts';
import { plainText } from '../src/shared/text.ts';

const PASSWORD = 'Fuzz@2024pass';
const usePg = process.argv.includes('--pg');
const dataDir = mkdtempSync(join(tmpdir(), 'fuzz-'));
let databaseUrl = '';
let dropDb: (() => Promise<void>) | undefined;
if (usePg) {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) {
    console.error('--pg needs TEST_DATABASE_URL (a PostgreSQL server where a database can be created)');
    process.exit(2);
  }
  const name = `fuzz_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  dropDb = async () => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}

const app = await buildApp(
  loadConfig(
    {},
    {
      dataDir,
      databaseUrl,
      captchaEnabled: false,
      seedDemo: true,
      adminInitialPassword: PASSWORD,
      logLevel: 'silent',
      serveWeb: false,
      // no scheduled job fires meanwhile (its log would count as rows a refused request changed)
      jobsEnabled: false,
    },
  ),
);
await app.ready();
let failures = 0;
try {
  const token = await loginAs(app, 'admin', PASSWORD);
  const cases = fuzzCases(app, token, { full: true });
  const byRoute = new Map<string, typeof cases>();
  for (const c of cases) byRoute.set(c.route, [...(byRoute.get(c.route) ?? []), c]);
  console.log(`fuzz: ${cases.length} requests over ${byRoute.size} routes on ${usePg ? 'PostgreSQL' : 'SQLite'}`);
  const counts = new Map<number, number>();
  const slowest: Array<[number, string]> = [];
  const began = Date.now();
  for (const [route, list] of byRoute) {
    const before = route.startsWith('GET ') ? undefined : await tableFingerprint(app);
    let accepted = false;
    for (const c of list) {
      const t0 = Date.now();
      const res = await app.inject(c.request);
      const ms = Date.now() - t0;
      counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
      slowest.push([ms, `${route} ${c.kind}`]);
      if (slowest.length > 20) slowest.sort((a, b) => b[0] - a[0]).pop();
      if (res.statusCode < 400) accepted = true;
      const problem =
        res.statusCode >= 500
          ? `${res.statusCode} ${res.body.slice(0, 120)}`
          : ms > 5000
            ? `took ${ms} ms`
            : res.statusCode >= 400 &&
                String(res.headers['content-type'] ?? '').includes('json') &&
                !/[\u4e00-\u9fff]/.test(plainText(res.json<{ message?: unknown }>().message))
              ? `${res.statusCode} without a Chinese message`
              : '';
      if (problem) {
        failures++;
        console.log(`FAIL ${route} [${c.kind}]: ${problem}`);
      }
    }
    const changed = before && !accepted ? changedTables(before, await tableFingerprint(app)) : [];
    if (changed.length) {
      failures++;
      console.log(`FAIL ${route}: refused requests changed rows of ${changed.join(', ')}`);
    }
  }
  console.log(
    `by status: ${[...counts]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s} × ${n}`)
      .join(', ')}`,
  );
  console.log(
    `slowest: ${slowest
      .sort((a, b) => b[0] - a[0])
      .slice(0, 5)
      .map(([ms, what]) => `${ms} ms ${what}`)
      .join('; ')}`,
  );
  console.log(`${cases.length} requests in ${((Date.now() - began) / 1000).toFixed(1)} s: ${failures} failures`);
} finally {
  await app.close();
  await dropDb?.();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failures ? 1 : 0);
