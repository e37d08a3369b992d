/**
 * Values between JSON, the database and spreadsheets: date texts, booleans stored as 0/1 in
 * SQLite, money (yuan in JSON) stored as integer cents, JSON property names to columns and back.
 */
import type { FieldSpec, ResourceSpec } from '../../shared/resource-spec.ts';
import type { Dialect } from '../types.ts';
import { isApiDate, isApiDateTime } from '../../shared/schema-ajv.ts';
import { fromCents, toCents } from '../../shared/money.ts';

/** 'YYYY-MM-DD' naming a real calendar day. */
export const isDateText = isApiDate;

/** 'YYYY-MM-DD HH:mm:ss' (a 'T' separator is accepted) naming a real instant. */
export function isDateTimeText(text: string): boolean {
  return text.length === 19 && (text[10] === ' ' || text[10] === 'T') && isApiDateTime(`${text.slice(0, 10)} ${text.slice(11)}`);
}

/** A valid date-time text in the stored shape (space separator). */
export function normalizeDateTime(text: string): string {
  return text.replace('T', ' ');
}

const pad = (n: number) => String(n).padStart(2, '0');

export function dateText(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function dateTimeText(d: Date): string {
  return `${dateText(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A JSON value as the database stores it. */
export function toColumnValue(field: FieldSpec, value: unknown, dialect: Dialect): unknown {
  if (value === undefined || value === null) return null;
  if (field.type === 'boolean') return dialect === 'sqlite' ? (value ? 1 : 0) : Boolean(value);
  // money is stored as integer cents
  if (field.money && typeof value === 'number') return toCents(value);
  if (field.type === 'string' && field.format === 'date-time' && typeof value === 'string') return normalizeDateTime(value);
  return value;
}

/** A stored value as JSON shows it. */
export function fromColumnValue(field: FieldSpec, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (field.type === 'boolean') return value === true || value === 1 || value === '1' || value === 't';
  if (field.money) return fromCents(value);
  if ((field.type === 'integer' || field.type === 'number') && typeof value !== 'number') return Number(value);
  if (field.type === 'string' && value instanceof Date) {
    return field.format === 'date' ? dateText(value) : dateTimeText(value);
  }
  return value;
}

/** A table row as the API's JSON record. */
export function rowToRecord(spec: ResourceSpec, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of spec.fields) {
    if (f.column in row) out[f.name] = fromColumnValue(f, row[f.column]);
  }
  return out;
}

/** JSON values (by property name) as a row to insert or update (by column name). */
export function recordToRow(spec: ResourceSpec, values: Record<string, unknown>, dialect: Dialect): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of spec.fields) {
    if (f.name in values) row[f.column] = toColumnValue(f, values[f.name], dialect);
  }
  return row;
}

export function idField(spec: ResourceSpec): FieldSpec {
  const id = spec.fields.find((f) => f.auto === 'id');
  if (!id) throw new Error(`resource ${spec.name} has no id field`);
  return id;
}
