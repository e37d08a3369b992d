/**
 * OpenTelemetry traces, on when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
 * is set: every request is a server span, with child spans for its database statements and its
 * outgoing provider calls, exported over OTLP/HTTP (tracing/otel.ts). Off, nothing of the SDK is
 * loaded (the import below is never made) and no hook is added: a request costs nothing more.
 */
import type { FastifyInstance } from 'fastify';

const flushers = new WeakMap<FastifyInstance, () => Promise<void>>();

/** Loads and starts the tracing when configured; call before any route is registered. */
export async function registerTracing(app: FastifyInstance): Promise<void> {
  if (!app.config.tracesEndpoint) return;
  const { startTracing } = await import('./otel.ts');
  flushers.set(app, startTracing(app));
}

/** Sends the spans ended so far now rather than at the next batch (tests, and before a stop); nothing with tracing off. */
export async function flushTraces(app: FastifyInstance): Promise<void> {
  await flushers.get(app)?.();
}
