import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchemaError, specFromSchema } from '../../codegen/spec-from-schema.ts';
import { loadSchemas, loadSpecs } from '../../codegen/main.ts';
import { fieldByName, listFields } from '../../src/shared/resource-spec.ts';
import { tmpThingSchema, type TestSchema } from './helpers/tmp-thing.ts';

const FILE = 'schemas/tmpThing.json';

function schemaError(run: () => unknown): SchemaError {
  try {
    run();
  } catch (err) {
    if (err instanceof SchemaError) return err;
    throw new Error(`expected a SchemaError, got ${String(err)}`, { cause: err });
  }
  throw new Error('expected a SchemaError, but the schema was accepted');
}

/** Mutates a fresh copy of the valid tmpThing schema and expects the problem at `path`. */
function expectBad(mutate: (s: TestSchema) => void, path: string, problem: RegExp): SchemaError {
  const s = tmpThingSchema();
  mutate(s);
  const err = schemaError(() => specFromSchema(FILE, s));
  expect(err.file).toBe(FILE);
  expect(err.path).toBe(path);
  expect(err.problem).toMatch(problem);
  expect(err.message).toBe(`${FILE}: ${path}: ${err.problem}`);
  return err;
}

describe('specs from the real schemas', () => {
  const specs = loadSpecs('schemas');
  const q = specs.find((s) => s.name === 'sysQuestion')!;
  const zp = specs.find((s) => s.name === 'staffunZp')!;

  it('reads the entity settings of sysQuestion', () => {
    expect(q).toMatchObject({
      table: 'sys_question',
      path: 'api/sysQuestion',
      permission: 'sysQuestion',
      title: '问题反馈',
      sort: ['id,desc'],
      pageSize: 15,
      dialogWidth: 700,
      search: ['id', 'userType', 'model'],
      actions: ['add', 'edit', 'del', 'download', 'import'],
    });
  });

  it('reads sysQuestion fields with columns, inputs, options and messages', () => {
    expect(q.fields.map((f) => f.name)).toEqual([
      'id',
      'userType',
      'model',
      'title',
      'content',
      'remark',
      'username',
      'mobile',
      'status',
      'enabled',
      'createTime',
    ]);
    expect(fieldByName(q, 'id')).toMatchObject({ auto: 'id', readOnly: true, form: false, column: 'id' });
    expect(fieldByName(q, 'userType')).toMatchObject({
      column: 'user_type',
      required: true,
      input: 'select',
      filter: 'eq',
      dict: 'user_type',
      default: '员工',
      options: [
        { value: '员工', label: '员工' },
        { value: '客户', label: '客户' },
      ],
      messages: { enum: '身份只能是员工或客户', required: '身份不能为空' },
    });
    expect(fieldByName(q, 'model')!.messages.required).toBe('模块不能为空');
    expect(fieldByName(q, 'content')!.messages.required).toBe('问题描述不能为空');
    expect(fieldByName(q, 'status')).toMatchObject({ type: 'boolean', form: false, list: { order: 7, width: 200, editable: 'radio' } });
    expect(fieldByName(q, 'enabled')).toMatchObject({ input: 'switch', form: false, required: false, default: true });
    expect(fieldByName(q, 'mobile')).toMatchObject({ mask: 'phone', messages: { pattern: '请输入正确的11位手机号码' } });
    expect(fieldByName(q, 'createTime')).toMatchObject({
      auto: 'createTime',
      column: 'create_time',
      filter: 'between',
      readOnly: true,
      form: false,
    });
    expect(listFields(q).map((f) => f.name)).toEqual(['userType', 'model', 'title', 'content', 'remark', 'createTime', 'status']);
  });

  it('builds the body schema without our keywords and automatic fields', () => {
    const body = q.schema as {
      additionalProperties: unknown;
      properties: Record<string, Record<string, unknown>>;
      required: unknown;
      errorMessage: { required: Record<string, string> };
    };
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(body.properties)).not.toContain('createTime');
    expect(body.required).toEqual(['userType', 'model', 'content']);
    for (const [name, prop] of Object.entries(body.properties)) {
      const ours = Object.keys(prop).filter((k) => k.startsWith('x-') || k === 'title' || k === 'default');
      expect(ours, name).toEqual([]);
    }
    expect(body.properties.mobile).toEqual({
      type: 'string',
      pattern: '^(1[3-9]\\d{9})?$',
      errorMessage: { pattern: '请输入正确的11位手机号码' },
    });
    expect(body.errorMessage.required.content).toBe('问题描述不能为空');
  });

  it('reads staffunZp with every required message of the spec', () => {
    expect(zp).toMatchObject({
      table: 'staffun_zp',
      path: 'api/staffunZp',
      permission: 'staffunZp',
      pageSize: 15,
      actions: ['add', 'edit', 'del', 'download'],
    });
    const req = Object.fromEntries(zp.fields.filter((f) => f.required).map((f) => [f.name, f.messages.required]));
    expect(req).toEqual({
      deptId: '所属部门不能为空',
      job: '招聘岗位不能为空',
      money: '薪资待遇不能为空',
      address: '工作区域不能为空',
      jobNum: '招聘人数不能为空',
      jobZz: '岗位职责不能为空',
      jobYq: '任职要求不能为空',
      enabled: '是否启用不能为空',
    });
    expect(fieldByName(zp, 'deptId')).toMatchObject({
      ref: { resource: 'dept', path: 'api/dept', label: 'name' },
      column: 'dept_id',
      input: 'select',
    });
  });

  it('applies defaults for a schema that leaves the entity settings out', () => {
    const s = tmpThingSchema();
    const spec = specFromSchema(FILE, s);
    expect(spec).toMatchObject({
      name: 'tmpThing',
      table: 'tmp_thing',
      path: 'api/tmpThing',
      permission: 'tmpThing',
      sort: ['id,desc'],
      pageSize: 10,
      dialogWidth: 700,
      actions: ['add', 'edit', 'del', 'download', 'import'],
    });
    expect(fieldByName(spec, 'phone')!.column).toBe('phone_no');
    expect(fieldByName(spec, 'onDate')!.input).toBe('date');
    expect(fieldByName(spec, 'kind')!.input).toBe('select');
    expect(fieldByName(spec, 'amount')!.input).toBe('number');
  });
});

describe('bad schemas stop codegen with the file, the path and the problem', () => {
  it('unknown x- keyword on a property', () => {
    const err = expectBad((s) => (s.properties.name['x-bar'] = 1), '/properties/name/x-bar', /unknown keyword "x-bar"/);
    expect(err.message).toMatch(/^schemas\/tmpThing\.json: \/properties\/name\/x-bar: unknown keyword/);
  });
  it('unknown x- keyword at the root', () => {
    expectBad((s) => (s['x-menu'] = {}), '/x-menu', /unknown keyword "x-menu"/);
  });
  it('x- keyword in the wrong place', () => {
    expectBad((s) => (s.properties.name['x-entity'] = {}), '/properties/name/x-entity', /belongs at the root/);
    expectBad((s) => (s['x-filter'] = 'eq'), '/x-filter', /belongs on a property/);
  });
  it('x- keyword nested below a property', () => {
    expectBad((s) => (s.properties.name.anyOf = [{ 'x-list': {} }]), '/properties/name/anyOf/0/x-list', /unknown keyword "x-list"/);
  });
  it('unknown JSON Schema keyword (strict mode)', () => {
    expectBad((s) => (s.properties.name.maxlen = 5), '/properties/name/maxlen', /unknown keyword "maxlen"/);
    expectBad((s) => (s.requierd = ['name']), '/requierd', /unknown keyword "requierd"/);
  });
  it('keyword with a wrong value (meta-schema)', () => {
    expectBad((s) => (s.properties.name.maxLength = 'fifty'), '/properties/name/maxLength', /must be integer/);
  });
  it('invalid regular expression', () => {
    expectBad((s) => (s.properties.phone.pattern = '^(1[3-9]'), '/properties/phone/pattern', /invalid regular expression/);
  });
  it('keyword that does not apply to the type (strict types)', () => {
    expectBad((s) => (s.properties.amount.minLength = 1), '/properties/amount', /minLength/);
  });
  it('a message quoting a limit other than its keyword (a limit changed, its message not)', () => {
    const err = expectBad(
      (s) => (s.properties.name.maxLength = 5),
      '/properties/name/errorMessage/maxLength',
      /names 50 but maxLength is 5/,
    );
    expect(err.message).toMatch(/^schemas\/tmpThing\.json: /);
    // the limit in force, a range naming it, or no number at all pass
    expect(() => specFromSchema('schemas/tmpThing.json', tmpThingSchema())).not.toThrow();
  });
  it('x-renamedFrom names the old property, not a current one', () => {
    expectBad((s) => (s.properties.name['x-renamedFrom'] = 'phone'), '/properties/name/x-renamedFrom', /still a property/);
    expectBad((s) => (s.properties.name['x-renamedFrom'] = 'name'), '/properties/name/x-renamedFrom', /before the rename/);
  });
  it('another JSON Schema dialect', () => {
    expectBad((s) => (s.$schema = 'http://json-schema.org/draft-07/schema#'), '/$schema', /2020-12/);
  });
  it('$id different from the entity name', () => {
    expectBad((s) => (s.$id = 'other'), '/$id', /must equal x-entity.name/);
  });
  it('required field without its Chinese message', () => {
    expectBad((s: Partial<TestSchema>) => delete s.errorMessage, '/errorMessage/required', /"name" needs its Chinese message/);
    expectBad((s) => s.required.push('kind'), '/errorMessage/required', /"kind".*"kind": "类型不能为空"/);
  });
  it('message that is not Chinese', () => {
    expectBad((s) => (s.errorMessage.required.name = 'name is required'), '/errorMessage/required/name', /Chinese/);
    expectBad((s) => (s.properties.name.errorMessage!.maxLength = 'too long'), '/properties/name/errorMessage/maxLength', /Chinese/);
  });
  it('message for a keyword the property does not have', () => {
    expectBad(
      (s) => (s.properties.name.errorMessage!.pattern = '格式不正确'),
      '/properties/name/errorMessage/pattern',
      /no "pattern" keyword/,
    );
  });
  it('required message for a property that is not required', () => {
    expectBad((s) => (s.errorMessage.required.kind = '类型不能为空'), '/errorMessage/required/kind', /not in "required"/);
  });
  it('required names an unknown property', () => {
    expectBad((s) => (s.required = ['nmae']), '/required/0', /"nmae" is not a property/);
  });
  it('an automatic field cannot be required', () => {
    expectBad(
      (s) => {
        s.required.push('createTime');
        s.errorMessage.required.createTime = '创建时间不能为空';
      },
      '/properties/createTime/x-auto',
      /cannot be in "required"/,
    );
  });
  it('filters that do not fit the type', () => {
    expectBad((s) => (s.properties.amount['x-filter'] = 'like'), '/properties/amount/x-filter', /"like".*this property is number/);
    expectBad((s) => (s.properties.active['x-filter'] = 'between'), '/properties/active/x-filter', /"between"/);
    expectBad((s) => (s.properties.active['x-filter'] = 'in'), '/properties/active/x-filter', /"in"/);
    expectBad((s) => (s.properties.createTime['x-filter'] = 'like'), '/properties/createTime/x-filter', /not a date/);
    expectBad((s) => (s.properties.name['x-filter'] = 'fuzzy'), '/properties/name/x-filter', /must be one of eq, like, between, in/);
  });
  it('a filter named like a list query parameter', () => {
    expectBad(
      (s) => {
        s.properties.sort = { type: 'integer', title: '排序', 'x-filter': 'eq' };
      },
      '/properties/sort/x-filter',
      /list query parameter/,
    );
  });
  it('x-list with an unknown key or an editable that does not fit', () => {
    expectBad((s) => (s.properties.name['x-list']!.colour = 'red'), '/properties/name/x-list/colour', /unknown key/);
    expectBad((s) => (s.properties.name['x-list'] = { width: 3 }), '/properties/name/x-list', /order/);
    expectBad((s) => (s.properties.name['x-list']!.editable = 'switch'), '/properties/name/x-list/editable', /boolean/);
    expectBad((s) => (s.properties.name['x-list']!.html = 'yes'), '/properties/name/x-list/html', /must be true/);
  });
  it('x-options values of another type', () => {
    expectBad(
      (s) => (s.properties.active['x-options'] = [{ value: 'yes', label: '是' }]),
      '/properties/active/x-options/0/value',
      /must be a boolean/,
    );
  });
  it('x-options and enum that disagree', () => {
    expectBad((s) => s.properties.kind['x-options']!.pop(), '/properties/kind/x-options', /missing from x-options: "乙"/);
    expectBad(
      (s) => s.properties.kind['x-options']!.push({ value: '丙', label: '丙类' }),
      '/properties/kind/x-options',
      /not in enum: "丙"/,
    );
  });
  it('enum values of another type', () => {
    expectBad((s) => (s.properties.kind.enum = ['甲', 2]), '/properties/kind/enum/1', /must be a string/);
  });
  it('a default that breaks its own rules', () => {
    expectBad((s) => (s.properties.kind.default = '丙'), '/properties/kind/default', /default/);
  });
  it('inputs that do not fit the property', () => {
    expectBad((s) => (s.properties.name['x-input'] = 'switch'), '/properties/name/x-input', /boolean/);
    expectBad((s) => (s.properties.name['x-input'] = 'select'), '/properties/name/x-input', /x-options, x-dict or x-ref/);
    expectBad((s) => (s.properties.name['x-input'] = 'date'), '/properties/name/x-input', /"format": "date"/);
    expectBad((s) => (s.properties.name['x-input'] = 'slider'), '/properties/name/x-input', /must be one of/);
  });
  it('masks and automatic fields on the wrong type', () => {
    expectBad((s) => (s.properties.amount['x-mask'] = 'phone'), '/properties/amount/x-mask', /string/);
    expectBad((s) => (s.properties.name['x-auto'] = 'createTime'), '/properties/name/x-auto', /date-time/);
  });
  it('x-ocr: a known call, answer fields of that call, string properties of the form to fill', () => {
    expectBad(
      (s) => (s.properties.name['x-ocr'] = { call: 'getIdCard', fill: { name: 'name' } }),
      '/properties/name/x-ocr/call',
      /must be one of getCph/,
    );
    expectBad(
      (s) => (s.properties.name['x-ocr'] = { call: 'getYhk', fill: { name: 'plate' } }),
      '/properties/name/x-ocr/fill/name',
      /cardNumber/,
    );
    expectBad((s) => (s.properties.name['x-ocr'] = { call: 'getYhk', fill: {} }), '/properties/name/x-ocr/fill', /at least one/);
    expectBad((s) => (s.properties.name['x-ocr'] = { call: 'getYhk' }), '/properties/name/x-ocr', /must be \{call/);
    expectBad(
      (s) => (s.properties.name['x-ocr'] = { call: 'getYhk', fill: { nowhere: 'cardNumber' } }),
      '/properties/name/x-ocr/fill/nowhere',
      /string property of the form/,
    );
    expectBad(
      (s) => (s.properties.name['x-ocr'] = { call: 'getYhk', fill: { amount: 'cardNumber' } }),
      '/properties/name/x-ocr/fill/amount',
      /string property of the form/,
    );
  });
  it('x-scope: "none" opts out only with a $comment saying why, and leaves no scope', () => {
    expectBad((s) => (s.properties.name['x-scope'] = 'none'), '/properties/name/$comment', /\$comment/);
    expectBad((s) => (s.properties.name['x-scope'] = 'store'), '/properties/name/x-scope', /must be one of dept, org, or "none"/);
    const s = tmpThingSchema();
    s.properties.name['x-scope'] = 'none';
    s.properties.name.$comment = 'a supplier name, not a department of the group';
    expect(specFromSchema(FILE, s).fields.find((f) => f.name === 'name')!.scope).toBeUndefined();
  });
  it('unsupported property type and format', () => {
    expectBad((s) => (s.properties.name.type = 'array'), '/properties/name/type', /must be one of integer, number, string, boolean/);
    expectBad((s) => (s.properties.name.format = 'ipv4'), '/properties/name/format', /format must be one of/);
  });
  it('missing id', () => {
    expectBad((s) => delete s.properties.id, '/properties/id', /"id" with "x-auto": "id"/);
  });
  it('bad x-entity settings', () => {
    expectBad((s) => (s['x-entity'].menu = true), '/x-entity/menu', /unknown key/);
    expectBad((s) => (s['x-entity'].pageSize = 20), '/x-entity/pageSize', /10, 15, 30, 45, 60, 100/);
    expectBad((s) => (s['x-entity'].dialogWidth = 800), '/x-entity/dialogWidth', /475, 500, 700, 1000, 1300/);
    expectBad((s) => (s['x-entity'].sort = ['nope,desc']), '/x-entity/sort/0', /field,asc\|desc/);
    expectBad((s) => (s['x-entity'].search = ['nope']), '/x-entity/search/0', /must name a property/);
    expectBad((s) => (s['x-entity'].actions = ['add', 'print']), '/x-entity/actions', /add, edit, del, download, import/);
    expectBad((s) => (s['x-entity'].path = '/api/tmpThing'), '/x-entity/path', /no leading slash/);
    expectBad((s) => delete s['x-entity'].title, '/x-entity/title', /Chinese title/);
    expectBad((s) => (s['x-entity'].renamedFrom = 'tmpThing'), '/x-entity/renamedFrom', /before the rename/);
    expectBad((s) => (s['x-entity'].renamedFrom = 'tmp-thing'), '/x-entity/renamedFrom', /before the rename/);
    expectBad((s: Partial<TestSchema>) => delete s['x-entity'], '/x-entity', /x-entity is required/);
  });
  it('indexes lists 2-4 properties with an eq or in filter; each becomes (columns..., id)', async () => {
    const { resourceIndexes } = await import('../../src/shared/column-types.ts');
    const ok = tmpThingSchema();
    ok.properties.phone['x-filter'] = 'eq';
    ok['x-entity'].indexes = [['kind', 'phone']];
    const spec = specFromSchema(FILE, ok);
    expect(spec.indexes).toEqual([['kind', 'phone']]);
    expect(resourceIndexes(spec)).toContainEqual(['kind', 'phone_no', 'id']);
    expect(specFromSchema(FILE, tmpThingSchema()).indexes).toBeUndefined();
    expectBad((s) => (s['x-entity'].indexes = []), '/x-entity/indexes', /non-empty array/);
    expectBad((s) => (s['x-entity'].indexes = [['kind']]), '/x-entity/indexes/0', /2 to 4 different/);
    expectBad((s) => (s['x-entity'].indexes = [['kind', 'kind']]), '/x-entity/indexes/0', /2 to 4 different/);
    expectBad((s) => (s['x-entity'].indexes = [['kind', 'amount']]), '/x-entity/indexes/0/1', /"eq" or "in"/);
    expectBad((s) => (s['x-entity'].indexes = [['kind', 'nope']]), '/x-entity/indexes/0/1', /"eq" or "in"/);
  });
  it('sysQuestion declares the (model, status) index its filtered list uses', async () => {
    const { resourceIndexes } = await import('../../src/shared/column-types.ts');
    const q = loadSpecs('schemas').find((s) => s.name === 'sysQuestion')!;
    expect(resourceIndexes(q)).toContainEqual(['model', 'status', 'id']);
  });
  it('ownedByApplicant must name a required integer owner with an eq filter; read names signedIn or keys', () => {
    const owned = (s: TestSchema) => {
      s.properties.staffunId = { type: 'integer', title: '应聘人员', minimum: 1, 'x-filter': 'eq' };
      s.required.push('staffunId');
      s.errorMessage.required.staffunId = '应聘人员不能为空';
      s['x-entity'].ownedByApplicant = 'staffunId';
    };
    const ok = tmpThingSchema();
    owned(ok);
    ok['x-entity'].read = ['signedIn', 'staff:list'];
    expect(specFromSchema(FILE, ok)).toMatchObject({ ownedByApplicant: 'staffunId', read: ['signedIn', 'staff:list'] });
    expect(specFromSchema(FILE, tmpThingSchema()).read).toBeUndefined();
    expect(specFromSchema(FILE, tmpThingSchema()).ownedByApplicant).toBeUndefined();
    expectBad((s) => (s['x-entity'].ownedByApplicant = 'nope'), '/x-entity/ownedByApplicant', /must name a property/);
    expectBad((s) => (s['x-entity'].ownedByApplicant = 'name'), '/x-entity/ownedByApplicant', /required integer/);
    expectBad(
      (s) => {
        owned(s);
        delete s.properties.staffunId['x-filter'];
      },
      '/x-entity/ownedByApplicant',
      /x-filter.*eq/,
    );
    expectBad(
      (s) => {
        owned(s);
        s.required = s.required.filter((r: string) => r !== 'staffunId');
        delete s.errorMessage.required.staffunId;
      },
      '/x-entity/ownedByApplicant',
      /required integer/,
    );
    expectBad((s) => (s['x-entity'].read = 'yes'), '/x-entity/read', /non-empty array/);
    expectBad((s) => (s['x-entity'].read = ['everyone']), '/x-entity/read/0', /signedIn.*permission key/);
    // the retired keyword is unknown now: reading is closed by default
    expectBad((s) => (s['x-entity'].listPermission = true), '/x-entity/listPermission', /unknown/);
  });
  it('two properties on one column', () => {
    expectBad((s) => (s.properties.phone['x-column'] = 'name'), '/properties/phone', /column "name" is used twice/);
  });
});

describe('the worked example of schemas/README.md', () => {
  it('is a valid schema that gives the table, routes and keys the README describes', () => {
    const readme = readFileSync('schemas/README.md', 'utf8');
    const block = /Create `schemas\/carBrand\.json`:\n\n```json\n([\s\S]*?)\n```/.exec(readme);
    expect(block).not.toBeNull();
    const spec = specFromSchema('schemas/carBrand.json', JSON.parse(block![1]));
    expect(spec).toMatchObject({
      name: 'carBrand',
      table: 'car_brand',
      path: 'api/carBrand',
      permission: 'carBrand',
      pageSize: 15,
      dialogWidth: 500,
    });
    expect(spec.fields.filter((f) => f.filter).map((f) => [f.name, f.filter])).toEqual([
      ['name', 'like'],
      ['enabled', 'eq'],
      ['createTime', 'between'],
    ]);
    expect(listFields(spec).map((f) => f.title)).toEqual(['品牌名称', '排序', '状态', '创建时间']);
    expect(spec.fields.filter((f) => f.form).map((f) => f.title)).toEqual(['品牌名称', '排序', '状态']);
    expect(fieldByName(spec, 'enabled')!.list!.editable).toBe('switch');
  });
});

describe('loading a schemas folder', () => {
  function folder(files: Record<string, string>): string {
    const dir = join(mkdtempSync(join(tmpdir(), 'codegen-load-')), 'schemas');
    mkdirSync(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  }

  it('reports invalid JSON with the file name', () => {
    const err = schemaError(() => loadSchemas(folder({ 'tmpThing.json': '{"type": "object",' })));
    expect(err.file).toBe(FILE);
    expect(err.problem).toMatch(/not valid JSON/);
  });

  it('requires the file to be named after the entity', () => {
    const err = schemaError(() => loadSchemas(folder({ 'thing.json': JSON.stringify(tmpThingSchema()) })));
    expect(err.file).toBe('schemas/thing.json');
    expect(err.path).toBe('/x-entity/name');
    expect(err.problem).toMatch(/schemas\/tmpThing\.json/);
  });

  it('refuses two entities on one table or one path', () => {
    const other = tmpThingSchema();
    other.$id = 'otherThing';
    other['x-entity'] = { name: 'otherThing', title: '另一物品', table: 'tmp_thing' };
    const err = schemaError(() =>
      loadSchemas(folder({ 'tmpThing.json': JSON.stringify(tmpThingSchema()), 'otherThing.json': JSON.stringify(other) })),
    );
    expect(err.path).toBe('/x-entity/table');
    expect(err.problem).toMatch(/table "tmp_thing" is already used by/);
  });

  it('x-entity.renamedFrom names the entity before the rename, not one that still exists', () => {
    const other = tmpThingSchema();
    other.$id = 'otherThing';
    other['x-entity'] = { name: 'otherThing', title: '另一物品', renamedFrom: 'tmpThing' };
    const err = schemaError(() =>
      loadSchemas(folder({ 'tmpThing.json': JSON.stringify(tmpThingSchema()), 'otherThing.json': JSON.stringify(other) })),
    );
    expect(err.file).toBe('schemas/otherThing.json');
    expect(err.path).toBe('/x-entity/renamedFrom');
    expect(err.problem).toMatch(/still an entity \(schemas\/tmpThing\.json\)/);
    expect(loadSpecs(folder({ 'otherThing.json': JSON.stringify(other) }))[0].renamedFrom).toBe('tmpThing');
  });
});

describe('x-money', () => {
  it('marks a number property as money: the spec says so, the column is integer cents, the body schema keeps the check', () => {
    const s = tmpThingSchema();
    s.properties.amount['x-money'] = true;
    const spec = specFromSchema(FILE, s);
    expect(fieldByName(spec, 'amount')!.money).toBe(true);
    expect((spec.schema.properties as Record<string, Record<string, unknown>>).amount['x-money']).toBe(true);
    expect(fieldByName(spec, 'name')!.money).toBeUndefined();
  });

  it('refuses it on a non-number, with a value other than true, and beside multipleOf', () => {
    expectBad((s) => (s.properties.name['x-money'] = true), '/properties/name/x-money', /number property/);
    expectBad((s) => (s.properties.amount['x-money'] = 'yes'), '/properties/amount/x-money', /must be true/);
    expectBad((s) => Object.assign(s.properties.amount, { 'x-money': true, multipleOf: 0.01 }), '/properties/amount/x-money', /multipleOf/);
  });
});
