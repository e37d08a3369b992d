/**
 * Pages of pinyin searches kept on SQLite by the database's change stamp (crud/pinyin/pinyin-pages.ts):
 * the same rows and totals as the usual path, page by page and in both orders; a write between
 * two identical searches changes the answer whoever makes it (the app's routes, another
 * connection to the file, the app's connection beneath Kysely); each caller still gets only its
 * data scope and searches only the fields it may see; a common prefix keeps its walked pages;
 * the kept ids stay within their memory budget. On PostgreSQL (no stamp, nothing kept) the same
 * answers come the usual way.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { CompiledQuery, QueryResult } from 'kysely';
import { resourceByName } from '../../src/generated/resources.ts';
import { FULL_ACCESS, insertAll, parseListQuery } from '../../src/server/crud/index.ts';
import { filteredQuery, pageQuery } from '../../src/server/crud/repository.ts';
import { pinyinPagePlan } from '../../src/server/crud/pinyin/pinyin-plan.ts';
import { pinyinTable } from '../../src/server/crud/pinyin/pinyin-search.ts';
import { pinyinStoredKeys } from '../../src/server/crud/pinyin/pinyin-keys.ts';
import { keptPinyinMemory, keptPinyinPage } from '../../src/server/crud/pinyin/pinyin-pages.ts';
import { sqliteHandleOf } from '../../src/server/db/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';

const spec = resourceByName.xsZjs;
const XS = `/${spec.path}`;
const PASSWORD = 'Kept_pages1';
const NAME = spec.fields.find((f) => f.name === 'customerName')!;

interface Row {
  id: number;
  orgId: number;
  customerName: string;
  cx: string;
}

// 张三 zs, 赵四 zs, 周森 zs, 章山 zs, 钟书 zs, 张伟 zw, 李四 ls; 速腾 st, 雅阁 yg
const NAMES = ['张三', '赵四', '周森', '章山', '钟书', '张伟', '李四'];

describe.each(testApps())('kept pinyin pages on %s', (dialect, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  const tokens: Record<string, string> = {};
  const orgs: Record<string, number> = {};
  /** statements the app ran through Kysely that read a pinyin side table */
  let keyReads = 0;

  const list = async (token: string, q: string, extra = '') => {
    const res = await app.inject({
      method: 'GET',
      url: `${XS}?blurry=${encodeURIComponent(q)}${extra}`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Page<Row>>();
    return { ids: page.content.map((r) => r.id), names: page.content.map((r) => r.customerName), total: page.totalElements };
  };
  /** the page and total the usual path gives (the page plan and query as the list builds them, a plain count) */
  const usual = async (q: string, page: number, size: number, sort: string) => {
    const params = parseListQuery(spec, { page: String(page), size: String(size), sort, blurry: q }, FULL_ACCESS);
    const rows = await pageQuery(app.database, spec, await pinyinPagePlan(app.database, spec, params)).execute();
    const counted = await filteredQuery(app.database, spec, params.conditions)
      .clearSelect()
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return { ids: rows.map((r) => Number(r.id)), total: Number(counted.n) };
  };
  const write = async (method: 'POST' | 'PUT' | 'DELETE', payload: unknown) => {
    const res = await app.inject({
      method,
      url: XS,
      headers: { ...bearer(tokens.admin), submit_id: submitId() },
      payload: payload as object,
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };
  const record = (customerName: string, orgId: number, cx = '速腾') => ({
    orgId,
    settleDate: '2025-05-01',
    customerName,
    brand: '大众',
    cx,
    amount: 150000,
  });

  beforeAll(async () => {
    t = await start();
    app = t.app;
    tokens.admin = await loginAs(app, 'admin', ADMIN_PASSWORD);
    const root = (await app.inject({ method: 'GET', url: '/api/dept/lazy?pid=0', headers: bearer(tokens.admin) })).json<Created[]>()[0].id;
    for (const name of ['甲公司', '乙公司']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/dept',
        headers: { ...bearer(tokens.admin), submit_id: submitId() },
        payload: { name, pid: root, sort: 1, enabled: true },
      });
      expect(res.statusCode, res.body).toBe(201);
      orgs[name] = res.json<Created>().id;
    }
    // 本级 in 甲公司: the rows of 甲公司 (and of the root organisation, which holds none here)
    await createStaff(app, {
      username: 'kept_jia',
      password: PASSWORD,
      permissions: ['xsZjs:list', 'xsZjs:sensitive'],
      dataScope: '本级',
      deptId: orgs['甲公司'],
    });
    // every organisation, but the customer's name only masked: blurry leaves it out
    await createStaff(app, { username: 'kept_masked', password: PASSWORD, permissions: ['xsZjs:list'], dataScope: '全部' });
    tokens.jia = await loginAs(app, 'kept_jia', PASSWORD);
    tokens.masked = await loginAs(app, 'kept_masked', PASSWORD);
    const rows = Array.from({ length: 28 }, (_, i) =>
      record(NAMES[i % NAMES.length], i % 2 ? orgs['乙公司'] : orgs['甲公司'], i % 3 ? '速腾' : '雅阁'),
    );
    await insertAll(app.database, spec, rows);
    // every statement Kysely runs, whether built (execute) or compiled (executeQuery)
    const executor = app.database.db.getExecutor();
    const run = executor.executeQuery.bind(executor) as (query: CompiledQuery, ...rest: unknown[]) => Promise<QueryResult<unknown>>;
    vi.spyOn(executor, 'executeQuery').mockImplementation((query: CompiledQuery, ...rest: unknown[]) => {
      if (query.sql.includes(`${spec.table}_`) && query.sql.includes('_py')) keyReads++;
      return run(query, ...rest);
    });
  }, 60_000);
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  it('gives the rows and totals of the usual path on every page, in both orders; repeated searches read no keys on SQLite', async () => {
    for (const q of ['zs', 'z', 'zhang', 'st']) {
      for (const sort of ['id,desc', 'id,asc']) {
        for (const page of [0, 1, 2, 9]) {
          const got = await list(tokens.admin, q, `&page=${page}&size=4&sort=${sort}`);
          const want = await usual(q, page, 4, sort);
          expect(got.ids, `${q} ${sort} page ${page}`).toEqual(want.ids);
          expect(got.total, `${q} ${sort} page ${page}`).toBe(want.total);
        }
      }
    }
    expect((await list(tokens.admin, 'zs', '&size=50')).total).toBe(20);
    // the audit of the admin's full reads writes once a second (a write to the file): now, and
    // then none, as the masked caller's reads are not audited
    await app.personalReadLog.flush();
    const routeReads: number[] = [];
    for (const round of [1, 2]) {
      let reads = 0;
      for (const q of ['st', 'yg']) {
        for (const sort of ['id,desc', 'id,asc']) {
          for (const page of [0, 1, 2]) {
            const before = keyReads;
            const got = await list(tokens.masked, q, `&page=${page}&size=4&sort=${sort}`);
            reads += keyReads - before;
            expect(got.ids, `${q} ${sort} page ${page} round ${round}`).toEqual((await usual(q, page, 4, sort)).ids);
          }
        }
      }
      routeReads.push(reads);
    }
    // SQLite: each list's ids read once (beside the page plan's bounded key count), then every
    // page sliced from them; PostgreSQL: every page reads its keys
    expect(routeReads[0]).toBeGreaterThanOrEqual(4);
    expect(routeReads[1]).toBe(dialect === 'sqlite' ? 0 : 12);
  });

  it('a write between two identical searches changes the answer, whoever writes', async () => {
    const zs = () => list(tokens.admin, 'zs', '&size=5&sort=id,desc');
    const first = await zs();
    expect(first.total).toBe(20);
    expect(await zs()).toEqual(first);

    // through the app: create, rename, delete
    await write('POST', record('郑爽', orgs['甲公司']));
    const created = await zs();
    expect(created.total).toBe(21);
    expect(created.names[0]).toBe('郑爽');
    const id = created.ids[0];
    await write('PUT', { ...record('王五', orgs['甲公司']), id });
    expect(await zs()).toEqual(first);
    await write('PUT', { ...record('周爽', orgs['甲公司']), id });
    expect((await zs()).total).toBe(21);
    await write('DELETE', [id]);
    expect(await zs()).toEqual(first);

    if (dialect !== 'sqlite') return;
    const { sqlite, file } = sqliteHandleOf(app.database)!;
    const side = pinyinTable(spec, NAME);
    // another connection to the file (another process would be the same): a row and its keys
    const other = new SQLite(file);
    let outside: number;
    try {
      outside = Number(
        other
          .prepare(
            `INSERT INTO ${spec.table} (org_id, settle_date, customer_name, brand, cx, amount) VALUES (?, '2025-05-02', '朱顺', '大众', '朗逸', 1) RETURNING id`,
          )
          .pluck()
          .get(orgs['甲公司']),
      );
      for (const key of pinyinStoredKeys('朱顺', 'name'))
        other.prepare(`INSERT INTO ${side} (key, row_id) VALUES (?, ?)`).run(key, outside);
    } finally {
      other.close();
    }
    const withOutside = await zs();
    expect(withOutside.total).toBe(21);
    expect(withOutside.ids[0]).toBe(outside);
    // the app's own connection beneath Kysely: its keys removed, the row no longer found
    sqlite.prepare(`DELETE FROM ${side} WHERE row_id = ?`).run(outside);
    expect(await zs()).toEqual(first);
    sqlite.prepare(`DELETE FROM ${spec.table} WHERE id = ?`).run(outside);
    // a write to another table moves the stamp too: the answer is read again, and the same
    sqlite.prepare(`UPDATE sys_dept SET sort = sort WHERE id = ?`).run(orgs['乙公司']);
    const reads = keyReads;
    expect(await zs()).toEqual(first);
    expect(keyReads).toBe(reads + 1);
    // (the audit's write of the admin's reads may land once more)
    expect(await zs()).toEqual(first);
    expect(keyReads).toBeLessThanOrEqual(reads + 2);
  });

  it('each caller gets only its data scope and searches only the fields it may see', async () => {
    // the admin searches first, so a kept answer of the admin would be there to misuse
    const all = await list(tokens.admin, 'zs', '&size=50&sort=id,asc');
    const jia = await list(tokens.jia, 'zs', '&size=50&sort=id,asc');
    const { rows } = await app.database.db
      .selectFrom(spec.table)
      .select(['id', 'org_id'])
      .where('id', 'in', all.ids)
      .execute()
      .then((r) => ({ rows: r.map((x) => ({ id: Number(x.id), org: Number(x.org_id) })) }));
    const ofJia = rows.filter((r) => r.org === orgs['甲公司']).map((r) => r.id);
    expect(ofJia.length).toBeGreaterThan(0);
    expect(ofJia.length).toBeLessThan(all.ids.length);
    expect(jia.ids).toEqual(ofJia);
    expect(jia.total).toBe(ofJia.length);
    // again, now that both are kept
    expect(await list(tokens.jia, 'zs', '&size=50&sort=id,asc')).toEqual(jia);
    expect((await list(tokens.admin, 'zs', '&size=50&sort=id,asc')).total).toBe(all.total);

    // the masked caller: its names are not searched (zs finds no model), the model still is
    expect((await list(tokens.masked, 'zs', '&size=50&sort=id,asc')).total).toBe(0);
    expect((await list(tokens.masked, 'zs', '&size=50&sort=id,asc')).total).toBe(0);
    const byModel = await list(tokens.masked, 'yg', '&size=50&sort=id,asc');
    expect(byModel.total).toBe((await usual('yg', 0, 50, 'id,asc')).total);
    expect(byModel.total).toBeGreaterThan(0);
    // the full reader's answer to a name is not the masked reader's, in either order of asking
    expect((await list(tokens.masked, 'zhangwei', '&size=50')).total).toBe(0);
    expect((await list(tokens.admin, 'zhangwei', '&size=50')).total).toBe(4);
    expect((await list(tokens.masked, 'zhangwei', '&size=50')).total).toBe(0);
  });

  it('a common prefix keeps the pages its walk found, and a write drops them', async () => {
    const params = parseListQuery(spec, { page: '1', size: '3', sort: 'id,desc', blurry: 'z' }, FULL_ACCESS);
    const sources = {
      // as if `z` held PROBE_FROM_KEYS keys: the page walks the table
      plan: () => pinyinPagePlan(app.database, spec, params, 1),
      pageRows: (planned: typeof params) => pageQuery(app.database, spec, planned).execute(),
      filtered: () => filteredQuery(app.database, spec, params.conditions),
    };
    const want = (await usual('z', 1, 3, 'id,desc')).ids;
    await app.personalReadLog.flush();
    const first = await keptPinyinPage(app.database, spec, params, sources);
    if (dialect !== 'sqlite') {
      // nothing kept without a change stamp
      expect(first).toBeUndefined();
      return;
    }
    expect(first!.total).toBeUndefined();
    expect(first!.rows.map((r) => Number(r.id))).toEqual(want);
    const reads = keyReads;
    const again = await keptPinyinPage(app.database, spec, params, sources);
    expect(again!.rows.map((r) => Number(r.id))).toEqual(want);
    expect(keyReads).toBe(reads);
    // a new row on top shifts page 1 by one
    await write('POST', record('赵云', orgs['乙公司']));
    const shifted = await keptPinyinPage(app.database, spec, params, sources);
    expect(shifted!.rows.map((r) => Number(r.id))).toEqual((await usual('z', 1, 3, 'id,desc')).ids);
    expect(shifted!.rows[0].id).not.toBe(want[0]);
    expect(keyReads).toBeGreaterThan(reads);
  });

  it('keeps its ids within the memory budget, the least recently used dropped first', async () => {
    const budget = keptPinyinMemory(app.database).budget;
    try {
      keptPinyinMemory(app.database, 1200);
      for (const q of ['zs', 'z', 'zh', 'zhang', 'zhao', 'zhou', 'ls', 'st', 'yg', 'li']) {
        const got = await list(tokens.admin, q, '&size=5&sort=id,desc');
        expect(got.ids, q).toEqual((await usual(q, 0, 5, 'id,desc')).ids);
        const kept = keptPinyinMemory(app.database);
        expect(kept.bytes, q).toBeLessThanOrEqual(1200);
        if (dialect === 'sqlite') expect(kept.lists, q).toBeGreaterThan(0);
      }
    } finally {
      keptPinyinMemory(app.database, budget);
    }
  });
});
