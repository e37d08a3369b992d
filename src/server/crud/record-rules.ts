/**
 * Rules across fields or records that a JSON Schema cannot say (dates in order, a referee phone
 * that is not the applicant's own...). A module adds them per entity; they run as the entity's
 * beforeWrite hook (hooks.ts) on the record as it would be stored (the stored row merged with
 * the update), and the first broken rule answers 400 with its message, writing nothing.
 */
import { badRequest } from '../errors.ts';
import type { Database } from '../types.ts';
import { setRecordHooks } from './hooks.ts';

export type RecordRule = (
  record: Record<string, unknown>,
  database: Database,
  /** shared by the rows of one import (BeforeWriteContext.shared) */
  shared?: Map<string, unknown>,
) => Promise<string | undefined> | string | undefined;

const added = new Map<string, Set<RecordRule>>();

export function addRecordRule(entity: string, rule: RecordRule): void {
  const seen = added.get(entity) ?? new Set<RecordRule>();
  if (seen.has(rule)) return;
  seen.add(rule);
  added.set(entity, seen);
  setRecordHooks(entity, {
    async beforeWrite({ app, record, shared }) {
      const message = await rule(record, app.database, shared);
      if (message) throw badRequest(message);
    },
  });
}
