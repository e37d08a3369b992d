/**
 * The forms of the 系统管理 screens (用户, 角色, 菜单, 部门, 字典, 字典详情, 业务字典): one
 * definition per form of what each field must hold and the Chinese message when it does not.
 * The server checks a body against it before anything else (the first error is a 400 that names
 * its field: `{message, field}`), the browser checks every field before sending and marks each
 * one. The field checks are also the server's own readers of these bodies (access/input.ts), so
 * a message cannot differ between the two sides.
 */
import { isEmail, isMobile } from './validators.ts';

export type FormBody = Record<string, unknown>;

export interface FieldFormat {
  test: (value: string, body: FormBody) => boolean;
  message: string;
}

export interface FieldRule {
  /** the field's name in messages */
  label: string;
  type: 'text' | 'integer' | 'id' | 'ids';
  /** required always, or when the rest of the body says so */
  required?: boolean | ((body: FormBody) => boolean);
  /** the message when a required value is missing (default `${label}不能为空`) */
  missing?: string;
  /** text: the longest length; integer: the largest value */
  max?: number;
  /** integer: the smallest value */
  min?: number;
  /** what a present text must look like */
  formats?: FieldFormat[];
  /** where the value is in the body when not under the field's own key */
  value?: (body: FormBody) => unknown;
}

export type FormRules = Record<string, FieldRule>;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A text of at most `max` characters, trimmed; the server's requiredText/optionalText. */
export function textError(v: unknown, label: string, max: number, required: boolean, missing = `${label}不能为空`): string | undefined {
  if (blank(v)) return required ? missing : undefined;
  if (typeof v !== 'string') return required ? missing : `${label}格式不正确`;
  const t = v.trim();
  if (t.length > max) return `${label}长度不能超过${max}个字符`;
  if (t.includes('\u0000')) return `${label}包含非法字符`;
  return undefined;
}

/** An integer from min to max (given as a number or as digits); missing is fine unless required. */
export function integerError(v: unknown, label: string, min: number, max: number, required = false): string | undefined {
  if (v === undefined || v === null || v === '') return required ? `${label}必须是整数` : undefined;
  const n = typeof v === 'string' && /^-?\d{1,10}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) return `${label}必须是整数`;
  if (n < min || n > max) return `${label}必须在${min}到${max}之间`;
  return undefined;
}

/** A positive id (a number or digits). */
export function isPositiveId(v: unknown): boolean {
  const n = typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
}

const isRequired = (rule: FieldRule, body: FormBody) => (typeof rule.required === 'function' ? rule.required(body) : !!rule.required);

/** The message for one field of a body, or undefined when it is fine. */
export function fieldError(rule: FieldRule, key: string, body: FormBody): string | undefined {
  const v = rule.value ? rule.value(body) : body[key];
  const required = isRequired(rule, body);
  const missing = rule.missing ?? `${rule.label}不能为空`;
  switch (rule.type) {
    case 'text': {
      const m = textError(v, rule.label, rule.max ?? 255, required, missing);
      if (m || blank(v)) return m;
      const t = (v as string).trim();
      return rule.formats?.find((f) => !f.test(t, body))?.message;
    }
    case 'integer':
      return integerError(v, rule.label, rule.min ?? 0, rule.max ?? 999999, required);
    case 'id':
      if (v === undefined || v === null || v === '' || v === 0 || v === '0') return required ? missing : undefined;
      return isPositiveId(v) ? undefined : missing;
    case 'ids': {
      const list = Array.isArray(v) ? v : [];
      if (!list.length) return required ? missing : undefined;
      return undefined;
    }
  }
}

/** Every field's message: {field: message}, empty when the body is fine. */
export function checkForm(rules: FormRules, body: FormBody): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, rule] of Object.entries(rules)) {
    const m = fieldError(rule, key, body);
    if (m) out[key] = m;
  }
  return out;
}

/** The first field in error, in the form's order. */
export function firstFormError(rules: FormRules, body: FormBody): { field: string; message: string } | undefined {
  for (const [key, rule] of Object.entries(rules)) {
    const m = fieldError(rule, key, body);
    if (m) return { field: key, message: m };
  }
  return undefined;
}

// ---------- the forms ----------

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{2,32}$/;
export const WECOM_USER_ID = /^[A-Za-z0-9_.@-]{1,64}$/;
export const WECOM_USER_ID_MESSAGE = '企业微信账号只能包含字母、数字和 _ . @ -';
export const PERMISSION_PATTERN = /^[A-Za-z][A-Za-z0-9_]*:[A-Za-z][A-Za-z0-9_]*$/;
export const DICT_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
export const ROLE_LEVEL_MIN = 1;
export const ROLE_LEVEL_MAX = 999;

const truthy = (v: unknown) => v === true || v === 'true' || v === 1;
/** menuSort / deptSort / dictSort: eladmin's names for sort */
const sortOf = (alias: string) => (b: FormBody) => (b[alias] !== undefined && b.sort === undefined ? b[alias] : b.sort);
const menuType = (b: FormBody) => (b.type === undefined || b.type === null || b.type === '' ? 1 : Number(b.type));

export const USER_FORM: FormRules = {
  username: {
    label: '用户名',
    type: 'text',
    required: true,
    max: 32,
    formats: [{ test: (v) => USERNAME_PATTERN.test(v), message: '用户名只能包含字母、数字和下划线，长度2到32个字符' }],
  },
  nickName: { label: '昵称', type: 'text', required: true, max: 64 },
  phone: { label: '电话号码', type: 'text', max: 20, formats: [{ test: isMobile, message: '请输入正确的11位手机号码' }] },
  email: { label: '邮箱', type: 'text', max: 100, formats: [{ test: isEmail, message: '邮箱格式错误' }] },
  wecomUserId: {
    label: '企业微信账号',
    type: 'text',
    max: 64,
    formats: [{ test: (v) => WECOM_USER_ID.test(v), message: WECOM_USER_ID_MESSAGE }],
  },
  orgId: { label: '公司', type: 'id', required: true, missing: '请选择公司' },
  deptId: {
    label: '部门',
    type: 'id',
    required: true,
    missing: '请选择部门',
    value: (b) => b.deptId ?? (b.dept as FormBody | undefined)?.id,
  },
  roles: { label: '岗位', type: 'ids', required: true, missing: '请选择岗位' },
};

export const ROLE_FORM: FormRules = {
  name: { label: '角色名称', type: 'text', required: true, max: 64 },
  level: { label: '角色级别', type: 'integer', min: ROLE_LEVEL_MIN, max: ROLE_LEVEL_MAX },
  description: { label: '描述', type: 'text', max: 255 },
  depts: { label: '数据权限', type: 'ids', required: (b) => b.dataScope === '自定义', missing: '请选择数据权限' },
};

export const MENU_FORM: FormRules = {
  title: { label: '菜单标题', type: 'text', required: true, max: 100 },
  name: { label: '组件名称', type: 'text', max: 100 },
  component: { label: '组件路径', type: 'text', max: 255 },
  path: {
    label: '路由地址',
    type: 'text',
    max: 255,
    required: (b) => menuType(b) !== 2,
    formats: [
      { test: (v, b) => menuType(b) === 2 || !truthy(b.iFrame) || /^https?:\/\//i.test(v), message: '外链必须以http://或者https://开头' },
    ],
  },
  icon: { label: '菜单图标', type: 'text', max: 100 },
  sort: { label: '菜单排序', type: 'integer', min: 0, max: 999999, value: sortOf('menuSort') },
  permission: {
    label: '权限标识',
    type: 'text',
    max: 100,
    required: (b) => menuType(b) === 2,
    formats: [{ test: (v) => PERMISSION_PATTERN.test(v), message: '权限标识格式应为 模块:操作，例如 user:add' }],
  },
};

export const DEPT_FORM: FormRules = {
  name: { label: '部门名称', type: 'text', required: true, max: 100 },
  sort: { label: '排序', type: 'integer', min: 0, max: 999999, value: sortOf('deptSort') },
};

export const DICT_FORM: FormRules = {
  name: {
    label: '字典名称',
    type: 'text',
    required: true,
    max: 64,
    formats: [{ test: (v) => DICT_NAME_PATTERN.test(v), message: '字典名称只能包含字母、数字和下划线，以字母开头' }],
  },
  description: { label: '描述', type: 'text', max: 255 },
};

export const DICT_DETAIL_FORM: FormRules = {
  label: { label: '字典标签', type: 'text', required: true, max: 100 },
  // a number or true/false is taken as its text
  value: {
    label: '字典值',
    type: 'text',
    required: true,
    max: 100,
    value: (b) => (typeof b.value === 'number' || typeof b.value === 'boolean' ? String(b.value) : b.value),
  },
  sort: { label: '排序', type: 'integer', min: 0, max: 999999, value: sortOf('dictSort') },
};

export const BUSI_DICT_FORM: FormRules = {
  code: { label: '编码', type: 'text', required: true, max: 64 },
  name: { label: '名称', type: 'text', required: true, max: 100 },
  value: { label: '值', type: 'text', max: 255 },
  sort: { label: '排序', type: 'integer', min: 0, max: 999999 },
};
