/**
 * 首页's summary (GET /api/home/summary) per demo role: admin sees every to-do item and chart;
 * hr01 (人事专员) the new applicants; kf01 (客服) the open feedback; sales01 (销售顾问, 本级) the
 * leads of their own department only; a user without keys their unread messages alone. Every
 * count equals the totalElements the same user gets from the list with the item's filter, and
 * each chart adds up to that list's count over the chart's days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByName, resources } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { DEMO_PASSWORD } from '../../src/server/modules/demo/roles.ts';
import { SUMMARY_PATH } from '../../src/server/modules/home/summary.ts';
import type { Summary } from '../../src/shared/home-summary.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import type { Page } from '../support/answers.ts';

const ACTOR = { username: 'admin' };

describe.each(testApps())('首页 summary on %s', (_name, start) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  const summaryOf = async (user: string): Promise<Summary> => {
    const res = await t.app.inject({ method: 'GET', url: SUMMARY_PATH, headers: bearer(tokens[user]) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Summary>();
  };

  const listTotal = async (user: string, path: string, query: Record<string, string | string[]>): Promise<number> => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) params.append(k, one);
    params.set('size', '1');
    const res = await t.app.inject({ method: 'GET', url: `/${path}?${params}`, headers: bearer(tokens[user]) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>().totalElements;
  };

  /** every item's count and every chart's sum, checked against the user's own list */
  const checkAgainstLists = async (user: string, summary: Summary) => {
    for (const item of summary.items) {
      if (!item.resource) continue;
      const spec = resourceByName[item.resource];
      const query = Object.fromEntries(Object.entries(item.filter).map(([k, v]) => [k, String(v)]));
      expect(item.count, `${user} ${item.title}`).toBe(await listTotal(user, spec.path, query));
    }
    for (const chart of summary.charts) {
      const spec = resourceByName[chart.resource];
      expect(chart.days).toHaveLength(30);
      expect(chart.days[0].date).toBe(summary.from);
      expect(chart.days.at(-1)!.date).toBe(summary.to);
      const sum = chart.days.reduce((n, d) => n + d.count, 0);
      expect(sum, `${user} ${chart.title}`).toBe(await listTotal(user, spec.path, { createTime: [summary.from, summary.to] }));
    }
  };

  beforeAll(async () => {
    t = await start({ seedDemo: true });
    tokens.admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const db = t.app.database.db;
    // the demo's leads and applicants leave: the counts below are of this test's rows alone
    for (const name of [
      'xsSubmersibleContact',
      'xsSubmersibleCar',
      'xsSubmersibleFile',
      'staffunEducation',
      'staffunPx',
      'staffunWork',
      'applicant',
    ])
      await db.deleteFrom(resourceByName[name].table).execute();
    // sales01's department, and one outside their 本级 scope
    const sales = await db.selectFrom('sys_user').select(['dept_id']).where('username', '=', 'sales01').executeTakeFirstOrThrow();
    const salesDept = Number(sales.dept_id);
    // a sibling department (its organisation is not sales01's either)
    const own = await db.selectFrom('sys_dept').select('pid').where('id', '=', salesDept).executeTakeFirstOrThrow();
    const other = await db
      .selectFrom('sys_dept')
      .select('id')
      .where('pid', '=', Number(own.pid))
      .where('id', '!=', salesDept)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const sample = (name: string, variant: number) => sampleBody(t.app, tokens.admin, resources, resourceByName[name], variant);

    const leads = resourceByName.xsSubmersibleFile;
    await insertAll(
      t.app.database,
      leads,
      [
        { ...(await sample('xsSubmersibleFile', 0)), status: 1, orgId: salesDept },
        { ...(await sample('xsSubmersibleFile', 1)), status: 1, orgId: Number(other.id) },
        { ...(await sample('xsSubmersibleFile', 1)), status: 2, orgId: salesDept },
      ],
      ACTOR,
    );
    await insertAll(
      t.app.database,
      resourceByName.applicant,
      [
        { ...(await sample('applicant', 0)), status: 2 },
        { ...(await sample('applicant', 1)), status: 1 },
      ],
      ACTOR,
    );
    await insertAll(t.app.database, resourceByName.dbcInfo, [{ ...(await sample('dbcInfo', 0)), shStatus: 1 }], ACTOR);

    for (const user of ['hr01', 'sales01', 'kf01']) tokens[user] = await loginAs(t.app, user, DEMO_PASSWORD);
    await createStaff(t.app, { username: 'home_nokeys', password: 'Home_pass1', permissions: [], dataScope: '全部' });
    tokens.none = await loginAs(t.app, 'home_nokeys', 'Home_pass1');
  }, 120_000);
  afterAll(() => t?.close());

  it('admin: every to-do item and chart, each count as the list counts it', async () => {
    const s = await summaryOf('admin');
    expect(s.items.map((i) => i.title)).toEqual(['待审核代步车申请', '未处理问题反馈', '新应聘人员', '待处理潜客', '未读消息']);
    expect(s.charts.map((c) => c.title)).toEqual(['代步车申请', '问题反馈', '应聘人员']);
    const count = (key: string) => s.items.find((i) => i.key === key)!.count;
    expect(count('pendingCarRequests')).toBe(1);
    expect(count('newApplicants')).toBe(1);
    expect(count('pendingLeads')).toBe(2);
    expect(count('openFeedback')).toBeGreaterThan(0);
    // the records added today are in the last day of each chart
    expect(s.charts.find((c) => c.key === 'applicants')!.days.at(-1)!.count).toBe(2);
    await checkAgainstLists('admin', s);
  });

  it('hr01 (人事专员): new applicants and their chart, no feedback, requests or leads', async () => {
    const s = await summaryOf('hr01');
    expect(s.items.map((i) => i.key)).toEqual(['newApplicants', 'unreadMessages']);
    expect(s.items[0]).toMatchObject({ title: '新应聘人员', count: 1, resource: 'applicant', filter: { status: 2 } });
    expect(s.charts.map((c) => c.key)).toEqual(['applicants']);
    await checkAgainstLists('hr01', s);
  });

  it('kf01 (客服): open feedback and its chart', async () => {
    const s = await summaryOf('kf01');
    expect(s.items.map((i) => i.key)).toEqual(['openFeedback', 'unreadMessages']);
    expect(s.charts.map((c) => c.key)).toEqual(['feedback']);
    const admin = await summaryOf('admin');
    expect(s.items[0].count).toBe(admin.items.find((i) => i.key === 'openFeedback')!.count);
    await checkAgainstLists('kf01', s);
  });

  it('sales01 (销售顾问, 本级): the pending leads of their own department only, no charts', async () => {
    const s = await summaryOf('sales01');
    expect(s.items.map((i) => i.key)).toEqual(['pendingLeads', 'unreadMessages']);
    expect(s.items[0].count).toBe(1);
    expect(s.charts).toEqual([]);
    await checkAgainstLists('sales01', s);
  });

  it('a user without keys: the unread messages alone; without a token: 401', async () => {
    const s = await summaryOf('none');
    expect(s.items.map((i) => i.key)).toEqual(['unreadMessages']);
    expect(s.charts).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: SUMMARY_PATH })).statusCode).toBe(401);
  });

  it('未读消息 follows the messages the user has read', async () => {
    const before = (await summaryOf('hr01')).items.find((i) => i.key === 'unreadMessages')!.count;
    const socket = resourceByName.sysSocket;
    await insertAll(t.app.database, socket, [{ ...(await sampleBody(t.app, tokens.admin, resources, socket, 0)), enabled: true }], ACTOR);
    const created = await t.app.database.db.selectFrom(socket.table).select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const unread = async (user: string) => (await summaryOf(user)).items.find((i) => i.key === 'unreadMessages')!.count;
    expect(await unread('hr01')).toBe(before + 1);
    const read = await t.app.inject({
      method: 'PUT',
      url: `/${socket.path}/read`,
      headers: { ...bearer(tokens.hr01), submit_id: '12345678901234567890123456789012' },
      payload: { id: Number(created.id) },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(await unread('hr01')).toBe(before);
    expect(await unread('kf01')).toBe(before + 1);
  });
});
