/**
 * Pinyin search beyond `blurry`'s first cut: the name filter of a list (the roster's 姓名), the
 * dealer portal's customer search, keys written by the dealer routes that insert rows themselves,
 * masked names closed to pinyin questions, and the page plan of a common prefix (walking the
 * table by id, probing each row's keys) answering exactly what the set plan answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { resourceByName } from '../../src/generated/resources.ts';
import { FULL_ACCESS, insertAll, parseListQuery } from '../../src/server/crud/index.ts';
import { pageQuery } from '../../src/server/crud/repository.ts';
import { pinyinTable } from '../../src/server/crud/pinyin/pinyin-search.ts';
import { pinyinPagePlan } from '../../src/server/crud/pinyin/pinyin-plan.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { addCustomer, addMember, createCompany, dealerToken } from './dealer-helpers.ts';
import type { Page } from '../support/answers.ts';

const staff = resourceByName.staff;
const xsZjs = resourceByName.xsZjs;
const STAFF = `/${staff.path}`;
const XS = `/${xsZjs.path}`;
const PASSWORD = 'Pinyin_test1';

// surnames with their own reading (单 shan, 解 xie, 曾 zeng), a polyphonic given name (重 chong/zhong)
const people = ['单雄信', '解晓东', '曾小贤', '钟重阳', '沈学兵', '谢霆锋', '查良镛', '乐嘉'];

describe.each(testApps())('pinyin in list filters and the dealer portal on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;

  const get = async (url: string, token: string) => {
    const res = await app.inject({ method: 'GET', url, headers: bearer(token) });
    return { status: res.statusCode, body: res.body, page: res.statusCode === 200 ? res.json<Page<Record<string, unknown>>>() : undefined };
  };
  const namesOf = async (url: string, token: string, field = 'name') => {
    const r = await get(url, token);
    expect(r.status, r.body).toBe(200);
    return r.page!.content.map((x) => x[field]);
  };

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = await loginAs(app, 'admin', ADMIN_PASSWORD);
    await insertAll(
      app.database,
      staff,
      people.map((name, i) => ({ name, mobile: `1371111${String(i).padStart(4, '0')}`, job: '售后顾问' })),
    );
  });
  afterAll(async () => t?.close());

  it('the roster 姓名 filter finds names by pinyin, surname readings and polyphonic readings included', async () => {
    const byName = (q: string) => namesOf(`${STAFF}?page=0&size=50&sort=id,asc&name=${encodeURIComponent(q)}`, admin);
    expect(await byName('shanxx')).toEqual(['单雄信']);
    expect(await byName('sxx')).toEqual(['单雄信']);
    expect(await byName('xiexd')).toEqual(['解晓东']);
    expect(await byName('jiexiaodong')).toEqual(['解晓东']);
    expect(await byName('zengxx')).toEqual(['曾小贤']);
    expect(await byName('zhongcy')).toEqual(['钟重阳']);
    expect(await byName('zzy')).toEqual(['钟重阳']);
    expect(await byName('zhaly')).toEqual(['查良镛']);
    expect(await byName('yuej')).toEqual(['乐嘉']);
    expect(await byName('xt')).toEqual(['谢霆锋']);
    // characters still match as a substring
    expect(await byName('晓东')).toEqual(['解晓东']);
    // and through blurry with the job (also marked) beside it
    expect(await namesOf(`${STAFF}?page=0&size=50&sort=id,asc&blurry=shgw`, admin)).toEqual(people);
  });

  it('a masked name answers no pinyin question: left out of blurry, its filter refused', async () => {
    const field = xsZjs.fields.find((f) => f.name === 'customerName')!;
    expect(field.mask).toBe('name');
    await insertAll(app.database, xsZjs, [
      { orgId: 1, settleDate: '2025-03-01', customerName: '解晓东', brand: '大众', cx: '速腾', amount: 150000 },
      { orgId: 1, settleDate: '2025-03-02', customerName: '单雄信', brand: '丰田', cx: '雅阁', amount: 160000 },
    ]);
    await createStaff(app, { username: 'py_masked', password: PASSWORD, permissions: ['xsZjs:list'], dataScope: '全部' });
    const masked = await loginAs(app, 'py_masked', PASSWORD);
    await createStaff(app, { username: 'py_full', password: PASSWORD, permissions: ['xsZjs:list', 'xsZjs:sensitive'], dataScope: '全部' });
    const full = await loginAs(app, 'py_full', PASSWORD);
    const total = async (q: string, token: string) => (await get(`${XS}?page=0&size=10&blurry=${q}`, token)).page?.totalElements;
    // the full reader asks first: its page SQL (searching the name) must not serve the masked reader
    expect(await total('xxd', full)).toBe(1);
    expect(await total('shanxx', full)).toBe(1);
    expect(await total('xxd', masked)).toBe(0);
    expect(await total('shanxx', masked)).toBe(0);
    // the other marked field (the model) is still searched by pinyin
    expect(await total('st', masked)).toBe(1);
    const filtered = await get(`${XS}?page=0&size=10&customerName=xxd`, masked);
    expect(filtered.status).toBe(403);
    expect(await total('xiexiaodong', full)).toBe(1);
  });

  it('the dealer customer search finds its own customers by name in pinyin; the keys follow the member data', async () => {
    await createCompany(app, admin, 'pydealer');
    await createCompany(app, admin, 'pyother');
    const dealer = await dealerToken(app, 'pydealer');
    const other = await dealerToken(app, 'pyother');
    await addMember(app, { mobile: '13722220001', surname: '曾志伟', subscribe: 1 });
    await addMember(app, { mobile: '13722220002', surname: '单立人', subscribe: 1 });
    await addMember(app, { mobile: '13722220003', surname: '重阳明', subscribe: 1 });
    await addMember(app, { mobile: '13722220004', surname: '仇英', subscribe: 1 });
    await addMember(app, { mobile: '13722220005', surname: '区寄', subscribe: 1 });
    await addMember(app, { mobile: '13722220006', surname: '朴槿', subscribe: 1 });
    for (const m of ['13722220001', '13722220002', '13722220003', '13722220004', '13722220005', '13722220006'])
      await addCustomer(app, dealer, m);
    await addCustomer(app, other, '13722220001');
    const search = (q: string, token = dealer) =>
      namesOf(`/comp/dbcCompany/getDbcUserInfos?page=0&size=10&sort=id,asc&surname=${encodeURIComponent(q)}`, token, 'surname');
    expect(await search('zzw')).toEqual(['曾志伟']);
    expect(await search('zengzhiw')).toEqual(['曾志伟']);
    expect(await search('shanlr')).toEqual(['单立人']);
    expect(await search('cym')).toEqual(['重阳明']);
    expect(await search('zhongym')).toEqual(['重阳明']);
    expect(await search('立人')).toEqual(['单立人']);
    // the surname readings of 仇 qiu, 区 ou, 朴 piao, by initials, full and mixed, in any case
    expect(await search('qiuy')).toEqual(['仇英']);
    expect(await search('QY')).toEqual(['仇英']);
    expect(await search('ouji')).toEqual(['区寄']);
    expect(await search('o j')).toEqual(['区寄']);
    expect(await search('piaoj')).toEqual(['朴槿']);
    expect(await search('pjin')).toEqual(['朴槿']);
    // another company's customer of the same name is not this dealer's
    expect(await search('slr', other)).toEqual([]);
    expect(await search('zzw', other)).toEqual(['曾志伟']);
    // the member's new name comes with the next update: the keys follow it
    await app.database.db.updateTable('dbc_member').set({ surname: '解思明' }).where('mobile', '=', '13722220002').execute();
    const [row] = await app.database.db.selectFrom('dbc_user_info').select('id').where('surname', '=', '单立人').execute();
    const updated = await app.inject({
      method: 'PUT',
      url: '/comp/dbcCompany/updateDbcUserInfo',
      headers: bearer(dealer),
      payload: { id: Number(row.id), mobile: '13722220002' },
    });
    expect(updated.statusCode, updated.body).toBe(204);
    expect(await search('slr')).toEqual([]);
    expect(await search('xiesm')).toEqual(['解思明']);
  });

  it('a common prefix pages by walking the table, with the rows and order of the set plan', async () => {
    const more = Array.from({ length: 40 }, (_, i) => `${['张', '章', '赵', '曾'][i % 4]}${['三', '山', '珊', '森'][(i >> 2) % 4]}${i}`);
    await insertAll(
      app.database,
      staff,
      more.map((name, i) => ({ name, mobile: `1372222${String(i).padStart(4, '0')}`, job: i % 3 ? '销售顾问' : '厨师' })),
    );
    for (const [q, sort] of [
      ['zs', 'id,desc'],
      ['zhang', 'id,desc'],
      ['zhangs', 'id,asc'],
      ['zengs', 'id,desc'],
      ['xsgw', 'id,asc'],
    ] as const) {
      for (const page of [0, 1, 3]) {
        const params = parseListQuery(staff, { page: String(page), size: '5', sort, blurry: q }, FULL_ACCESS);
        const walking = await pinyinPagePlan(app.database, staff, params, 1);
        expect(walking, q).not.toBe(params);
        const setRows = await pageQuery(app.database, staff, params).execute();
        const walkRows = await pageQuery(app.database, staff, walking).execute();
        expect(
          walkRows.map((r) => r.id),
          `${q} ${sort} page ${page}`,
        ).toEqual(setRows.map((r) => r.id));
      }
    }
    // a rare prefix keeps the set plan; another order than the id keeps it too
    const rare = parseListQuery(staff, { page: '0', size: '5', sort: 'id,desc', blurry: 'zhangsan3' }, FULL_ACCESS);
    expect(await pinyinPagePlan(app.database, staff, rare)).toBe(rare);
    const byName = parseListQuery(staff, { page: '0', size: '5', sort: 'name,asc', blurry: 'zs' }, FULL_ACCESS);
    expect(await pinyinPagePlan(app.database, staff, byName, 1)).toBe(byName);

    // the walk probes each row's keys through the (row_id, key) index
    const side = pinyinTable(
      staff,
      staff.fields.find((f) => f.name === 'name')!,
    );
    const probe = sql`select 1 from ${sql.table(side)} where row_id = ${1} and key >= ${'zs'} and key < ${'zt'} limit 1`;
    const { db } = app.database;
    if (t.dialect === 'postgres') {
      const plan = await db.connection().execute(async (conn) => {
        await sql`set enable_seqscan = off`.execute(conn);
        const rows = (await sql<{ 'QUERY PLAN': string }>`explain (costs off) ${probe}`.execute(conn)).rows;
        await sql`set enable_seqscan = on`.execute(conn);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain(`${side}_row_key`);
    } else {
      const plan = (await sql<{ detail: string }>`explain query plan ${probe}`.execute(db)).rows.map((r) => r.detail).join('\n');
      expect(plan).toMatch(/USING COVERING INDEX \S+_row \(row_id=\? AND key>\? AND key<\?\)/);
    }
  });
});
