/**
 * API errors: every failure answers {status, message, timestamp} with the HTTP status equal
 * to `status`. Throw ApiError (or a helper below) anywhere in a route; the app's error handler
 * turns it into that shape. Unknown errors become a 500 without internals.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/rate-limit';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from './db/unavailable.ts';
import { STORAGE_FULL, isStorageFull } from './db/storage-full.ts';
import { dataMismatch } from './db/data-mismatch.ts';
import { SCHEMA_MOVED_ON, isSchemaMovedOn, markSchemaMovedOn } from './db/schema-moved-on.ts';

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    /** extra fields for the answer, e.g. import row errors */
    public details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) => new ApiError(400, message, details);
export const unauthorized = (message = '登录状态已过期，请重新登录') => new ApiError(401, message);
export const forbidden = (message = '没有权限，请联系管理员') => new ApiError(403, message);
export const notFound = (message = '数据不存在') => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);

export function errorBody(status: number, message: string, details?: Record<string, unknown>) {
  return { status, message, timestamp: new Date().toISOString(), ...details };
}

/** Chinese messages for the framework's own request errors, by error code. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: '请求内容过大',
  FST_ERR_CTP_INVALID_JSON_BODY: '请求内容不是有效的JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求内容不能为空',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的请求内容类型',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求内容长度不正确',
  FST_ERR_VALIDATION: '请求参数格式错误',
  FST_REQ_FILE_TOO_LARGE: '上传文件过大',
  FST_PARTS_LIMIT: '上传内容过多',
  FST_FILES_LIMIT: '一次只能上传一个文件',
  FST_FIELDS_LIMIT: '上传内容过多',
  FST_INVALID_MULTIPART_CONTENT_TYPE: '请以文件上传的方式提交',
  FST_PROTO_VIOLATION: '请求内容格式错误',
  FST_MP_PREMATURE_CLOSE: '上传中断，请重试',
  FST_ERR_BAD_URL: '请求地址不正确',
};

const STATUS_MESSAGES: Record<number, string> = {
  400: '请求参数错误',
  401: '登录状态已过期，请重新登录',
  403: '没有权限，请联系管理员',
  404: '接口不存在',
  405: '不支持的请求方法',
  406: '请求格式不被接受',
  408: '请求超时',
  409: '请勿重复提交',
  413: '请求内容过大',
  415: '不支持的请求内容类型',
  429: '请求过于频繁，请稍后再试',
};

interface FrameworkError {
  code?: string;
  statusCode?: number;
  validation?: unknown;
  message?: string;
}

/** Status and Chinese message for any thrown error: ApiError as is, framework 4xx errors
 * mapped, a database that cannot be reached 503, storage that is full 507, everything else a
 * 500 that reveals nothing. */
export function describeError(error: unknown): { status: number; message: string; details?: Record<string, unknown>; internal: boolean } {
  if (error instanceof ApiError) return { status: error.status, message: error.message, details: error.details, internal: false };
  const e = (error ?? {}) as FrameworkError;
  if (e.validation) return { status: 400, message: FRAMEWORK_MESSAGES.FST_ERR_VALIDATION, internal: false };
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    // the body parser reports a JSON body with a __proto__ key as a plain 400
    const message = (e.code && FRAMEWORK_MESSAGES[e.code]) || STATUS_MESSAGES[status] || STATUS_MESSAGES[400];
    return { status, message, internal: false };
  }
  if (isDatabaseUnavailable(error)) return { status: 503, message: DATABASE_UNAVAILABLE, internal: false };
  if (isStorageFull(error)) return { status: 507, message: STORAGE_FULL, internal: false };
  // a newer version migrated the database under this instance (logged like a fault: it needs an upgrade)
  if (isSchemaMovedOn(error)) return { status: 503, message: SCHEMA_MOVED_ON, internal: true };
  const mismatch = dataMismatch(error);
  // logged like a fault: the schema and the database may disagree (not so a duplicate of an x-unique rule)
  if (mismatch) return { status: mismatch.status, message: mismatch.message, internal: !mismatch.rule };
  return { status: 500, message: '服务器内部错误', internal: true };
}

/**
 * The app's error and not-found handlers. Every failure answers {status, message, timestamp};
 * internals (stack, SQL, driver messages) are logged, never sent. The 404 handler is
 * rate-limited so probing unknown paths is cheap for the server.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const { status, message, details, internal } = describeError(error);
    // from now on the instance answers not ready: the balancer moves its traffic to up-to-date ones
    if (message === SCHEMA_MOVED_ON) markSchemaMovedOn((request.server as { database?: object }).database);
    if (internal) request.log.error({ err: error }, 'request failed');
    else if (status >= 500) request.log.warn({ err: error }, 'request failed');
    // an error after the answer has started (a stream broke) cannot change the answer any more
    if (reply.sent || reply.raw.headersSent) return;
    reply
      .status(status)
      .type('application/json; charset=utf-8')
      .send(errorBody(status, message, details));
  });
  const notFound = (_request: FastifyRequest, reply: FastifyReply) => {
    reply.status(404).send(errorBody(404, '接口不存在'));
  };
  // timed by the metrics first (metrics/index.ts), so that a 404 refused by the rate limit counts too
  const timed = app.hasDecorator('metrics') ? app.metrics.unmatched : (_r: FastifyRequest, _p: FastifyReply, done: () => void) => done();
  if (typeof (app as { rateLimit?: unknown }).rateLimit === 'function') {
    app.setNotFoundHandler({ preHandler: [timed, app.rateLimit({ max: 120, timeWindow: 60_000 })] }, notFound);
  } else {
    app.setNotFoundHandler({ preHandler: timed }, notFound);
  }
}
