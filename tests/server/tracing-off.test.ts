/**
 * Tracing off (OTEL_EXPORTER_OTLP_ENDPOINT unset) costs nothing: the OpenTelemetry SDK is never
 * loaded (this file runs in a process of its own, where no app turns tracing on), a request
 * carrying `traceparent` is served as any other, and its log lines name no trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracingLoaded } from '../../src/server/tracing/scope.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';

describe.each(testApps())('tracing off on %s', (_dialect, start) => {
  let t: TestApp;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    t = await start(
      { tracesEndpoint: '', logLevel: 'info' },
      { logger: true, logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
    );
  }, 60_000);
  afterAll(() => t?.close());

  it('loads nothing of OpenTelemetry and writes no trace id', async () => {
    const admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sysQuestion?page=0&size=10',
      headers: { ...bearer(admin), traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    expect(res.statusCode).toBe(200);
    expect(tracingLoaded()).toBe(false);
    const ofRequests = lines.filter((l) => l.reqId !== undefined);
    expect(ofRequests.length).toBeGreaterThan(0);
    expect(ofRequests.filter((l) => 'trace_id' in l)).toEqual([]);
  });
});
