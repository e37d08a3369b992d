/**
 * Reads of roster entries for the hand-written calls, inside the caller's data scope: the
 * roster's `orgId` carries `x-scope: "org"`, so a user without 全部 sees and changes only the
 * entries of the companies (and departments) of their scope, as on the generic list.
 */
import type { Db } from '../../types.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { requestScope, scopeIds } from '../../auth/data-scope.ts';
import { OUT_OF_SCOPE, rowToRecord } from '../../crud/index.ts';
import { forbidden, notFound } from '../../errors.ts';
import { STAFF_MESSAGES } from './rules.ts';

export type Entry = Record<string, unknown> & { id: number };

/** 在职 / 离职 */
export const StaffStatus = { onStaff: 1, left: 0 } as const;

export function columnsOf(spec: ResourceSpec): string[] {
  return spec.fields.map((f) => `${spec.table}.${f.column}`);
}

/** The org ids the request may see (null = all). */
export async function allowedOrgIds(app: FastifyInstance, request: FastifyRequest): Promise<number[] | null> {
  return scopeIds(await requestScope(app.database.db, request), 'org');
}

/** 403 unless the company is inside the request's scope. */
export async function assertOrgInScope(app: FastifyInstance, request: FastifyRequest, orgId: unknown): Promise<void> {
  const ids = await allowedOrgIds(app, request);
  if (ids !== null && !ids.includes(Number(orgId))) throw forbidden(OUT_OF_SCOPE);
}

export async function entryById(db: Db, spec: ResourceSpec, id: number): Promise<Entry | undefined> {
  const row = await db.selectFrom(spec.table).select(columnsOf(spec)).where('id', '=', id).executeTakeFirst();
  return row ? (rowToRecord(spec, row) as Entry) : undefined;
}

/** The entry a read by id is about: exists and inside the scope, else 404 (one outside the scope is not there for the caller). */
export async function entryToRead(app: FastifyInstance, spec: ResourceSpec, request: FastifyRequest, id: number): Promise<Entry> {
  const entry = await entryById(app.database.db, spec, id);
  const ids = entry ? await allowedOrgIds(app, request) : null;
  if (!entry || (ids !== null && !ids.includes(Number(entry.orgId)))) throw notFound(STAFF_MESSAGES.notFound);
  return entry;
}

/** The entry a write is about: exists and inside the scope, else 404 (one outside the scope is not there for the caller). */
export async function entryToChange(app: FastifyInstance, spec: ResourceSpec, request: FastifyRequest, id: number): Promise<Entry> {
  return entryToRead(app, spec, request, id);
}
