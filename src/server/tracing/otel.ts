/**
 * The OpenTelemetry SDK, loaded only when tracing is configured (tracing/index.ts).
 *
 * - A request is a SERVER span named `METHOD route-template` (`GET /api/sysQuestion/:id`; just the
 *   method for a path no route serves), started as the request arrives (in the request's child
 *   logger factory, so that every log line of the request, `incoming request` included, carries
 *   its `trace_id` and `span_id`) and ended with the answer. A W3C `traceparent` on the request
 *   makes it a child of the caller's span.
 * - A database statement run for the request is a CLIENT span `operation table` with the SQL text
 *   as the query builder compiled it (values are parameters), timed by the statement log.
 * - An outgoing provider call (tracing/scope.ts) is a CLIENT span `METHOD provider`, and carries
 *   the trace on in `traceparent`.
 *
 * Attributes hold route templates, methods, status codes, table names, operations, SQL with
 * placeholders, error codes and the providers' host names: never a raw URL, a query string, a
 * header, a body, a client address, an id or an error message (a driver's message may quote the
 * value that failed). The request's trace is carried through its hooks and handler in an
 * AsyncLocalStorage, entered on arrival and again after the body is read (a body is read in the
 * socket's own context).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_INSTANCE_ID,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { LogEvent } from 'kysely';
import { observeStatements } from '../db/index.ts';
import { errorCodeLabel, statementLabels, TableNames } from '../metrics/statements.ts';
import { INSTANCE_ID } from '../modules/jobs/runner.ts';
import pkg from '../../../package.json' with { type: 'json' };
import { setTraceStorage, type OutgoingCall, type ProviderName, type TraceScope } from './scope.ts';

const storage = new AsyncLocalStorage<RequestTrace>();
setTraceStorage(storage);
const propagator = new W3CTraceContextPropagator();
const TRACE = Symbol('request trace');
type Traced = IncomingMessage & { [TRACE]?: RequestTrace };

/** epoch milliseconds with sub-millisecond precision, as spans take them */
const nowMs = () => performance.timeOrigin + performance.now();

interface AppTracing {
  readonly tracer: Tracer;
  readonly dbSystem: string;
  readonly tables: TableNames;
}

class RequestTrace implements TraceScope {
  readonly ctx: Context;
  private ended = false;
  constructor(
    readonly app: AppTracing,
    readonly span: Span,
    parent: Context,
  ) {
    this.ctx = trace.setSpan(parent, span);
  }

  end(status: number | undefined): void {
    if (this.ended) return;
    this.ended = true;
    if (status === undefined) {
      this.span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    } else {
      this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (status >= 500) {
        this.span.setAttribute(ATTR_ERROR_TYPE, String(status));
        this.span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    this.span.end();
  }

  statement(event: LogEvent): void {
    const end = nowMs();
    const { operation, table } = statementLabels(event.query.query, event.query.sql);
    const label = table === 'none' ? undefined : this.app.tables.label(table);
    const span = this.app.tracer.startSpan(
      label ? `${operation} ${label}` : operation,
      {
        kind: SpanKind.CLIENT,
        startTime: end - event.queryDurationMillis,
        attributes: {
          [ATTR_DB_SYSTEM_NAME]: this.app.dbSystem,
          [ATTR_DB_OPERATION_NAME]: operation,
          [ATTR_DB_QUERY_TEXT]: event.query.sql,
          ...(label && label !== 'other' ? { [ATTR_DB_COLLECTION_NAME]: label } : {}),
        },
      },
      this.ctx,
    );
    if (event.level === 'error') {
      const code = errorCodeLabel(event.error);
      span.setAttributes({ [ATTR_DB_RESPONSE_STATUS_CODE]: code, [ATTR_ERROR_TYPE]: code });
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(end);
  }

  outgoing(provider: ProviderName, method: string, url: URL): OutgoingCall {
    const span = this.app.tracer.startSpan(
      `${method} ${provider}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: method,
          [ATTR_SERVER_ADDRESS]: url.hostname,
          [ATTR_SERVER_PORT]: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
          [ATTR_URL_SCHEME]: url.protocol.replace(/:$/, ''),
          'dealer.provider': provider,
        },
      },
      this.ctx,
    );
    // only traceparent goes out: a tracestate the caller sent is not handed to third parties
    const carrier: Record<string, string> = {};
    propagator.inject(trace.setSpan(this.ctx, span), carrier, defaultTextMapSetter);
    const headers: Record<string, string> = carrier.traceparent ? { traceparent: carrier.traceparent } : {};
    let ended = false;
    return {
      headers,
      end(result) {
        if (ended) return;
        ended = true;
        if (typeof result === 'number') {
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, result);
          if (result >= 400) {
            span.setAttribute(ATTR_ERROR_TYPE, String(result));
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
        } else {
          const code = (result as { code?: unknown }).code;
          span.setAttribute(
            ATTR_ERROR_TYPE,
            result.name === 'TimeoutError' || result.name === 'AbortError'
              ? 'timeout'
              : typeof code === 'string' && /^E[A-Z_]{2,30}$/.test(code)
                ? code
                : 'error',
          );
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      },
    };
  }
}

/** Starts the tracer provider and the request hooks; answers a flush of the spans ended so far. */
export function startTracing(app: FastifyInstance): () => Promise<void> {
  const { config } = app;
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: config.serviceName,
        [ATTR_SERVICE_VERSION]: pkg.version,
        [ATTR_SERVICE_INSTANCE_ID]: INSTANCE_ID,
      }),
    )
    // OTEL_RESOURCE_ATTRIBUTES (and OTEL_SERVICE_NAME) as the standard says
    .merge(detectResources({ detectors: [envDetector] }));
  // headers, timeout and compression from OTEL_EXPORTER_OTLP_*; batching from OTEL_BSP_*; sampling from OTEL_TRACES_SAMPLER
  const exporter = new OTLPTraceExporter({ url: config.tracesEndpoint });
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  const tracing: AppTracing = {
    tracer: provider.getTracer('dealer-console', pkg.version),
    dbSystem: config.databaseUrl ? 'postgresql' : 'sqlite',
    tables: new TableNames(),
  };

  // the span starts with the request's logger, so that every line of the request names its trace
  app.setChildLoggerFactory(function (logger, bindings, opts, raw) {
    const req = raw as Traced;
    const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    const span = tracing.tracer.startSpan(
      req.method ?? 'HTTP',
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: req.method ?? 'HTTP' } },
      parent,
    );
    const rt = new RequestTrace(tracing, span, parent);
    req[TRACE] = rt;
    const ids = span.spanContext();
    return logger.child({ ...bindings, trace_id: ids.traceId, span_id: ids.spanId }, opts);
  });

  const enter = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const rt = (request.raw as Traced)[TRACE];
    if (rt) storage.run(rt, done);
    else done();
  };
  app.addHook('onRequest', (request, reply, done) => {
    const rt = (request.raw as Traced)[TRACE];
    if (rt) {
      const route = request.is404 ? undefined : request.routeOptions.url;
      if (route) {
        rt.span.updateName(`${request.method} ${route}`);
        rt.span.setAttribute(ATTR_HTTP_ROUTE, route);
      }
      rt.span.setAttribute(ATTR_URL_SCHEME, request.protocol);
    }
    enter(request, reply, done);
  });
  // the body was read in the socket's context: enter the request's again
  app.addHook('preValidation', enter);
  app.addHook('onResponse', (request, reply, done) => {
    (request.raw as Traced)[TRACE]?.end(reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    (request.raw as Traced)[TRACE]?.end(undefined);
    done();
  });

  app.addHook('onReady', (done) => {
    observeStatements(app.database, (event) => {
      const rt = storage.getStore();
      if (rt && rt.app === tracing) rt.statement(event);
    });
    done();
  });
  app.addHook('onClose', async () => {
    await provider.shutdown().catch((err: unknown) => app.log.warn({ err }, 'trace export at shutdown failed'));
  });
  return () => provider.forceFlush();
}
