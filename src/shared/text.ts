/**
 * The text String(v) gives for a value from outside (a JSON body, a query string, a database
 * row), with every kind of value such input holds named: strings as they are; numbers,
 * booleans, null and undefined as String() writes them; arrays joined by commas (null and
 * undefined elements empty); dates as their toString(); any other object as '[object Object]'.
 */
export function plainText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'symbol') return v.toString();
  if (Array.isArray(v)) return v.map((x: unknown) => (x === null || x === undefined ? '' : plainText(x))).join(',');
  if (v instanceof Date) return v.toString();
  return '[object Object]';
}
