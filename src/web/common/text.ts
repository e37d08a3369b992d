/**
 * A field value as the screens print it: strings as they are, numbers and booleans in their usual
 * form, nothing (null or undefined) as '' and a list as its items joined by commas. Values read from
 * records and forms are `unknown`; this keeps their printing in one place instead of String() on
 * whatever arrives (an object would print as "[object Object]", so it is shown as its JSON).
 */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(textOf).join(',');
  if (value instanceof Date) return value.toString();
  return JSON.stringify(value) ?? '';
}

/** Like `${value}` for a plain value (so null prints as 'null'); an object prints as its JSON. */
export function stringOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return textOf(value);
}
