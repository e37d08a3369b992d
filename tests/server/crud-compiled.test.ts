/**
 * Compiled page queries are reused across pages (only the offset changes): the SQL and
 * parameters must be exactly those of a fresh build, and the pages the same rows in the same
 * order as the plain LIMIT/OFFSET query, on both sides of the offset where SQLite switches to
 * reading the page's ids first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { resourceByName } from '../../src/generated/resources.ts';
import { filteredQuery, insertAll, listPage, pageQuery, parseListQuery, FULL_ACCESS } from '../../src/server/crud/index.ts';
import { compiledPageQuery, orderedQuery } from '../../src/server/crud/repository.ts';
import { loginAs } from './auth-helpers.ts';
import { feedbackRows } from './sample-records.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';

const spec = resourceByName.sysQuestion;
const ROWS = 1300;

const QUERIES: Array<Record<string, string | string[]>> = [
  {},
  { page: '0', size: '15', sort: 'id,desc', model: '销售' },
  { page: '1', size: '15', sort: 'id,desc', model: '销售' },
  { page: '40', size: '15', sort: 'id,desc', model: '销售' },
  { page: '80', size: '15', sort: 'id,desc', model: '销售' },
  { page: '80', size: '15', sort: 'id,asc', model: '销售' },
  { page: '5', size: '200', sort: 'id,desc', model: '系统' },
  { page: '3', size: '10', sort: ['status,asc', 'id,desc'], userType: '员工' },
  { page: '0', size: '10', id: ['7', '3', '5'] },
  { page: '70', size: '15', status: 'true' },
  { page: '1', size: '10', blurry: '销' },
  { page: '0', size: '10', blurry: '12' },
  { page: '2', size: '10', createTime: ['2024-01-01', '2099-12-31'] },
];

describe.each(testApps())('compiled list pages on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await start();
    app = t.app;
    const rows = feedbackRows(ROWS);
    await insertAll(app.database, spec, rows);
  });
  afterAll(async () => t?.close());

  it('compiles to the SQL and parameters of a fresh build, also when reused', () => {
    for (let round = 0; round < 2; round++) {
      for (const query of QUERIES) {
        const params = parseListQuery(spec, query, FULL_ACCESS);
        const fresh = pageQuery(app.database, spec, params).compile();
        const reused = compiledPageQuery(app.database, spec, params);
        expect({ sql: reused.sql, parameters: reused.parameters }, JSON.stringify(query)).toEqual({
          sql: fresh.sql,
          parameters: fresh.parameters,
        });
      }
    }
  });

  it('a deep page read again and again (from a bookmark; a named statement with its generic plan on PostgreSQL) keeps its rows', async () => {
    for (const query of [
      { page: '70', size: '15', sort: 'id,desc' },
      { page: '70', size: '15', sort: 'id,asc' },
      { page: '5', size: '200', sort: 'id,desc' },
      { page: '1', size: '15', sort: 'id,desc', model: '销售' },
    ]) {
      const params = parseListQuery(spec, query, FULL_ACCESS);
      const plain = await orderedQuery(filteredQuery(app.database, spec, params.conditions), params.sort)
        .limit(params.size)
        .offset(params.page * params.size)
        .execute();
      expect(plain.length).toBeGreaterThan(0);
      for (let run = 0; run < 10; run++) {
        const page = await listPage(app.database, spec, params);
        expect(
          page.content.map((r) => r.id),
          `${JSON.stringify(query)} run ${run}`,
        ).toEqual(plain.map((r) => Number(r.id)));
      }
    }
  });

  it('answers the rows of the plain LIMIT/OFFSET query on every page', async () => {
    for (const query of QUERIES) {
      const params = parseListQuery(spec, query, FULL_ACCESS);
      const plain = await orderedQuery(filteredQuery(app.database, spec, params.conditions), params.sort)
        .limit(params.size)
        .offset(params.page * params.size)
        .execute();
      const page = await listPage(app.database, spec, params);
      expect(
        page.content.map((r) => r.id),
        JSON.stringify(query),
      ).toEqual(plain.map((r) => Number(r.id)));
    }
  });

  it('serves the same pages over HTTP after the templates exist', async () => {
    const admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    const url = (page: number) => `/api/sysQuestion?page=${page}&size=15&sort=id,desc&model=${encodeURIComponent('销售')}`;
    const expected = (
      await app.database.db.selectFrom(spec.table).select('id').where('model', '=', '销售').orderBy('id', 'desc').execute()
    ).map((r) => Number(r.id));
    expect(expected.length).toBeGreaterThanOrEqual(ROWS * 0.75);
    for (const page of [0, 1, 66, 67, 0]) {
      const res = await app.inject({ method: 'GET', url: url(page), headers: admin });
      expect(res.statusCode).toBe(200);
      const body = res.json<Page<Created>>();
      expect(body.totalElements).toBe(expected.length);
      expect(body.content.map((r) => r.id)).toEqual(expected.slice(page * 15, page * 15 + 15));
    }
  });
});
