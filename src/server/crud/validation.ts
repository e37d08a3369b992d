/**
 * Checks a create/update body (or an imported row) against the resource's JSON Schema with
 * ajv, answering the schema's own Chinese message (ajv-errors `errorMessage`) for the first
 * failing field in the order of the form.
 *
 * Before validation: auto fields (id, createTime, createUser...) are dropped, strings are
 * trimmed, and null or '' counts as "not given" (so a required field says 不能为空 and an
 * optional one is stored as NULL). Optional fields missing on create get their schema default.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import type { FieldSpec, ResourceSpec } from '../../shared/resource-spec.ts';
import { isDateText, isDateTimeText } from './values.ts';
import { addMoneyKeyword } from '../../shared/money-keyword.ts';
import { MONEY_LIMIT, MONEY_MESSAGE } from '../../shared/money.ts';

type AjvInstance = Ajv;
type AjvCtor = new (opts: Record<string, unknown>) => AjvInstance;

function makeAjv(): AjvInstance {
  // the packages are CommonJS; their default export is the function itself or under .default
  const AjvClass: AjvCtor = (Ajv as unknown as { default?: AjvCtor }).default ?? Ajv;
  const ajv = new AjvClass({ allErrors: true, strict: false, strictNumbers: true, messages: true });
  const formats = ((addFormats as unknown as { default?: unknown }).default ?? addFormats) as (a: AjvInstance) => void;
  const errors = ((ajvErrors as unknown as { default?: unknown }).default ?? ajvErrors) as (a: AjvInstance) => void;
  formats(ajv);
  errors(ajv);
  // dates travel as 'YYYY-MM-DD HH:mm:ss' and 'YYYY-MM-DD' (not RFC 3339) and must name real days
  ajv.addFormat('date-time', { type: 'string', validate: isDateTimeText });
  ajv.addFormat('date', { type: 'string', validate: isDateText });
  // money: at most two decimals (stored as integer cents)
  addMoneyKeyword(ajv);
  return ajv;
}

let sharedAjv: AjvInstance | undefined;
const compiled = new WeakMap<ResourceSpec, ValidateFunction>();

function validatorFor(spec: ResourceSpec): ValidateFunction {
  const known = compiled.get(spec);
  if (known) return known;
  sharedAjv ??= makeAjv();
  const { $id: _id, $schema: _schema, ...schema } = spec.schema;
  const v = sharedAjv.compile(schema);
  compiled.set(spec, v);
  return v;
}

export interface FieldError {
  /** the field the message is about (absent for a body-level problem) */
  field?: FieldSpec;
  message: string;
}

export type CheckResult = { ok: true; values: Record<string, unknown>; cleared: string[] } | { ok: false; error: FieldError };

export const BODY_NOT_OBJECT = '请求内容格式错误';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fallbackMessage(field: FieldSpec, error: ErrorObject): string {
  const known = field.messages[error.keyword];
  if (known) return known;
  // the length and range keywords' params (Ajv's LimitParams)
  const p = error.params as { limit: number };
  switch (error.keyword) {
    case 'required':
      return `${field.title}不能为空`;
    case 'maxLength':
      return `${field.title}长度不能超过${p.limit}个字符`;
    case 'minLength':
      return p.limit === 1 ? `${field.title}不能为空` : `${field.title}长度不能少于${p.limit}个字符`;
    case 'maximum':
      return `${field.title}不能大于${p.limit}`;
    case 'minimum':
      return `${field.title}不能小于${p.limit}`;
    case 'enum':
      return `${field.title}取值不正确`;
    case 'x-money':
      return MONEY_MESSAGE;
    default:
      return `${field.title}格式不正确`;
  }
}

/** The field an ajv error is about, and its message. */
function describe(spec: ResourceSpec, error: ErrorObject): FieldError {
  const source = error.keyword === 'errorMessage' ? ((error.params as { errors: ErrorObject[] }).errors[0] ?? error) : error;
  let name: string | undefined;
  if (source.keyword === 'required') name = (source.params as { missingProperty: string }).missingProperty;
  else if (source.instancePath) name = source.instancePath.split('/')[1];
  if (source.keyword === 'additionalProperties') {
    return { message: `不支持的字段: ${(source.params as { additionalProperty: string }).additionalProperty}` };
  }
  const field = name ? spec.fields.find((f) => f.name === name) : undefined;
  if (!field) return { message: BODY_NOT_OBJECT };
  const message = error.keyword === 'errorMessage' ? error.message! : fallbackMessage(field, source);
  return { field, message };
}

/** The first error in the order of the spec's fields; body-level errors (unknown fields) last. */
function firstError(spec: ResourceSpec, errors: ErrorObject[]): FieldError {
  const described = errors.map((e) => describe(spec, e));
  const rank = (d: FieldError) => (d.field ? spec.fields.indexOf(d.field) : spec.fields.length);
  return described.reduce((best, d) => (rank(d) < rank(best) ? d : best));
}

export type CheckMode = 'create' | 'update';

/** A spec's fields by name and the fields each step looks at, found once per spec (an import checks every row). */
interface FieldIndex {
  byName: Map<string, FieldSpec>;
  /** optional, writable fields with a schema default */
  defaults: FieldSpec[];
  /** fields whose values the checks after the schema look at (numbers and texts) */
  checked: FieldSpec[];
}
const indexes = new WeakMap<ResourceSpec, FieldIndex>();

function fieldIndex(spec: ResourceSpec): FieldIndex {
  let index = indexes.get(spec);
  if (!index) {
    const byName = new Map<string, FieldSpec>();
    for (const f of spec.fields) if (!byName.has(f.name)) byName.set(f.name, f);
    index = {
      byName,
      defaults: spec.fields.filter((f) => !f.required && !f.readOnly && f.default !== undefined),
      checked: spec.fields.filter((f) => f.type === 'integer' || f.type === 'number' || f.type === 'string'),
    };
    indexes.set(spec, index);
  }
  return index;
}

/**
 * Validates a body. On success `values` holds the fields to write (JSON names; no auto fields)
 * and `cleared` the optional fields sent empty (to store NULL on update). For an update, pass
 * the stored record: fields left out keep their stored values, and the merged record is what
 * is validated (a required field sent empty still fails).
 */
export function checkRecord(spec: ResourceSpec, input: unknown, mode: CheckMode, existing?: Record<string, unknown>): CheckResult {
  if (!isPlainObject(input)) return { ok: false, error: { message: BODY_NOT_OBJECT } };
  const values: Record<string, unknown> = {};
  const cleared: string[] = [];
  /** required fields sent empty: they stay missing even where the stored record has them */
  const emptied = new Set<string>();
  const index = fieldIndex(spec);
  for (const [key, raw] of Object.entries(input)) {
    const field = index.byName.get(key);
    // automatic and read-only fields are the server's own; a record sent back as read is fine
    if (field?.readOnly) continue;
    let value = raw;
    if (typeof value === 'string') value = value.trim();
    if (value === null || value === '') {
      if (field && !field.required) cleared.push(key);
      else emptied.add(key);
      continue;
    }
    values[key] = value;
  }
  if (mode === 'create') {
    for (const f of index.defaults) if (!(f.name in values)) values[f.name] = f.default;
  }
  // an update may send only the fields it changes: the record it leads to is what must be valid
  const whole: Record<string, unknown> = { ...values };
  if (mode === 'update' && existing) {
    for (const f of spec.fields) {
      const stored = existing[f.name];
      if (f.readOnly || f.name in whole || emptied.has(f.name) || cleared.includes(f.name)) continue;
      if (stored !== null && stored !== undefined && stored !== '') whole[f.name] = stored;
    }
  }
  const validate = validatorFor(spec);
  if (!validate(whole)) return { ok: false, error: firstError(spec, validate.errors ?? []) };
  for (const f of index.checked) {
    const v = values[f.name];
    // JSON allows integers beyond what a 64-bit column or a JS number holds exactly
    if (
      (f.type === 'integer' || f.type === 'number') &&
      typeof v === 'number' &&
      Math.abs(v) > (f.money ? MONEY_LIMIT : Number.MAX_SAFE_INTEGER)
    ) {
      return { ok: false, error: { field: f, message: `${f.title}数值过大` } };
    }
    // PostgreSQL cannot store NUL in text; no form produces it
    if (typeof v === 'string' && v.includes('\u0000')) {
      return { ok: false, error: { field: f, message: `${f.title}包含非法字符` } };
    }
  }
  return { ok: true, values, cleared: cleared.filter((k) => !(k in values)) };
}
