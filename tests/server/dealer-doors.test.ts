/**
 * One answer for "another company's" and "not there" on the dealer portal, generated over the
 * route table (a new dealer route is covered without editing this file): dealer B has a
 * customer and a car request; dealer A asks every route that takes a dealer's token about B's
 * customer, B's request and an id that never existed, the id given as `id`, `duId` and
 * `contract_id` in the query of a GET or the body of a write. The three answers (status and
 * message, the asked id written as ID) must be the same, and none a 5xx; B's rows are unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCatalogue } from '../../src/server/auth/index.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import { loginAs } from './auth-helpers.ts';
import { addCustomer, addMember, createCompany, dealerToken, seedCarTypes, submitDemand } from './dealer-helpers.ts';

const ABSENT = 987654321;

describe.each(testApps())("a dealer's doors on %s", (_name, start) => {
  let t: TestApp;
  let a: string;
  let custB: number;
  let demandB: number;
  let custA: number;
  let demandA: number;

  beforeAll(async () => {
    t = await start({ dbcDailyPrice: 150 });
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    await createCompany(t.app, admin, 'doora');
    await createCompany(t.app, admin, 'doorb');
    a = await dealerToken(t.app, 'doora');
    const b = await dealerToken(t.app, 'doorb');
    await addMember(t.app, { mobile: '13800000071', surname: '张门', subscribe: 1 });
    await seedCarTypes(t.app);
    // A's rows first: B's ids are then none of A's, in either table
    custA = await addCustomer(t.app, a, '13800000071');
    demandA = await submitDemand(t.app, a, custA);
    custB = await addCustomer(t.app, b, '13800000071');
    demandB = await submitDemand(t.app, b, custB);
  }, 60_000);
  afterAll(() => t?.close());

  it("answers another company's records as records that are not there, on every dealer route", async () => {
    expect([custA, demandA]).not.toContain(custB);
    expect([custA, demandA]).not.toContain(demandB);
    const snapshot = async () => ({
      customers: await t.app.database.db.selectFrom('dbc_user_info').selectAll().where('id', '=', custB).execute(),
      demands: await t.app.database.db.selectFrom('dbc_info').selectAll().where('id', '=', demandB).execute(),
    });
    const before = await snapshot();
    const routes = routeCatalogue(t.app).filter((r) => r.identity === 'dealer' && !r.url.includes(':') && !r.url.includes('*'));
    expect(routes.length).toBeGreaterThan(5);
    const answer = async (method: string, url: string, id: number) => {
      const ids = { id, duId: id, contract_id: id };
      const res = await t.app.inject({
        method: method as 'GET',
        url: method === 'GET' ? `${url}?${new URLSearchParams(Object.entries(ids).map(([k, v]) => [k, String(v)]))}` : url,
        headers: bearer(a),
        ...(method === 'GET' ? {} : { payload: ids }),
      });
      let message = '';
      try {
        const m = res.json<{ message?: unknown }>().message;
        if (typeof m === 'string') message = m;
      } catch {
        // a PDF or other body: the status says enough
      }
      return `${res.statusCode} ${message.split(String(id)).join('ID')}`;
    };
    const wrong: string[] = [];
    // writes last: a door that let B's record through must not change what the reads find
    const order = (m: string) => ['GET', 'PUT', 'POST', 'DELETE'].indexOf(m);
    const asked: string[] = [];
    for (const r of [...routes].sort((x, y) => order(x.method) - order(y.method))) {
      // signing out would end A's session for the routes after it
      if (r.url.endsWith('/logout')) continue;
      const answers = [await answer(r.method, r.url, custB), await answer(r.method, r.url, demandB), await answer(r.method, r.url, ABSENT)];
      asked.push(`${r.method} ${r.url}`);
      if (new Set(answers).size !== 1)
        wrong.push(`${r.method} ${r.url}: B's customer ${answers[0]} / B's request ${answers[1]} / absent ${answers[2]}`);
      if (answers.some((x) => x.startsWith('5'))) wrong.push(`${r.method} ${r.url}: ${answers.join(' / ')}`);
    }
    console.log(`dealer doors: ${asked.length} routes, ${asked.length} triples of questions`);
    expect(wrong).toEqual([]);
    // the doors that take an id were among them
    for (const door of ['getDbcUserInfo', 'updateDbcUserInfo', 'getDbcInfo', 'getDbcInfoHistory', 'updateDbcInfo', 'viewContract'])
      expect(
        asked.some((x) => x.endsWith(`/${door}`)),
        door,
      ).toBe(true);
    expect(await snapshot()).toEqual(before);
  });
});
