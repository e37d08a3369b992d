/**
 * Valid request bodies built from a resource spec alone, for tests that walk every schema.
 * `variant` 0 and 1 give two records whose values differ in every field that can differ
 * (text, numbers, dates, options), so filters and sorts can tell them apart.
 * A property whose `pattern` none of the known samples satisfies makes `sampleBody` throw,
 * naming the pattern: add a sample here when a schema brings a new kind of code.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldSpec, ResourceSpec } from '../../src/shared/resource-spec.ts';
import { createSchemaAjv } from '../../src/shared/schema-ajv.ts';
import { checkRecord } from '../../src/server/crud/index.ts';
import { bearer } from './helpers.ts';
import type { Created } from '../support/answers.ts';
import { CONTRACT_FIXTURES } from './contract-fixtures.ts';

/** Values tried, in order, for a string property with a `pattern`. */
const PATTERN_SAMPLES: string[][] = [
  ['13912345678', '15887654321'], // mobile
  ['LSVAM4187C2184847', 'LFV3A23C8D3045678'], // VIN
  ['B', 'Z'], // one capital letter
  ['code_a', 'code_b'], // identifiers
  ['豫A12345', '豫B54321'], // plates
  ['123', '456'], // digits
  ['11010519491231002X', '440524188001010014'], // ID numbers (GB 11643, check digit right)
  ['https://example.com/notice/1', '/notice/2'], // links
  ['6222021234567890128', '6217001234567893'], // bank cards (16-19 digits, passing the Luhn check as real ones do)
];

const ajv = createSchemaAjv();

/** the JSON-schema keywords of a property that the samples follow */
interface PropertySchema {
  enum?: unknown[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  [keyword: string]: unknown;
}

function propertySchema(spec: ResourceSpec, field: FieldSpec): PropertySchema {
  return ((spec.schema.properties as Record<string, PropertySchema> | undefined) ?? {})[field.name] ?? {};
}

function fits(schema: Record<string, unknown>, value: unknown): boolean {
  const { errorMessage: _drop, ...plain } = schema;
  return ajv.validate<unknown>(plain, value);
}

function clampText(text: string, p: PropertySchema): string {
  const max = typeof p.maxLength === 'number' ? p.maxLength : 40;
  let t = text.slice(0, max);
  while (typeof p.minLength === 'number' && t.length < p.minLength) t += 'x';
  return t;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** One value for a writable field; refs are filled by the caller. */
export function sampleValue(spec: ResourceSpec, field: FieldSpec, variant: number): unknown {
  const p = propertySchema(spec, field);
  if (field.options?.length) return field.options[variant % field.options.length].value;
  if (Array.isArray(p.enum)) return p.enum[variant % p.enum.length];
  switch (field.type) {
    case 'boolean':
      return variant % 2 === 0;
    case 'integer':
    case 'number': {
      let lo = typeof p.minimum === 'number' ? p.minimum : 0;
      if (typeof p.exclusiveMinimum === 'number') lo = Math.max(lo, Math.floor(p.exclusiveMinimum) + 1);
      const hi = typeof p.maximum === 'number' ? p.maximum : lo + 1000;
      const base = Math.max(lo, Math.min(hi - 1, lo < 5 ? 5 : lo));
      const v = Math.min(hi, base + variant * 3);
      return field.type === 'number' ? v + 0.5 : v;
    }
    case 'string': {
      // valid for variants 0-5 (month 03-08, day 10-15, hour 08-13)
      if (field.format === 'date') return `2026-${pad(3 + variant)}-${pad(10 + variant)}`;
      if (field.format === 'date-time') return `2026-${pad(3 + variant)}-${pad(10 + variant)} ${pad(8 + variant)}:${pad(15 + variant)}:00`;
      if (field.format === 'uri') return `https://example.com/doc/${variant + 1}`;
      if (field.format === 'email') return `user${variant}@example.com`;
      if (typeof p.pattern === 'string') {
        for (const pair of PATTERN_SAMPLES) {
          const v = pair[variant % pair.length];
          if (fits(p, v)) return v;
        }
        throw new Error(`${spec.name}.${field.name}: no sample fits the pattern ${p.pattern}; add one to PATTERN_SAMPLES`);
      }
      return clampText(`${variant === 0 ? '甲' : '乙'}样本${field.title}`, p);
    }
  }
}

/** The writable fields a sample fills: every non-read-only field the body schema knows. */
export function writableFields(spec: ResourceSpec): FieldSpec[] {
  const props = (spec.schema.properties as Record<string, unknown>) ?? {};
  return spec.fields.filter((f) => !f.readOnly && f.name in props);
}

/**
 * A valid body for `spec`, creating the records its `x-ref` fields point at (through the API,
 * as admin) or taking the root department for `dept`.
 */
export async function sampleBody(
  app: FastifyInstance,
  token: string,
  specs: ResourceSpec[],
  spec: ResourceSpec,
  variant: number,
  depth = 0,
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  const fixture = CONTRACT_FIXTURES[spec.name];
  const fixed = fixture?.values
    ? await fixture.values({
        app,
        spec,
        token,
        specs,
        variant,
        bodyOf: (resource, v) =>
          sampleBody(
            app,
            token,
            specs,
            specs.find((s) => s.name === resource)!,
            v,
            depth + 1,
          ),
      })
    : {};
  for (const field of writableFields(spec)) {
    if (field.name in fixed || fixture?.leaveEmpty?.[field.name]) continue;
    if (field.ref) {
      body[field.name] = await refId(app, token, specs, field.ref.resource, depth);
      continue;
    }
    body[field.name] = sampleValue(spec, field, variant);
  }
  Object.assign(body, fixed);
  const writeOnly = new Set(fixture?.writeOnly ?? []);
  const check = checkRecord(spec, Object.fromEntries(Object.entries(body).filter(([k]) => !writeOnly.has(k))), 'create');
  if (!check.ok) throw new Error(`${spec.name}: the sample body is not valid: ${check.error.message} ${JSON.stringify(body)}`);
  return body;
}

async function refId(app: FastifyInstance, token: string, specs: ResourceSpec[], resource: string, depth: number): Promise<number> {
  if (resource === 'dept') {
    const row = await app.database.db.selectFrom('sys_dept').select('id').orderBy('id').executeTakeFirstOrThrow();
    return Number(row.id);
  }
  const target = specs.find((s) => s.name === resource);
  if (!target) throw new Error(`x-ref to an unknown resource: ${resource}`);
  if (depth > 3) throw new Error(`x-ref chain too deep at ${resource}`);
  const body = await sampleBody(app, token, specs, target, 0, depth + 1);
  const res = await app.inject({ method: 'POST', url: `/${target.path}`, headers: bearer(token), payload: body });
  if (res.statusCode !== 201) throw new Error(`creating the referenced ${resource} failed: ${res.statusCode} ${res.body}`);
  return res.json<Created>().id;
}

/**
 * `n` feedback rows for the list tests: 客户 every third row, 系统 every fourth (else 销售),
 * 已处理 every other one, so two-filter pages and deep pages have rows on both sides.
 */
export function feedbackRows(n: number): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, i) => ({
    userType: i % 3 ? '员工' : '客户',
    model: i % 4 === 0 ? '系统' : '销售',
    content: `row ${i}`,
    status: i % 2 === 0,
    enabled: true,
  }));
}
