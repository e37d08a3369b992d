/**
 * npm run bench:pinyin-profile -- --keep DIR [--only sqlite|postgres] [--queries zs,zhang] [--requests N] [--profile FILE] [--statements]
 *
 * Where a pinyin list request's time goes, on the data `bench:pinyin --keep DIR` seeded (run
 * that first). Per query (and first the same route without blurry, the reference): the list
 * route through `inject` (no HTTP), 8 requests at a time, N in all after a warm-up; prints CPU
 * µs per request. `--statements` times every SQL statement of the measured requests (µs per run
 * and per request); `--profile FILE` records them as a CPU profile (FILE.<query>.cpuprofile).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Session } from 'node:inspector/promises';
import { resourceByName } from '../../src/generated/resources.ts';
import { buildBenchApp, fmt, injected, keptPlace, pgServerUrl, signInAdmin } from './common.ts';
import { installStatementTimer, printStatementTimes, startStatementTimer } from './statement-timer.ts';
import type { Dialect } from '../../src/server/types.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const keep = arg('keep', '');
if (!keep) {
  console.error('--keep DIR: the directory bench:pinyin --keep seeded');
  process.exit(2);
}
const dialect = arg('only', 'sqlite') as Dialect;
const queries = ['', ...arg('queries', 'zs,zhang').split(',')];
const requests = Number(arg('requests', '4000'));
const profileTo = arg('profile', '');
const timeStatements = process.argv.includes('--statements');
if (timeStatements) installStatementTimer();

const dir = resolve(keep);
// the place bench:pinyin --keep DIR seeded
const place = keptPlace(dialect, dir, 'pinyin');
let databaseUrl = '';
if (dialect === 'postgres') {
  const u = new URL(pgServerUrl()!);
  u.pathname = `/${place.name}`;
  databaseUrl = u.toString();
}
const app = await buildBenchApp({ dataDir: place.dataDir, databaseUrl });
try {
  const token = await signInAdmin(app);
  const headers = { authorization: `Bearer ${token}` };
  const spec = resourceByName.xsZjs;
  for (const q of queries) {
    const url = `/${spec.path}?page=0&size=10&sort=id,desc${q ? `&blurry=${encodeURIComponent(q)}` : ''}`;
    const run = async (n: number) => {
      let left = n;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await injected(app, { url, headers }, () => left-- > 0);
      const cpu = process.cpuUsage(cpu0);
      return { cpuUs: (cpu.user + cpu.system) / n, wallUs: ((performance.now() - t0) * 1000) / n };
    };
    await run(Math.min(500, requests));
    const session = profileTo ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    if (timeStatements) startStatementTimer();
    const r = await run(requests);
    if (timeStatements) printStatementTimes(requests);
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      const file = `${profileTo}.${q || 'plain'}.cpuprofile`;
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`CPU profile: ${file}`);
    }
    console.log(`${dialect} ${q ? `blurry=${q}` : 'no blurry'}: CPU ${fmt(r.cpuUs)} µs, wall ${fmt(r.wallUs)} µs per request\n`);
  }
} finally {
  await app.close();
}
