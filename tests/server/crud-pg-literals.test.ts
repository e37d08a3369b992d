/**
 * Filter values of a small fixed set (booleans, a field's x-options) and the page's bookmark are
 * written into the SQL text on PostgreSQL (crud/query/pg-literals.ts), so a list page's named statement
 * has no parameters and keeps one plan; everything else stays a parameter. The rows and totals are
 * those of the plain query on both databases, and a value outside the options (a quote included)
 * is still bound, never written into the text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { resourceByName } from '../../src/generated/resources.ts';
import type { FieldSpec } from '../../src/shared/resource-spec.ts';
import { insertAll, listPage, parseListQuery, FULL_ACCESS } from '../../src/server/crud/index.ts';
import { compiledAnchoredPage, compiledPageQuery } from '../../src/server/crud/repository.ts';
import { pgLiteral } from '../../src/server/crud/query/pg-literals.ts';
import { HOT_AFTER } from '../../src/server/db/pg-prepared.ts';
import { loginAs } from './auth-helpers.ts';
import { feedbackRows } from './sample-records.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';

const spec = resourceByName.sysQuestion;
const field = (name: string) => spec.fields.find((f) => f.name === name)!;

describe('which values become literals', () => {
  it('on PostgreSQL a boolean of a boolean field and a value among the field options; nothing on SQLite', () => {
    expect(pgLiteral(field('status'), true, 'postgres')).toBeDefined();
    expect(pgLiteral(field('model'), '销售', 'postgres')).toBeDefined();
    expect(pgLiteral(field('model'), '销售', 'sqlite')).toBeUndefined();
    expect(pgLiteral(field('status'), 1, 'sqlite')).toBeUndefined();
  });

  it('free text, values outside the options, texts needing escapes and booleans of other fields stay parameters', () => {
    expect(pgLiteral(field('model'), '不存在', 'postgres')).toBeUndefined();
    expect(pgLiteral(field('title'), 'anything', 'postgres')).toBeUndefined();
    expect(pgLiteral(field('id'), 7, 'postgres')).toBeUndefined();
    expect(pgLiteral(field('model'), true, 'postgres')).toBeUndefined();
    const odd: FieldSpec = {
      ...field('model'),
      options: [
        { value: "a'b", label: 'q' },
        { value: 'a\\b', label: 'b' },
        { value: 'a\nb', label: 'n' },
        { value: 'x'.repeat(101), label: 'long' },
        { value: 3, label: 'three' },
      ],
    };
    for (const v of ["a'b", 'a\\b', 'a\nb', 'x'.repeat(101)]) expect(pgLiteral(odd, v, 'postgres'), JSON.stringify(v)).toBeUndefined();
    expect(pgLiteral(odd, 3, 'postgres')).toBeDefined();
  });
});

describe.each(testApps())('list pages with literal filter values on %s', (dialect, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  const ROWS = 2600;

  beforeAll(async () => {
    t = await start();
    app = t.app;
    await insertAll(app.database, spec, feedbackRows(ROWS));
  });
  afterAll(async () => t?.close());

  it('the page of model and status has no parameters on PostgreSQL (bookmarked or not) and keeps them on SQLite; a date window keeps its parameters', () => {
    const params = (query: Record<string, string | string[]>) => parseListQuery(spec, query, FULL_ACCESS);
    const first = compiledPageQuery(app.database, spec, params({ page: '1', size: '15', sort: 'id,desc', model: '销售', status: 'true' }));
    const deep = compiledAnchoredPage(
      app.database,
      spec,
      params({ page: '70', size: '15', sort: 'id,desc', model: '销售', status: 'true' }),
      1000,
      1234,
    );
    const window = compiledPageQuery(
      app.database,
      spec,
      params({ page: '0', size: '15', sort: 'id,desc', createTime: ['2024-01-01', '2099-12-31'] }),
    );
    if (dialect === 'postgres') {
      expect(first.parameters).toEqual([]);
      expect(first.sql).toContain(`"model" = '销售'`);
      expect(first.sql).toContain(`"status" = true`);
      expect(deep.parameters).toEqual([]);
      expect(deep.sql).toContain('"id" <= 1234');
    } else {
      expect(first.parameters).toContain('销售');
      expect(deep.parameters).toContain(1234);
    }
    expect(window.parameters.length).toBeGreaterThanOrEqual(2);
  });

  it('pages and totals equal the plain query with bound values, deep pages (from a bookmark) included', async () => {
    for (const query of [
      { page: '0', size: '15', sort: 'id,desc', model: '销售', status: 'true' },
      { page: '70', size: '15', sort: 'id,desc', model: '销售', status: 'true' },
      { page: '90', size: '15', sort: 'id,asc', model: '销售', status: 'false' },
      { page: '3', size: '10', sort: 'id,desc', userType: '客户' },
      { page: '2', size: '10', sort: 'id,desc', status: 'false' },
    ]) {
      const params = parseListQuery(spec, query, FULL_ACCESS);
      // the same conditions with every value bound: a query built by hand, not through the list's builder
      let bound = app.database.db.selectFrom(spec.table).select('id');
      for (const [name, text] of Object.entries(query) as Array<[string, string]>) {
        if (['page', 'size', 'sort'].includes(name)) continue;
        const f = field(name);
        const value = f.type === 'boolean' ? (app.database.dialect === 'sqlite' ? Number(text === 'true') : text === 'true') : text;
        bound = bound.where(f.column, '=', value as never);
      }
      const all = (await bound.orderBy('id', query.sort.endsWith('desc') ? 'desc' : 'asc').execute()).map((r) => Number(r.id));
      for (let run = 0; run < HOT_AFTER + 3; run++) {
        const page = await listPage(app.database, spec, params);
        expect(page.totalElements, JSON.stringify(query)).toBe(all.length);
        expect(
          page.content.map((r) => r.id),
          `${JSON.stringify(query)} run ${run}`,
        ).toEqual(all.slice(params.page * params.size, params.page * params.size + params.size));
      }
    }
  });

  it('a value outside the options, a quote included, is bound: an empty page, no error', async () => {
    const admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    for (const model of ["销'售", "x' or '1'='1", '\\']) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/sysQuestion?page=0&size=15&model=${encodeURIComponent(model)}`,
        headers: admin,
      });
      expect(res.statusCode, model).toBe(200);
      expect(res.json<Page<Created>>().totalElements, model).toBe(0);
    }
    // and the filter still finds what it should through the route
    const res = await app.inject({
      method: 'GET',
      url: `/api/sysQuestion?page=0&size=15&model=${encodeURIComponent('系统')}&status=true`,
      headers: admin,
    });
    const expected = await app.database.db
      .selectFrom(spec.table)
      .select(sql<number>`count(*)`.as('n'))
      .where('model', '=', '系统')
      .where('status', '=', (app.database.dialect === 'sqlite' ? 1 : true) as never)
      .executeTakeFirstOrThrow();
    expect(Number(expected.n)).toBeGreaterThan(0);
    expect(res.json<Page<Created>>().totalElements).toBe(Number(expected.n));
  });

  it.runIf(dialect === 'postgres')('the page statement run again and again on one connection keeps one plan: no custom plans', async () => {
    const params = parseListQuery(spec, { page: '1', size: '15', sort: 'id,desc', model: '销售', status: 'true' }, FULL_ACCESS);
    const compiled = compiledPageQuery(app.database, spec, params);
    const window = compiledPageQuery(
      app.database,
      spec,
      parseListQuery(spec, { page: '0', size: '15', sort: 'id,desc', createTime: ['2024-01-01', '2099-12-31'] }, FULL_ACCESS),
    );
    const plans = await app.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < HOT_AFTER + 8; i++) {
        await trx.executeQuery(compiled);
        await trx.executeQuery(window);
      }
      return (
        await sql<{
          statement: string;
          generic_plans: string;
          custom_plans: string;
        }>`select statement, generic_plans, custom_plans from pg_prepared_statements`.execute(trx)
      ).rows;
    });
    const page = plans.find((p) => p.statement === compiled.sql);
    expect(page, 'the page statement is prepared').toBeDefined();
    expect(Number(page!.custom_plans)).toBe(0);
    expect(Number(page!.generic_plans)).toBeGreaterThanOrEqual(8);
    // the window keeps its parameters: PostgreSQL still plans it with the values each run
    const byWindow = plans.find((p) => p.statement === window.sql);
    expect(byWindow).toBeDefined();
    expect(Number(byWindow!.custom_plans)).toBeGreaterThanOrEqual(5);
  });
});
