/**
 * Prometheus metrics at GET /metrics:
 * - a scrape without the token, or with a wrong one, answers 401 in the usual error shape; with
 *   METRICS_TOKEN unset it always does and nothing is collected;
 * - the text holds the request histogram by method, route template and status class, database
 *   statements by operation and table, the Node collectors, sign-in failures, 403s by route,
 *   readiness and the free space of DATA_DIR;
 * - nothing personal: records of every schema holding personal data are created, read, filtered,
 *   searched and fetched by paths carrying ID numbers, mobiles and names, and none of those values
 *   (nor any id of a created record in a route label) appears in the scrape;
 * - with METRICS_PORT the metrics have a listener of their own on 127.0.0.1 (the token asked for
 *   when set) and the main port does not serve them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { loadConfig } from '../../src/server/config.ts';
import { METRICS_UNAUTHORIZED, metricsAddress } from '../../src/server/metrics/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import type { Created } from '../support/answers.ts';

const TOKEN = 'metrics-test-token-0123456789';
/** a scrape with the bearer token `token`, or none with null */
const scrape = (t: TestApp, token: string | null = TOKEN) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: token === null ? {} : { authorization: `Bearer ${token}` } });

/** the value of the first sample whose line starts with `prefix` (name and labels), else undefined */
function sample(text: string, prefix: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe.each(testApps())('metrics on %s', (dialect, start) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await start({ metricsToken: TOKEN });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('answers 401 without the token or with a wrong one', async () => {
    for (const token of [null, 'wrong-token-wrong-token', admin]) {
      const res = await scrape(t, token);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).message).toBe(METRICS_UNAUTHORIZED);
    }
  });

  it('counts requests by route template, statements by table, sign-in failures, 403s and the state of the instance', async () => {
    for (let i = 0; i < 3; i++) {
      const list = await t.app.inject({ method: 'GET', url: '/api/sysQuestion?page=0&size=10', headers: bearer(admin) });
      expect(list.statusCode).toBe(200);
    }
    const one = await t.app.inject({ method: 'GET', url: '/api/sysQuestion/987654', headers: bearer(admin) });
    expect(one.statusCode).toBeLessThan(500);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: 'not-encrypted' } });
    expect(wrong.statusCode).toBe(400);
    const res = await scrape(t);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/sysQuestion",status_class="2xx"}'),
    ).toBeGreaterThanOrEqual(3);
    expect(text).not.toContain('987654');
    expect(sample(text, 'dealer_db_statement_duration_seconds_count{operation="select",table="sys_question"}')).toBeGreaterThan(0);
    expect(sample(text, 'dealer_sign_in_failures_total{door="staff"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'dealer_ready')).toBe(1);
    expect(sample(text, 'dealer_disk_free_ratio{dir="data"}')).toBeGreaterThan(0);
    expect(sample(text, 'dealer_realtime_sockets_open')).toBe(0);
    if (dialect === 'postgres') expect(sample(text, 'dealer_db_pool_waiting')).toBe(0);
    expect(text).toContain('# TYPE dealer_backup_last_scheduled_failed gauge');
  });

  it('counts 403s by route template', async () => {
    await createStaff(t.app, { username: 'metrics_nokeys', password: 'Metrics@2024', permissions: [], dataScope: '全部' });
    const token = await loginAs(t.app, 'metrics_nokeys', 'Metrics@2024');
    const refused = await t.app.inject({ method: 'GET', url: '/api/backups', headers: bearer(token) });
    expect(refused.statusCode).toBe(403);
    expect(sample((await scrape(t)).body, 'dealer_forbidden_total{route="/api/backups"}')).toBe(1);
  });
});

describe.each(testApps())('metrics off on %s', (_dialect, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start({ metricsToken: '' });
  }, 60_000);
  afterAll(() => t?.close());

  it('without METRICS_TOKEN nothing is collected and /metrics answers 401, whatever is sent', async () => {
    expect(t.app.metrics.enabled).toBe(false);
    for (const token of [null, '', TOKEN]) expect((await scrape(t, token)).statusCode).toBe(401);
  });
});

/** Personal values the requests below carry: ID numbers, mobiles, names, e-mail and a bank card. */
const PERSONAL = ['11010519491231002X', '13912345678', '王小明', 'wangxm@example.com', '6222021234567890123'];

describe.each(testApps())('nothing personal in the metrics on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await start({ metricsToken: TOKEN });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('requests carrying personal data in paths, queries and bodies leave none of it in /metrics', async () => {
    const stored = new Set<string>(PERSONAL);
    const masked = resources.filter((s) => s.fields.some((f) => f.mask) && s.actions.includes('add'));
    expect(masked.length).toBeGreaterThan(3);
    for (const spec of masked) {
      const body = await sampleBody(t.app, admin, resources, spec, 0);
      for (const f of spec.fields)
        if (f.mask && typeof body[f.name] === 'string' && String(body[f.name]).length >= 4) stored.add(String(body[f.name]));
      const created = await t.app.inject({
        method: 'POST',
        url: `/${spec.path}`,
        headers: { ...bearer(admin), submit_id: submitId() },
        payload: body,
      });
      expect(created.statusCode, `${spec.name}: ${created.body}`).toBe(201);
      const id = created.json<Created>().id;
      const personal = spec.fields.filter((f) => f.mask);
      for (const value of PERSONAL) {
        // in a path (an id where a number belongs, a record path with a value), in a query (filters and search), in a body
        await t.app.inject({ method: 'GET', url: `/${spec.path}/${encodeURIComponent(value)}`, headers: bearer(admin) });
        await t.app.inject({ method: 'GET', url: `/${spec.path}/${value}/detail?x=${encodeURIComponent(value)}`, headers: bearer(admin) });
        const query = personal.map((f) => `${f.name}=${encodeURIComponent(value)}`).join('&');
        await t.app.inject({ method: 'GET', url: `/${spec.path}?${query}&blurry=${encodeURIComponent(value)}`, headers: bearer(admin) });
        await t.app.inject({
          method: 'PUT',
          url: `/${spec.path}`,
          headers: { ...bearer(admin), submit_id: submitId() },
          payload: { ...body, id, ...Object.fromEntries(personal.map((f) => [f.name, value])) },
        });
      }
      // unsigned, an unknown path holding the values
      await t.app.inject({ method: 'GET', url: `/nowhere/${encodeURIComponent(PERSONAL[1])}/${encodeURIComponent(PERSONAL[2])}` });
    }
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: PERSONAL[1], password: PERSONAL[0] } });
    const res = await scrape(t);
    expect(res.statusCode).toBe(200);
    const text = res.body;
    expect(text).toContain('http_request_duration_seconds_count{method="PUT"');
    expect(text).toContain('route="unmatched"');
    const found = [...stored].filter((v) => text.includes(v) || text.includes(encodeURIComponent(v)));
    expect(found).toEqual([]);
    // every route label is a registered template (or the one label for unmatched paths)
    const routes = new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    for (const r of routes) expect(r === 'unmatched' || /^\/[\w/:*.-]*$/.test(r), r).toBe(true);
  }, 180_000);
});

describe('METRICS_PORT and METRICS_HOST', () => {
  it('a listener of its own needs the token when bound beyond the loopback, and a port other than PORT', () => {
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsHost).toBe('127.0.0.1');
    expect(loadConfig({}).metricsPort).toBeNull();
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toThrow(/METRICS_HOST.*METRICS_TOKEN/);
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN }).metricsHost).toBe('0.0.0.0');
    expect(() => loadConfig({ METRICS_PORT: '8000' })).toThrow(/METRICS_PORT.*PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
  });
});

describe.each(testApps())('metrics on a port of their own on %s', (_dialect, start) => {
  const scrapeOwn = async (t: TestApp, path = '/metrics', token?: string) => {
    const at = metricsAddress(t.app);
    expect(at?.host).toBe('127.0.0.1');
    const res = await fetch(`http://127.0.0.1:${at!.port}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, text: await res.text() };
  };

  it('without a token: served on 127.0.0.1 at METRICS_PORT and not on the main port', async () => {
    const t = await start({ metricsToken: '', metricsPort: 0 });
    try {
      expect(t.app.metrics.enabled).toBe(true);
      const list = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(list.statusCode).toBe(200);
      const own = await scrapeOwn(t);
      expect(own.status).toBe(200);
      expect(own.text).toContain('http_request_duration_seconds_count{method="GET",route="/api/health",status_class="2xx"}');
      expect((await scrapeOwn(t, '/api/health')).status).toBe(404);
      const main = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(main.statusCode).toBe(404);
      expect(main.body).not.toContain('http_request_duration_seconds');
    } finally {
      const port = metricsAddress(t.app)?.port;
      await t.close();
      // closed with the app
      await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
    }
  });

  it('with METRICS_TOKEN the port of its own asks for it too', async () => {
    const t = await start({ metricsToken: TOKEN, metricsPort: 0 });
    try {
      const refused = await scrapeOwn(t);
      expect(refused.status).toBe(401);
      expect((JSON.parse(refused.text) as { message: string }).message).toBe(METRICS_UNAUTHORIZED);
      expect((await scrapeOwn(t, '/metrics', 'wrong-token-wrong-token')).status).toBe(401);
      const ok = await scrapeOwn(t, '/metrics', TOKEN);
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('# TYPE http_request_duration_seconds histogram');
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
