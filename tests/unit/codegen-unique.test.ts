/**
 * `x-unique` in a schema: `true` on a property holding one scalar value, or a list of 2-4
 * properties at the root for a rule over their combination. Codegen refuses it on an object or
 * an array, a boolean, an automatic property and a text without a bounded maxLength, naming the
 * file and the JSON path; the spec carries it, and the documented DDL has its unique index.
 */
import { describe, expect, it } from 'vitest';
import { SchemaError, specFromSchema } from '../../codegen/spec-from-schema.ts';
import { emitDdl } from '../../codegen/emit-ddl.ts';
import { uniqueIndexes } from '../../src/shared/column-types.ts';
import { uniqueRules } from '../../src/shared/resource-spec.ts';
import { tmpThingSchema, type TestSchema } from './helpers/tmp-thing.ts';

const FILE = 'schemas/tmpThing.json';

function problemOf(s: TestSchema): SchemaError {
  try {
    specFromSchema(FILE, s);
  } catch (err) {
    if (err instanceof SchemaError) return err;
    throw err;
  }
  throw new Error('expected a SchemaError, but the schema was accepted');
}

describe('x-unique in a schema', () => {
  it('on a property: the field is unique, the spec lists the rule, the DDL has its unique index', () => {
    const s = tmpThingSchema();
    s.properties.name['x-unique'] = true;
    const spec = specFromSchema(FILE, s);
    expect(spec.fields.find((f) => f.name === 'name')!.unique).toBe(true);
    expect(spec.fields.find((f) => f.name === 'amount')!.unique).toBeUndefined();
    expect(uniqueRules(spec)).toEqual([['name']]);
    expect(uniqueIndexes(spec)).toEqual([{ name: 'uq_tmp_thing_name', columns: ['name'], properties: ['name'] }]);
    for (const dialect of ['sqlite', 'postgres'] as const)
      expect(emitDdl([spec], dialect)).toContain('create unique index if not exists "uq_tmp_thing_name" on "tmp_thing" ("name");');
  });

  it('at the root: one rule over several properties, or several rules', () => {
    const s = tmpThingSchema();
    s['x-unique'] = ['kind', 'onDate'];
    let spec = specFromSchema(FILE, s);
    expect(spec.unique).toEqual([['kind', 'onDate']]);
    expect(uniqueIndexes(spec)[0]).toMatchObject({ name: 'uq_tmp_thing_kind_on_date', columns: ['kind', 'on_date'] });
    s['x-unique'] = [
      ['kind', 'onDate'],
      ['name', 'amount'],
    ];
    spec = specFromSchema(FILE, s);
    expect(uniqueRules(spec)).toEqual([
      ['kind', 'onDate'],
      ['name', 'amount'],
    ]);
  });

  it('refuses an object or an array property, naming x-unique', () => {
    for (const type of ['object', 'array', ['string', 'null']]) {
      const s = tmpThingSchema();
      s.properties.tags = { type, title: '标签', 'x-unique': true };
      const err = problemOf(s);
      expect(err.file).toBe(FILE);
      expect(err.path).toBe('/properties/tags/x-unique');
      expect(err.problem).toMatch(/one scalar value \(integer, number or string\)/);
    }
  });

  it('refuses a boolean, an automatic property, an unbounded text, and a value other than true', () => {
    const bad = (prop: string, value: unknown, problem: RegExp, edit?: (s: TestSchema) => void) => {
      const s = tmpThingSchema();
      edit?.(s);
      s.properties[prop]['x-unique'] = value;
      const err = problemOf(s);
      expect(err.path).toBe(`/properties/${prop}/x-unique`);
      expect(err.problem).toMatch(problem);
    };
    bad('active', true, /boolean/);
    bad('id', true, /unique already/);
    bad('createTime', true, /set by the server/);
    bad('name', true, /maxLength of at most 600/, (s) => delete s.properties.name.maxLength);
    bad('name', 'yes', /must be true/);
    // a 409 for a taken value would tell a caller who sees the field masked whether a guess is stored
    bad('phone', true, /masked/);
  });

  it('refuses a root rule of one property, an unknown property, a repeated rule and too much text', () => {
    const bad = (value: unknown, path: string, problem: RegExp, edit?: (s: TestSchema) => void) => {
      const s = tmpThingSchema();
      edit?.(s);
      s['x-unique'] = value;
      const err = problemOf(s);
      expect(err.path).toBe(path);
      expect(err.problem).toMatch(problem);
    };
    bad(['name'], '/x-unique', /2 to 4 different properties.*"x-unique": true on it/);
    bad(['name', 'name'], '/x-unique', /2 to 4 different/);
    bad(['name', 'nope'], '/x-unique/1', /"nope" is not a property/);
    bad(['name', 'active'], '/x-unique/1', /boolean/);
    bad(['kind', 'phone'], '/x-unique/1', /masked/);
    bad(
      [
        ['name', 'kind'],
        ['kind', 'name'],
      ],
      '/x-unique/1',
      /listed twice/,
    );
    bad(['name', 'kind'], '/x-unique', /at most 600 in all/, (s) => {
      s.properties.name.maxLength = 500;
      s.properties.name.errorMessage = { minLength: '名称不能为空', maxLength: '名称长度不能超过500个字符' };
      s.properties.kind.maxLength = 200;
    });
    bad('name', '/x-unique', /must list the properties/);
  });
});
