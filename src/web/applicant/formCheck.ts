/**
 * Checks of the applicant forms from the entity schemas (the same rules and Chinese messages
 * the server applies), plus the e-mail format and closed number lists the generic field
 * check leaves to the server.
 */
import { resourceByName } from '../../generated/resources.ts';
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import { isEmail } from '../../shared/validators.ts';
import { checkField } from '../common/validation.ts';
import { textOf } from '../common/text.ts';

export type Values = Record<string, unknown>;
export type Errors = Record<string, string>;

export function specOf(name: string): ResourceSpec {
  const spec = resourceByName[name];
  if (!spec) throw new Error(`no resource spec ${name}`);
  return spec;
}

function enumOf(spec: ResourceSpec, name: string): unknown[] | undefined {
  return ((spec.schema as { properties?: Record<string, { enum?: unknown[] }> }).properties ?? {})[name]?.enum;
}

/** The message for one field's value, or undefined. */
export function fieldProblem(spec: ResourceSpec, name: string, value: unknown): string | undefined {
  const field = spec.fields.find((f) => f.name === name);
  if (!field) return undefined;
  const text = typeof value === 'string' ? value.trim() : value;
  const problem = checkField(spec, field, text);
  if (problem) return problem;
  if (text === '' || text === undefined || text === null) return undefined;
  if (field.format === 'email' && !isEmail(textOf(text))) return field.messages.format ?? '邮箱格式错误';
  const allowed = enumOf(spec, name);
  if (allowed && (field.type === 'integer' || field.type === 'number') && !allowed.includes(Number(text))) {
    return field.messages.enum ?? field.messages.required ?? `${field.title}取值不正确`;
  }
  return undefined;
}

/** Errors of the named fields, in the given order. */
export function formProblems(spec: ResourceSpec, names: string[], values: Values): Errors {
  const errors: Errors = {};
  for (const name of names) {
    const problem = fieldProblem(spec, name, values[name]);
    if (problem) errors[name] = problem;
  }
  return errors;
}

/** The body to send: trimmed strings, numbers for number fields, empty values left out. */
export function toBody(spec: ResourceSpec, names: string[], values: Values): Values {
  const body: Values = {};
  for (const name of names) {
    const field = spec.fields.find((f) => f.name === name);
    let v = values[name];
    if (typeof v === 'string') v = v.trim();
    if (v === '' || v === undefined || v === null) continue;
    if (field && (field.type === 'integer' || field.type === 'number')) v = Number(v);
    body[name] = v;
  }
  return body;
}
