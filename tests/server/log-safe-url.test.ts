/**
 * The service log carries no personal value a request brought in its address: for every schema
 * field with a mask (an ID number, a mobile, a bank card, an e-mail, a name, an address), a list
 * filtered and searched by a value of its kind, a look-up with the value in the path, and the
 * mobile look-up of 客服; then no log line holds the value (raw or %-encoded), while the lines
 * still say which route was asked and how the list was paged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { logSafeUrl } from '../../src/server/log-safe-url.ts';
import type { MaskKind } from '../../src/shared/resource-spec.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';

/** a value of each kind, as a user would type it (the ID number and the card pass their checks) */
const VALUES: Record<MaskKind, string> = {
  id: '11010519491231002X',
  phone: '13912345678',
  bankCard: '6222021234567894',
  email: 'zhang.san@example.com',
  name: '张三丰',
  address: '河南省郑州市金水区农业路18号',
  date: '1949-12-31',
};
const masked = resources.flatMap((spec) => spec.fields.filter((f) => f.mask).map((f) => ({ spec, field: f, kind: f.mask! })));

describe('logSafeUrl', () => {
  it('keeps the path and the paging, masks personal values in the path, leaves out the query values', () => {
    expect(logSafeUrl('/api/sysQuestion?page=0&size=10&sort=id,desc')).toBe('/api/sysQuestion?page=0&size=10&sort=id,desc');
    expect(logSafeUrl('/api/kf/phoneToAddress?phone=13912345678')).toBe('/api/kf/phoneToAddress?phone=…');
    expect(logSafeUrl('/api/staff?blurry=%E5%BC%A0%E4%B8%89&page=0')).toBe('/api/staff?blurry=…&page=0');
    expect(logSafeUrl('/api/staff/11010519491231002X', '/api/staff/:id')).toBe('/api/staff/:id');
    // a path no route serves keeps its words only
    expect(logSafeUrl('/api/x/13912345678/history')).toBe('/api/x/…/history');
    expect(logSafeUrl('/api/x/%E5%BC%A0%E4%B8%89/zhang.san%40example.com')).toBe('/api/x/…/…');
    expect(logSafeUrl('/api/x?13912345678')).not.toContain('13912345678');
    expect(logSafeUrl(`/api/x?q=${'a'.repeat(2000)}`).length).toBeLessThanOrEqual(512);
  });
});

describe.each(testApps())('the service log on %s', (_dialect, start) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await start({ logLevel: 'info' }, { logger: true, logStream: { write: (line: string) => void lines.push(line) } });
  }, 60_000);
  afterAll(() => t?.close());

  it('holds no personal value a request carried in its address, for every masked field of every schema', async () => {
    expect(masked.length).toBeGreaterThan(10);
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const asked: string[] = [];
    for (const { spec, field, kind } of masked) {
      const value = encodeURIComponent(VALUES[kind]);
      for (const url of [
        `/${spec.path}?page=0&size=10&${field.name}=${value}`,
        `/${spec.path}?page=0&size=10&blurry=${value}`,
        `/${spec.path}/${value}`,
      ]) {
        await t.app.inject({ method: 'GET', url, headers: bearer(admin) });
        asked.push(url);
      }
    }
    await t.app.inject({ method: 'GET', url: `/api/kf/phoneToAddress?phone=${VALUES.phone}`, headers: bearer(admin) });
    const log = lines.join('\n');
    // the requests were logged, with their routes and paging
    expect(log).toContain('incoming request');
    expect(log).toContain('/api/kf/phoneToAddress?phone=…');
    expect(log).toContain(`/${masked[0].spec.path}?page=0&size=10&blurry=…`);
    const found = Object.values(VALUES).filter((v) => log.includes(v) || log.includes(encodeURIComponent(v)));
    expect(found, `${asked.length} requests`).toEqual([]);
  }, 120_000);
});
