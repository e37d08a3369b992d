/**
 * npm run bench:erase [-- --rows N --only sqlite|postgres]
 *
 * What an erasure (个人信息保护 → 删除, docs/personal-information.md) costs on a database of some
 * size, and how much of it is the step that rewrites the free space: N feedback rows (问题反馈,
 * default 100,000) and N roster rows (员工花名册, with their pinyin keys) are seeded, then one
 * person is entered in both (a record each, edited, so the history holds them) and erased by the
 * product's own erasePerson; then a second person the same way, on the file the first erasure left.
 * On SQLite the connection keeps `secure_delete` on, so only the first erasure on a file rebuilds
 * it (VACUUM, once: the file may hold old copies written before); the second is the steady state.
 * Printed per erasure: the seconds of the whole erasure, of its VACUUM step (SQLite: `VACUUM` and
 * the WAL checkpoint after the transaction; PostgreSQL: `vacuum` of the touched tables, the
 * revisions and the operation log) and of the erasure without that step, and the database's size
 * before and after (SQLite: the file and its WAL; PostgreSQL: pg_database_size), and the longest
 * the event loop stood still meanwhile (better-sqlite3 runs VACUUM on the server's thread: every
 * request waits for it).
 * The step is timed inside the real erasure (the SQLite handle's calls, PostgreSQL's statements),
 * so the figure without it is the same erasure less that step. Figures only: exits non-zero only
 * when something is broken (the person still found, the step not seen).
 */
import { statSync, existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { resourceByName, resources } from '../../src/generated/resources.ts';
import { buildApp } from '../../src/server/app.ts';
import { insertRecorded, updateRecorded } from '../../src/server/crud/history/recorded-writes.ts';
import { insertAll } from '../../src/server/crud/repository.ts';
import { observeStatements, sqliteHandleOf } from '../../src/server/db/index.ts';
import { erasePerson } from '../../src/server/modules/privacy/erase.ts';
import { findPerson, type Subject } from '../../src/server/modules/privacy/find.ts';
import { ledgerSecret } from '../../src/server/modules/privacy/requests.ts';
import type { Database, Dialect } from '../../src/server/types.ts';
import { benchConfig, createTarget, fmt, heading, parseArgs, printTable, timed, usage, type BenchTarget } from './common.ts';
import { rosterRecords } from './roster-rows.ts';
import { seedQuestions } from './seed.ts';

const STAFF = resourceByName.staff;
const QUESTION = resourceByName.sysQuestion;
const PEOPLE = [
  { idNumber: '320106198506123572', mobile: '13766554433', name: '欧阳明月' },
  { idNumber: '110101199003070011', mobile: '13800001111', name: '司马长风' },
];
const actor = { kind: 'user' as const, name: 'admin' };

/** The time spent in the erasure's VACUUM step, summed over the calls seen since the last reset. */
interface StepClock {
  ms: number;
  calls: number;
}

/** Times the VACUUM step of every erasure on this database: the SQLite handle's calls, or PostgreSQL's statements. */
function clockVacuum(database: Database): StepClock {
  const clock: StepClock = { ms: 0, calls: 0 };
  const handle = sqliteHandleOf(database);
  if (handle) {
    const sqlite = handle.sqlite;
    const exec = sqlite.exec.bind(sqlite);
    const pragma = sqlite.pragma.bind(sqlite);
    const timedCall = <T>(fn: () => T): T => {
      const t0 = performance.now();
      try {
        return fn();
      } finally {
        clock.ms += performance.now() - t0;
        clock.calls++;
      }
    };
    sqlite.exec = (source: string) => (/^\s*vacuum\b/i.test(source) ? timedCall(() => exec(source)) : exec(source));
    sqlite.pragma = (source: string, options?: { simple?: boolean }) =>
      /^\s*wal_checkpoint/i.test(source) ? timedCall(() => pragma(source, options)) : pragma(source, options);
  } else {
    observeStatements(database, (event) => {
      if (!/^\s*vacuum\b/i.test(event.query.sql)) return;
      clock.ms += event.queryDurationMillis;
      clock.calls++;
    });
  }
  return clock;
}

/**
 * The longest the event loop stood still (ms) between start and stop(): every request of the
 * server waits that long. A timer every 5 ms notes the gaps; stop() waits for its next turn, so a
 * stall at the very end is counted.
 */
function stallMeter(): { stop(): Promise<number> } {
  let last = performance.now();
  let longest = 0;
  const waiting: Array<() => void> = [];
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    for (const done of waiting.splice(0)) done();
  }, 5);
  return {
    async stop() {
      await new Promise<void>((resolve) => waiting.push(resolve));
      clearInterval(timer);
      return longest;
    },
  };
}

async function databaseBytes(database: Database, target: BenchTarget): Promise<number> {
  if (database.dialect === 'postgres') {
    const r = await sql<{ n: number | string }>`select pg_database_size(current_database()) as n`.execute(database.db);
    return Number(r.rows[0].n);
  }
  const file = join(target.dataDir, 'console.db');
  return statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
}

/** One person in the roster and the feedback, each record edited once (the history holds both versions). */
async function enter(database: Database, person: (typeof PEOPLE)[number]): Promise<void> {
  const { db, dialect } = database;
  await db.transaction().execute(async (trx) => {
    const staff = await insertRecorded(trx, STAFF, dialect, actor, {
      ...rosterRecords(1, 99)[0],
      name: person.name,
      mobile: person.mobile,
      card: person.idNumber,
      sex: 1,
    });
    await updateRecorded(trx, STAFF, dialect, actor, [Number(staff.id)], { job: '销售顾问' });
    const question = await insertRecorded(trx, QUESTION, dialect, actor, {
      userType: '客户',
      model: '销售',
      title: '希望增加批量操作',
      content: '建议在列表页增加按门店筛选的条件。',
      username: person.name,
      mobile: person.mobile,
      status: 0,
      enabled: 1,
    });
    await updateRecorded(trx, QUESTION, dialect, actor, [Number(question.id)], { status: 1 });
  });
}

async function runDialect(dialect: Dialect, rows: number): Promise<string[][]> {
  const target = await createTarget(dialect);
  let app: FastifyInstance | undefined;
  try {
    // statements are timed (observeStatements) only with metrics on
    app = await buildApp({ ...benchConfig(target), metricsToken: 'bench-erase-metrics-token', jobsEnabled: false });
    await app.ready();
    const database = app.database;
    await timed(`${dialect}: seed ${fmt(rows)} feedback rows`, () => seedQuestions(database, rows));
    await timed(`${dialect}: seed ${fmt(rows)} roster rows (with pinyin keys)`, () => insertAll(database, STAFF, rosterRecords(rows)));
    for (const p of PEOPLE) await enter(database, p);
    if (dialect === 'sqlite') sqliteHandleOf(database)!.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    else await sql`vacuum analyze`.execute(database.db);
    const clock = clockVacuum(database);
    const secret = await ledgerSecret(database);
    const out: string[][] = [];
    for (const [i, p] of PEOPLE.entries()) {
      const subjects: Subject[] = [
        { kind: 'id', value: p.idNumber },
        { kind: 'phone', value: p.mobile },
      ];
      const before = await databaseBytes(database, target);
      clock.ms = 0;
      clock.calls = 0;
      const stall = stallMeter();
      const t0 = performance.now();
      const report = await erasePerson(database, resources, subjects, { secret, dataDir: target.dataDir });
      const total = performance.now() - t0;
      const stalled = await stall.stop();
      const after = await databaseBytes(database, target);
      const left = await findPerson(database, resources, subjects);
      if (left.count || report.count < 2 || !clock.calls) {
        console.log(
          `${dialect}: broken: ${left.count} records left, ${report.count} erased, VACUUM step ${clock.calls ? 'seen' : 'not seen'}`,
        );
        process.exitCode = 1;
      }
      out.push([
        dialect,
        fmt(rows),
        i === 0 ? 'first' : 'second',
        fmt(report.count),
        fmt(total / 1000, 3),
        fmt(clock.ms / 1000, 3),
        fmt((total - clock.ms) / 1000, 3),
        fmt(stalled / 1000, 3),
        fmt(before / 1024 / 1024, 1),
        fmt(after / 1024 / 1024, 1),
      ]);
    }
    return out;
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
    console.error(`${(e as Error).message}\n${usage('erase')}`);
    process.exit(2);
  }
  heading(`erasing one person among ${fmt(opts.rows)} feedback and ${fmt(opts.rows)} roster rows`);
  const table: string[][] = [
    ['db', 'rows', 'erasure', 'records', 'seconds', 'VACUUM step s', 'without VACUUM s', 'longest stall s', 'MB before', 'MB after'],
  ];
  for (const d of opts.dialects) table.push(...(await runDialect(d, opts.rows)));
  printTable(table);
  // other work on the machine moves these figures: say how busy it was
  console.log(
    `load average (1, 5 min) at the end: ${loadavg()
      .slice(0, 2)
      .map((n) => fmt(n, 1))
      .join(', ')}`,
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
