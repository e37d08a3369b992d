/**
 * Reads and writes of sales leads (潜客档案, schema xsSubmersibleFile) and their contact
 * records, by JSON property names, inside the caller's transaction.
 */
import { fieldByName, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { recordToRow, rewritePinyinKeys, rowToRecord, writePinyinKeys } from '../../crud/index.ts';
import type { Database, Db } from '../../types.ts';

/** 跟进状态 */
export const LeadStatus = {
  unassigned: 0, // 待分配
  pending: 1, // 待处理
  following: 2, // 跟进中
  defeated: 3, // 已战败
  won: 4, // 已成交
  dormant: 5, // 休眠
} as const;

/** statuses of a lead still being worked (a "valid" clue) */
export const OPEN_STATUSES: number[] = [LeadStatus.unassigned, LeadStatus.pending, LeadStatus.following, LeadStatus.dormant];

/** 阶段 */
export const LeadStage = { clue: 1, file: 2 } as const;

export type Lead = Record<string, unknown> & { id: number };

export function col(spec: ResourceSpec, name: string): string {
  const f = fieldByName(spec, name);
  if (!f) throw new Error(`${spec.name} has no property ${name}`);
  return f.column;
}

export function columns(spec: ResourceSpec): string[] {
  return spec.fields.map((f) => f.column);
}

export async function leadsByIds(db: Db, spec: ResourceSpec, ids: number[]): Promise<Lead[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom(spec.table).select(columns(spec)).where(col(spec, 'id'), 'in', ids).execute();
  return rows.map((r) => rowToRecord(spec, r) as Lead);
}

/** The open main clue of a mobile number in a company, if any. */
export async function openMainClue(
  db: Db,
  spec: ResourceSpec,
  dialect: Database['dialect'],
  mobile: string,
  orgId: number,
  exceptId?: number,
): Promise<Lead | undefined> {
  let q = db
    .selectFrom(spec.table)
    .select(columns(spec))
    .where(col(spec, 'mobile'), '=', mobile)
    .where(col(spec, 'orgId'), '=', orgId)
    .where(col(spec, 'isMain'), '=', dialect === 'sqlite' ? 1 : true)
    .where(col(spec, 'status'), 'in', OPEN_STATUSES);
  if (exceptId !== undefined) q = q.where(col(spec, 'id'), '<>', exceptId);
  const row = await q.orderBy(col(spec, 'id'), 'desc').limit(1).executeTakeFirst();
  return row ? (rowToRecord(spec, row) as Lead) : undefined;
}

export async function updateLeads(
  db: Db,
  spec: ResourceSpec,
  dialect: Database['dialect'],
  ids: number[],
  values: Record<string, unknown>,
): Promise<number> {
  if (!ids.length) return 0;
  const row = recordToRow(spec, values, dialect);
  const result = await db.updateTable(spec.table).set(row).where(col(spec, 'id'), 'in', ids).executeTakeFirst();
  for (const id of ids) await rewritePinyinKeys(db, spec, id, row);
  return Number(result.numUpdatedRows);
}

export async function insertRecord(
  db: Db,
  spec: ResourceSpec,
  dialect: Database['dialect'],
  values: Record<string, unknown>,
): Promise<Lead> {
  const row = await db
    .insertInto(spec.table)
    .values(recordToRow(spec, values, dialect))
    .returning(columns(spec))
    .executeTakeFirstOrThrow();
  await writePinyinKeys(db, spec, [row]);
  return rowToRecord(spec, row) as Lead;
}
