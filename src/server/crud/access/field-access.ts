/**
 * Field-level access, decided once and used by every query and every answer.
 *
 * For a caller and a resource the server knows which fields the caller reads in full and
 * which only masked (the `x-mask` properties, without `<permission>:sensitive`). A masked
 * field is closed to questions as well as answers: the list parser (query.ts) refuses a filter
 * or a sort on it with 403 naming the field and leaves it out of `blurry`, so nothing about the
 * stored values can be learned from a count, an order, an export or a total. Hand-written
 * look-ups ask the same object (`access.masked.has(name)`) before they search by a value.
 *
 * The answer depends only on the caller's permission set (cached per user by auth/access.ts)
 * and the resource, so it is computed once per permission set and resource, not per request.
 */
import type { FastifyRequest } from 'fastify';
import { permissionKey, type FieldSpec, type MaskKind, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { forbidden, type ApiError } from '../../errors.ts';

export const SENSITIVE_ACTION = 'sensitive';

export interface FieldAccess {
  /** every field in full */
  readonly full: boolean;
  /** names of the fields this caller sees only masked (empty when `full`) */
  readonly masked: ReadonlySet<string>;
}

export const FULL_ACCESS: FieldAccess = Object.freeze({ full: true, masked: new Set<string>() });

/** The kinds of personal data a dealer sees of its own customers and requests (it typed them in). */
const DEALER_VISIBLE: ReadonlySet<MaskKind> = new Set<MaskKind>(['phone', 'name']);

const personalBySpec = new WeakMap<ResourceSpec, FieldSpec[]>();

/** The properties of a resource that hold personal data (`x-mask`). */
export function personalFields(spec: ResourceSpec): FieldSpec[] {
  let out = personalBySpec.get(spec);
  if (!out) {
    out = spec.fields.filter((f) => f.mask);
    personalBySpec.set(spec, out);
  }
  return out;
}

function maskedAll(spec: ResourceSpec): FieldAccess {
  const names = personalFields(spec).map((f) => f.name);
  return { full: names.length === 0, masked: new Set(names) };
}

const byPermissions = new WeakMap<ReadonlySet<string>, Map<string, FieldAccess>>();
const noKeyAccess = new WeakMap<ResourceSpec, FieldAccess>();
const dealerAccessBySpec = new WeakMap<ResourceSpec, FieldAccess>();

/** Field access of a staff member holding these permission keys (admin: pass `admin`). */
export function staffFieldAccess(permissions: ReadonlySet<string>, admin: boolean, spec: ResourceSpec): FieldAccess {
  if (admin || personalFields(spec).length === 0) return FULL_ACCESS;
  let perSpec = byPermissions.get(permissions);
  if (!perSpec) {
    perSpec = new Map();
    byPermissions.set(permissions, perSpec);
  }
  let access = perSpec.get(spec.name);
  if (!access) {
    access = permissions.has(permissionKey(spec, SENSITIVE_ACTION)) ? FULL_ACCESS : maskedAll(spec);
    perSpec.set(spec.name, access);
  }
  return access;
}

/** What a dealer may see of its own records: mobiles and names it entered, never ID numbers or birthdays. */
export function dealerFieldAccess(spec: ResourceSpec): FieldAccess {
  let access = dealerAccessBySpec.get(spec);
  if (!access) {
    const names = personalFields(spec)
      .filter((f) => !DEALER_VISIBLE.has(f.mask!))
      .map((f) => f.name);
    access = names.length ? { full: false, masked: new Set(names) } : FULL_ACCESS;
    dealerAccessBySpec.set(spec, access);
  }
  return access;
}

/** The caller's access to a resource's fields: staff by key, an applicant to their own records in full. */
export function fieldAccess(request: FastifyRequest, spec: ResourceSpec): FieldAccess {
  if (personalFields(spec).length === 0) return FULL_ACCESS;
  if (request.applicant) return FULL_ACCESS; // their own records only (owner-access.ts)
  const user = request.user;
  if (user) return staffFieldAccess(user.permissions, user.isAdmin, spec);
  if (request.dealer) return dealerFieldAccess(spec);
  let access = noKeyAccess.get(spec);
  if (!access) {
    access = maskedAll(spec);
    noKeyAccess.set(spec, access);
  }
  return access;
}

/** The refusal of a question about a field the caller sees only masked. */
export function maskedFieldRefused(title: string): ApiError {
  return forbidden(`无权按「${title}」查询或排序：该字段为个人信息，需要查看完整个人信息的权限`);
}

/** 403 naming the field when the caller sees it only masked. */
export function assertQueryable(access: FieldAccess, field: Pick<FieldSpec, 'name' | 'title'>): void {
  if (access.masked.has(field.name)) throw maskedFieldRefused(field.title);
}
