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
  /** a staff token is required */
  authenticated: boolean;
}

const PERMISSION = Symbol('permissionKey');
const AUTHENTICATES = Symbol('authenticates');

/** Marks a pre-handler as checking a permission key (it authenticates too). */
export function markPermission<T extends object>(handler: T, key: string): T {
  Object.assign(handler, { [PERMISSION]: key, [AUTHENTICATES]: true });
  return handler;
}

/** Marks a pre-handler as requiring a signed-in staff member. */
export function markAuthenticated<T extends object>(handler: T): T {
  Object.assign(handler, { [AUTHENTICATES]: true });
  return handler;
}

const catalogues = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Starts recording the routes registered on `app` from now on. */
export function trackRoutes(app: FastifyInstance): void {
  const list: RouteEntry[] = [];
  catalogues.set(app, list);
  app.addHook('onRoute', (route) => {
    const handlers = [route.preHandler, route.onRequest, route.preValidation].flat().filter(Boolean) as unknown as Array<Record<symbol, unknown>>;
    const permission = handlers.map((h) => h[PERMISSION]).find((k): k is string => typeof k === 'string');
    const authenticated = handlers.some((h) => h[AUTHENTICATES] === true);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      list.push({ method, url: route.url, permission, authenticated });
    }
  });
}

/** Every route recorded on `app` (empty when trackRoutes was not called). */
export function routeCatalogue(app: FastifyInstance): RouteEntry[] {
  return [...(catalogues.get(app) ?? [])];
}
