/**
 * x-entity.indexes: sysQuestion's (model, status) index is created on start, and a deep page
 * filtered on both (read ids first from that index) answers the same rows and total as plain SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { seedQuestions } from '../../scripts/bench/seed.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Page } from '../support/answers.ts';

describe.each(testApps())('the composite (model, status) index on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await start();
    await seedQuestions(t.app.database, 10_000);
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 120_000);
  afterAll(async () => t?.close());

  it('exists after start', async () => {
    const { db, dialect } = t.app.database;
    const names =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'sys_question'`.execute(db)).rows
        : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'sys_question'`.execute(db)).rows;
    expect(names.map((r) => r.name)).toContain('idx_sys_question_model_status_id');
  });

  it('a deep page filtered on both answers the rows and total plain SQL finds', async () => {
    const { db } = t.app.database;
    const done = t.app.database.dialect === 'sqlite' ? 1 : true;
    const expected = await db
      .selectFrom('sys_question')
      .select('id')
      .where('model', '=', '销售')
      .where('status', '=', done as never)
      .orderBy('id', 'desc')
      .execute();
    const size = 15;
    const page = Math.floor((expected.length - 20) / size); // deep enough for the ids-first query on SQLite (offset >= 1,000)
    expect(page * size).toBeGreaterThanOrEqual(1000);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sysQuestion?page=${page}&size=${size}&sort=id,desc&model=${encodeURIComponent('销售')}&status=true`,
      headers: bearer(admin),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<Page>();
    expect(body.totalElements).toBe(expected.length);
    expect(body.content.map((r) => Number(r.id))).toEqual(expected.slice(page * size, page * size + size).map((r) => Number(r.id)));
    expect(body.content.every((r) => r.model === '销售' && r.status === true)).toBe(true);
  });
});
