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
  const row = (content: string) => ({ userType: '员工', model: '人事', content, status: true, enabled: true });

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

  it('answers an unchanged total without counting again (SQLite; PostgreSQL has no stamp)', async () => {
    expect(await total('人事')).toBe(3);
    const before = counts;
    for (let i = 0; i < 4; i++) expect(await total('人事')).toBe(3);
    if (dialect === 'sqlite') {
      expect(changeStamp(app.database)).toMatch(/^\d+\/\d+$/);
      // none counted again; one may be, should the operation log's once-a-second write of these
      // full reads (a write to the file) land between two of them
      expect(counts - before).toBeLessThanOrEqual(1);
    } else {
      // no stamp on PostgreSQL: its totals keep the rules they had (count.ts rules 1-6)
      expect(changeStamp(app.database)).toBeUndefined();
    }
  });

  it('follows rows written past the app at once on SQLite (another connection, this connection beneath Kysely, a rollback)', async () => {
    expect(await total('人事')).toBe(3);
    if (dialect === 'sqlite') {
      const { sqlite, file } = sqliteHandleOf(app.database)!;
      const insert = `INSERT INTO ${spec.table} (user_type, model, content, status, enabled) VALUES ('员工', '人事', ?, 1, 1)`;
      // another connection to the file (another process would be the same): data_version moves
      const other = new SQLite(file);
      try {
        other.prepare(insert).run('other connection');
      } finally {
        other.close();
      }
      expect(await total('人事')).toBe(4);
      // the app's own connection, past Kysely and the write counter: total_changes moves
      sqlite.prepare(insert).run('same connection');
      expect(await total('人事')).toBe(5);
      sqlite.prepare(`DELETE FROM ${spec.table} WHERE content IN ('other connection', 'same connection')`).run();
      expect(await total('人事')).toBe(3);
      // a write rolled back leaves the total as it was, and it is still right
      sqlite.exec('BEGIN');
      sqlite.prepare(insert).run('rolled back');
      sqlite.exec('ROLLBACK');
      expect(await total('人事')).toBe(3);
      expect(await total('人事')).toBe(3);
    } else {
      // PostgreSQL: a write through the app is followed at once (its write counter), as before
      const created = await app.inject({
        method: 'POST',
        url: Q,
        headers: admin,
        payload: { userType: '员工', model: '人事', content: 'through the app' },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(await total('人事')).toBe(4);
    }
  });
});
