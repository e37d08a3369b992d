import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { CompiledQuery, QueryResult } from 'kysely';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { changeStamp } from '../../src/server/db/change-stamp.ts';
import { sqliteHandleOf } from '../../src/server/db/index.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Page } from '../support/answers.ts';

const Q = '/api/sysQuestion';
const spec = resourceByName.sysQuestion;

describe.each(testApps())('list totals kept with the database change stamp on %s', (dialect, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  /** count statements the app ran, seen through Kysely */
  let counts = 0;
  // page 3 of 15 is past the end of these results, so every answer needs the total
  const total = async (model: string) =>
    (await app.inject({ method: 'GET', url: `${Q}?page=3&size=15&model=${encodeURIComponent(model)}`, headers: admin })).json<Page>()
      .totalElements;
  const row = (content: string) => ({ userType: '员工', model: '财务', content, status: true, enabled: true });

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    await insertAll(app.database, spec, [row('a'), row('b'), row('c')]);
    const db = app.database.db;
    const run = db.executeQuery.bind(db) as (query: CompiledQuery) => Promise<QueryResult<unknown>>;
    vi.spyOn(db, 'executeQuery').mockImplementation(((query: CompiledQuery) => {
      if (/count\(\*\)/i.test(query.sql) && query.sql.includes(spec.table)) counts++;
      return run(query);
    }) as typeof db.executeQuery);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  it('answers an unchanged total without counting again (SQLite), and counts on every request on PostgreSQL', async () => {
    expect(await total('财务')).toBe(3);
    const before = counts;
    expect(await total('财务')).toBe(3);
    expect(await total('财务')).toBe(3);
    if (dialect === 'sqlite') {
      expect(changeStamp(app.database)).toMatch(/^\d+\/\d+$/);
      expect(counts).toBe(before);
    } else {
      expect(changeStamp(app.database)).toBeUndefined();
      expect(counts).toBeGreaterThanOrEqual(before + 1);
    }
  });

  it('follows rows written past the app at once: another connection, this connection beneath Kysely, a rollback', async () => {
    expect(await total('财务')).toBe(3);
    if (dialect === 'sqlite') {
      const { sqlite, file } = sqliteHandleOf(app.database)!;
      const insert = `INSERT INTO ${spec.table} (user_type, model, content, status, enabled) VALUES ('员工', '财务', ?, 1, 1)`;
      // another connection to the file (another process would be the same): data_version moves
      const other = new SQLite(file);
      try {
        other.prepare(insert).run('other connection');
      } finally {
        other.close();
      }
      expect(await total('财务')).toBe(4);
      // the app's own connection, past Kysely and the write counter: total_changes moves
      sqlite.prepare(insert).run('same connection');
      expect(await total('财务')).toBe(5);
      sqlite.prepare(`DELETE FROM ${spec.table} WHERE content IN ('other connection', 'same connection')`).run();
      expect(await total('财务')).toBe(3);
      // a write rolled back leaves the total as it was, and it is still right
      sqlite.exec('BEGIN');
      sqlite.prepare(insert).run('rolled back');
      sqlite.exec('ROLLBACK');
      expect(await total('财务')).toBe(3);
      expect(await total('财务')).toBe(3);
    } else {
      // PostgreSQL keeps counting small results on every request
      await app.database.db
        .insertInto(spec.table)
        .values({ user_type: '员工', model: '财务', content: 'past the app', status: true, enabled: true })
        .execute();
      expect(await total('财务')).toBe(4);
    }
  });
});
