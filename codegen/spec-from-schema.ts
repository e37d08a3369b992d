/**
 * Turns one entity JSON Schema (draft 2020-12 + our `x-` keywords) into a ResourceSpec.
 * Every problem is reported as a SchemaError naming the file and the JSON path.
 */
import type {
  AutoKind,
  FieldSpec,
  FieldType,
  FilterKind,
  InputKind,
  MaskKind,
  Option,
  ResourceSpec,
} from '../src/shared/resource-spec.ts';
import { PERMISSION_ACTIONS, snakeCase } from '../src/shared/resource-spec.ts';

export class SchemaError extends Error {
  constructor(
    public file: string,
    public path: string,
    public problem: string,
  ) {
    super(`${file}: ${path || '/'}: ${problem}`);
  }
}

/** The `x-` keywords codegen understands; anything else is an error. */
export const ENTITY_KEYWORDS = ['x-entity'] as const;
export const PROPERTY_KEYWORDS = [
  'x-auto',
  'x-column',
  'x-dict',
  'x-filter',
  'x-form',
  'x-input',
  'x-list',
  'x-mask',
  'x-options',
  'x-placeholder',
  'x-ref',
] as const;
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
];

const FIELD_TYPES: FieldType[] = ['integer', 'number', 'string', 'boolean'];
const FILTERS: FilterKind[] = ['eq', 'like', 'between', 'in'];
const INPUTS: InputKind[] = [
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
const AUTOS: AutoKind[] = ['id', 'createTime', 'updateTime', 'createUser', 'updateUser'];
const MASKS: MaskKind[] = ['phone', 'name', 'id', 'email'];
const DIALOG_WIDTHS = [475, 500, 700, 1000, 1300];
const IDENT = /^[a-zA-Z][a-zA-Z0-9_]*$/;

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
      const allowed: readonly string[] =
        where === 'root' ? ENTITY_KEYWORDS : where === 'property' ? PROPERTY_KEYWORDS : [];
      if (!allowed.includes(key)) {
        throw new SchemaError(file, here, `unknown keyword "${key}" (known here: ${allowed.join(', ') || 'none'})`);
      }
      continue; // x- values are checked by their own rules below
    }
    if (key === 'properties' && isObject(value) && where === 'root') {
      for (const [prop, sub] of Object.entries(value)) {
        checkUnknownKeywords(file, sub, `${here}/${prop}`, 'property');
      }
      continue;
    }
    if (key === 'enum' || key === 'default' || key === 'const' || key === 'examples') continue;
    checkUnknownKeywords(file, value, here, 'other');
  }
}

function need<T>(file: string, path: string, ok: boolean, problem: string, value: T): T {
  if (!ok) throw new SchemaError(file, path, problem);
  return value;
}

function parseOptions(file: string, path: string, raw: unknown): Option[] {
  need(file, path, Array.isArray(raw) && raw.length > 0, 'must be a non-empty array of {value, label}', null);
  return (raw as unknown[]).map((o, i) => {
    const p = `${path}/${i}`;
    need(file, p, isObject(o), 'must be an object {value, label}', null);
    const { value, label } = o as Json;
    need(file, `${p}/value`, ['string', 'number', 'boolean'].includes(typeof value), 'must be a string, number or boolean', null);
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

function parseField(file: string, name: string, raw: unknown, required: boolean, requiredMessage?: string): FieldSpec {
  const path = `/properties/${name}`;
  need(file, path, IDENT.test(name), 'property names must be identifiers (letters, digits, _)', null);
  need(file, path, isObject(raw), 'must be an object', null);
  const p = raw as Json;
  const type = p.type as FieldType;
  need(file, `${path}/type`, FIELD_TYPES.includes(type), `must be one of ${FIELD_TYPES.join(', ')}`, null);
  const title = need(file, `${path}/title`, typeof p.title === 'string' && p.title !== '', 'a Chinese title is required', p.title as string);
  const format = p.format as string | undefined;
  if (format !== undefined) {
    need(file, `${path}/format`, type === 'string' && ['date', 'date-time', 'email', 'uri'].includes(format), 'format must be date, date-time, email or uri on a string', null);
  }
  const options = p['x-options'] !== undefined ? parseOptions(file, `${path}/x-options`, p['x-options']) : undefined;
  const input = (p['x-input'] as InputKind | undefined) ?? defaultInput(type, format, !!options);
  need(file, `${path}/x-input`, INPUTS.includes(input), `must be one of ${INPUTS.join(', ')}`, null);
  const auto = p['x-auto'] as AutoKind | undefined;
  if (auto !== undefined) need(file, `${path}/x-auto`, AUTOS.includes(auto), `must be one of ${AUTOS.join(', ')}`, null);
  if (auto === 'id') need(file, `${path}/x-auto`, name === 'id' && type === 'integer', 'x-auto "id" belongs to an integer property named id', null);
  const filter = p['x-filter'] as FilterKind | undefined;
  if (filter !== undefined) need(file, `${path}/x-filter`, FILTERS.includes(filter), `must be one of ${FILTERS.join(', ')}`, null);
  if (filter === 'like') need(file, `${path}/x-filter`, type === 'string', '"like" needs a string property', null);
  const mask = p['x-mask'] as MaskKind | undefined;
  if (mask !== undefined) need(file, `${path}/x-mask`, MASKS.includes(mask), `must be one of ${MASKS.join(', ')}`, null);
  let list: FieldSpec['list'];
  if (p['x-list'] !== undefined) {
    const l = p['x-list'];
    need(file, `${path}/x-list`, isObject(l) && typeof l.order === 'number', 'must be {order: number, width?: number, editable?: "radio"|"switch"}', null);
    const lo = l as Json;
    for (const k of Object.keys(lo)) need(file, `${path}/x-list/${k}`, ['order', 'width', 'editable'].includes(k), 'unknown key', null);
    if (lo.width !== undefined) need(file, `${path}/x-list/width`, typeof lo.width === 'number' && lo.width > 0, 'must be a positive number', null);
    if (lo.editable !== undefined) need(file, `${path}/x-list/editable`, lo.editable === 'radio' || lo.editable === 'switch', 'must be "radio" or "switch"', null);
    list = lo as FieldSpec['list'];
  }
  let ref: FieldSpec['ref'];
  if (p['x-ref'] !== undefined) {
    const r = p['x-ref'];
    need(file, `${path}/x-ref`, isObject(r) && typeof r.resource === 'string' && typeof r.path === 'string' && typeof r.label === 'string', 'must be {resource, path, label}', null);
    ref = r as FieldSpec['ref'];
  }
  if (p['x-dict'] !== undefined) need(file, `${path}/x-dict`, typeof p['x-dict'] === 'string' && p['x-dict'] !== '', 'must be a dictionary name', null);
  if (p['x-column'] !== undefined) need(file, `${path}/x-column`, typeof p['x-column'] === 'string' && IDENT.test(p['x-column'] as string), 'must be a column identifier', null);
  if (p['x-form'] !== undefined) need(file, `${path}/x-form`, typeof p['x-form'] === 'boolean', 'must be true or false', null);
  if (p['x-placeholder'] !== undefined) need(file, `${path}/x-placeholder`, typeof p['x-placeholder'] === 'string', 'must be a string', null);

  const messages: Record<string, string> = {};
  if (p.errorMessage !== undefined) {
    const em = p.errorMessage;
    need(file, `${path}/errorMessage`, isObject(em), 'must be an object keyword → message', null);
    for (const [k, v] of Object.entries(em as Json)) {
      need(file, `${path}/errorMessage/${k}`, typeof v === 'string', 'must be a string', null);
      messages[k] = v as string;
    }
  }
  if (requiredMessage) messages.required = requiredMessage;
  if (required && !messages.required) messages.required = `${title}不能为空`;

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
    form: auto === undefined && p['x-form'] !== false && input !== 'hidden',
    placeholder: p['x-placeholder'] as string | undefined,
    messages,
  };
}

/** The schema that validates request bodies: our keywords stripped, auto fields removed. */
function bodySchema(schema: Json, fields: FieldSpec[]): Json {
  const props: Json = {};
  for (const f of fields) {
    if (f.auto && f.auto !== 'id') continue;
    const src = { ...((schema.properties as Json)[f.name] as Json) };
    for (const k of Object.keys(src)) if (k.startsWith('x-') || k === 'title' || k === 'default') delete src[k];
    props[f.name] = src;
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

export function specFromSchema(file: string, raw: unknown): ResourceSpec {
  need(file, '', isObject(raw), 'a schema must be a JSON object', null);
  const schema = raw as Json;
  checkUnknownKeywords(file, schema, '', 'root');
  need(file, '/type', schema.type === 'object', 'must be "object"', null);
  const e = schema['x-entity'];
  need(file, '/x-entity', isObject(e), 'x-entity is required: {name, table, path, permission, title, ...}', null);
  const ent = e as Json;
  for (const k of Object.keys(ent)) need(file, `/x-entity/${k}`, ENTITY_FIELDS.includes(k), `unknown key (known: ${ENTITY_FIELDS.join(', ')})`, null);
  const name = need(file, '/x-entity/name', typeof ent.name === 'string' && IDENT.test(ent.name), 'must be an identifier', ent.name as string);
  const table = (ent.table as string | undefined) ?? snakeCase(name);
  need(file, '/x-entity/table', IDENT.test(table), 'must be a table identifier', null);
  const path = (ent.path as string | undefined) ?? `api/${name}`;
  need(file, '/x-entity/path', /^[a-zA-Z][a-zA-Z0-9_/]*[a-zA-Z0-9]$/.test(path), 'must look like api/name (no leading slash)', null);
  const title = need(file, '/x-entity/title', typeof ent.title === 'string' && ent.title !== '', 'a Chinese title is required', ent.title as string);
  const permission = (ent.permission as string | undefined) ?? name;
  need(file, '/x-entity/permission', IDENT.test(permission), 'must be an identifier', null);
  const pageSize = (ent.pageSize as number | undefined) ?? 10;
  need(file, '/x-entity/pageSize', [10, 15, 30, 45, 60, 100].includes(pageSize), 'must be 10, 15, 30, 45, 60 or 100', null);
  const dialogWidth = (ent.dialogWidth as number | undefined) ?? 700;
  need(file, '/x-entity/dialogWidth', DIALOG_WIDTHS.includes(dialogWidth), `must be one of ${DIALOG_WIDTHS.join(', ')}`, null);
  const actions = (ent.actions as ResourceSpec['actions'] | undefined) ?? [...PERMISSION_ACTIONS];
  need(file, '/x-entity/actions', Array.isArray(actions) && actions.every((a) => (PERMISSION_ACTIONS as readonly string[]).includes(a)), `must list some of ${PERMISSION_ACTIONS.join(', ')}`, null);

  need(file, '/properties', isObject(schema.properties), 'properties are required', null);
  const required = (schema.required as string[] | undefined) ?? [];
  need(file, '/required', Array.isArray(required), 'must be an array', null);
  const props = schema.properties as Json;
  for (const r of required) need(file, '/required', r in props, `"${r}" is not a property`, null);
  const reqMessages = ((schema.errorMessage as Json | undefined)?.required ?? {}) as Record<string, string>;
  const fields = Object.entries(props).map(([n, p]) => parseField(file, n, p, required.includes(n), reqMessages[n]));
  need(file, '/properties/id', fields.some((f) => f.auto === 'id'), 'an integer "id" with "x-auto": "id" is required', null);
  const columns = new Set<string>();
  for (const f of fields) {
    need(file, `/properties/${f.name}`, !columns.has(f.column), `column "${f.column}" is used twice`, null);
    columns.add(f.column);
  }

  const sort = (ent.sort as string[] | undefined) ?? ['id,desc'];
  sort.forEach((s, i) => {
    const [field, dir] = String(s).split(',');
    need(file, `/x-entity/sort/${i}`, fields.some((f) => f.name === field) && ['asc', 'desc'].includes((dir ?? 'asc').toLowerCase()), 'must be "field,asc|desc" of a property', null);
  });
  const search = (ent.search as string[] | undefined) ?? [];
  search.forEach((s, i) => need(file, `/x-entity/search/${i}`, fields.some((f) => f.name === s), 'must name a property', null));

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
    schema: bodySchema(schema, fields),
  };
}
