/**
 * The trace of the request being served, as far as the rest of the server needs it: the outgoing
 * provider calls (SMS, WeCom, OCR, S3) ask it for a client span and the headers that carry the
 * trace on (W3C `traceparent`). This module loads nothing of OpenTelemetry: with tracing off
 * (OTEL_EXPORTER_OTLP_ENDPOINT unset) there is no store, and a call costs one undefined check.
 */
import type { AsyncLocalStorage } from 'node:async_hooks';

/** The outside services the product calls; the span's `dealer.provider` attribute. */
export type ProviderName = 'sms' | 'wecom' | 'ocr' | 's3';

/** One outgoing call's client span: send `headers` with the call, then `end` it with the answer's status or the error. */
export interface OutgoingCall {
  readonly headers: Readonly<Record<string, string>>;
  end(result: number | Error): void;
}

/** The request's trace (tracing/otel.ts). */
export interface TraceScope {
  outgoing(provider: ProviderName, method: string, url: URL): OutgoingCall;
}

let storage: AsyncLocalStorage<TraceScope> | undefined;

/** Set once, by tracing/otel.ts when it loads. */
export function setTraceStorage(s: AsyncLocalStorage<TraceScope>): void {
  storage = s;
}

/** Whether the OpenTelemetry SDK has been loaded in this process (never, while no app has tracing on). */
export function tracingLoaded(): boolean {
  return storage !== undefined;
}

/** The trace of the request this code runs for; undefined with tracing off or outside a request. */
export function currentTrace(): TraceScope | undefined {
  return storage?.getStore();
}

/** A client span for an outgoing call of the request being served, or undefined (tracing off, no request). */
export function startOutgoing(provider: ProviderName, method: string, url: URL): OutgoingCall | undefined {
  return storage?.getStore()?.outgoing(provider, method, url);
}

/**
 * fetch() for a provider call: within a traced request the call is a client span (ended when the
 * answer's headers arrive, or with the error) and carries the trace on in `traceparent`.
 */
export async function providerFetch(provider: ProviderName, url: string | URL, init: RequestInit = {}): Promise<Response> {
  const scope = storage?.getStore();
  if (!scope) return fetch(url, init);
  const u = typeof url === 'string' ? new URL(url) : url;
  const call = scope.outgoing(provider, init.method ?? 'GET', u);
  const headers = new Headers(init.headers);
  for (const [k, v] of Object.entries(call.headers)) headers.set(k, v);
  try {
    const res = await fetch(u, { ...init, headers });
    call.end(res.status);
    return res;
  } catch (err) {
    call.end(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
}
