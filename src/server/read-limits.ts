/**
 * Per-user limits for reading (docs/read-limits.md): every list, look-up, total and export route
 * of the staff console counts against the caller's budget, so a script cannot run thousands of
 * probing reads a minute while a person never meets the limit.
 *
 * - reads: READ_LIMIT_PER_MINUTE (600) list and look-up reads a minute per user, one budget over
 *   every route that takes `readLimit` (a script cannot multiply it by switching routes);
 * - exports: EXPORT_LIMIT_PER_MINUTE (30) exports a minute per user, a budget of their own;
 * - READ_LIMIT_WINDOW_SECONDS (60) is the window both count in.
 *
 * The guards are @fastify/rate-limit ones (app.rateLimit), so on PostgreSQL they count in the
 * database store every instance shares (db/shared-limits.ts), in leases of several reads per
 * upsert (db/leased-limits.ts: never more than the budget over all instances), on SQLite in memory. They run as
 * pre-handlers AFTER the route's authentication: the key is the signed-in user (or applicant),
 * never an address that a whole office shares. Over the limit the answer is 429
 * 查询过于频繁，请稍后再试 in the product's error shape, with Retry-After.
 */
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError } from './errors.ts';

export const READ_LIMIT_MESSAGE = '查询过于频繁，请稍后再试';
export const EXPORT_LIMIT_MESSAGE = '导出过于频繁，请稍后再试';

export interface ReadLimits {
  /** pre-handler for list and look-up reads (after authentication) */
  read: preHandlerAsyncHookHandler[];
  /** pre-handler for exports (after authentication) */
  export: preHandlerAsyncHookHandler[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the per-user read and export limits (read-limits.ts); absent on apps built without the rate-limit plugin */
    readLimits?: ReadLimits;
  }
}

/** The caller the budget belongs to: the staff user, else the applicant, else the address. */
export function readerKey(request: FastifyRequest): string {
  if (request.user) return `user:${request.user.id}`;
  if (request.applicant) return `applicant:${request.applicant.staffunId}`;
  return `ip:${request.ip}`;
}

/** Builds both guards (once per app, in a fixed order: on PostgreSQL their counters are named by it). */
export function createReadLimits(app: FastifyInstance, limits: { reads: number; exports: number; windowMs: number }): ReadLimits {
  const guard = (max: number, message: string) =>
    app.rateLimit({
      max,
      timeWindow: limits.windowMs,
      keyGenerator: readerKey,
      errorResponseBuilder: () => new ApiError(429, message),
      // on PostgreSQL counted in leases of the shared budget, not one upsert per read (db/leased-limits.ts)
      sharedLease: true,
      // no x-ratelimit-* headers on every read (three more headers per answer, read by nothing);
      // past the budget the answer still says when to come back (Retry-After)
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
      addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    } as Parameters<FastifyInstance['rateLimit']>[0]);
  return { read: [guard(limits.reads, READ_LIMIT_MESSAGE)], export: [guard(limits.exports, EXPORT_LIMIT_MESSAGE)] };
}

/** The read guard of the app (none on an app built without the rate-limit plugin, e.g. a test of one area). */
export function readLimit(app: FastifyInstance): preHandlerAsyncHookHandler[] {
  return app.readLimits?.read ?? [];
}

/** The export guard of the app (none on an app built without the rate-limit plugin). */
export function exportLimit(app: FastifyInstance): preHandlerAsyncHookHandler[] {
  return app.readLimits?.export ?? [];
}
