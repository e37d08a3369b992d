/**
 * npm run bench:profile -- [--scenario oneRow|list] [--requests N] [--only sqlite|postgres] [--profile FILE] [--statements]
 *
 * Sends one of the guard's requests many times through `inject` (8 at a time) to an app on a
 * fresh database of 20,000 feedback rows, and prints the CPU per request. Run it under
 * `--profile FILE`, the measured rounds are recorded as a CPU profile (.cpuprofile, for Chrome's
 * DevTools or any profile viewer) to see where a request's time goes. `--statements` times every
 * SQL statement of the measured rounds and prints each one's cost per run and per request.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import Fastify from 'fastify';
import { benchConfig, cpuSnapshot, createTarget, fmt, injected, signInAdmin } from './common.ts';
import { buildApp } from '../../src/server/app.ts';
import { QUESTION_TABLE, seedQuestions } from './seed.ts';
import { installStatementTimer, printStatementTimes, startStatementTimer } from './statement-timer.ts';
import type { Dialect } from '../../src/server/types.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const scenario = arg('scenario', 'oneRow');
const requests = Number(arg('requests', '20000'));
const dialect = arg('only', 'sqlite') as Dialect;
const ROWS = 20_000;
const timeStatements = process.argv.includes('--statements');
if (timeStatements) installStatementTimer();

const target = await createTarget(dialect);
const app = await buildApp(benchConfig(target));
try {
  await app.ready();
  await seedQuestions(app.database, ROWS);
  const token = await signInAdmin(app);
  const one = await app.database.db
    .selectFrom(QUESTION_TABLE)
    .select('id')
    .orderBy('id')
    .offset(Math.floor(ROWS * 0.37))
    .limit(1)
    .executeTakeFirstOrThrow();
  const url =
    scenario === 'list'
      ? `/api/sysQuestion?page=50&size=15&sort=id,desc&model=${encodeURIComponent('销售')}&status=true`
      : `/api/sysQuestion?id=${one.id}`;
  const headers = { authorization: `Bearer ${token}` };
  // --bare: a bare Fastify app answering the same body (what any route costs at least), to compare
  let target_ = app;
  let url_ = url;
  if (process.argv.includes('--bare')) {
    const body = (await app.inject({ method: 'GET', url, headers })).body;
    target_ = Fastify({ logger: false });
    target_.get('/bare', (_request, reply) => {
      reply.header('content-type', 'application/json; charset=utf-8').send(body);
    });
    await target_.ready();
    url_ = '/bare';
  }
  const run = async (n: number) => {
    let left = n;
    const snap0 = cpuSnapshot();
    const cpu0 = process.cpuUsage();
    await injected(target_, { url: url_, headers }, () => left-- > 0);
    const cpu = process.cpuUsage(cpu0);
    const snap1 = cpuSnapshot();
    if (snap0 && snap1) pgUs.push(((snap1.postgres - snap0.postgres) * 1e6) / n);
    return (cpu.user + cpu.system) / n;
  };
  const pgUs: number[] = [];
  await run(Math.min(2000, requests));
  const profileTo = arg('profile', '');
  const session = profileTo ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const per: number[] = [];
  if (timeStatements) startStatementTimer();
  for (let i = 0; i < 5; i++) per.push(await run(Math.ceil(requests / 5)));
  if (timeStatements) printStatementTimes(5 * Math.ceil(requests / 5));
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileTo, JSON.stringify(profile));
    session.disconnect();
    console.log(`CPU profile of the measured rounds: ${profileTo}`);
  }
  console.log(
    `${dialect} ${scenario}: ${url_}\nCPU µs per request, 5 rounds: ${per.map((x) => fmt(x)).join(' / ')} (least ${fmt(Math.min(...per))})`,
  );
  if (dialect === 'postgres' && pgUs.length)
    console.log(
      `PostgreSQL server CPU µs per request (1/100 s ticks): ${pgUs
        .slice(1)
        .map((x) => fmt(x))
        .join(' / ')}`,
    );
} finally {
  await app.close();
  await target.cleanup();
}
