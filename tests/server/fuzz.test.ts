/**
 * A small fuzz corpus over every route (tests/server/fuzz-corpus.ts; `npm run fuzz` runs the
 * full one): no answer is a 5xx, every request is answered within 5 s, a 4xx speaks Chinese,
 * and a route whose requests were all refused changed no row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, testApps, type TestApp } from './helpers.ts';
import type { ErrorBody } from '../support/answers.ts';
import { changedTables, fuzzCases, tableFingerprint } from './fuzz-corpus.ts';

describe.each(testApps())('fuzzing every route on %s', (_name, start) => {
  let t: TestApp;
  beforeAll(async () => {
    // no scheduled job fires meanwhile (its log would count as rows a refused request changed)
    t = await start({ seedDemo: true, jobsEnabled: false });
  }, 120_000);
  afterAll(() => t?.close());

  it('no 5xx, answered within 5 s, no row changed by a refused request', async () => {
    const token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const cases = fuzzCases(t.app, token, { full: false });
    const byRoute = new Map<string, typeof cases>();
    for (const c of cases) byRoute.set(c.route, [...(byRoute.get(c.route) ?? []), c]);
    const wrong: string[] = [];
    const counts = new Map<number, number>();
    for (const [route, list] of byRoute) {
      const before = route.startsWith('GET ') ? undefined : await tableFingerprint(t.app);
      let accepted = false;
      for (const c of list) {
        const began = Date.now();
        const res = await t.app.inject(c.request);
        const ms = Date.now() - began;
        counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode < 400) accepted = true;
        if (res.statusCode >= 500) wrong.push(`${route} ${c.kind} -> ${res.statusCode} ${res.body.slice(0, 100)}`);
        else if (ms > 5000) wrong.push(`${route} ${c.kind} took ${ms} ms`);
        else if (
          res.statusCode >= 400 &&
          res.headers['content-type']?.toString().includes('json') &&
          !/[\u4e00-\u9fff]/.test(String(res.json<Partial<ErrorBody>>().message))
        )
          wrong.push(`${route} ${c.kind} -> ${res.statusCode} without a Chinese message: ${res.body.slice(0, 80)}`);
      }
      const changed = before && !accepted ? changedTables(before, await tableFingerprint(t.app)) : [];
      if (changed.length) wrong.push(`${route}: refused requests changed rows of ${changed.join(', ')}`);
    }
    console.log(
      `fuzz: ${cases.length} requests over ${byRoute.size} routes; ${[...counts]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    );
    expect(wrong).toEqual([]);
  }, 600_000);
});
