/**
 * Access to the routes of a resource: staff by permission key, and for a resource owned by
 * applicants (x-entity.ownedByApplicant) also the applicant's own token, scoped to the records
 * carrying the applicant's id.
 *
 * The applicant token is a token kind of its own, recognised by `app.resolveApplicant` (the
 * applicant area decorates it): a staff token is never an applicant token and the other way
 * round, so each is refused where only the other is accepted.
 */
import { markAuthenticated, markPermission } from '../../auth/route-catalogue.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { permissionKey, type ReadAccess, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { forbidden } from '../../errors.ts';
import type { Database } from '../../types.ts';
import { plainText } from '../../../shared/text.ts';

export const OTHER_APPLICANT = '无权访问其他应聘人员的信息';

/** Who is calling: an applicant (with their id) or staff (checked by key). */
export type Caller = { kind: 'applicant'; applicantId: number } | { kind: 'staff' };

export function callerOf(request: FastifyRequest): Caller {
  const a = request.applicant;
  return a ? { kind: 'applicant', applicantId: a.staffunId } : { kind: 'staff' };
}

/**
 * preHandler for an action (`list`, `add`, `edit`, `del`, ...): an applicant token on an
 * applicant-owned resource for list/add/edit/del, else staff with the key. Reading (`list`)
 * takes the resource's read access (readAccess: its `:list` key, the keys of the screens that
 * pick its records, or any signed-in member when the schema says `"read": ["signedIn"]`).
 */
export function accessFor(app: FastifyInstance, spec: ResourceSpec, action: string, read?: ReadAccess) {
  const applicantMay = !!spec.ownedByApplicant && ['list', 'add', 'edit', 'del'].includes(action);
  const openRead = action === 'list' && !!read?.signedIn;
  const staff = openRead
    ? app.authenticate
    : action === 'list' && read
      ? app.requireAnyPermission(read.keys)
      : app.requirePermission(permissionKey(spec, action));
  const check = async function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (applicantMay && app.resolveApplicant) {
      const applicant = await app.resolveApplicant(request);
      if (applicant) {
        request.applicant = applicant;
        return;
      }
    }
    await staff.call(this, request, reply);
  };
  // for staff, the route asks what `staff` asks (the route catalogue reads it)
  if (openRead) return markAuthenticated(check);
  return action === 'list' && read ? markPermission(check, read.keys[0], read.keys) : markPermission(check, permissionKey(spec, action));
}

/** The list query an applicant may run: the owner filter is theirs (a different one is refused). */
export function scopeListQuery(spec: ResourceSpec, caller: Caller, query: Record<string, unknown>): Record<string, unknown> {
  if (caller.kind !== 'applicant' || !spec.ownedByApplicant) return query;
  const key = spec.ownedByApplicant;
  const given = query[key];
  const values = given === undefined ? [] : Array.isArray(given) ? given : [given];
  if (values.some((v) => String(v) !== String(caller.applicantId))) throw forbidden(OTHER_APPLICANT);
  return { ...query, [key]: String(caller.applicantId) };
}

/** A body's owner value for an applicant: theirs when left out (the record is theirs: checked before), refused when another's. */
export function scopeBody(spec: ResourceSpec, caller: Caller, body: unknown): unknown {
  if (caller.kind !== 'applicant' || !spec.ownedByApplicant) return body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const key = spec.ownedByApplicant;
  const given = (body as Record<string, unknown>)[key];
  if (given !== undefined && given !== null && given !== '' && plainText(given) !== String(caller.applicantId))
    throw forbidden(OTHER_APPLICANT);
  return { ...body, [key]: caller.applicantId };
}

/** Whether every id is a record of this applicant (staff: always). */
export async function ownsAll(database: Database, spec: ResourceSpec, caller: Caller, ids: number[]): Promise<boolean> {
  if (caller.kind !== 'applicant' || !spec.ownedByApplicant) return true;
  const owner = spec.fields.find((f) => f.name === spec.ownedByApplicant)!;
  const idCol = spec.fields.find((f) => f.auto === 'id')!.column;
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const row = await database.db
      .selectFrom(spec.table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where(idCol, 'in', part)
      .where(owner.column, '=', caller.applicantId)
      .executeTakeFirst();
    if (Number(row?.n ?? 0) !== part.length) return false;
  }
  return true;
}
