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
 * successful create, update, delete or import (never on a refused one; an import gives no ids).
 */
import type { FastifyInstance } from 'fastify';

export interface BeforeWriteContext {
  app: FastifyInstance;
  mode: 'create' | 'update';
  record: Record<string, unknown>;
  /**
   * Shared by the rows of one import (absent for a single create or update): a rule may keep
   * here what it reads alike for every row (the department tree), so 100,000 rows read it once.
   */
  shared?: Map<string, unknown>;
}

export interface AfterWriteContext {
  app: FastifyInstance;
  mode: 'create' | 'update' | 'delete';
  ids: number[];
}

export interface RecordHooks {
  beforeWrite?: (ctx: BeforeWriteContext) => void | Promise<void>;
  afterWrite?: (ctx: AfterWriteContext) => void | Promise<void>;
}

const hooks = new Map<string, RecordHooks[]>();

/** Adds hooks for a resource; several modules may add theirs, run in the order added. */
export function setRecordHooks(resource: string, value: RecordHooks): void {
  const list = hooks.get(resource) ?? [];
  if (!list.includes(value)) list.push(value);
  hooks.set(resource, list);
}

/** The resource's hooks combined into one, or undefined when it has none. */
export function recordHooks(resource: string): RecordHooks | undefined {
  const list = hooks.get(resource);
  if (!list?.length) return undefined;
  const before = list.filter((h) => h.beforeWrite);
  const after = list.filter((h) => h.afterWrite);
  return {
    beforeWrite: before.length
      ? async (ctx) => {
          for (const h of before) await h.beforeWrite!(ctx);
        }
      : undefined,
    afterWrite: after.length
      ? async (ctx) => {
          for (const h of after) await h.afterWrite!(ctx);
        }
      : undefined,
  };
}
