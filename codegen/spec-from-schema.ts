/**
 * Turns one entity JSON Schema (draft 2020-12 + our `x-` keywords) into a ResourceSpec.
 * Order of the checks: our `x-` keywords are known and in their place; the schema is valid
 * JSON Schema for ajv (strict); then the meaning of every `x-` keyword and message. Every
 * problem is reported as a SchemaError naming the file and the JSON path.
 */
import type {
  AutoKind,
  FieldSpec,
  FieldType,
  FilterKind,
  InputKind,
  MaskKind,
  ScopeKind,
  Option,
  PersonalProcessing,
  ResourceSpec,
  Retention,
} from '../src/shared/resource-spec.ts';
import { PERMISSION_ACTIONS, snakeCase } from '../src/shared/resource-spec.ts';
import { ENTITY_KEYWORDS, PROPERTY_KEYWORDS } from '../src/shared/schema-ajv.ts';
import { checkSchemaShape, compileOrThrow, compileSchema } from './ajv-check.ts';
import { SchemaError } from './schema-error.ts';
import { OCR_ANSWERS, OCR_CALL_NAMES, type OcrCall } from '../src/shared/ocr.ts';

export { SchemaError, ENTITY_KEYWORDS, PROPERTY_KEYWORDS };

const ENTITY_FIELDS = [
  'name',
  'table',
  'path',
  'permission',
  'title',
  'sort',
  'pageSize',
  'dialogWidth',
  'search',
  'actions',
  'enabledToggle',
  'queryAll',
  'total',
  'ownedByApplicant',
  'read',
  'indexes',
  'renamedFrom',
];

export const FIELD_TYPES: FieldType[] = ['integer', 'number', 'string', 'boolean'];
export const FILTERS: FilterKind[] = ['eq', 'like', 'between', 'in'];
export const INPUTS: InputKind[] = [
  'text',
  'textarea',
  'number',
  'select',
  'radio',
  'switch',
  'date',
  'datetime',
  'cascader',
  'region',
  'upload',
  'hidden',
];
export const AUTOS: AutoKind[] = ['id', 'createTime', 'updateTime', 'createUser', 'updateUser'];
export const MASKS: MaskKind[] = ['phone', 'name', 'id', 'email', 'bankCard', 'address', 'date'];
export const SCOPES: ScopeKind[] = ['dept', 'org'];
/** `x-scope: "none"`: the property looks like an organisation or department but is not one of ours (a $comment says why) */
export const NO_SCOPE = 'none';
export const PAGE_SIZES = [10, 15, 30, 45, 60, 100];
export const DIALOG_WIDTHS = [475, 500, 700, 1000, 1300];
export const FORMATS = ['date', 'date-time', 'email', 'uri'];
const IDENT = /^[a-zA-Z][a-zA-Z0-9_]*$/;
/** Query parameters of every list; a property with one of these names cannot be a filter. */
export const RESERVED_QUERY = ['page', 'size', 'sort', 'blurry'];
const HANZI = /[\u4e00-\u9fff]/;
/** Keywords of a property that are not validation keywords (no errorMessage can target them). */
const NOT_VALIDATING = new Set([
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  '$comment',
  'errorMessage',
]);

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every `x-` key anywhere in the schema must be one we know, at the place we know it. */
function checkUnknownKeywords(file: string, node: unknown, path: string, where: 'root' | 'property' | 'other'): void {
  if (Array.isArray(node)) {
    node.forEach((v, i) => checkUnknownKeywords(file, v, `${path}/${i}`, 'other'));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const here = `${path}/${key}`;
    if (key.startsWith('x-')) {
      const allowed: readonly string[] = where === 'root' ? ENTITY_KEYWORDS : where === 'property' ? PROPERTY_KEYWORDS : [];
      if (!allowed.includes(key)) {
        const atRoot = (ENTITY_KEYWORDS as readonly string[]).includes(key);
        const elsewhere =
          atRoot && (PROPERTY_KEYWORDS as readonly string[]).includes(key)
            ? ` (it belongs at the root of the schema or on a property: /properties/<name>/${key})`
            : atRoot
              ? ' (x-entity belongs at the root of the schema)'
              : (PROPERTY_KEYWORDS as readonly string[]).includes(key)
                ? ' (it belongs on a property: /properties/<name>/' + key + ')'
                : '';
        throw new SchemaError(
          file,
          here,
          `unknown keyword "${key}" here${elsewhere}; known here: ${allowed.join(', ') || 'none'} (see schemas/README.md)`,
        );
      }
      continue; // x- values are checked by their own rules below
    }
    if (key === 'properties' && isObject(value) && where === 'root') {
      for (const [prop, sub] of Object.entries(value)) {
        checkUnknownKeywords(file, sub, `${here}/${prop}`, 'property');
      }
      continue;
    }
    if (key === 'enum' || key === 'default' || key === 'const' || key === 'examples' || key === 'errorMessage') continue;
    checkUnknownKeywords(file, value, here, 'other');
  }
}

function need<T>(file: string, path: string, ok: boolean, problem: string, value: T): T {
  if (!ok) throw new SchemaError(file, path, problem);
  return value;
}

function valueFitsType(type: FieldType, v: unknown): boolean {
  switch (type) {
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'string':
      return typeof v === 'string';
  }
}

function parseOptions(file: string, path: string, raw: unknown, type: FieldType): Option[] {
  need(file, path, Array.isArray(raw) && raw.length > 0, 'must be a non-empty array of {value, label}', null);
  const seen = new Set<string>();
  return (raw as unknown[]).map((o, i) => {
    const p = `${path}/${i}`;
    need(file, p, isObject(o), 'must be an object {value, label}', null);
    for (const k of Object.keys(o as Json))
      need(file, `${p}/${k}`, k === 'value' || k === 'label', 'unknown key (an option is {value, label})', null);
    const { value, label } = o as Json;
    need(file, `${p}/value`, valueFitsType(type, value), `must be a ${type} like the property ("type": "${type}")`, null);
    need(file, `${p}/value`, !seen.has(JSON.stringify(value)), `value ${JSON.stringify(value)} is listed twice`, null);
    seen.add(JSON.stringify(value));
    need(file, `${p}/label`, typeof label === 'string' && label.length > 0, 'must be a non-empty string', null);
    return { value: value as Option['value'], label: label as string };
  });
}

function defaultInput(type: FieldType, format: string | undefined, hasOptions: boolean): InputKind {
  if (hasOptions) return 'select';
  if (type === 'boolean') return 'switch';
  if (type === 'integer' || type === 'number') return 'number';
  if (format === 'date') return 'date';
  if (format === 'date-time') return 'datetime';
  return 'text';
}

/** Which property types and formats each input can edit. */
function inputFits(input: InputKind, type: FieldType, format: string | undefined, hasChoices: boolean): string | undefined {
  switch (input) {
    case 'switch':
      return type === 'boolean' ? undefined : 'needs a boolean property';
    case 'number':
      return type === 'integer' || type === 'number' ? undefined : 'needs an integer or number property';
    case 'date':
      return type === 'string' && format === 'date' ? undefined : 'needs a string property with "format": "date"';
    case 'datetime':
      return type === 'string' && format === 'date-time' ? undefined : 'needs a string property with "format": "date-time"';
    case 'select':
    case 'radio':
      return hasChoices ? undefined : 'needs choices: x-options, x-dict or x-ref';
    case 'textarea':
    case 'upload':
      return type === 'string' ? undefined : 'needs a string property';
    case 'text':
      return type !== 'boolean' ? undefined : 'cannot edit a boolean (use switch or radio)';
    case 'cascader':
    case 'region':
      return type === 'string' || type === 'integer' ? undefined : 'needs a string or integer property';
    case 'hidden':
      return undefined;
  }
}

/** Which property types each list filter can query. */
function filterFits(filter: FilterKind, type: FieldType, format: string | undefined): string | undefined {
  const isDate = format === 'date' || format === 'date-time';
  switch (filter) {
    case 'like':
      return type === 'string' && !isDate ? undefined : '"like" (text search) needs a string property that is not a date';
    case 'between':
      return type === 'integer' || type === 'number' || isDate
        ? undefined
        : '"between" needs an integer, a number or a date / date-time string';
    case 'in':
      return type !== 'boolean' ? undefined : '"in" does not apply to a boolean (use "eq")';
    case 'eq':
      return undefined;
  }
}

const UNIQUE_TYPES = 'integer, number or string';
/** The longest texts a unique rule may cover in all: its index holds the whole values (PostgreSQL's btree takes about 2,700 bytes per entry, 4 per character at worst). */
export const UNIQUE_MAX_CHARS = 600;

/** Why a property cannot take part in a unique rule, or undefined when it can. */
function uniqueMisfit(f: { type: FieldType; format?: string; maxLength?: number; auto?: AutoKind; mask?: unknown }): string | undefined {
  // a 409 for a taken value would answer whether a guessed value is stored, to a caller who sees it masked
  if (f.mask) return 'a masked (x-mask) property cannot be unique: its 409 would tell a guessed value from a wrong one';
  if (f.type === 'boolean') return `a boolean has two values: it cannot be unique (${UNIQUE_TYPES})`;
  if (f.auto === 'id') return 'the id is unique already';
  if (f.auto) return `x-auto "${f.auto}" is set by the server, not by a person, and cannot be unique`;
  if (
    f.type === 'string' &&
    f.format !== 'date' &&
    f.format !== 'date-time' &&
    (f.maxLength === undefined || f.maxLength > UNIQUE_MAX_CHARS)
  )
    return `a unique string needs a maxLength of at most ${UNIQUE_MAX_CHARS} (its index holds the whole value)`;
  return undefined;
}

/** The length a property's values take in a unique index, in characters. */
const indexedChars = (f: FieldSpec) => (f.type === 'string' && !f.format ? (f.maxLength ?? Infinity) : 0);

/**
 * `x-unique` at the root: one rule `["brand", "model"]`, or several `[["a", "b"], ["c", "d"]]`, each
 * 2-4 different properties that can be unique, their texts at most UNIQUE_MAX_CHARS in all.
 */
function parseUniqueRules(file: string, raw: unknown, fields: FieldSpec[]): string[][] | undefined {
  if (raw === undefined) return undefined;
  const shape = 'must list the properties whose combination is unique, ["brand", "model"], or several such lists';
  need(file, '/x-unique', Array.isArray(raw) && raw.length > 0, shape, null);
  const list = raw as unknown[];
  const one = list.every((x) => typeof x === 'string');
  need(file, '/x-unique', one || list.every((x) => Array.isArray(x)), shape, null);
  const rules = (one ? [list] : list) as unknown[][];
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const at = one ? '/x-unique' : `/x-unique/${i}`;
    need(
      file,
      at,
      rule.length >= 2 && rule.length <= 4 && rule.every((n) => typeof n === 'string') && new Set(rule).size === rule.length,
      'must list 2 to 4 different properties (a rule on one property is "x-unique": true on it)',
      null,
    );
    const members = (rule as string[]).map((n, j) => {
      const f = fields.find((x) => x.name === n);
      need(file, `${at}/${j}`, !!f, `"${n}" is not a property`, null);
      const misfit = uniqueMisfit(f!);
      if (misfit) throw new SchemaError(file, `${at}/${j}`, misfit);
      return f!;
    });
    const chars = members.reduce((n, f) => n + indexedChars(f), 0);
    need(file, at, chars <= UNIQUE_MAX_CHARS, `its texts take up to ${chars} characters; at most ${UNIQUE_MAX_CHARS} in all`, null);
    const key = [...(rule as string[])].sort().join(',');
    need(file, at, !seen.has(key), 'is listed twice', null);
    seen.add(key);
  });
  return rules as string[][];
}

/** Keywords whose value is a limit a message may quote (标题长度不能超过100个字符). */
const LIMIT_KEYWORDS = new Set([
  'maxLength',
  'minLength',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'maxItems',
  'minItems',
]);

/**
 * A message written for a limit keyword that quotes a number must quote the limit in force: after
 * maxLength went from 100 to 5, "标题长度不能超过100个字符" would tell users a limit that no longer
 * holds. A message without a number (问题描述不能为空) is left alone.
 */
function checkLimitInMessage(file: string, path: string, keyword: string, limit: unknown, message: string): void {
  if (!LIMIT_KEYWORDS.has(keyword) || typeof limit !== 'number') return;
  const numbers = (message.match(/(?<!\d)-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  if (!numbers.length || numbers.includes(limit)) return;
  throw new SchemaError(
    file,
    path,
    `the message names ${numbers.join(', ')} but ${keyword} is ${limit}: write the limit in force (or leave the message out: the derived one names the limit)`,
  );
}

/** Checks `errorMessage` of a property: an object keyword -> Chinese message, for keywords the property has. */
function parseMessages(file: string, path: string, p: Json): Record<string, string> {
  const messages: Record<string, string> = {};
  if (p.errorMessage === undefined) return messages;
  const em = p.errorMessage;
  need(
    file,
    `${path}/errorMessage`,
    isObject(em),
    'must be an object: keyword -> Chinese message, e.g. {"maxLength": "标题长度不能超过100个字符"}',
    null,
  );
  for (const [k, v] of Object.entries(em as Json)) {
    const here = `${path}/errorMessage/${k}`;
    if (k === 'required') {
      throw new SchemaError(
        file,
        here,
        'a required message belongs at the root: "errorMessage": {"required": {"<property>": "...不能为空"}}',
      );
    }
    need(
      file,
      here,
      k in p && !k.startsWith('x-') && !NOT_VALIDATING.has(k),
      `the property has no "${k}" keyword for this message to apply to`,
      null,
    );
    need(file, here, typeof v === 'string' && HANZI.test(v), 'must be a Chinese message (a string with Chinese characters)', null);
    checkLimitInMessage(file, here, k, p[k], v as string);
    messages[k] = v as string;
  }
  return messages;
}

/** A property as the body schema sees it: our keywords, titles and defaults removed. */
function validationSchema(p: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(p)) {
    // x-money validates (at most two decimals); the other x- keywords say how to store and show
    if ((k.startsWith('x-') && k !== 'x-money') || k === 'title' || k === 'default') continue;
    out[k] = v;
  }
  return out;
}

function parseField(file: string, name: string, raw: unknown, required: boolean, requiredMessage?: string): FieldSpec {
  const path = `/properties/${name}`;
  need(file, path, IDENT.test(name), 'property names must be identifiers (letters, digits, _)', null);
  need(file, path, isObject(raw), 'must be an object', null);
  const p = raw as Json;
  const type = p.type as FieldType;
  if (p['x-unique'] !== undefined) {
    need(
      file,
      `${path}/x-unique`,
      p['x-unique'] === true,
      'must be true (or left out); a rule over several properties is "x-unique": ["a", "b"] at the root',
      null,
    );
    need(
      file,
      `${path}/x-unique`,
      FIELD_TYPES.includes(type),
      `a unique property must hold one scalar value (${UNIQUE_TYPES}), not ${JSON.stringify(p.type ?? null)}`,
      null,
    );
  }
  need(file, `${path}/type`, FIELD_TYPES.includes(type), `must be one of ${FIELD_TYPES.join(', ')}`, null);
  const title = need(
    file,
    `${path}/title`,
    typeof p.title === 'string' && p.title !== '',
    'a Chinese title is required',
    p.title as string,
  );
  const format = p.format as string | undefined;
  if (format !== undefined) {
    need(
      file,
      `${path}/format`,
      type === 'string' && FORMATS.includes(format),
      `format must be one of ${FORMATS.join(', ')} on a string`,
      null,
    );
  }
  if (Array.isArray(p.enum)) {
    p.enum.forEach((v, i) => need(file, `${path}/enum/${i}`, valueFitsType(type, v), `must be a ${type} like the property`, null));
  }
  const options = p['x-options'] !== undefined ? parseOptions(file, `${path}/x-options`, p['x-options'], type) : undefined;
  if (options && Array.isArray(p.enum)) {
    const fromEnum = new Set(p.enum.map((v) => JSON.stringify(v)));
    const fromOptions = new Set(options.map((o) => JSON.stringify(o.value)));
    const missing = [...fromEnum].filter((v) => !fromOptions.has(v));
    const extra = [...fromOptions].filter((v) => !fromEnum.has(v));
    need(
      file,
      `${path}/x-options`,
      missing.length === 0 && extra.length === 0,
      `x-options and enum must list the same values${missing.length ? `; missing from x-options: ${missing.join(', ')}` : ''}${extra.length ? `; not in enum: ${extra.join(', ')}` : ''}`,
      null,
    );
  }
  if (p['x-dict'] !== undefined)
    need(file, `${path}/x-dict`, typeof p['x-dict'] === 'string' && p['x-dict'] !== '', 'must be a dictionary name', null);
  let ref: FieldSpec['ref'];
  if (p['x-ref'] !== undefined) {
    const r = p['x-ref'];
    need(
      file,
      `${path}/x-ref`,
      isObject(r) && typeof r.resource === 'string' && typeof r.path === 'string' && typeof r.label === 'string',
      'must be {resource, path, label}',
      null,
    );
    for (const k of Object.keys(r as Json))
      need(
        file,
        `${path}/x-ref/${k}`,
        ['resource', 'path', 'label', 'onDelete'].includes(k),
        'unknown key (x-ref is {resource, path, label, onDelete?})',
        null,
      );
    const onDelete = (r as Json).onDelete;
    if (onDelete !== undefined)
      need(file, `${path}/x-ref/onDelete`, onDelete === 'cascade' || onDelete === 'restrict', 'must be "cascade" or "restrict"', null);
    need(
      file,
      `${path}/x-ref/path`,
      /^[a-zA-Z][a-zA-Z0-9_/]*[a-zA-Z0-9]$/.test((r as Json).path as string),
      'must look like api/name (no leading slash)',
      null,
    );
    need(
      file,
      `${path}/x-ref`,
      type === 'integer' || type === 'string',
      'x-ref needs an integer or string property (the referenced id)',
      null,
    );
    ref = r as FieldSpec['ref'];
  }
  const hasChoices = !!options || p['x-dict'] !== undefined || !!ref;
  const rawInput = p['x-input'];
  if (rawInput !== undefined)
    need(file, `${path}/x-input`, INPUTS.includes(rawInput as InputKind), `must be one of ${INPUTS.join(', ')}`, null);
  const input = (rawInput as InputKind | undefined) ?? defaultInput(type, format, !!options);
  const misfit = inputFits(input, type, format, hasChoices);
  if (misfit) throw new SchemaError(file, rawInput !== undefined ? `${path}/x-input` : path, `input "${input}" ${misfit}`);

  const auto = p['x-auto'] as AutoKind | undefined;
  if (auto !== undefined) {
    need(file, `${path}/x-auto`, AUTOS.includes(auto), `must be one of ${AUTOS.join(', ')}`, null);
    if (auto === 'id')
      need(file, `${path}/x-auto`, name === 'id' && type === 'integer', 'x-auto "id" belongs to an integer property named id', null);
    if (auto === 'createTime' || auto === 'updateTime')
      need(
        file,
        `${path}/x-auto`,
        type === 'string' && format === 'date-time',
        `x-auto "${auto}" needs a string property with "format": "date-time"`,
        null,
      );
    if (auto === 'createUser' || auto === 'updateUser')
      need(file, `${path}/x-auto`, type === 'string', `x-auto "${auto}" needs a string property (the user name)`, null);
    need(file, `${path}/x-auto`, !required, 'an automatic field is set by the server and cannot be in "required"', null);
  }
  if (p['x-unique'] === true) {
    const misfitUnique = uniqueMisfit({ type, format, maxLength: p.maxLength as number | undefined, auto, mask: p['x-mask'] });
    if (misfitUnique) throw new SchemaError(file, `${path}/x-unique`, misfitUnique);
  }
  if (p.readOnly !== undefined) {
    need(file, `${path}/readOnly`, typeof p.readOnly === 'boolean', 'must be true or false', null);
    need(
      file,
      `${path}/readOnly`,
      !(p.readOnly && required),
      'a read-only field is written by the server\'s own calls and cannot be in "required"',
      null,
    );
  }
  const filter = p['x-filter'] as FilterKind | undefined;
  if (filter !== undefined) {
    need(file, `${path}/x-filter`, FILTERS.includes(filter), `must be one of ${FILTERS.join(', ')}`, null);
    need(
      file,
      `${path}/x-filter`,
      !RESERVED_QUERY.includes(name),
      `"${name}" is a list query parameter of its own (${RESERVED_QUERY.join(', ')}); it cannot be a filter`,
      null,
    );
    const bad = filterFits(filter, type, format);
    if (bad) throw new SchemaError(file, `${path}/x-filter`, `${bad}; this property is ${type}${format ? ` (${format})` : ''}`);
  }
  const mask = p['x-mask'] as MaskKind | undefined;
  if (mask !== undefined) {
    need(file, `${path}/x-mask`, MASKS.includes(mask), `must be one of ${MASKS.join(', ')}`, null);
    need(file, `${path}/x-mask`, type === 'string', 'a mask needs a string property', null);
  }
  const pinyin = p['x-pinyin'] as FieldSpec['pinyin'] | undefined;
  if (pinyin !== undefined) {
    need(
      file,
      `${path}/x-pinyin`,
      pinyin === 'name' || pinyin === 'text',
      'must be "name" (people\'s names) or "text" (other names and titles)',
      null,
    );
    need(
      file,
      `${path}/x-pinyin`,
      type === 'string' && format === undefined,
      'pinyin search needs a string property that is not a date',
      null,
    );
  }
  let ocr: FieldSpec['ocr'];
  if (p['x-ocr'] !== undefined) {
    const o = p['x-ocr'];
    const shape = 'must be {call: "getCph"|"getJz"|"getXsz"|"getVin"|"getYhk", fill: {<property>: <answer field>}}';
    need(file, `${path}/x-ocr`, isObject(o) && isObject(o.fill) && Object.keys(o).every((k) => k === 'call' || k === 'fill'), shape, null);
    const oo = o as { call: unknown; fill: Json };
    need(
      file,
      `${path}/x-ocr/call`,
      typeof oo.call === 'string' && (OCR_CALL_NAMES as string[]).includes(oo.call),
      `must be one of ${OCR_CALL_NAMES.join(', ')}`,
      null,
    );
    // a known call name: checked just above
    const call = oo.call as OcrCall;
    const answers: readonly string[] = OCR_ANSWERS[call];
    need(file, `${path}/x-ocr/fill`, Object.keys(oo.fill).length > 0, 'must name at least one property to fill', null);
    for (const [k, v] of Object.entries(oo.fill)) {
      need(
        file,
        `${path}/x-ocr/fill/${k}`,
        typeof v === 'string' && answers.includes(v),
        `must be a field of the ${call} answer: ${answers.join(', ')}`,
        null,
      );
    }
    ocr = { call, fill: oo.fill as Record<string, string> };
  }
  let list: FieldSpec['list'];
  const rawScope = p['x-scope'] as ScopeKind | typeof NO_SCOPE | undefined;
  if (rawScope === NO_SCOPE) {
    // an explicit opt-out: the property names a department or company that is not one of ours
    need(
      file,
      `${path}/$comment`,
      typeof p.$comment === 'string' && p.$comment.trim().length > 0,
      'x-scope "none" needs a $comment saying why the data scope does not apply',
      null,
    );
  } else if (rawScope !== undefined) {
    need(file, `${path}/x-scope`, SCOPES.includes(rawScope), `must be one of ${SCOPES.join(', ')}, or "${NO_SCOPE}" with a $comment`, null);
    need(file, `${path}/x-scope`, type === 'integer', 'x-scope needs an integer property (a department or organisation id)', null);
  }
  const scope = rawScope === NO_SCOPE ? undefined : rawScope;

  if (p['x-list'] !== undefined) {
    const l = p['x-list'];
    need(
      file,
      `${path}/x-list`,
      isObject(l) && typeof l.order === 'number',
      'must be {order: number, width?: number, editable?: "radio"|"switch", html?: true}',
      null,
    );
    const lo = l as Json;
    for (const k of Object.keys(lo))
      need(
        file,
        `${path}/x-list/${k}`,
        ['order', 'width', 'editable', 'html'].includes(k),
        'unknown key (x-list is {order, width?, editable?, html?})',
        null,
      );
    if (lo.html !== undefined)
      need(file, `${path}/x-list/html`, lo.html === true && type === 'string', 'must be true, on a string property holding HTML', null);
    if (lo.width !== undefined)
      need(file, `${path}/x-list/width`, typeof lo.width === 'number' && lo.width > 0, 'must be a positive number', null);
    if (lo.editable !== undefined) {
      need(file, `${path}/x-list/editable`, lo.editable === 'radio' || lo.editable === 'switch', 'must be "radio" or "switch"', null);
      if (lo.editable === 'switch') need(file, `${path}/x-list/editable`, type === 'boolean', '"switch" needs a boolean property', null);
      if (lo.editable === 'radio') need(file, `${path}/x-list/editable`, !!options, '"radio" needs x-options on the property', null);
      need(file, `${path}/x-list/editable`, auto === undefined, 'an automatic field cannot be edited in the list', null);
    }
    list = lo as FieldSpec['list'];
  }
  if (p['x-money'] !== undefined) {
    need(file, `${path}/x-money`, p['x-money'] === true, 'must be true (or left out)', null);
    need(file, `${path}/x-money`, type === 'number', 'x-money belongs on a number property (an amount in yuan)', null);
    need(file, `${path}/x-money`, p.multipleOf === undefined, 'x-money already allows at most two decimals; drop multipleOf', null);
  }
  if (p['x-column'] !== undefined)
    need(file, `${path}/x-column`, typeof p['x-column'] === 'string' && IDENT.test(p['x-column']), 'must be a column identifier', null);
  if (p['x-renamedFrom'] !== undefined)
    need(
      file,
      `${path}/x-renamedFrom`,
      typeof p['x-renamedFrom'] === 'string' && IDENT.test(p['x-renamedFrom']) && p['x-renamedFrom'] !== name,
      'must be the property name before the rename (another identifier)',
      null,
    );
  if (p['x-form'] !== undefined) need(file, `${path}/x-form`, typeof p['x-form'] === 'boolean', 'must be true or false', null);
  if (p['x-placeholder'] !== undefined)
    need(file, `${path}/x-placeholder`, typeof p['x-placeholder'] === 'string', 'must be a string', null);

  const messages = parseMessages(file, path, p);
  if (required) {
    need(
      file,
      '/errorMessage/required',
      typeof requiredMessage === 'string' && HANZI.test(requiredMessage),
      `required property "${name}" needs its Chinese message here, e.g. "${name}": "${title}不能为空"`,
      null,
    );
    messages.required = requiredMessage!;
  }
  if (p.default !== undefined) {
    const check = compileOrThrow(file, validationSchema(p), path);
    need(
      file,
      `${path}/default`,
      check(p.default),
      "the default does not satisfy the property's own rules (type, enum, pattern, length...)",
      null,
    );
  }

  return {
    name,
    column: (p['x-column'] as string | undefined) ?? snakeCase(name),
    title,
    type,
    format,
    maxLength: p.maxLength as number | undefined,
    required,
    auto,
    readOnly: auto !== undefined || p.readOnly === true,
    default: p.default,
    input,
    options,
    dict: p['x-dict'] as string | undefined,
    ref,
    list,
    filter,
    mask,
    ...(pinyin ? { pinyin } : {}),
    ...(ocr ? { ocr } : {}),
    scope,
    ...(p['x-money'] === true ? { money: true as const } : {}),
    ...(typeof p['x-renamedFrom'] === 'string' ? { renamedFrom: p['x-renamedFrom'] } : {}),
    ...(p['x-unique'] === true ? { unique: true as const } : {}),
    form: auto === undefined && p.readOnly !== true && p['x-form'] !== false && input !== 'hidden',
    placeholder: p['x-placeholder'] as string | undefined,
    messages,
  };
}

/** The schema that validates request bodies: our keywords stripped, auto fields removed. */
function bodySchema(schema: Json, fields: FieldSpec[]): Json {
  const props: Json = {};
  for (const f of fields) {
    // read-only fields (x-auto, or readOnly: true) are written by the server only
    if (f.readOnly && f.auto !== 'id') continue;
    props[f.name] = validationSchema((schema.properties as Json)[f.name] as Json);
  }
  const out: Json = {
    type: 'object',
    properties: props,
    required: ((schema.required as string[]) ?? []).filter((r) => props[r] !== undefined),
    additionalProperties: false,
  };
  if (isObject(schema.errorMessage)) out.errorMessage = schema.errorMessage;
  return out;
}

/** Root `errorMessage`: `required` maps required properties to messages; other keys need their keyword. */
function checkRootMessages(file: string, schema: Json, required: string[]): Record<string, string> {
  const em = schema.errorMessage;
  if (em === undefined) return {};
  need(file, '/errorMessage', isObject(em), 'must be an object, e.g. {"required": {"title": "标题不能为空"}}', null);
  for (const [k, v] of Object.entries(em as Json)) {
    const here = `/errorMessage/${k}`;
    if (k === 'required') {
      need(file, here, isObject(v), 'must map each required property to its message: {"title": "标题不能为空"}', null);
      for (const [prop, msg] of Object.entries(v as Json)) {
        need(file, `${here}/${prop}`, required.includes(prop), `"${prop}" is not in "required"`, null);
        need(file, `${here}/${prop}`, typeof msg === 'string' && HANZI.test(msg), 'must be a Chinese message', null);
      }
      continue;
    }
    need(
      file,
      here,
      k === 'additionalProperties' || (k in schema && !k.startsWith('x-') && !NOT_VALIDATING.has(k)),
      `the schema root has no "${k}" keyword for this message to apply to`,
      null,
    );
    need(file, here, typeof v === 'string' && HANZI.test(v), 'must be a Chinese message', null);
  }
  return ((em as Json).required ?? {}) as Record<string, string>;
}

/**
 * `x-purpose`, `x-retention` and `x-erase` (root): required together on a schema with personal
 * fields (`x-mask`), refused on one without. `anonymize` must blank every `x-mask` property.
 */
function parsePersonal(file: string, schema: Json, fields: FieldSpec[]): PersonalProcessing | undefined {
  const masked = fields.filter((f) => f.mask);
  const given = (['x-purpose', 'x-retention', 'x-erase'] as const).filter((k) => schema[k] !== undefined);
  if (!masked.length) {
    need(
      file,
      `/${given[0]}`,
      given.length === 0,
      'only a schema with personal fields (x-mask) takes x-purpose, x-retention, x-erase',
      null,
    );
    return undefined;
  }
  const personal = `personal fields (${masked.map((f) => f.name).join(', ')})`;
  for (const k of ['x-erase', 'x-purpose', 'x-retention'] as const)
    need(
      file,
      `/${k}`,
      schema[k] !== undefined,
      `required: the schema has ${personal} (see schemas/README.md, Personal information)`,
      null,
    );
  const purpose = schema['x-purpose'];
  need(file, '/x-purpose', typeof purpose === 'string' && HANZI.test(purpose), 'must say in Chinese why the data is kept', null);
  const e = schema['x-erase'];
  need(file, '/x-erase', isObject(e), 'must be {"mode": "delete"} or {"mode": "anonymize", "fields": [...]}', null);
  const eo = e as Json;
  for (const k of Object.keys(eo))
    need(file, `/x-erase/${k}`, k === 'mode' || k === 'fields', 'unknown key (x-erase is {mode, fields?})', null);
  need(file, '/x-erase/mode', eo.mode === 'delete' || eo.mode === 'anonymize', 'must be "delete" or "anonymize"', null);
  let erased: string[] = [];
  if (eo.mode === 'anonymize') {
    need(file, '/x-erase/fields', Array.isArray(eo.fields) && eo.fields.length > 0, 'anonymize needs the properties to blank', null);
    erased = eo.fields as string[];
    erased.forEach((n, i) => {
      const f = fields.find((x) => x.name === n);
      need(file, `/x-erase/fields/${i}`, !!f && !f.auto && f.type === 'string', 'must name a string property that is not automatic', null);
      need(file, `/x-erase/fields/${i}`, erased.indexOf(n) === i, 'is listed twice', null);
    });
    const missing = masked.filter((f) => !erased.includes(f.name)).map((f) => f.name);
    need(file, '/x-erase/fields', missing.length === 0, `must blank every x-mask property; missing: ${missing.join(', ')}`, null);
  } else {
    need(file, '/x-erase/fields', eo.fields === undefined, 'delete removes the whole record: no fields', null);
  }
  const r = schema['x-retention'];
  need(file, '/x-retention', isObject(r), 'must be {"days": n, "after": "<date property>", "where"?: {...}} or {"none": "<why>"}', null);
  const ro = r as Json;
  let retention: Retention;
  if ('none' in ro) {
    need(file, '/x-retention', Object.keys(ro).length === 1, '"none" stands alone', null);
    need(
      file,
      '/x-retention/none',
      typeof ro.none === 'string' && HANZI.test(ro.none),
      'must say in Chinese why no fixed period applies',
      null,
    );
    retention = { none: ro.none as string };
  } else {
    for (const k of Object.keys(ro))
      need(
        file,
        `/x-retention/${k}`,
        ['days', 'after', 'where'].includes(k),
        'unknown key (x-retention is {days, after, where?} or {none})',
        null,
      );
    need(
      file,
      '/x-retention/days',
      Number.isInteger(ro.days) && (ro.days as number) >= 1,
      'must be a whole number of days, at least 1',
      null,
    );
    const after = fields.find((f) => f.name === ro.after);
    need(
      file,
      '/x-retention/after',
      !!after && after.type === 'string' && (after.format === 'date' || after.format === 'date-time'),
      'must name a date or date-time property (e.g. "updateTime")',
      null,
    );
    const where: Record<string, Array<string | number | boolean>> = {};
    if (ro.where !== undefined) {
      need(file, '/x-retention/where', isObject(ro.where), 'must map properties to a value or a list of values', null);
      for (const [n, v] of Object.entries(ro.where as Json)) {
        const f = fields.find((x) => x.name === n);
        need(file, `/x-retention/where/${n}`, !!f, 'must name a property', null);
        const values = Array.isArray(v) ? v : [v];
        need(
          file,
          `/x-retention/where/${n}`,
          values.length > 0 && values.every((x) => valueFitsType(f!.type, x)),
          `must be one ${f!.type} value or a list of them`,
          null,
        );
        where[n] = values as Array<string | number | boolean>;
      }
    }
    retention = { days: ro.days as number, after: after!.name, ...(ro.where !== undefined ? { where } : {}) };
  }
  return { purpose: purpose as string, retention, erase: { mode: eo.mode as 'delete' | 'anonymize', fields: erased } };
}

export function specFromSchema(file: string, raw: unknown): ResourceSpec {
  need(file, '', isObject(raw), 'a schema must be a JSON object', null);
  const schema = raw as Json;
  checkUnknownKeywords(file, schema, '', 'root');
  checkSchemaShape(file, schema);
  need(file, '/type', schema.type === 'object', 'must be "object"', null);
  const e = schema['x-entity'];
  need(file, '/x-entity', isObject(e), 'x-entity is required: {name, title, ...}', null);
  const ent = e as Json;
  for (const k of Object.keys(ent))
    need(file, `/x-entity/${k}`, ENTITY_FIELDS.includes(k), `unknown key (known: ${ENTITY_FIELDS.join(', ')})`, null);
  const name = need(
    file,
    '/x-entity/name',
    typeof ent.name === 'string' && IDENT.test(ent.name),
    'must be an identifier',
    ent.name as string,
  );
  if (schema.$id !== undefined) need(file, '/$id', schema.$id === name, `must equal x-entity.name ("${name}") or be left out`, null);
  const table = (ent.table as string | undefined) ?? snakeCase(name);
  need(file, '/x-entity/table', typeof table === 'string' && IDENT.test(table), 'must be a table identifier', null);
  const path = (ent.path as string | undefined) ?? `api/${name}`;
  need(
    file,
    '/x-entity/path',
    typeof path === 'string' && /^[a-zA-Z][a-zA-Z0-9_/]*[a-zA-Z0-9]$/.test(path),
    'must look like api/name (no leading slash)',
    null,
  );
  const title = need(
    file,
    '/x-entity/title',
    typeof ent.title === 'string' && ent.title !== '',
    'a Chinese title is required',
    ent.title as string,
  );
  const renamedFrom = ent.renamedFrom as string | undefined;
  if (renamedFrom !== undefined)
    need(
      file,
      '/x-entity/renamedFrom',
      typeof renamedFrom === 'string' && IDENT.test(renamedFrom) && renamedFrom !== name,
      'must be the entity name before the rename (an identifier other than x-entity.name)',
      null,
    );
  const permission = (ent.permission as string | undefined) ?? name;
  need(file, '/x-entity/permission', typeof permission === 'string' && IDENT.test(permission), 'must be an identifier', null);
  const pageSize = (ent.pageSize as number | undefined) ?? 10;
  need(file, '/x-entity/pageSize', PAGE_SIZES.includes(pageSize), `must be one of ${PAGE_SIZES.join(', ')}`, null);
  const dialogWidth = (ent.dialogWidth as number | undefined) ?? 700;
  need(file, '/x-entity/dialogWidth', DIALOG_WIDTHS.includes(dialogWidth), `must be one of ${DIALOG_WIDTHS.join(', ')}`, null);
  const actions = (ent.actions as ResourceSpec['actions'] | undefined) ?? [...PERMISSION_ACTIONS];
  need(
    file,
    '/x-entity/actions',
    Array.isArray(actions) && actions.every((a) => (PERMISSION_ACTIONS as readonly string[]).includes(a)),
    `must list some of ${PERMISSION_ACTIONS.join(', ')}`,
    null,
  );
  need(file, '/x-entity/actions', new Set(actions).size === actions.length, 'lists an action twice', null);

  need(file, '/properties', isObject(schema.properties), 'properties are required', null);
  const required = (schema.required as string[] | undefined) ?? [];
  need(file, '/required', Array.isArray(required), 'must be an array', null);
  const props = schema.properties as Json;
  required.forEach((r, i) => need(file, `/required/${i}`, r in props, `"${r}" is not a property`, null));
  const reqMessages = checkRootMessages(file, schema, required);
  const fields = Object.entries(props).map(([n, p]) => parseField(file, n, p, required.includes(n), reqMessages[n]));
  for (const f of fields) {
    if (f.renamedFrom && fields.some((o) => o.name === f.renamedFrom || o.column === snakeCase(f.renamedFrom!))) {
      throw new SchemaError(
        file,
        `/properties/${f.name}/x-renamedFrom`,
        `"${f.renamedFrom}" is still a property (or its column) of the schema`,
      );
    }
  }
  need(
    file,
    '/properties/id',
    fields.some((f) => f.auto === 'id'),
    'an integer "id" with "x-auto": "id" is required',
    null,
  );
  need(file, '/properties', fields.filter((f) => f.scope).length <= 1, 'at most one property may carry x-scope', null);
  for (const f of fields) {
    for (const target of Object.keys(f.ocr?.fill ?? {})) {
      const t = fields.find((x) => x.name === target);
      need(
        file,
        `/properties/${f.name}/x-ocr/fill/${target}`,
        !!t && t.form && t.type === 'string',
        'must name a string property of the form',
        null,
      );
    }
  }
  const columns = new Set<string>();
  for (const f of fields) {
    need(file, `/properties/${f.name}`, !columns.has(f.column), `column "${f.column}" is used twice`, null);
    columns.add(f.column);
  }

  const sort = (ent.sort as string[] | undefined) ?? ['id,desc'];
  need(file, '/x-entity/sort', Array.isArray(sort) && sort.length > 0, 'must be a non-empty array like ["id,desc"]', null);
  sort.forEach((s, i) => {
    const [field, dir] = String(s).split(',');
    need(
      file,
      `/x-entity/sort/${i}`,
      fields.some((f) => f.name === field) && ['asc', 'desc'].includes((dir ?? 'asc').toLowerCase()),
      'must be "field,asc|desc" of a property',
      null,
    );
  });
  const listed = (ent.search as string[] | undefined) ?? [];
  need(file, '/x-entity/search', Array.isArray(listed), 'must be an array of property names', null);
  const search = [...listed];
  // a field marked x-pinyin is searched by `blurry` whether or not the schema lists it
  for (const f of fields) if (f.pinyin && !search.includes(f.name)) search.push(f.name);
  search.forEach((s, i) =>
    need(
      file,
      `/x-entity/search/${i}`,
      fields.some((f) => f.name === s),
      'must name a property',
      null,
    ),
  );

  const enabledToggle = ent.enabledToggle as string | undefined;
  if (enabledToggle !== undefined) {
    const f = fields.find((x) => x.name === enabledToggle);
    need(
      file,
      '/x-entity/enabledToggle',
      !!f && f.type === 'boolean' && !f.auto,
      'must name a boolean property that is not automatic',
      null,
    );
    need(file, '/x-entity/enabledToggle', actions.includes('edit'), 'needs the "edit" action (its permission key guards the toggle)', null);
  }
  const queryAll = ent.queryAll as boolean | undefined;
  if (queryAll !== undefined) need(file, '/x-entity/queryAll', typeof queryAll === 'boolean', 'must be true or false', null);
  const total = ent.total as string[] | undefined;
  if (total !== undefined) {
    need(file, '/x-entity/total', Array.isArray(total) && total.length > 0, 'must be a non-empty array of number properties', null);
    total.forEach((s, i) => {
      const f = fields.find((x) => x.name === s);
      need(
        file,
        `/x-entity/total/${i}`,
        !!f && (f.type === 'number' || f.type === 'integer'),
        'must name an integer or number property',
        null,
      );
    });
  }

  const indexes = ent.indexes as string[][] | undefined;
  if (indexes !== undefined) {
    need(file, '/x-entity/indexes', Array.isArray(indexes) && indexes.length > 0, 'must be a non-empty array of property lists', null);
    const keys = new Set<string>();
    indexes.forEach((cols, i) => {
      need(
        file,
        `/x-entity/indexes/${i}`,
        Array.isArray(cols) && cols.length >= 2 && cols.length <= 4 && new Set(cols).size === cols.length,
        'must list 2 to 4 different properties',
        null,
      );
      cols.forEach((c, j) => {
        const f = fields.find((x) => x.name === c);
        need(
          file,
          `/x-entity/indexes/${i}/${j}`,
          !!f && (f.filter === 'eq' || f.filter === 'in') && f.auto !== 'id',
          'must name a property with "x-filter": "eq" or "in"',
          null,
        );
      });
      need(file, `/x-entity/indexes/${i}`, !keys.has(cols.join(',')), 'is listed twice', null);
      keys.add(cols.join(','));
    });
  }

  let ownedByApplicant: string | undefined;
  if (ent.ownedByApplicant !== undefined) {
    const owner = fields.find((f) => f.name === ent.ownedByApplicant);
    need(file, '/x-entity/ownedByApplicant', !!owner, 'must name a property (the applicant id, e.g. "staffunId")', null);
    need(
      file,
      '/x-entity/ownedByApplicant',
      owner!.type === 'integer' && owner!.required && !owner!.auto,
      'the owner property must be a required integer that is not automatic',
      null,
    );
    need(
      file,
      '/x-entity/ownedByApplicant',
      owner!.filter === 'eq',
      'the owner property needs "x-filter": "eq" (applicants list their records by it)',
      null,
    );
    ownedByApplicant = owner!.name;
  }

  // reading is closed to holders of `<permission>:list` unless `read` names more callers
  const read = ent.read;
  if (read !== undefined) {
    need(
      file,
      '/x-entity/read',
      Array.isArray(read) && read.length > 0,
      'must be a non-empty array of "signedIn" or permission keys such as "staffunZp:list"',
      null,
    );
    (read as unknown[]).forEach((r, i) => {
      need(
        file,
        `/x-entity/read/${i}`,
        r === 'signedIn' || (typeof r === 'string' && /^[A-Za-z][A-Za-z0-9_]*:[A-Za-z]+$/.test(r)),
        'must be "signedIn" or a permission key such as "staffunZp:list"',
        null,
      );
    });
  }

  const personal = parsePersonal(file, schema, fields);
  const unique = parseUniqueRules(file, schema['x-unique'], fields);

  compileSchema(file, schema);
  const body = bodySchema(schema, fields);
  compileOrThrow(file, body, '/');
  return {
    name,
    table,
    path,
    permission,
    title,
    sort,
    pageSize,
    dialogWidth,
    search,
    actions,
    fields,
    ...(enabledToggle !== undefined ? { enabledToggle } : {}),
    ...(queryAll ? { queryAll } : {}),
    ...(total !== undefined ? { total } : {}),
    schema: body,
    ...(ownedByApplicant ? { ownedByApplicant } : {}),
    ...(read !== undefined ? { read: read as string[] } : {}),
    ...(indexes !== undefined ? { indexes } : {}),
    ...(unique !== undefined ? { unique } : {}),
    ...(personal ? { personal } : {}),
    ...(renamedFrom !== undefined ? { renamedFrom } : {}),
  };
}
