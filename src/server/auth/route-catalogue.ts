/**
 * The catalogue of every route the app registers, with what it requires: nothing (public), a
 * signed-in staff member, or a permission key. Built from Fastify's onRoute hook, so a new
 * route is listed without anyone remembering to; the permission-matrix test walks it.
 * app.authenticate and app.requirePermission(key) mark their pre-handlers for this.
 */
import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
  /** the permission key its pre-handler checks */
  permission?: string;
  /** every key that opens it, when more than `permission` does (reads a picker elsewhere makes) */
  permissions?: string[];
  /** a staff token is required */
  authenticated: boolean;
  /** every key the route needs together (the route's `permission` is one of them) */
  allOf?: string[];
  /** the token kind the route takes instead of a staff one (dealer, applicant) or a socket route */
  identity?: RouteIdentity;
  /** the route counts against the caller's read budget (read-limits.ts) */
  readCounted: boolean;
  /** the route is declared exempt from the read budget, and why (read-limits.ts) */
  readExempt?: string;
  /** Fastify validates its query string by a schema (a refused query answers 400 before any pre-handler) */
  queryValidated?: boolean;
}

export type RouteIdentity = 'dealer' | 'applicant' | 'socket' | 'metrics';

const PERMISSION = Symbol('permissionKey');
const PERMISSIONS = Symbol('permissionKeys');
const AUTHENTICATES = Symbol('authenticates');
const IDENTITY = Symbol('identity');
const ALL_OF = Symbol('permissionKeysAllOf');
const READ_COUNTED = Symbol('readCounted');
const READ_EXEMPT = Symbol('readExempt');

/** Marks a pre-handler as checking that every one of the keys is held (it authenticates too). */
export function markAllPermissions<T extends object>(handler: T, keys: string[]): T {
  Object.assign(handler, { [PERMISSION]: keys[0], [AUTHENTICATES]: true, [ALL_OF]: keys });
  return handler;
}

/** Marks a pre-handler as counting the request against the caller's read or export budget. */
export function markReadCounted<T extends object>(handler: T): T {
  Object.assign(handler, { [READ_COUNTED]: true });
  return handler;
}

/** Marks a pre-handler as declaring its route exempt from the read budget, with the reason. */
export function markReadExempt<T extends object>(handler: T, reason: string): T {
  Object.assign(handler, { [READ_EXEMPT]: reason });
  return handler;
}

/** Marks a pre-handler as taking another identity than a staff token (a dealer's or applicant's token, a socket). */
export function markIdentity<T extends object>(handler: T, identity: RouteIdentity): T {
  Object.assign(handler, { [IDENTITY]: identity });
  return handler;
}

/** Marks a pre-handler as checking a permission key (it authenticates too). */
export function markPermission<T extends object>(handler: T, key: string, anyOf?: string[]): T {
  Object.assign(handler, { [PERMISSION]: key, [AUTHENTICATES]: true, ...(anyOf && anyOf.length > 1 ? { [PERMISSIONS]: anyOf } : {}) });
  return handler;
}

/** Marks a pre-handler as requiring a signed-in staff member. */
export function markAuthenticated<T extends object>(handler: T): T {
  Object.assign(handler, { [AUTHENTICATES]: true });
  return handler;
}

/** What a route's hooks say about its caller and its read budget (the catalogue and read-limits.ts read it). */
export function routeMarks(route: { preHandler?: unknown; onRequest?: unknown; preValidation?: unknown }): {
  authenticated: boolean;
  identity?: RouteIdentity;
  readCounted: boolean;
  readExempt?: string;
} {
  const handlers = [route.preHandler, route.onRequest, route.preValidation].flat().filter(Boolean) as unknown as Array<
    Record<symbol, unknown>
  >;
  return {
    authenticated: handlers.some((h) => h[AUTHENTICATES] === true),
    identity: handlers.map((h) => h[IDENTITY]).find((k): k is RouteIdentity => typeof k === 'string'),
    readCounted: handlers.some((h) => h[READ_COUNTED] === true),
    readExempt: handlers.map((h) => h[READ_EXEMPT]).find((k): k is string => typeof k === 'string'),
  };
}

const catalogues = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Starts recording the routes registered on `app` from now on (once: a second call changes nothing). */
export function trackRoutes(app: FastifyInstance): void {
  if (catalogues.has(app)) return;
  const list: RouteEntry[] = [];
  catalogues.set(app, list);
  app.addHook('onRoute', (route) => {
    const handlers = [route.preHandler, route.onRequest, route.preValidation].flat().filter(Boolean) as unknown as Array<
      Record<symbol, unknown>
    >;
    const permission = handlers.map((h) => h[PERMISSION]).find((k): k is string => typeof k === 'string');
    const permissions = handlers.map((h) => h[PERMISSIONS]).find((k): k is string[] => Array.isArray(k));
    const authenticated = handlers.some((h) => h[AUTHENTICATES] === true);
    const identity = handlers.map((h) => h[IDENTITY]).find((k): k is RouteIdentity => typeof k === 'string');
    const allOf = handlers.map((h) => h[ALL_OF]).find((k): k is string[] => Array.isArray(k));
    const readCounted = handlers.some((h) => h[READ_COUNTED] === true);
    const readExempt = handlers.map((h) => h[READ_EXEMPT]).find((k): k is string => typeof k === 'string');
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      list.push({
        method,
        url: route.url,
        permission,
        ...(permissions ? { permissions } : {}),
        authenticated,
        ...(allOf ? { allOf } : {}),
        ...(identity ? { identity } : {}),
        readCounted,
        ...(readExempt ? { readExempt } : {}),
        ...(route.schema?.querystring ? { queryValidated: true } : {}),
      });
    }
  });
}

/** Every route recorded on `app` (empty when trackRoutes was not called). */
export function routeCatalogue(app: FastifyInstance): RouteEntry[] {
  return [...(catalogues.get(app) ?? [])];
}
