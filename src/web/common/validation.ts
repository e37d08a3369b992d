/**
 * Client-side checks from the resource spec, with the schema's own Chinese messages
 * (FieldSpec.messages), so the dialog says the same as the server would.
 */
import type { FieldSpec, ResourceSpec } from '../../shared/resource-spec.ts';
import { isMoneyAmount, MONEY_LIMIT, MONEY_MESSAGE } from '../../shared/money.ts';

interface PropertyRules {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
}

function rulesOf(spec: ResourceSpec, field: FieldSpec): PropertyRules {
  const properties = (spec.schema as { properties?: Record<string, PropertyRules> }).properties ?? {};
  return properties[field.name] ?? {};
}

function blank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** The first problem with one value, or undefined. */
export function checkField(spec: ResourceSpec, field: FieldSpec, value: unknown): string | undefined {
  const m = field.messages;
  const rules = rulesOf(spec, field);
  if (blank(value)) return field.required ? m.required || `${field.title}不能为空` : undefined;
  if (field.type === 'integer' || field.type === 'number') {
    const n = typeof value === 'number' ? value : Number(value);
    if (Number.isNaN(n) || (field.type === 'integer' && !Number.isInteger(n))) return m.type || '请输入数字';
    if (rules.minimum !== undefined && n < rules.minimum) return m.minimum || `${field.title}不能小于${rules.minimum}`;
    if (rules.exclusiveMinimum !== undefined && n <= rules.exclusiveMinimum)
      return m.exclusiveMinimum || `${field.title}必须大于${rules.exclusiveMinimum}`;
    if (rules.maximum !== undefined && n > rules.maximum) return m.maximum || `${field.title}不能大于${rules.maximum}`;
    if (rules.exclusiveMaximum !== undefined && n >= rules.exclusiveMaximum)
      return m.exclusiveMaximum || `${field.title}必须小于${rules.exclusiveMaximum}`;
    // money: the server's x-money keyword, same message
    if (field.money && Math.abs(n) > MONEY_LIMIT) return `${field.title}数值过大`;
    if (field.money && !isMoneyAmount(n)) return MONEY_MESSAGE;
    return undefined;
  }
  if (field.type === 'string') {
    const text = String(value);
    if (rules.minLength !== undefined && text.length < rules.minLength) return m.minLength || m.required || `${field.title}长度不足`;
    if (rules.maxLength !== undefined && text.length > rules.maxLength)
      return m.maxLength || `${field.title}长度不能超过${rules.maxLength}个字符`;
    if (rules.pattern && !new RegExp(rules.pattern, 'u').test(text)) return m.pattern || `${field.title}格式不正确`;
    if (rules.enum && !rules.enum.includes(text)) return m.enum || `${field.title}取值不正确`;
  }
  return undefined;
}

/** A react-admin validator for one field. */
export function fieldValidator(spec: ResourceSpec, field: FieldSpec) {
  const validate = (value: unknown) => checkField(spec, field, value);
  // react-admin reads isRequired to show the required marker next to the label
  return Object.assign(validate, { isRequired: field.required });
}

/** Errors of a whole form, in field order (the first one is shown and focused). */
export function checkRecord(spec: ResourceSpec, fields: FieldSpec[], values: Record<string, unknown>): Array<[string, string]> {
  const errors: Array<[string, string]> = [];
  for (const field of fields) {
    const message = checkField(spec, field, values[field.name]);
    if (message) errors.push([field.name, message]);
  }
  return errors;
}
