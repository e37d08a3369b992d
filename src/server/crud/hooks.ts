/**
 * Per-resource hooks for the generic routes, for rules a schema cannot express (a cron
 * expression that must parse, a name that must be registered...) and for work after a write
 * (reloading a scheduler). A hand-written module sets them once for its resource name:
 *
 *   setRecordHooks('dj', { beforeWrite: ({ record }) => { if (!ok(record)) throw badRequest('...') } });
 *
 * beforeWrite runs after the schema validation of a create or update, before anything is
 * written; `record` is the full record as it will be (for an update: the stored one with the
 * body's fields on top). Throwing an ApiError refuses the request. The hook may change the
 * values of the body's fields in `record` (sanitising HTML, trimming); those are written. afterWrite runs after a
 * successful create, update or delete (never on a refused one).
 */
import type { FastifyInstance } from 'fastify';

export interface BeforeWriteContext {
  app: FastifyInstance;
  mode: 'create' | 'update';
  record: Record<string, unknown>;
}

export interface AfterWriteContext {
  app: FastifyInstance;
  mode: 'create' | 'update' | 'delete';
  ids: number[];
}

export interface RecordHooks {
  beforeWrite?(ctx: BeforeWriteContext): void | Promise<void>;
  afterWrite?(ctx: AfterWriteContext): void | Promise<void>;
}

const hooks = new Map<string, RecordHooks>();

export function setRecordHooks(resource: string, value: RecordHooks): void {
  hooks.set(resource, value);
}

export function recordHooks(resource: string): RecordHooks | undefined {
  return hooks.get(resource);
}
