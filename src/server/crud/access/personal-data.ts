/**
 * Personal data on the server: the properties a schema marks with `x-mask` (mobile, ID number,
 * bank card, e-mail, name, address, date of birth) leave the server masked to staff callers
 * without `<permission>:sensitive`, in lists, reads by id, queryAll and exports; the full value
 * never goes out to them. Holders of the key (and admin) get full values, and each such read is
 * marked on the request (`request.personalDataRead`) for the operation log to record (who,
 * which resource, which ids). An applicant reads their own records in full.
 *
 * An update from a caller without the key leaves the masked properties as they are stored:
 * what such a caller's form holds is the mask, which must never be written back.
 */
import type { FastifyRequest } from 'fastify';
import { mask } from '../../../shared/masks.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { fieldAccess, personalFields } from './field-access.ts';

export { personalFields, SENSITIVE_ACTION } from './field-access.ts';

export interface PersonalDataRead {
  resource: string;
  ids: number[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** set when the answer carries full personal data (the operation log records it) */
    personalDataRead?: PersonalDataRead;
  }
}

/** Whether the caller sees the resource's personal data in full (field-access.ts decides). */
export function seesPersonalData(request: FastifyRequest, spec: ResourceSpec): boolean {
  return fieldAccess(request, spec).full;
}

/** Masks the personal fields of records in place for a caller without the key; marks a full read otherwise. */
export function guardRecords<T extends Record<string, unknown>>(request: FastifyRequest, spec: ResourceSpec, records: T[]): T[] {
  const fields = personalFields(spec);
  if (!fields.length || !records.length) return records;
  const access = fieldAccess(request, spec);
  if (access.full) {
    if (request.user) {
      const ids = records.map((r) => Number(r.id)).filter((n) => Number.isFinite(n));
      request.personalDataRead = { resource: spec.name, ids: [...(request.personalDataRead?.ids ?? []), ...ids] };
    }
    return records;
  }
  for (const record of records) {
    for (const f of fields) {
      if (!access.masked.has(f.name)) continue;
      const v = record[f.name];
      if (v !== null && v !== undefined && v !== '') (record as Record<string, unknown>)[f.name] = mask(f.mask!, v);
    }
  }
  return records;
}

/** An update body without the personal fields, for a caller who only ever saw them masked. */
export function withoutMaskedFields(request: FastifyRequest, spec: ResourceSpec, body: Record<string, unknown>): Record<string, unknown> {
  const access = fieldAccess(request, spec);
  if (access.full) return body;
  const out = { ...body };
  for (const name of access.masked) delete out[name];
  return out;
}
