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
import { markReadCounted, markReadExempt, routeMarks } from './auth/route-catalogue.ts';
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

/** The caller the budget belongs to: the staff user, else the applicant, else the dealer, else the address. */
export function readerKey(request: FastifyRequest): string {
  if (request.user) return `user:${request.user.id}`;
  if (request.applicant) return `applicant:${request.applicant.staffunId}`;
  if (request.dealer) return `dealer:${request.dealer.compId}`;
  return `ip:${request.ip}`;
}

/** Builds both guards (once per app, in a fixed order: on PostgreSQL their counters are named by it). */
export function createReadLimits(app: FastifyInstance, limits: { reads: number; exports: number; windowMs: number }): ReadLimits {
  const guard = (max: number, message: string, kind: 'read' | 'export') =>
    app.rateLimit({
      max,
      timeWindow: limits.windowMs,
      keyGenerator: readerKey,
      errorResponseBuilder: () => {
        app.metrics?.readLimitRefused(kind);
        return new ApiError(429, message);
      },
      // on PostgreSQL counted in leases of the shared budget, not one upsert per read (db/leased-limits.ts)
      sharedLease: true,
      // no x-ratelimit-* headers on every read (three more headers per answer, read by nothing);
      // past the budget the answer still says when to come back (Retry-After)
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
      addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    } as Parameters<FastifyInstance['rateLimit']>[0]);
  // marked for the route catalogue: the generated test finds every read route that does not count
  return {
    read: [markReadCounted(alwaysRuns(guard(limits.reads, READ_LIMIT_MESSAGE, 'read')))],
    export: [markReadCounted(alwaysRuns(guard(limits.exports, EXPORT_LIMIT_MESSAGE, 'export')))],
  };
}

/** the request flag by which @fastify/rate-limit runs only the first of its limiters on a request */
const RAN_FLAG = 'fastify.request.rateLimitRan';
/** the flag per request prototype: each app registers the plugin anew, with a symbol of its own */
const ranFlags = new WeakMap<object, symbol | null>();
function findRanFlag(request: object): symbol | null {
  for (let o: object | null = request; o; o = Object.getPrototypeOf(o) as object | null) {
    const found = Object.getOwnPropertySymbols(o).find((s) => s.description === RAN_FLAG);
    if (found) return found;
  }
  return null;
}

/**
 * The budget guard even on a route with a per-address limit of its own (`config.rateLimit`, run
 * first, on request): the plugin marks a request once any of its limiters ran and skips the others,
 * which let such a route read without counting. The flag is found once per request prototype (each
 * app, e.g. the SQLite and the PostgreSQL one of a test, registers the plugin with its own symbol).
 */
function alwaysRuns(guard: preHandlerAsyncHookHandler): preHandlerAsyncHookHandler {
  return function (this: FastifyInstance, request, reply) {
    const proto = Object.getPrototypeOf(request) as object;
    let ranFlag = ranFlags.get(proto);
    if (ranFlag === undefined) ranFlags.set(proto, (ranFlag = findRanFlag(request)));
    if (ranFlag) (request as unknown as Record<symbol, unknown>)[ranFlag] = false;
    return guard.call(this, request, reply);
  };
}

/**
 * The GET routes of a signed-in caller that do not count against the read budget, each for a
 * reason (docs/read-limits.md): what every screen loads to work (the session, the sidebar, the
 * dictionaries and catalogue pickers, the caller's own notices), none of it a record of a person.
 * Every other GET route of a staff member, dealer or applicant counts, without its code saying so.
 */
export const READ_EXEMPT: Readonly<Record<string, string>> = {
  'GET /api/info': 'the session: who is signed in, their roles and keys',
  'GET /api/menus/build': "the sidebar of the caller's own menus",
  'GET /api/menuPage/menu': "the usage guide pages of the caller's menus",
  'GET /api/jobs/passwordReminder': "the caller's own password reminder",
  'GET /api/sysSocket/getNotRead': "the caller's own unread count, asked by every screen",
  'GET /api/dictDetail': 'dictionary labels every screen shows',
  'GET /api/busidict/list/:x': 'business dictionary options',
  'GET /api/busidict/options/:x': 'business dictionary options',
  'GET /api/busidict/optionsChilds/:x': 'business dictionary options',
  'GET /api/brandTree': 'brand and model pickers (catalogue data)',
  'GET /api/brandTree/getTreeByPid': 'brand and model pickers (catalogue data)',
  'GET /api/brandTree/getTree': 'brand and model pickers (catalogue data)',
  'GET /api/brandTree/getBrandTree': 'brand and model pickers (catalogue data)',
  'GET /api/brandTree/getItem': 'brand and model pickers (catalogue data)',
  'GET /api/brandTree/findTree': 'brand and model pickers (catalogue data)',
  'GET /api/system/deptRemark/getBrandTree': 'brand and model pickers (catalogue data)',
  'GET /comp/dbcCompany/auth/info': "the dealer's session",
  'GET /comp/dbcCompany/auth/logout': "ends the dealer's own session",
};

/**
 * Read limits by construction: every GET route a signed-in caller (staff, dealer, applicant)
 * calls gets the read guard after its own pre-handlers, unless it has a guard already (the
 * export guard, or the read guard placed by its code) or READ_EXEMPT names it (then it carries a
 * marker saying so). Added before the route catalogue's hook, so the catalogue sees the result.
 */
export function countReadsByConstruction(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    const marks = routeMarks(route);
    if (marks.readCounted || marks.readExempt || marks.identity === 'socket') return;
    if (!marks.authenticated && marks.identity !== 'dealer' && marks.identity !== 'applicant') return;
    const exempt = READ_EXEMPT[`GET ${route.url}`];
    const added = exempt ? [readExempt(exempt)] : readLimit(app);
    if (!added.length) return;
    const own = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [...own, ...added] as typeof route.preHandler;
  });
}

/** The read guard of the app (none on an app built without the rate-limit plugin, e.g. a test of one area). */
export function readLimit(app: FastifyInstance): preHandlerAsyncHookHandler[] {
  return app.readLimits?.read ?? [];
}

/**
 * Declares a read route exempt from the read budget, with the reason (docs/read-limits.md lists
 * the kinds): a pre-handler that does nothing but say so to the route catalogue, which the
 * generated test over every GET route reads.
 */
export function readExempt(reason: string): preHandlerAsyncHookHandler {
  const declared: preHandlerAsyncHookHandler = () => Promise.resolve();
  return markReadExempt(declared, reason);
}

/** The export guard of the app (none on an app built without the rate-limit plugin). */
export function exportLimit(app: FastifyInstance): preHandlerAsyncHookHandler[] {
  return app.readLimits?.export ?? [];
}
