/** The schema keywords of the generic capabilities: enabledToggle, queryAll, total, readOnly, x-ref onDelete. */
import { describe, expect, it } from 'vitest';
import { SchemaError, specFromSchema } from '../../codegen/spec-from-schema.ts';
import { fieldByName } from '../../src/shared/resource-spec.ts';
import { tmpThingSchema, type TestSchema } from './helpers/tmp-thing.ts';

const FILE = 'schemas/tmpThing.json';

function problemOf(mutate: (s: TestSchema) => void): { path: string; problem: string } {
  const s = tmpThingSchema();
  mutate(s);
  try {
    specFromSchema(FILE, s);
  } catch (err) {
    if (err instanceof SchemaError) return { path: err.path, problem: err.problem };
    throw err;
  }
  throw new Error('the schema was accepted');
}

describe('capability keywords', () => {
  it('are carried into the spec', () => {
    const s = tmpThingSchema();
    Object.assign(s['x-entity'], { enabledToggle: 'active', queryAll: true, total: ['amount'] });
    const spec = specFromSchema(FILE, s);
    expect(spec).toMatchObject({ enabledToggle: 'active', queryAll: true, total: ['amount'] });
    expect(specFromSchema(FILE, tmpThingSchema())).not.toHaveProperty('total');
  });

  it('enabledToggle needs a boolean property and the edit action', () => {
    const toggle = problemOf((s) => (s['x-entity'].enabledToggle = 'name'));
    expect(toggle.path).toBe('/x-entity/enabledToggle');
    expect(toggle.problem).toMatch(/boolean/);
    expect(problemOf((s) => Object.assign(s['x-entity'], { enabledToggle: 'active', actions: ['add'] })).problem).toMatch(/"edit"/);
  });

  it('total names number properties; queryAll is a boolean', () => {
    expect(problemOf((s) => (s['x-entity'].total = ['name']))).toMatchObject({ path: '/x-entity/total/0' });
    expect(problemOf((s) => (s['x-entity'].total = []))).toMatchObject({ path: '/x-entity/total' });
    expect(problemOf((s) => (s['x-entity'].queryAll = 'yes'))).toMatchObject({ path: '/x-entity/queryAll' });
  });

  it('readOnly properties leave the body schema and the form, and cannot be required', () => {
    const s = tmpThingSchema();
    s.properties.kind.readOnly = true;
    const spec = specFromSchema(FILE, s);
    expect(Object.keys(spec.schema.properties as object)).not.toContain('kind');
    expect(fieldByName(spec, 'kind')).toMatchObject({ readOnly: true, form: false });
    expect(problemOf((x) => (x.properties.name.readOnly = true))).toMatchObject({ path: '/properties/name/readOnly' });
  });

  it('x-ref onDelete is cascade or restrict', () => {
    const ref = (onDelete: unknown) => (s: TestSchema) => {
      s.properties.ownerId = {
        type: 'integer',
        title: '所属',
        'x-input': 'select',
        'x-ref': { resource: 'dept', path: 'api/dept', label: 'name', onDelete },
      };
    };
    expect(problemOf(ref('drop'))).toMatchObject({ path: '/properties/ownerId/x-ref/onDelete' });
    const s = tmpThingSchema();
    ref('cascade')(s);
    expect(fieldByName(specFromSchema(FILE, s), 'ownerId')?.ref?.onDelete).toBe('cascade');
  });
});
