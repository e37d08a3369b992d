/**
 * A write the database refuses because a value does not fit its column or rule (a text longer
 * than its varchar, a number out of range, a duplicate of a unique key, a missing value): the
 * schema and the database disagree, or the value does. The start keeps them in step
 * (migrate.ts), so this is the last guard: the answer is a 4xx saying nothing was stored, never
 * a 500. SQLSTATE class 22 is "data exception", 23 "integrity constraint violation".
 */
export const DATA_MISMATCH = '保存失败：数据不符合数据库的字段定义，未保存任何内容，请联系系统管理员';
export const DUPLICATE_VALUE = '保存失败：与已有记录重复，未保存任何内容';

export function dataMismatch(error: unknown): { status: number; message: string } | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
    return { status: 409, message: DUPLICATE_VALUE };
  if (/^2[23][0-9A-Z]{3}$/.test(code) || code === 'SQLITE_CONSTRAINT_NOTNULL' || code === 'SQLITE_TOOBIG' || code === 'SQLITE_MISMATCH') {
    return { status: 400, message: DATA_MISMATCH };
  }
  return null;
}
