/**
 * Read limits by construction, generated over the route catalogue (a new route is covered without
 * editing this file): every GET route a signed-in caller (staff, dealer, applicant) calls counts
 * against the caller's read or export budget, unless READ_EXEMPT (read-limits.ts) names it with a
 * reason. The test prints the exempt routes and the count of routes it tried.
 * - the catalogue: no signed-in GET route is neither counted nor exempt, and every exempt entry
 *   names a route that exists;
 * - the answers: once admin's read and export budgets are spent, every counted staff GET route
 *   answers 429 and every exempt one does not (so the marks are the guards themselves); a route
 *   whose query schema refuses the made-up query answers 400 before any pre-handler (nothing read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCatalogue, type RouteEntry } from '../../src/server/auth/index.ts';
import { EXPORT_LIMIT_MESSAGE, READ_EXEMPT, READ_LIMIT_MESSAGE } from '../../src/server/read-limits.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';

const key = (r: RouteEntry) => `${r.method} ${r.url}`;
const signedIn = (r: RouteEntry) => r.authenticated || r.identity === 'dealer' || r.identity === 'applicant';

describe.each(testApps())('every signed-in read counts on %s', (_name, start) => {
  let t: TestApp;
  let gets: RouteEntry[];

  beforeAll(async () => {
    // one read and one export a window, a window longer than the test
    t = await start({ readLimitPerMinute: 1, exportLimitPerMinute: 1, readLimitWindowMs: 3_600_000 });
    gets = routeCatalogue(t.app).filter((r) => r.method === 'GET' && r.identity !== 'socket' && signedIn(r));
  }, 60_000);
  afterAll(() => t?.close());

  it('the catalogue: every signed-in GET route counts or is declared exempt', () => {
    const neither = gets.filter((r) => !r.readCounted && !r.readExempt).map(key);
    expect(neither).toEqual([]);
    // an exempt entry names a route that exists, and no route is both
    const names = new Set(gets.map(key));
    expect(Object.keys(READ_EXEMPT).filter((k) => !names.has(k))).toEqual([]);
    expect(gets.filter((r) => r.readCounted && r.readExempt).map(key)).toEqual([]);
    console.log(
      `read limits: ${gets.length} signed-in GET routes, ${gets.filter((r) => r.readCounted).length} counted, exempt: ${gets
        .filter((r) => r.readExempt)
        .map((r) => `${r.url} (${r.readExempt})`)
        .join('; ')}`,
    );
  });

  it('the answers: past the budgets every counted staff GET route answers 429, every exempt one does not', async () => {
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const ask = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(admin) });
    // spend both budgets
    for (const url of ['/api/users?page=0&size=1', '/api/sysQuestion/download']) {
      let res = await ask(url);
      for (let i = 0; i < 3 && res.statusCode !== 429; i++) res = await ask(url);
      expect(res.statusCode, url).toBe(429);
      expect([READ_LIMIT_MESSAGE, EXPORT_LIMIT_MESSAGE]).toContain(res.json<{ message: string }>().message);
    }
    const staff = gets.filter((r) => !r.identity);
    const wrong: string[] = [];
    for (const r of staff) {
      const res = await ask(r.url.replace(/:[A-Za-z]+/g, '1'));
      // a query its schema refuses answers 400 before any pre-handler: nothing was read
      if (r.queryValidated && res.statusCode === 400) continue;
      if (r.readCounted && res.statusCode !== 429) wrong.push(`${key(r)} counted but answered ${res.statusCode}`);
      if (r.readExempt && res.statusCode === 429) wrong.push(`${key(r)} exempt but answered 429`);
    }
    expect(wrong).toEqual([]);
    expect(staff.filter((r) => r.readCounted).length).toBeGreaterThan(100);
    console.log(`read limits: ${staff.length} staff GET routes asked past the budget`);
  }, 120_000);
});
