/**
 * Rules across fields or records that a JSON Schema cannot say (dates in order, a referee phone
 * that is not the applicant's own...). A module adds them per entity; the generic create and
 * update routes run them on the record as it would be stored (the stored row merged with the
 * update) and answer 400 with the rule's message, writing nothing.
 */
import type { Database } from '../types.ts';

export type RecordRule = (record: Record<string, unknown>, database: Database) => Promise<string | undefined> | string | undefined;

const rules = new Map<string, RecordRule[]>();

export function addRecordRule(entity: string, rule: RecordRule): void {
  const list = rules.get(entity) ?? [];
  if (!list.includes(rule)) list.push(rule);
  rules.set(entity, list);
}

/** The first failing rule's message, or undefined. */
export async function checkRecordRules(entity: string, record: Record<string, unknown>, database: Database): Promise<string | undefined> {
  for (const rule of rules.get(entity) ?? []) {
    const message = await rule(record, database);
    if (message) return message;
  }
  return undefined;
}

export function hasRecordRules(entity: string): boolean {
  return (rules.get(entity)?.length ?? 0) > 0;
}
