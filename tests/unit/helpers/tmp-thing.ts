/**
 * A property of a test schema. Tests set any keyword, of any type, to see it refused; the nested
 * keywords they change in place are typed (present only on the properties that have them).
 */
export interface TestProperty {
  [keyword: string]: unknown;
  'x-list'?: Record<string, unknown>;
  'x-options'?: Array<{ value: unknown; label: string }>;
  errorMessage?: Record<string, string>;
}

/** An entity schema as the codegen tests change it before handing it to specFromSchema. */
export interface TestSchema {
  [keyword: string]: unknown;
  'x-entity': Record<string, unknown>;
  properties: Record<string, TestProperty>;
  required: string[];
  errorMessage: { required: Record<string, string> };
}

/** A small valid entity schema for codegen tests: `tmpThing`, one field of each kind. */
export function tmpThingSchema(): TestSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'tmpThing',
    title: '临时物品',
    type: 'object',
    'x-entity': { name: 'tmpThing', title: '临时物品', search: ['name'] },
    'x-purpose': '测试：联系物品登记人',
    'x-retention': { days: 30, after: 'createTime' },
    'x-erase': { mode: 'anonymize', fields: ['phone'] },
    properties: {
      id: { type: 'integer', title: 'ID', 'x-auto': 'id' },
      name: {
        type: 'string',
        title: '名称',
        minLength: 1,
        maxLength: 50,
        'x-filter': 'like',
        'x-list': { order: 1, width: 120 },
        errorMessage: { minLength: '名称不能为空', maxLength: '名称长度不能超过50个字符' },
      },
      amount: { type: 'number', title: '金额', minimum: 0, 'x-filter': 'between', 'x-list': { order: 2 } },
      kind: {
        type: 'string',
        title: '类型',
        maxLength: 10,
        enum: ['甲', '乙'],
        default: '甲',
        'x-options': [
          { value: '甲', label: '甲类' },
          { value: '乙', label: '乙类' },
        ],
        'x-filter': 'eq',
        errorMessage: { enum: '类型只能是甲或乙' },
      },
      onDate: { type: 'string', title: '日期', format: 'date' },
      phone: {
        type: 'string',
        title: '电话',
        pattern: '^(1[3-9]\\d{9})?$',
        'x-mask': 'phone',
        'x-column': 'phone_no',
        errorMessage: { pattern: '请输入正确的11位手机号码' },
      },
      active: { type: 'boolean', title: '启用', default: true },
      createTime: { type: 'string', title: '创建时间', format: 'date-time', 'x-auto': 'createTime', 'x-filter': 'between' },
    },
    required: ['name'],
    errorMessage: { required: { name: '名称不能为空' } },
  };
}
