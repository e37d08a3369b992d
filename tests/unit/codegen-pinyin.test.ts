import { describe, expect, it } from 'vitest';
import { SchemaError, specFromSchema } from '../../codegen/spec-from-schema.ts';
import { checkSchemaShape } from '../../codegen/ajv-check.ts';
import { tmpThingSchema } from './helpers/tmp-thing.ts';

const FILE = 'schemas/tmpThing.json';

function problemOf(run: () => unknown): SchemaError {
  try {
    run();
  } catch (err) {
    if (err instanceof SchemaError) return err;
    throw err;
  }
  throw new Error('expected a SchemaError, but the schema was accepted');
}

describe('x-pinyin in a schema', () => {
  it('is a known keyword; the field becomes pinyin-searchable and joins the blurry search', () => {
    const s = tmpThingSchema();
    (s.properties.name as Record<string, unknown>)['x-pinyin'] = 'name';
    (s.properties.phone as Record<string, unknown>)['x-pinyin'] = 'text';
    expect(() => checkSchemaShape(FILE, s as unknown as Record<string, unknown>)).not.toThrow();
    const spec = specFromSchema(FILE, s);
    expect(spec.fields.find((f) => f.name === 'name')!.pinyin).toBe('name');
    expect(spec.fields.find((f) => f.name === 'phone')!.pinyin).toBe('text');
    expect(spec.search).toEqual(['name', 'phone']);
    expect(spec.fields.find((f) => f.name === 'amount')!.pinyin).toBeUndefined();
  });

  it('refuses other kinds, non-strings and dates', () => {
    const bad = (prop: string, value: unknown, problem: RegExp) => {
      const s = tmpThingSchema();
      (s.properties[prop] as Record<string, unknown>)['x-pinyin'] = value;
      const err = problemOf(() => specFromSchema(FILE, s));
      expect(err.path).toBe(`/properties/${prop}/x-pinyin`);
      expect(err.problem).toMatch(problem);
    };
    bad('name', true, /"name" .* or "text"/);
    bad('amount', 'text', /string property/);
    bad('createTime', 'text', /not a date/);
  });
});
