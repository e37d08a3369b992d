import { describe, expect, it } from 'vitest';
import { SchemaError, specFromSchema } from '../../codegen/spec-from-schema.ts';
import { loadSpecs } from '../../codegen/main.ts';
import { tmpThingSchema, type TestSchema } from './helpers/tmp-thing.ts';

const FILE = 'schemas/tmpThing.json';

function problemOf(mutate: (s: TestSchema) => void): SchemaError {
  const s = tmpThingSchema();
  mutate(s);
  try {
    specFromSchema(FILE, s);
  } catch (err) {
    if (err instanceof SchemaError) return err;
    throw err;
  }
  throw new Error('expected a SchemaError');
}

describe('x-purpose, x-retention, x-erase', () => {
  it('every project schema with x-mask carries all three, and anonymize blanks every masked property', () => {
    const specs = loadSpecs('schemas');
    const personal = specs.filter((s) => s.fields.some((f) => f.mask));
    expect(personal.length).toBeGreaterThanOrEqual(12);
    for (const spec of personal) {
      expect(spec.personal, spec.name).toBeDefined();
      if (spec.personal!.erase.mode === 'anonymize')
        for (const f of spec.fields.filter((x) => x.mask)) expect(spec.personal!.erase.fields, `${spec.name}.${f.name}`).toContain(f.name);
    }
    for (const spec of specs.filter((s) => !s.fields.some((f) => f.mask))) expect(spec.personal, spec.name).toBeUndefined();
    console.log(`personal schemas: ${personal.length} of ${specs.length}`);
  });

  it('parses the three keywords into spec.personal', () => {
    const spec = specFromSchema(FILE, tmpThingSchema());
    expect(spec.personal).toEqual({
      purpose: '测试：联系物品登记人',
      retention: { days: 30, after: 'createTime' },
      erase: { mode: 'anonymize', fields: ['phone'] },
    });
  });

  it('stops codegen naming the file and path when a keyword is missing on a schema with personal fields', () => {
    for (const k of ['x-erase', 'x-purpose', 'x-retention']) {
      const err = problemOf((s) => delete s[k]);
      expect(err.path).toBe(`/${k}`);
      expect(err.message).toContain(FILE);
      expect(err.problem).toMatch(/personal fields \(phone\)/);
    }
  });

  it('refuses them on a schema without personal fields', () => {
    const err = problemOf((s) => delete s.properties.phone['x-mask']);
    expect(err.path).toBe('/x-purpose');
  });

  it('checks erase modes and fields', () => {
    expect(problemOf((s) => (s['x-erase'] = { mode: 'shred' })).path).toBe('/x-erase/mode');
    expect(problemOf((s) => (s['x-erase'] = { mode: 'anonymize', fields: ['name'] })).problem).toMatch(/missing: phone/);
    expect(problemOf((s) => (s['x-erase'] = { mode: 'anonymize', fields: ['phone', 'amount'] })).path).toBe('/x-erase/fields/1');
    expect(problemOf((s) => (s['x-erase'] = { mode: 'anonymize', fields: ['phone', 'nope'] })).path).toBe('/x-erase/fields/1');
    expect(problemOf((s) => (s['x-erase'] = { mode: 'delete', fields: ['phone'] })).path).toBe('/x-erase/fields');
    expect(specFromSchema(FILE, { ...tmpThingSchema(), 'x-erase': { mode: 'delete' } }).personal!.erase).toEqual({
      mode: 'delete',
      fields: [],
    });
  });

  it('checks retention', () => {
    expect(problemOf((s) => (s['x-retention'] = { days: 0, after: 'createTime' })).path).toBe('/x-retention/days');
    expect(problemOf((s) => (s['x-retention'] = { days: 10, after: 'name' })).path).toBe('/x-retention/after');
    expect(problemOf((s) => (s['x-retention'] = { days: 10, after: 'onDate', where: { kind: 3 } })).path).toBe('/x-retention/where/kind');
    expect(problemOf((s) => (s['x-retention'] = { days: 10, after: 'onDate', where: { nope: 1 } })).path).toBe('/x-retention/where/nope');
    expect(problemOf((s) => (s['x-retention'] = { none: 'forever' })).path).toBe('/x-retention/none');
    expect(problemOf((s) => (s['x-purpose'] = 'testing')).path).toBe('/x-purpose');
    const spec = specFromSchema(FILE, { ...tmpThingSchema(), 'x-retention': { days: 10, after: 'onDate', where: { kind: ['甲', '乙'] } } });
    expect(spec.personal!.retention).toEqual({ days: 10, after: 'onDate', where: { kind: ['甲', '乙'] } });
    expect(specFromSchema(FILE, { ...tmpThingSchema(), 'x-retention': { none: '长期保存的理由' } }).personal!.retention).toEqual({
      none: '长期保存的理由',
    });
  });
});
