/**
 * OpenTelemetry traces, received by a local OTLP/HTTP receiver (a plain HTTP server collecting the
 * JSON the exporter posts to /v1/traces):
 * - each request is a SERVER span named by method and route template, its statements CLIENT
 *   spans under it with their SQL text (placeholders, never values);
 * - a request carrying a W3C `traceparent` continues the caller's trace, under the caller's span;
 * - every log line of a request names its trace (`trace_id`);
 * - an outgoing provider call (SMS, to a local stand-in) is a span of the request and carries the
 *   trace on in `traceparent`;
 * - nothing personal: records of every schema holding personal data are created, read, filtered and
 *   updated with ID numbers, mobiles and names in paths, queries and bodies, and none of those values
 *   appears anywhere in the export.
 * The test waits for the spans by flushing the exporter, then polling the receiver with a deadline.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { flushTraces } from '../../src/server/tracing/index.ts';
import { tracingLoaded } from '../../src/server/tracing/scope.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import { TEST_BACKUP_KEY } from './backup-helpers.ts';
import type { Created } from '../support/answers.ts';

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: AnyValue }>;
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: AnyValue }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

const SERVER = 2;
const CLIENT = 3;

/** A local OTLP/HTTP receiver: keeps the raw bodies posted to /v1/traces. */
async function otlpReceiver() {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') bodies.push(body);
      res.writeHead(req.url === '/v1/traces' ? 200 : 404, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const exports = () => bodies.map((b) => JSON.parse(b) as OtlpExport);
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    bodies,
    spans: () => exports().flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))),
    resources: () => exports().flatMap((e) => e.resourceSpans.map((r) => r.resource)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Receiver = Awaited<ReturnType<typeof otlpReceiver>>;

const attr = (s: { attributes?: Array<{ key: string; value: AnyValue }> }, key: string): string | number | boolean | undefined => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  if (v.intValue !== undefined) return Number(v.intValue);
  return v.stringValue ?? v.boolValue;
};

/** Flushes the app's spans, then waits (deadline 10 s) until the receiver holds one matching `pick`. */
async function waitForSpans(t: TestApp, receiver: Receiver, pick: (spans: OtlpSpan[]) => boolean): Promise<OtlpSpan[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await flushTraces(t.app);
    const spans = receiver.spans();
    if (pick(spans)) return spans;
    if (Date.now() > deadline) throw new Error(`spans not received within 10 s: ${spans.map((s) => s.name).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A stand-in for a provider (the Aliyun SMS API, an S3 store): answers OK and keeps the headers of each call. */
async function fakeProvider() {
  const calls: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ Code: 'OK', Message: 'OK', BizId: '1' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe.each(testApps())('traces over OTLP on %s', (dialect, start) => {
  let t: TestApp;
  let receiver: Receiver;
  let sms: Awaited<ReturnType<typeof fakeProvider>>;
  let s3: Awaited<ReturnType<typeof fakeProvider>>;
  let admin: string;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    receiver = await otlpReceiver();
    sms = await fakeProvider();
    s3 = await fakeProvider();
    t = await start(
      {
        tracesEndpoint: receiver.endpoint,
        logLevel: 'info',
        smsApiUrl: sms.url,
        smsAccessKeyId: 'AK1',
        smsAccessKeySecret: 'aliyun-secret',
        smsSignName: '车商集团',
        smsTemplateCode: 'SMS_123',
        backupS3: {
          endpoint: s3.url,
          bucket: 'dealer-backups',
          region: 'us-east-1',
          accessKeyId: 'AK1',
          secretAccessKey: 'secret',
          prefix: '',
        },
        backupKey: TEST_BACKUP_KEY,
        diskWarnFreeMb: 0,
      },
      { logger: true, logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    );
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await sms?.close();
    await s3?.close();
  });

  it('a request is a server span named by its route template, its statements child spans with SQL text', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sysQuestion/987654/history', headers: bearer(admin) });
    expect(res.statusCode).toBe(404);
    const route = '/api/sysQuestion/:id/history';
    const spans = await waitForSpans(t, receiver, (all) => all.some((s) => s.name === `GET ${route}`));
    const request = spans.find((s) => s.name === `GET ${route}`)!;
    expect(request.kind).toBe(SERVER);
    expect(request.parentSpanId ?? '').toBe('');
    expect(attr(request, 'http.request.method')).toBe('GET');
    expect(attr(request, 'http.route')).toBe(route);
    expect(attr(request, 'http.response.status_code')).toBe(404);
    const statements = spans.filter((s) => s.parentSpanId === request.spanId);
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      expect(s.kind).toBe(CLIENT);
      expect(s.traceId).toBe(request.traceId);
      expect(attr(s, 'db.system.name')).toBe(dialect === 'postgres' ? 'postgresql' : 'sqlite');
      expect(typeof attr(s, 'db.query.text')).toBe('string');
    }
    // the statement looking the record up: named by operation and table, the id a placeholder
    const read = statements.find((s) => /sys_question/.test(String(attr(s, 'db.query.text'))));
    expect(read, statements.map((s) => s.name).join(', ')).toBeDefined();
    expect(attr(read!, 'db.operation.name')).toBe('select');
    expect(read!.name).toBe(`select ${attr(read!, 'db.collection.name')}`);
    expect(String(attr(read!, 'db.query.text'))).toMatch(dialect === 'postgres' ? /\$1/ : /\?/);
    for (const s of statements) expect(String(attr(s, 'db.query.text'))).not.toContain('987654');
    expect(tracingLoaded()).toBe(true);
    // the resource names the service and the instance
    const resource = receiver.resources()[0];
    expect(attr(resource, 'service.name')).toBe('dealer-console');
    expect(String(attr(resource, 'service.instance.id'))).toMatch(/:\d+:/);
  });

  it('a request carrying traceparent continues the caller trace, and its log lines name the trace', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sysQuestion?page=0&size=10',
      headers: { ...bearer(admin), traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    expect(res.statusCode).toBe(200);
    const spans = await waitForSpans(t, receiver, (all) => all.some((s) => s.traceId === TRACE_ID && s.kind === SERVER));
    const request = spans.find((s) => s.traceId === TRACE_ID && s.kind === SERVER)!;
    expect(request.name).toBe('GET /api/sysQuestion');
    expect(request.parentSpanId).toBe(PARENT_ID);
    expect(attr(request, 'http.response.status_code')).toBe(200);
    const children = spans.filter((s) => s.parentSpanId === request.spanId);
    expect(children.map((s) => s.name)).toContain('select sys_question');
    for (const c of children) expect(c.traceId).toBe(TRACE_ID);

    // every line of a request carries its trace id; the two lines Fastify writes per request among them
    const ofRequests = lines.filter((l) => l.reqId !== undefined);
    expect(ofRequests.length).toBeGreaterThan(0);
    for (const l of ofRequests) expect(l.trace_id, JSON.stringify(l)).toMatch(/^[0-9a-f]{32}$/);
    const ofThis = lines.filter((l) => l.trace_id === TRACE_ID);
    expect(ofThis.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(new Set(ofThis.map((l) => l.reqId)).size).toBe(1);
    expect(ofThis.every((l) => l.span_id === request.spanId)).toBe(true);
  });

  it('an outgoing provider call is a span of the request and carries the trace on in traceparent', async () => {
    await createStaff(t.app, { username: 'trace_sms', password: 'Trace@2024', permissions: [] });
    const token = await loginAs(t.app, 'trace_sms', 'Trace@2024');
    const traceId = 'a'.repeat(31) + '1';
    // over a real connection: the body arrives in the socket's own events, after which the handler must still see the trace
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/code/resetPhone`, {
      method: 'POST',
      headers: { ...bearer(token), traceparent: `00-${traceId}-${PARENT_ID}-01`, 'content-type': 'application/json' },
      body: JSON.stringify({ value: '13800000088' }),
    });
    expect(res.status).toBe(200);
    expect(sms.calls).toHaveLength(1);
    const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(sms.calls[0].traceparent));
    expect(sent, String(sms.calls[0].traceparent)).not.toBeNull();
    expect(sent![1]).toBe(traceId);
    const spans = await waitForSpans(t, receiver, (all) => all.some((s) => s.spanId === sent![2]));
    const call = spans.find((s) => s.spanId === sent![2])!;
    const request = spans.find((s) => s.traceId === traceId && s.kind === SERVER)!;
    expect(call.name).toBe('GET sms');
    expect(call.kind).toBe(CLIENT);
    expect(call.parentSpanId).toBe(request.spanId);
    expect(attr(call, 'dealer.provider')).toBe('sms');
    expect(attr(call, 'server.address')).toBe('127.0.0.1');
    expect(attr(call, 'http.response.status_code')).toBe(200);
    expect(request.name).toBe('POST /api/code/resetPhone');
    expect(JSON.stringify(spans.filter((s) => s.traceId === traceId))).not.toContain('13800000088');
  });

  it('the S3 copy of a backup run by hand is a span of the request and carries the trace on', async () => {
    const traceId = 'b'.repeat(31) + '2';
    const job = await t.app.database.db
      .selectFrom('sys_job')
      .select('id')
      .where('method_name', '=', 'scheduledBackup')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/jobs/exec/${String(job.id)}`,
      headers: { ...bearer(admin), traceparent: `00-${traceId}-${PARENT_ID}-01` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ success: boolean }>().success).toBe(true);
    expect(s3.calls).toHaveLength(1);
    const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(s3.calls[0].traceparent));
    expect(sent![1]).toBe(traceId);
    const spans = await waitForSpans(t, receiver, (all) => all.some((s) => s.spanId === sent![2]));
    const call = spans.find((s) => s.spanId === sent![2])!;
    const request = spans.find((s) => s.traceId === traceId && s.kind === SERVER)!;
    expect(request.name).toBe('PUT /api/jobs/exec/:id');
    expect(call).toMatchObject({ name: 'PUT s3', kind: CLIENT, parentSpanId: request.spanId });
    expect(attr(call, 'http.response.status_code')).toBe(200);
  });
});

/** Personal values the requests below carry: ID numbers, mobiles, names, e-mail and a bank card. */
const PERSONAL = ['11010519491231002X', '13912345678', '王小明', 'wangxm@example.com', '6222021234567890123'];

describe.each(testApps())('nothing personal in the traces on %s', (_dialect, start) => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: string;
  beforeAll(async () => {
    receiver = await otlpReceiver();
    t = await start({ tracesEndpoint: receiver.endpoint });
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('requests carrying personal data in paths, queries and bodies leave none of it in the export', async () => {
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
        await t.app.inject({ method: 'GET', url: `/${spec.path}/${encodeURIComponent(value)}`, headers: bearer(admin) });
        const query = personal.map((f) => `${f.name}=${encodeURIComponent(value)}`).join('&');
        await t.app.inject({ method: 'GET', url: `/${spec.path}?${query}&blurry=${encodeURIComponent(value)}`, headers: bearer(admin) });
        await t.app.inject({
          method: 'PUT',
          url: `/${spec.path}`,
          headers: { ...bearer(admin), submit_id: submitId() },
          payload: { ...body, id, ...Object.fromEntries(personal.map((f) => [f.name, value])) },
        });
      }
      await t.app.inject({ method: 'GET', url: `/nowhere/${encodeURIComponent(PERSONAL[1])}/${encodeURIComponent(PERSONAL[2])}` });
    }
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: PERSONAL[1], password: PERSONAL[0] } });
    const spans = await waitForSpans(t, receiver, (all) => all.some((s) => s.name === 'POST /api/login'));
    expect(spans.some((s) => s.name.startsWith('PUT /'))).toBe(true);
    expect(spans.some((s) => s.name.startsWith('update '))).toBe(true);
    // the unmatched path is named by its method alone
    expect(spans.some((s) => s.kind === SERVER && s.name === 'GET' && attr(s, 'http.response.status_code') === 404)).toBe(true);
    const text = receiver.bodies.join('\n');
    const found = [...stored].filter(
      (v) => text.includes(v) || text.includes(encodeURIComponent(v)) || text.includes(JSON.stringify(v).slice(1, -1)),
    );
    expect(found).toEqual([]);
    // every server span's route is a registered template
    for (const s of spans.filter((x) => x.kind === SERVER)) {
      const route = attr(s, 'http.route');
      if (route !== undefined) expect(String(route)).toMatch(/^\/[\w/:*.-]*$/);
    }
  }, 180_000);
});
