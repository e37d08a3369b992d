/**
 * Every call the spec names (tests/fixtures/spec-calls.txt, extracted from the spec by
 * scripts/extract-spec-calls.ts) is sent to a fresh app with demo data, with the identity its
 * route takes (from the route catalogue: a dealer token for dealer routes, an applicant token for
 * applicant routes, admin for staff routes, none for public ones) and plausible parameters. Each
 * must reach a route and find what it names (no 404, no 405) and never answer a 5xx; the one exception is
 * the dealer sign-in as a GET, which answers 405 with Allow: POST (a password never goes in a URL).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { idCardCheckDigit } from '../../src/shared/validators.ts';
import { routeCatalogue, type RouteEntry } from '../../src/server/auth/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { addCustomer, addMember, createCompany, dealerToken, demand } from './dealer-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created, Page, Row } from '../support/answers.ts';

const calls = readFileSync(new URL('../fixtures/spec-calls.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => l.trim().split(' ') as [string, string]);

/** Calls the spec names that no route answers yet, each with the reason (none today). */
const KNOWN_GAPS: Record<string, string> = {};

/** The one call that must answer 405 with Allow: POST. */
const GET_SIGN_IN = 'GET comp/dbcCompany/auth/login';

/** Calls that end the caller's session go last, so the others keep their token. */
const endsSession = (path: string) => /(^|\/)(logout)$/.test(path);

const toRegex = (url: string) =>
  new RegExp(
    `^${url
      .replace(/[.+^$()|[\]\\]/g, '\\$&')
      .replace(/:\w+/g, '[^/]+')
      .replace(/\*/g, '.*')
      .replace(/\/$/, '')}/?$`,
  );

describe.each(testApps())("the spec's call list on %s", (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let routes: Array<RouteEntry & { re: RegExp }>;
  const tokens: Record<'staff' | 'dealer' | 'applicant', Record<string, string>> = { staff: {}, dealer: {}, applicant: {} };
  const values: Record<string, string> = {};
  /** values for one call's parameters where the shared ones do not fit */
  const PATH_VALUES: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    t = await start({ seedDemo: true });
    app = t.app;
    routes = routeCatalogue(app).map((r) => ({ ...r, re: toRegex(r.url) }));
    const adminToken = await loginAs(app, 'admin', ADMIN_PASSWORD);
    tokens.staff = bearer(adminToken);
    await createCompany(app, adminToken, 'specdealer');
    tokens.dealer = bearer(await dealerToken(app, 'specdealer'));
    const posting = await app.inject({ method: 'GET', url: '/api/staffunZp/public?page=0&size=1' });
    const postingId = posting.json<Page<Created>>().content[0].id;
    const applicant = await app.inject({
      method: 'POST',
      url: '/api/staffun',
      payload: {
        staffunZpId: postingId,
        ypqd: '招聘网站',
        ypmx: '智联招聘',
        name: '李明',
        mobile: '13700001111',
        sex: 1,
        card: `41010219950312123${idCardCheckDigit('41010219950312123')}`,
        birthday: '1995-03-12',
        hyzk: 0,
        email: 'liming@example.com',
        cardProvince: '410000',
        cardCity: '410100',
        cardCounty: '410102',
        cardAddress: '中原区建设路1号',
        nowProvince: '410000',
        nowCity: '410100',
        nowCounty: '410105',
        nowAddress: '金水区花园路2号',
        edu: 3,
        work: 3,
        syMoney: 6000,
        zsMoney: 8000,
        yjdg: '2026-12-01',
        outWork: 1,
      },
    });
    expect(applicant.statusCode, applicant.body).toBe(201);
    tokens.applicant = bearer(applicant.json<{ token: string }>().token);
    const other = await createStaff(app, { username: 'specuser', password: 'Specuser@2024', permissions: [] });
    const root = await app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirstOrThrow();
    // records the calls name: a member and a demand of the dealer, a public dictionary, an 操作系统类型
    await addMember(app, { mobile: '13800138000', surname: '周杰', subscribe: 1 });
    // the demo brand tree starts 大众/朗逸/2024款 1.5L (ids 1-4), the car type demand() names
    const duId = await addCustomer(app, tokens.dealer.authorization.slice(7), '13800138000');
    const submitted = await app.inject({
      method: 'POST',
      url: '/comp/dbcCompany/submitDbcInfo',
      headers: { ...tokens.dealer, submit_id: submitId() },
      payload: demand(duId),
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const demandId = submitted.json<Created>().id;
    const dict = await app.inject({
      method: 'POST',
      url: '/api/dict',
      headers: { ...tokens.staff, submit_id: submitId() },
      payload: { name: 'car_color', description: '车辆颜色', isPublic: true },
    });
    expect(dict.statusCode, dict.body).toBe(201);
    const osType = await app.inject({
      method: 'POST',
      url: '/api/os/osType',
      headers: { ...tokens.staff, submit_id: submitId() },
      payload: { name: '安卓', code: 'ANDROID' },
    });
    expect(osType.statusCode, osType.body).toBe(201);
    const category = await app.database.db
      .selectFrom('sys_busidict')
      .select(['id', 'code'])
      .where((eb) => eb.or([eb('pid', 'is', null), eb('pid', '=', 0)]))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    Object.assign(PATH_VALUES, {
      'api/busidict/list/{x}': { x: '0' },
      'api/busidict/options/{x}': { x: String(category.code) },
      'api/busidict/optionsChilds/{x}': { x: String(category.id) },
      'api/os/osType/updateEnabled/{id}': { id: String(osType.json<Created>().id) },
    });
    // plausible values of the spec's parameters: ids of records the fresh app has
    Object.assign(values, {
      id: '1',
      x: 'sex',
      code: '123456',
      name: 'sex',
      pid: '0',
      mobile: '13800138000',
      phone: '13800138000',
      email: 'someone@example.com',
      contract_id: String(demandId),
      levels: '2',
      status: '1',
      orgId: String(root.id),
      userName: 'specuser',
      userid: String(other),
      search: '张',
      enumName: 'car_color',
    });
  }, 60_000);
  afterAll(() => t?.close());

  it('a fresh demo answers the look-ups that list reference data with records to pick', async () => {
    const zhcl = await app.inject({ method: 'GET', url: '/api/tms/tmsZhcl/findZhclItem', headers: tokens.staff });
    const items = zhcl.json<Row[]>();
    expect(items.map((x) => x.name)).toEqual(['脚垫', '贴膜', '行车记录仪', '座套', '机油', '轮胎']);
    expect(items[0]).toEqual({ id: expect.any(Number) as unknown, name: '脚垫', code: 'MAT', unit: '套' });
  });

  it('every call reaches a route with the identity it takes, and none answers a 5xx', async () => {
    const ordered = [...calls].sort((a, b) => Number(endsSession(a[1])) - Number(endsSession(b[1])));
    const failures: string[] = [];
    let covered = 0;
    for (const [method, specPath] of ordered) {
      const key = `${method} ${specPath}`;
      if (KNOWN_GAPS[key]) continue;
      const [path, query] = specPath.split('?');
      const v = { ...values, ...PATH_VALUES[path] };
      const concrete = `/${path.replace(/\{(\w+)\}/g, (_m, k: string) => v[k] ?? '1')}`;
      const params = (query ?? '')
        .split('&')
        .filter(Boolean)
        .map((k) => `${k}=${encodeURIComponent(v[k] ?? '1')}`)
        .join('&');
      const url = params ? `${concrete}?${params}` : concrete;
      const route = routes.find((r) => r.method === method && r.re.test(concrete));
      const headers =
        route?.identity === 'dealer'
          ? tokens.dealer
          : route?.identity === 'applicant'
            ? tokens.applicant
            : route?.authenticated
              ? tokens.staff
              : {};
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers: { ...headers, ...(method === 'GET' ? {} : { submit_id: submitId() }) },
        ...(method === 'POST' || method === 'PUT' ? { payload: {} } : method === 'DELETE' ? { payload: [] } : {}),
      });
      if (key === GET_SIGN_IN) {
        if (res.statusCode !== 405 || res.headers.allow !== 'POST') failures.push(`${key}: ${res.statusCode}, Allow ${res.headers.allow}`);
      } else if (!route || res.statusCode === 405 || res.statusCode === 404 || res.statusCode >= 500) {
        failures.push(`${key}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      } else if (headers.authorization && res.statusCode === 401) {
        failures.push(`${key}: the ${route.identity ?? 'staff'} token was refused`);
      }
      covered++;
      // SPEC_CALLS_VERBOSE=1 prints every answer
      if (process.env.SPEC_CALLS_VERBOSE) console.log(`${res.statusCode} ${key} ${res.statusCode >= 300 ? res.body.slice(0, 100) : ''}`);
    }
    console.log(`spec call list: ${covered} of ${calls.length} calls sent, ${Object.keys(KNOWN_GAPS).length} known gaps`);
    expect(failures).toEqual([]);
    expect(covered).toBeGreaterThan(200);
  }, 120_000);
});
