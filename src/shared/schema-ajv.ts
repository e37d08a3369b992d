/**
 * The one ajv configuration the entity schemas are written for, used by codegen to check them
 * and available to the server and the web app to validate bodies with the same rules:
 * JSON Schema draft 2020-12, strict mode, every error collected, ajv-errors messages,
 * ajv-formats, our `x-` keywords declared (they carry no validation but `x-money`: at most two
 * decimals, 最多只能输入两位小数), and the API's date
 * formats: `date` is 'YYYY-MM-DD', `date-time` is 'YYYY-MM-DD HH:mm:ss' (no 'T', no zone).
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { isApiDate, isApiDateTime } from './date-text.ts';
import { addMoneyKeyword } from './money-keyword.ts';

/** Entity-level keyword (at the root of a schema). */
export const ENTITY_KEYWORDS = ['x-entity', 'x-purpose', 'x-retention', 'x-erase', 'x-unique'] as const;

/** Property-level keywords (on `properties/<name>`). */
export const PROPERTY_KEYWORDS = [
  'x-auto',
  'x-column',
  'x-dict',
  'x-filter',
  'x-form',
  'x-input',
  'x-list',
  'x-mask',
  'x-ocr',
  'x-money',
  'x-options',
  'x-pinyin',
  'x-placeholder',
  'x-ref',
  'x-renamedFrom',
  'x-scope',
  'x-unique',
] as const;

/** every `x-` keyword once (`x-unique` is both: a property's rule, or a rule over several at the root) */
export const X_KEYWORDS: readonly string[] = [...new Set<string>([...ENTITY_KEYWORDS, ...PROPERTY_KEYWORDS])];

export { isApiDate, isApiDateTime };

export type SchemaAjv = Ajv2020;

/** A fresh ajv instance configured for the entity schemas and their body schemas. */
export function createSchemaAjv(): SchemaAjv {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  addErrors(ajv);
  ajv.addFormat('date', { type: 'string', validate: isApiDate });
  ajv.addFormat('date-time', { type: 'string', validate: isApiDateTime });
  for (const keyword of X_KEYWORDS) if (keyword !== 'x-money') ajv.addKeyword({ keyword });
  addMoneyKeyword(ajv);
  return ajv;
}

/** Every keyword the configured ajv knows (JSON Schema 2020-12, ajv-errors, our `x-` keywords). */
export function knownKeywords(ajv: SchemaAjv): Set<string> {
  const rules = (ajv as unknown as { RULES: { keywords: Record<string, unknown> } }).RULES;
  return new Set(Object.keys(rules.keywords));
}
