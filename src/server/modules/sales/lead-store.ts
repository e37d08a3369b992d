/**
 * Reads and writes of sales leads (潜客档案, schema xsSubmersibleFile) and their contact
 * records, by JSON property names, inside the caller's transaction.
 */
import { fieldByName, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { rowToRecord } from '../../crud/index.ts';
import { insertRecorded, updateRecorded } from '../../crud/history/recorded-writes.ts';
import type { RevisionActor } from '../../crud/history/revisions.ts';
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

/** Sets values on leads (or their records) with their pinyin keys and a revision each (`status` for the moves of a lead). */
export async function updateLeads(
  db: Db,
  spec: ResourceSpec,
  dialect: Database['dialect'],
  actor: RevisionActor,
  ids: number[],
  values: Record<string, unknown>,
  action: 'update' | 'status' = 'status',
): Promise<number> {
  return updateRecorded(db, spec, dialect, actor, ids, values, action);
}

/** Inserts a lead or one of its records, with its pinyin keys and a `create` revision. */
export async function insertRecord(
  db: Db,
  spec: ResourceSpec,
  dialect: Database['dialect'],
  actor: RevisionActor,
  values: Record<string, unknown>,
): Promise<Lead> {
  return (await insertRecorded(db, spec, dialect, actor, values)) as Lead;
}
