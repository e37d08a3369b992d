import { describe, expect, it } from 'vitest';
import { SchemaError, specFromSchema } from '../../codegen/spec-from-schema.ts';
import { projectSpec } from './helpers/project-specs.ts';
import { scopeField } from '../../src/shared/resource-spec.ts';
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

describe('x-scope', () => {
  it('marks the data-scope property of a spec (staffunZp.deptId)', () => {
    const zp = projectSpec('staffunZp');
    expect(scopeField(zp)).toMatchObject({ name: 'deptId', scope: 'dept', column: 'dept_id' });
    const q = projectSpec('sysQuestion');
    expect(scopeField(q)).toBeUndefined();
  });

  it('accepts dept and org on an integer property', () => {
    const s = tmpThingSchema();
    s.properties.orgId = { type: 'integer', title: '公司', 'x-scope': 'org' };
    expect(scopeField(specFromSchema(FILE, s))).toMatchObject({ name: 'orgId', scope: 'org' });
  });

  it('rejects other values, other types and two scoped properties', () => {
    expect(problemOf((s) => (s.properties.orgId = { type: 'integer', title: '公司', 'x-scope': 'team' }))).toMatchObject({
      path: '/properties/orgId/x-scope',
    });
    expect(problemOf((s) => (s.properties.name['x-scope'] = 'dept')).problem).toMatch(/integer/);
    const two = problemOf((s) => {
      s.properties.orgId = { type: 'integer', title: '公司', 'x-scope': 'org' };
      s.properties.deptId = { type: 'integer', title: '部门', 'x-scope': 'dept' };
    });
    expect(two.problem).toMatch(/at most one/);
    expect(problemOf((s) => (s['x-scope'] = 'dept')).problem).toMatch(/unknown keyword/);
  });
});
