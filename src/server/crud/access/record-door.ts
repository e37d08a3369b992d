/**
 * The one access decision for a record asked for by its id, on every door that takes one: read
 * by id, history, restore to a version, the recycle bin's list, restore and purge, for generated
 * resources (history-routes.ts) and hand-written tables (table-history-routes.ts,
 * table-recycle-bin.ts) alike.
 *
 * A record is judged on its last known values: as stored, or, once deleted, as its last delete
 * revision recorded them. So a record deleted outside the caller's data scope stays outside it:
 * its history, its bin entry and its versions are not there for the caller. Whatever the reason
 * a record is not there for the caller (never existed, outside the scope, another applicant's,
 * deleted and outside the scope), the answer is the same 404 with the same message, so an id
 * tells nothing about records the caller may not see.
 */
import type { FastifyRequest } from 'fastify';
import { scopeField, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { inScope, requestScope } from '../../auth/data-scope.ts';
import { notFound, type ApiError } from '../../errors.ts';
import type { Database } from '../../types.ts';
import { deletedRecord, type StoredRevision } from '../history/history.ts';
import { callerOf } from './owner-access.ts';
import { RECORD_NOT_FOUND } from './scope.ts';

/** Whether the caller may see a record in this state (its values as stored or as deleted). */
export type MaySee = (state: Record<string, unknown>, id: number) => boolean;

/** A record's last known values and whether it is deleted (in the recycle bin or purged no longer). */
export interface LastKnown {
  state: Record<string, unknown>;
  deleted: boolean;
}

/** The answer for a record that is not there for the caller, whatever the reason. */
export function notThere(message = RECORD_NOT_FOUND): ApiError {
  return notFound(message);
}

/**
 * The caller's decision for records of a generated resource: an applicant sees the records
 * carrying their own id (on an applicant-owned resource, nothing on another), staff the records
 * whose scoped value lies inside their data scope (every record of a resource without `x-scope`).
 */
export async function resourceVisibility(database: Database, spec: ResourceSpec, request: FastifyRequest): Promise<MaySee> {
  const caller = callerOf(request);
  if (caller.kind === 'applicant') {
    const owner = spec.ownedByApplicant;
    return (state) => !!owner && Number(state[owner]) === caller.applicantId;
  }
  const field = scopeField(spec);
  if (!field) return () => true;
  const scope = await requestScope(database.db, request);
  if (scope.all) return () => true;
  return (state) => inScope(scope, field.scope!, state[field.name]);
}

/** The last known values of a record: as stored, else as its newest delete revision recorded them; undefined when it never was. */
export function lastKnown(
  spec: ResourceSpec,
  current: Record<string, unknown> | undefined,
  revisions: StoredRevision[],
): LastKnown | undefined {
  if (current) return { state: current, deleted: false };
  // revisions come newest first
  const deletion = revisions.find((r) => r.action === 'delete');
  return deletion ? { state: deletedRecord(spec, deletion), deleted: true } : undefined;
}

/** The record's last known values when the caller may see them; 404 数据不存在 otherwise, the same for every reason. */
export function guardRecord(known: LastKnown | undefined, id: number, may: MaySee): LastKnown {
  if (!known || !may(known.state, id)) throw notThere();
  return known;
}
