/**
 * The demo data can follow the user guide (docs/用户手册/): each demo role signs in, holds the
 * keys its page describes (导出, 新增, 编辑 where the page says so) and finds rows in every list
 * its page names, inside its own data scope; sales01 sits in 销售部, so its 本级 lists have rows
 * and a row of another department stays out of them. The dealer's page (经销商.md) has its demo
 * too: jxs001 finds a customer who follows the official account (提交用车需求 opens for her) and
 * an approved demand whose contract it can download.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROLES } from '../../src/server/modules/demo/roles.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { dealerToken } from './dealer-helpers.ts';
import { DEMO_DEALER_PASSWORD } from '../../src/server/modules/dealer/demo.ts';
import type { Page } from '../support/answers.ts';

/** the lists each guide page walks through, and the keys its steps need */
const GUIDE: Record<string, { lists: string[]; keys: string[] }> = {
  hr01: {
    lists: ['/api/staff', '/api/staffun', '/api/staffunEducation', '/api/staffunPx', '/api/staffunWork', '/api/staffunZp'],
    keys: ['staff:edit', 'staff:download', 'staff:import', 'staffunZp:add'],
  },
  sales01: {
    lists: [
      '/api/xs/xsSubmersibleFile',
      '/api/xs/xsSubmersibleContact',
      '/api/xs/xsSubmersibleCar',
      '/api/xs/xsSubmersibleActivity',
      '/api/xs/xsLrSjmx',
      '/api/xsZjs',
    ],
    keys: ['xsSubmersibleFile:add', 'xsLrSjmx:download', 'xsZjs:download'],
  },
  kf01: {
    lists: ['/api/sysQuestion', '/api/sysSocket', '/api/kf/kfRemindType'],
    keys: ['sysQuestion:add', 'sysQuestion:edit', 'sysSocket:add', 'kfRemindType:add', 'kfRemindType:edit'],
  },
};

describe.each(testApps())('the demo follows the user guide on %s', (_name, start) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  beforeAll(async () => {
    t = await start({ seedDemo: true });
    tokens.admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    for (const user of Object.keys(GUIDE)) tokens[user] = await loginAs(t.app, user, DEMO_PASSWORD);
  }, 120_000);
  afterAll(() => t?.close());

  it('every demo role of the guide is seeded', () => {
    expect(DEMO_ROLES.map((r) => r.username).sort()).toEqual(Object.keys(GUIDE).sort());
  });

  it.each(Object.keys(GUIDE))('%s holds the keys of its page and finds rows in each of its lists', async (user) => {
    const info = (await get(tokens[user], '/api/info')).json<{ permissions: string[] }>();
    for (const key of GUIDE[user].keys) expect(info.permissions, key).toContain(key);
    for (const url of GUIDE[user].lists) {
      const res = await get(tokens[user], `${url}?size=50`);
      expect(res.statusCode, url).toBe(200);
      expect(res.json<Page>().totalElements, url).toBeGreaterThan(0);
    }
  });

  it('sales01 sits in 销售部: its 本级 leads, profit and settlements are that department, and admin sees more', async () => {
    const me = await t.app.database.db
      .selectFrom('sys_user')
      .innerJoin('sys_dept', 'sys_dept.id', 'sys_user.dept_id')
      .select(['sys_dept.name', 'sys_user.dept_id'])
      .where('username', '=', 'sales01')
      .executeTakeFirstOrThrow();
    expect(me.name).toBe('销售部');
    for (const url of ['/api/xs/xsSubmersibleFile', '/api/xs/xsLrSjmx', '/api/xsZjs']) {
      const own = (await get(tokens.sales01, `${url}?size=50`)).json<Page>();
      const all = (await get(tokens.admin, `${url}?size=50`)).json<Page>();
      expect(
        own.content.every((r) => Number(r.orgId) === Number(me.dept_id)),
        url,
      ).toBe(true);
      expect(all.totalElements, url).toBeGreaterThan(own.totalElements);
    }
    // the demo shows the main-clue rule: one number twice, the second a secondary clue
    const leads = (await get(tokens.admin, '/api/xs/xsSubmersibleFile?size=50&sort=id,asc')).json<Page>().content;
    const twice = leads.filter((r) => r.mobile === leads[0].mobile);
    expect(twice.map((r) => r.isMain)).toEqual([true, false]);
  });

  it('the demo applicants carry the education entry a registration needs', async () => {
    const applicants = (await get(tokens.admin, '/api/staffun?size=50')).json<Page>().content;
    expect(applicants.length).toBeGreaterThan(0);
    for (const a of applicants) {
      const entries = (await get(tokens.admin, `/api/staffunEducation?staffunId=${String(a.id)}`)).json<Page>();
      expect(entries.totalElements, String(a.name)).toBeGreaterThan(0);
    }
  });

  it('jxs001 finds the customer and the approved demand its page walks through, and the contract', async () => {
    const dealer = await dealerToken(t.app, 'jxs001', DEMO_DEALER_PASSWORD);
    const customers = (await get(dealer, '/comp/dbcCompany/getDbcUserInfos?page=0&size=10')).json<Page>().content;
    expect(customers.filter((c) => c.subscribe === 1).length).toBeGreaterThan(0);
    const demands = await t.app.inject({
      method: 'POST',
      url: '/comp/dbcCompany/getDbcInfos',
      headers: bearer(dealer),
      payload: { page: 0, size: 10 },
    });
    const approved = demands.json<Page>().content.find((d) => d.status === 2);
    expect(approved, demands.body).toBeDefined();
    expect(customers.map((c) => c.id)).toContain(approved?.duId);
    const contract = await get(dealer, `/comp/dbcCompany/downloadContract?contract_id=${String(approved?.id)}`);
    expect(contract.statusCode).toBe(200);
    expect(contract.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // the status history: submitted by the dealer, approved by staff
    const history = (await get(dealer, `/comp/dbcCompany/getDbcInfoHistory?id=${String(approved?.id)}`)).json<
      Array<{ toStatus: number }>
    >();
    expect(history.map((h) => h.toStatus)).toEqual([1, 2]);
  });
});
