/** Stored JSON read back as plain data: an object's fields as `unknown`, to be narrowed field by field. */
export type JsonRecord = Record<string, unknown>;

export function isJsonRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses `text` and returns it when it is a JSON object, otherwise null (damaged or another shape). */
export function parseJsonRecord(text: string | null): JsonRecord | null {
  if (!text) return null;
  const parsed: unknown = JSON.parse(text);
  return isJsonRecord(parsed) ? parsed : null;
}
