/**
 * Expense totals over the list's filters, profit detail groupings and full list, settlement
 * time correction and settled models.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { Created, Page, Row } from '../support/answers.ts';

describe.each(testApps())('expenses and sales reports on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let orgId: number;

  const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    await createStaff(t.app, {
      username: 'report_reader',
      password: 'Reader@2024',
      permissions: ['expense:list', 'xsLrSjmx:list', 'xsZjs:list'],
    });
    reader = await loginAs(t.app, 'report_reader', 'Reader@2024');
    orgId = Number((await t.app.database.db.selectFrom('sys_dept').select('id').executeTakeFirstOrThrow()).id);
  });
  afterAll(() => t?.close());

  it('expense total: the server sums the amount over the task-name and date filters, across pages', async () => {
    const rows = [
      { project: '展厅布置', money: 1200.5, onTime: '2026-03-01' },
      { project: '展厅保洁', money: 300.25, onTime: '2026-03-15' },
      { project: '车展物料', money: 5000, onTime: '2026-04-02' },
    ];
    for (const r of rows) expect((await call(admin, 'POST', '/api/expense', r)).statusCode).toBe(201);
    const all = await call(reader, 'GET', '/api/expense/total');
    expect(all.json()).toEqual({ money: 6500.75, count: 3 });
    const byName = await call(reader, 'GET', `/api/expense/total?project=${encodeURIComponent('展厅')}&page=0&size=1&sort=id,desc`);
    expect(byName.json()).toEqual({ money: 1500.75, count: 2 });
    const today = new Date();
    const d = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect((await call(reader, 'GET', `/api/expense/total?createTime=${d}&createTime=${d}`)).json<{ count: number }>().count).toBe(3);
    expect((await call(reader, 'GET', '/api/expense/total?createTime=2020-01-01&createTime=2020-01-02')).json()).toEqual({
      money: 0,
      count: 0,
    });
    expect((await call(reader, 'GET', '/api/expense/total?onTime=2026-03-01&onTime=2026-03-31')).json()).toEqual({
      money: 1500.75,
      count: 2,
    });
    const bad = await call(reader, 'GET', '/api/expense/total?createTime=notadate');
    expect(bad.statusCode).toBe(400);
    expect((await call(reader, 'GET', '/api/expense/total?money=1')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/expense/total' })).statusCode).toBe(401);
    const zero = await call(admin, 'POST', '/api/expense', { project: '退款', money: 0, onTime: '2026-03-01' });
    expect(errorOf(zero).message).toBe('请输入大于0的两位小数');
  });

  it('profit detail: findGroup by brand, selectGroupBrandCxType, getListAll with the list filters', async () => {
    const base = { orgId, saleDate: '2026-05-01', costPrice: 100000 };
    const rows = [
      { ...base, brand: '大众', cx: '帕萨特', cxType: '轿车', salePrice: 180000, profit: 8000 },
      { ...base, brand: '大众', cx: '帕萨特', cxType: '轿车', salePrice: 182000, profit: 9000 },
      { ...base, brand: '大众', cx: '途观L', cxType: 'SUV', salePrice: 220000, profit: 12000 },
      { ...base, brand: '丰田', cx: '凯美瑞', cxType: '轿车', salePrice: 175000, profit: 6000, saleDate: '2026-06-01' },
    ];
    for (const r of rows) expect((await call(admin, 'POST', '/api/xs/xsLrSjmx', r)).statusCode).toBe(201);
    const groups = (await call(reader, 'GET', '/api/xs/xsLrSjmx/findGroup')).json<Row[]>();
    const vw = groups.find((g) => g.brand === '大众');
    expect(vw).toEqual({ brand: '大众', count: 3, salePrice: 582000, profit: 29000, avgProfit: 9666.67 });
    expect(groups.find((g) => g.brand === '丰田')).toMatchObject({ count: 1, profit: 6000 });
    const may = (await call(reader, 'GET', '/api/xs/xsLrSjmx/findGroup?saleDate=2026-05-01&saleDate=2026-05-31')).json<Row[]>();
    expect(may.map((g) => g.brand)).toEqual(['大众']);
    const byType = (await call(reader, 'GET', `/api/xs/xsLrSjmx/selectGroupBrandCxType?brand=${encodeURIComponent('大众')}`)).json<Row[]>();
    expect(byType).toHaveLength(2);
    expect(byType.find((g) => g.cx === '帕萨特')).toMatchObject({ brand: '大众', cxType: '轿车', count: 2, profit: 17000 });
    const list = (await call(reader, 'GET', `/api/xs/xsLrSjmx/getListAll?cxType=${encodeURIComponent('轿车')}&sort=profit,desc`)).json<
      Row[]
    >();
    expect(list.map((r) => r.profit)).toEqual([9000, 8000, 6000]);
    expect((await call(reader, 'GET', '/api/xs/xsLrSjmx/getListAll?bogus=1')).statusCode).toBe(400);
    expect((await call(reader, 'GET', '/api/xs/xsLrSjmx/total')).json()).toMatchObject({ profit: 35000, count: 4 });
  });

  it('settlements: updateCreateTime needs xsZjs:edit and a valid past time; getcx lists settled models', async () => {
    const created = await call(admin, 'POST', '/api/xsZjs', {
      orgId,
      settleDate: '2026-05-02',
      customerName: '王五',
      brand: '大众',
      cx: '帕萨特',
      amount: 181000,
    });
    expect(created.statusCode).toBe(201);
    await call(admin, 'POST', '/api/xsZjs', {
      orgId,
      settleDate: '2026-05-03',
      customerName: '赵六',
      brand: '丰田',
      cx: '凯美瑞',
      amount: 176000,
    });
    const id = created.json<Created>().id;
    expect((await call(reader, 'PUT', '/api/xsZjs/updateCreateTime', { id, createTime: '2026-05-02 10:00:00' })).statusCode).toBe(403);
    const bad = await call(admin, 'PUT', '/api/xsZjs/updateCreateTime', { id, createTime: '2026/05/02' });
    expect(errorOf(bad).message).toBe('创建时间格式错误，应为yyyy-MM-dd HH:mm:ss');
    expect(errorOf(await call(admin, 'PUT', '/api/xsZjs/updateCreateTime', { id, createTime: '2099-01-01 00:00:00' })).message).toBe(
      '创建时间不能晚于当前时间',
    );
    expect((await call(admin, 'PUT', '/api/xsZjs/updateCreateTime', { id: 987654, createTime: '2026-05-02 10:00:00' })).statusCode).toBe(
      404,
    );
    expect((await call(admin, 'PUT', '/api/xsZjs/updateCreateTime', { id, createTime: '2026-05-02 10:00:00' })).statusCode).toBe(204);
    const row = (await call(reader, 'GET', `/api/xsZjs?id=${id}`)).json<Page>().content[0];
    expect(row.createTime).toBe('2026-05-02 10:00:00');
    const models = (await call(reader, 'GET', '/api/xsZjs/getcx')).json<Row[]>();
    expect(models).toHaveLength(2);
    expect(models).toEqual(
      expect.arrayContaining([
        { brand: '丰田', cx: '凯美瑞' },
        { brand: '大众', cx: '帕萨特' },
      ]),
    );
    expect((await call(reader, 'GET', `/api/xsZjs/getcx?brand=${encodeURIComponent('大众')}`)).json()).toEqual([
      { brand: '大众', cx: '帕萨特' },
    ]);
  });
});
