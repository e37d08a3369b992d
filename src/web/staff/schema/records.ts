/** Field values <-> choices and request bodies for generated screens. */
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { textOf } from '../../common/text.ts';

export interface Choice {
  id: string;
  name: string;
}

export function choicesOf(field: FieldSpec): Choice[] {
  return (field.options ?? []).map((o) => ({ id: String(o.value), name: o.label }));
}

/** A choice id (always a string in inputs) back to the field's JSON type. */
export function fromChoice(field: FieldSpec, value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return value;
  if (field.type === 'boolean') return value === true || value === 'true';
  if ((field.type === 'integer' || field.type === 'number') && typeof value === 'string') {
    const n = Number(value);
    return Number.isNaN(n) ? value : n;
  }
  return value;
}

/** A stored value as the select or radio shows it: its text, or '' (nothing chosen) when empty. */
export function toChoice(value: unknown): string {
  return value === null || value === undefined ? '' : textOf(value);
}

/** Fields a client may send (no auto or read-only fields). */
export function writableFields(spec: ResourceSpec): FieldSpec[] {
  return spec.fields.filter((f) => !f.auto && !f.readOnly);
}

function blank(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/**
 * Request body from form values. Creating: empty values are left out. Updating: a cleared
 * text field is sent as '' so the server clears it; other empty values are left out.
 */
export function requestBody(
  spec: ResourceSpec,
  values: Record<string, unknown>,
  previous?: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of writableFields(spec)) {
    if (!(field.name in values)) continue;
    const value = values[field.name];
    if (blank(value)) {
      if (previous && field.type === 'string' && !field.format && !blank(previous[field.name])) body[field.name] = '';
      continue;
    }
    body[field.name] = field.options || field.type !== 'string' ? fromChoice(field, value) : value;
  }
  if (previous && previous.id !== undefined) body.id = previous.id;
  return body;
}

/** Create defaults: each form field's default value. */
export function defaultValues(spec: ResourceSpec): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of spec.fields) if (field.form && field.default !== undefined) values[field.name] = field.default;
  return values;
}
