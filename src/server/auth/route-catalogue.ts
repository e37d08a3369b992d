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
  /** the token kind the route takes instead of a staff one (dealer, applicant) or a socket route */
  identity?: RouteIdentity;
}

export type RouteIdentity = 'dealer' | 'applicant' | 'socket';

const PERMISSION = Symbol('permissionKey');
const PERMISSIONS = Symbol('permissionKeys');
const AUTHENTICATES = Symbol('authenticates');
const IDENTITY = Symbol('identity');

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
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      list.push({
        method,
        url: route.url,
        permission,
        ...(permissions ? { permissions } : {}),
        authenticated,
        ...(identity ? { identity } : {}),
      });
    }
  });
}

/** Every route recorded on `app` (empty when trackRoutes was not called). */
export function routeCatalogue(app: FastifyInstance): RouteEntry[] {
  return [...(catalogues.get(app) ?? [])];
}
