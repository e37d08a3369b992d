/**
 * Checks an entity schema as JSON Schema, with the same ajv configuration the server uses
 * (draft 2020-12, strict mode, ajv-errors, ajv-formats, our `x-` keywords declared):
 * the meta-schema, unknown keywords, regular expressions, then a full compile.
 * Problems become SchemaErrors naming the file and the JSON path.
 */
import { createSchemaAjv, knownKeywords, type SchemaAjv } from '../src/shared/schema-ajv.ts';
import { SchemaError } from './schema-error.ts';

type Json = Record<string, unknown>;

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Keywords whose value is one subschema. */
const SCHEMA_VALUED = [
  'additionalProperties',
  'contains',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

let shared: { ajv: SchemaAjv; keywords: Set<string> } | undefined;
function instance(): { ajv: SchemaAjv; keywords: Set<string> } {
  if (!shared) {
    const ajv = createSchemaAjv();
    shared = { ajv, keywords: knownKeywords(ajv) };
  }
  return shared;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Walks every subschema: unknown keywords and invalid regular expressions, with their path. */
function walk(file: string, node: unknown, path: string, keywords: Set<string>): void {
  if (typeof node === 'boolean') return;
  if (!isObject(node)) throw new SchemaError(file, path || '/', 'a schema must be an object or a boolean');
  for (const [key, value] of Object.entries(node)) {
    const here = `${path}/${key}`;
    if (!keywords.has(key)) {
      throw new SchemaError(
        file,
        here,
        `unknown keyword "${key}" (not JSON Schema 2020-12, ajv-errors or one of our x- keywords; see schemas/README.md)`,
      );
    }
    if (key === 'pattern' && typeof value === 'string') {
      try {
        new RegExp(value, 'u');
      } catch (err) {
        throw new SchemaError(file, here, `invalid regular expression: ${(err as Error).message}`);
      }
    }
    if (key === 'patternProperties' && isObject(value)) {
      for (const p of Object.keys(value)) {
        try {
          new RegExp(p, 'u');
        } catch (err) {
          throw new SchemaError(file, `${here}/${p}`, `invalid regular expression: ${(err as Error).message}`);
        }
      }
    }
    if (SCHEMA_VALUED.includes(key)) walk(file, value, here, keywords);
    else if (SCHEMA_ARRAYS.includes(key) && Array.isArray(value)) value.forEach((v, i) => walk(file, v, `${here}/${i}`, keywords));
    else if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      for (const [k, v] of Object.entries(value)) walk(file, v, `${here}/${k}`, keywords);
    }
  }
}

/** Turns an ajv compile error into a path when the message carries one. */
function compileError(file: string, err: Error): SchemaError {
  const msg = err.message;
  const at = /at "[^"#]*#([^"]*)"/.exec(msg);
  return new SchemaError(file, at ? at[1] || '/' : '/', `ajv cannot compile the schema: ${msg}`);
}

/**
 * The JSON Schema shape of one entity schema (before our own x- rules): dialect, known keywords,
 * regular expressions, the meta-schema. `compileSchema` then compiles it once our rules passed.
 */
export function checkSchemaShape(file: string, schema: Json): void {
  const { ajv, keywords } = instance();
  if (schema.$schema !== undefined && schema.$schema !== DRAFT_2020_12) {
    throw new SchemaError(file, '/$schema', `must be "${DRAFT_2020_12}" (schemas are JSON Schema draft 2020-12)`);
  }
  walk(file, schema, '', keywords);
  if (!ajv.validateSchema(anonymous(schema))) {
    const e = ajv.errors![0];
    const detail = e.params && 'allowedValues' in e.params ? `: ${(e.params.allowedValues as unknown[]).join(', ')}` : '';
    throw new SchemaError(file, e.instancePath || '/', `${e.message}${detail} (JSON Schema meta-schema)`);
  }
}

/** The schema without $id, so that schemas never clash in ajv's cache. */
function anonymous(schema: Json): Json {
  const { $id: _id, ...rest } = schema;
  return rest;
}

/** Compiles the whole entity schema as ajv (strict) would for the server. */
export function compileSchema(file: string, schema: Json): void {
  compileOrThrow(file, anonymous(schema));
}

/** Compiles a schema (e.g. a body schema or one property) and throws a SchemaError if ajv refuses it. */
export function compileOrThrow(file: string, schema: Json, path?: string): (data: unknown) => boolean {
  const { ajv } = instance();
  try {
    return ajv.compile(schema);
  } catch (err) {
    const e = compileError(file, err as Error);
    throw path ? new SchemaError(file, path, e.problem) : e;
  }
}
