import { describe, expect, it } from 'vitest';
import { createSchemaAjv, isApiDate, isApiDateTime, knownKeywords } from '../../src/shared/schema-ajv.ts';
import { projectSpec } from './helpers/project-specs.ts';

describe('the shared ajv configuration', () => {
  it('knows JSON Schema, ajv-errors and our x- keywords only', () => {
    const k = knownKeywords(createSchemaAjv());
    for (const w of ['type', 'title', 'pattern', 'errorMessage', 'x-entity', 'x-list', 'x-options']) expect(k.has(w), w).toBe(true);
    expect(k.has('x-bar')).toBe(false);
    expect(() => createSchemaAjv().compile({ type: 'string', maxlen: 3 })).toThrow(/unknown keyword/);
  });

  it('uses the API date formats', () => {
    expect(isApiDateTime('2024-02-29 23:59:59')).toBe(true);
    expect(isApiDateTime('2023-02-29 10:00:00')).toBe(false);
    expect(isApiDateTime('2024-01-01T10:00:00Z')).toBe(false);
    expect(isApiDateTime('2024-01-01 24:00:00')).toBe(false);
    expect(isApiDate('2024-12-31')).toBe(true);
    expect(isApiDate('2024-13-01')).toBe(false);
    const ajv = createSchemaAjv();
    const dt = ajv.compile({ type: 'string', format: 'date-time' });
    expect(dt('2024-01-01 10:00:00')).toBe(true);
    expect(dt('2024-01-01T10:00:00')).toBe(false);
  });

  it('validates feedback bodies with the spec messages', () => {
    const q = projectSpec('sysQuestion');
    const validate = createSchemaAjv().compile(q.schema);
    expect(validate({})).toBe(false);
    expect(validate.errors!.map((e) => e.message).sort()).toEqual(['模块不能为空', '身份不能为空', '问题描述不能为空'].sort());
    expect(validate({ userType: '员工', model: '系统', content: '无法登录', mobile: '123' })).toBe(false);
    expect(validate.errors!.map((e) => e.message)).toEqual(['请输入正确的11位手机号码']);
    expect(validate({ userType: '员工', model: '系统', content: '无法登录', mobile: '13800138000', status: false })).toBe(true);
    expect(validate({ userType: '员工', model: '系统', content: '无法登录', createTime: '2024-01-01 00:00:00' })).toBe(false);
  });

  it('validates posting bodies with the spec messages', () => {
    const zp = projectSpec('staffunZp');
    const validate = createSchemaAjv().compile(zp.schema);
    expect(validate({})).toBe(false);
    expect(validate.errors!.map((e) => e.message).sort()).toEqual(
      [
        '所属部门不能为空',
        '招聘岗位不能为空',
        '工作区域不能为空',
        '岗位职责不能为空',
        '任职要求不能为空',
        '招聘人数不能为空',
        '是否启用不能为空',
        '薪资待遇不能为空',
      ].sort(),
    );
  });
});
