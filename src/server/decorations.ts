/**
 * What the app decorates Fastify with (declaration merging). Kept apart from types.ts, which
 * every area imports, so that naming the session store, the hub and the long tasks here closes
 * no import cycle through auth/, crud/, db/ and realtime/.
 */
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { Config } from './config.ts';
import type { SessionStore } from './auth/sessions.ts';
import type { LongTasks } from './realtime/long-tasks.ts';
import type { Hub } from './realtime/hub.ts';
import type { Draining } from './draining.ts';
import type { Health } from './health.ts';
import type { Metrics } from './metrics/index.ts';
import type { ApplicantCaller, Database, SessionUser } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    /** staff sessions: look-up of a token, end of sessions (listeners are told) */
    sessions: SessionStore;
    /** websocket hub (realtime area): pushes to the sockets of every instance */
    hub: Hub;
    /** background imports and exports (realtime area) */
    longTasks: LongTasks;
    /** preHandler: a valid staff token is required (401 otherwise); sets request.user */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler: authenticate, then the permission key is required (403 otherwise); admin passes */
    requirePermission(key: string): preHandlerAsyncHookHandler;
    /** preHandler: authenticate, then any one of the keys is required (403 otherwise); admin passes */
    requireAnyPermission(keys: string[]): preHandlerAsyncHookHandler;
    /** preHandler: authenticate, then every one of the keys is required (403 otherwise); admin passes */
    requireAllPermissions(keys: string[]): preHandlerAsyncHookHandler;
    /** readiness: stopping() makes /api/health/ready answer 503 while the instance drains; ready() says whether it answers 200 */
    health: Health;
    /** Prometheus metrics (metrics/index.ts): counters the areas feed; no-ops when METRICS_TOKEN is unset */
    metrics: Metrics;
    /** a stopping instance: requests in flight, and their answer when the grace period ends */
    draining: Draining;
    /**
     * The applicant of a request's bearer token when it is an applicant token (the applicant
     * area decorates it): null for any other token or none; 401 for an applicant token that
     * is unknown, expired or ended.
     */
    resolveApplicant?: (request: FastifyRequest) => Promise<ApplicantCaller | null>;
  }
  interface FastifyRequest {
    user?: SessionUser;
    /** set when the request carries a valid applicant token */
    applicant?: ApplicantCaller;
  }
}
