/**
 * Deep pages of id-ordered lists start from bookmarks (src/server/crud/query/bookmarks.ts): every page
 * must hold exactly the rows of the plain LIMIT/OFFSET query, before and after writes through
 * the app (which drop the bookmarks), in both directions, filtered or not, and past the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { resourceByName } from '../../src/generated/resources.ts';
import { deleteRecords, filteredQuery, insertAll, listPage, parseListQuery, FULL_ACCESS } from '../../src/server/crud/index.ts';
import { orderedQuery } from '../../src/server/crud/repository.ts';
import { BOOKMARK_STEP, MAX_TOTAL_MARKS, bookmarkAt, bookmarkCount, bookmarkPosition } from '../../src/server/crud/query/bookmarks.ts';
import { feedbackRows } from './sample-records.ts';
import { testApps, type TestApp } from './helpers.ts';

const spec = resourceByName.sysQuestion;
const ROWS = 4200;

describe('bookmark positions', () => {
  it('the start of the step an offset falls in', () => {
    expect(BOOKMARK_STEP).toBe(100);
    expect(bookmarkPosition(0)).toBe(0);
    expect(bookmarkPosition(99)).toBe(0);
    expect(bookmarkPosition(100)).toBe(100);
    expect(bookmarkPosition(7515)).toBe(7500);
    expect(bookmarkPosition(7499)).toBe(7400);
  });
});

describe.each(testApps())('bookmarked deep pages on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;

  const plainIds = async (query: Record<string, string>) => {
    const params = parseListQuery(spec, query, FULL_ACCESS);
    const rows = await orderedQuery(filteredQuery(app.database, spec, params.conditions), params.sort)
      .limit(params.size)
      .offset(params.page * params.size)
      .execute();
    return rows.map((r) => Number(r.id));
  };
  const pageIds = async (query: Record<string, string>) =>
    (await listPage(app.database, spec, parseListQuery(spec, query, FULL_ACCESS))).content.map((r) => Number(r.id));

  const expectSame = async (queries: Array<Record<string, string>>) => {
    for (const q of queries) expect(await pageIds(q), JSON.stringify(q)).toEqual(await plainIds(q));
  };

  const deep = (extra: Record<string, string>) =>
    [66, 67, 133, 134, 200, 250, 279, 280, 281, 400].map((page) => ({ page: String(page), size: '15', ...extra }));

  beforeAll(async () => {
    t = await start({ seedDemo: false });
    app = t.app;
    await insertAll(app.database, spec, feedbackRows(ROWS));
  });
  afterAll(async () => t?.close());

  it('every deep page equals the plain query: both directions, filtered or not, past the end', async () => {
    for (let round = 0; round < 2; round++) {
      // the second round is served from the bookmarks the first one made
      await expectSame(deep({ sort: 'id,desc' }));
      await expectSame(deep({ sort: 'id,asc' }));
      await expectSame(deep({ sort: 'id,desc', model: '销售' }));
      await expectSame(deep({ sort: 'id,asc', model: '系统' }));
      await expectSame(deep({ sort: 'id,desc', userType: '员工', status: 'true' }));
    }
    expect(await pageIds({ page: '900', size: '15', sort: 'id,desc' })).toEqual([]);
    // deeper still: an earlier bookmark already found the end
    expect(await pageIds({ page: '950', size: '15', sort: 'id,desc' })).toEqual([]);
    const past = await listPage(
      app.database,
      spec,
      parseListQuery(spec, { page: '900', size: '15', sort: 'id,desc', model: '系统' }, FULL_ACCESS),
    );
    expect(past.content).toEqual([]);
    expect(past.totalElements).toBe(ROWS / 4 + (ROWS % 4 ? 1 : 0));
  });

  it('a write through the app drops the bookmarks: deletes and inserts before and after them', async () => {
    await expectSame(deep({ sort: 'id,desc', model: '销售' }));
    const all = await app.database.db.selectFrom(spec.table).select('id').orderBy('id', 'desc').execute();
    // delete rows on the first pages (they shift every later page) and one deep one
    await deleteRecords(app.database, spec, [Number(all[3].id), Number(all[10].id), Number(all[500].id), Number(all[2500].id)]);
    await expectSame(deep({ sort: 'id,desc', model: '销售' }));
    await expectSame(deep({ sort: 'id,asc' }));
    await insertAll(app.database, spec, [{ userType: '员工', model: '销售', content: 'new', status: false, enabled: true }]);
    await expectSame(deep({ sort: 'id,desc', model: '销售' }));
    await expectSame(deep({ sort: 'id,desc' }));
  });

  it(`all lists together keep at most ${MAX_TOTAL_MARKS.toLocaleString('en')} bookmarks, and a dropped list gives its room back`, async () => {
    const db = app.database;
    const base = bookmarkCount(db);
    const perList = 4000;
    const lists = Math.ceil((MAX_TOTAL_MARKS - base) / perList) + 2;
    for (let l = 0; l < lists; l++)
      for (let p = 1; p <= perList; p++) await bookmarkAt(db, 'bound_test', `list ${l}`, p * BOOKMARK_STEP, () => Promise.resolve(p));
    expect(bookmarkCount(db)).toBe(MAX_TOTAL_MARKS);
    // a list looked up after its lifetime starts afresh: its bookmarks leave the count
    const later = Date.now() + 24 * 3600 * 1000;
    await bookmarkAt(db, 'bound_test', 'list 0', BOOKMARK_STEP, () => Promise.resolve(1), later);
    expect(bookmarkCount(db)).toBe(MAX_TOTAL_MARKS - perList + 1);
    // and the room is used again
    await bookmarkAt(db, 'bound_test', 'list 0', 2 * BOOKMARK_STEP, () => Promise.resolve(2), later);
    expect(bookmarkCount(db)).toBe(MAX_TOTAL_MARKS - perList + 2);
  });
});
