/**
 * Reading revisions (revisions.ts): a record's history newest first with a field-by-field diff,
 * the record's state as of an earlier revision (for 恢复到此版本), and the recycle bin (回收站):
 * the delete revisions still marked `in_bin`, brought back with their ids or purged for good.
 *
 * A record's state at a revision is worked out backwards from what is stored now (or, for a
 * record in the recycle bin, from its delete snapshot): every later update, status move and
 * restore is undone with its old values. Import revisions keep no values; their diff is derived
 * the same way (the values as imported). Retention removes the oldest revisions first, so the
 * revisions kept always reach back from now without a gap.
 */
import { mask } from '../../../shared/masks.ts';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import type { Database, Db } from '../../types.ts';
import { dateTimeText, fromColumnValue } from '../values.ts';
import {
  COLUMN_CHANGES,
  RECORDED_ONLY,
  REVISION_TABLE,
  snapshotChanges,
  type ActorKind,
  type Changes,
  type RevisionAction,
} from './revisions.ts';

/** At most this many revisions of one record are read (newest first). */
export const HISTORY_MAX = 1000;

export interface StoredRevision {
  id: number;
  recordId: number;
  action: RevisionAction;
  actorKind: ActorKind;
  actorName: string | null;
  time: string;
  changes: Changes | null;
  inBin: boolean;
}

/** One changed field of a history entry, as the API answers it. */
export interface FieldChange {
  field: string;
  title: string;
  old: unknown;
  new: unknown;
}

export interface HistoryEntry {
  id: number;
  action: RevisionAction;
  actorKind: ActorKind;
  actorName: string | null;
  time: string;
  changes: FieldChange[];
}

const timeText = (v: unknown) => (v instanceof Date ? dateTimeText(v) : typeof v === 'string' ? v : '');

/** A stored value (column form, as PostgreSQL's JSON writes it) as the API shows it. */
function columnValue(field: FieldSpec, value: unknown): unknown {
  if (field.format === 'date-time' && typeof value === 'string') return value.replace('T', ' ').slice(0, 19);
  return fromColumnValue(field, value);
}

function parseChanges(text: unknown, spec: ResourceSpec | undefined): Changes | null {
  if (typeof text !== 'string' || !text) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const changes = parsed as Record<string, unknown>;
  if (!changes[COLUMN_CHANGES]) return changes as Changes;
  // keyed by column with stored values: by property, as the API shows them
  const out: Changes = {};
  for (const [column, pair] of Object.entries(changes)) {
    const field = spec?.fields.find((f) => f.column === column);
    if (!field || !Array.isArray(pair)) continue;
    out[field.name] = [columnValue(field, pair[0]), columnValue(field, pair[1])];
  }
  return out;
}

export function toStoredRevision(r: Record<string, unknown>, spec?: ResourceSpec): StoredRevision {
  return {
    id: Number(r.id),
    recordId: Number(r.record_id),
    action: String(r.action) as RevisionAction,
    actorKind: String(r.actor_kind) as ActorKind,
    actorName: (r.actor_name as string | null) ?? null,
    time: timeText(r.create_time),
    changes: parseChanges(r.changes, spec),
    inBin: r.in_bin === true || r.in_bin === 1 || r.in_bin === '1',
  };
}

/** The revisions of one record, newest first. */
export async function revisionsOf(db: Db, spec: ResourceSpec, recordId: number): Promise<StoredRevision[]> {
  const rows = await db
    .selectFrom(REVISION_TABLE)
    .selectAll()
    .where('resource', '=', spec.name)
    .where('record_id', '=', recordId)
    .orderBy('id', 'desc')
    .limit(HISTORY_MAX)
    .execute();
  return rows.map((r) => toStoredRevision(r, spec));
}

/** The record a delete revision holds (its values before the delete, with its id). */
export function deletedRecord(spec: ResourceSpec, revision: StoredRevision): Record<string, unknown> {
  const id = spec.fields.find((f) => f.auto === 'id')!;
  const out: Record<string, unknown> = { [id.name]: revision.recordId };
  for (const f of spec.fields) if (f !== id) out[f.name] = revision.changes?.[f.name]?.[0] ?? null;
  return out;
}

/** Whether undoing the revision means putting back its old values (changes of a record that stays). */
const undoable = (r: StoredRevision) => !!r.changes && (r.action === 'update' || r.action === 'status' || r.action === 'restore');

/**
 * Walks the revisions (newest first) from `state` (the record after the newest one) back in
 * time; `visit` sees each revision with the record's state right after it.
 */
function walkBack(
  spec: ResourceSpec,
  start: Record<string, unknown>,
  revisions: StoredRevision[],
  visit: (r: StoredRevision, after: Record<string, unknown>) => void,
): void {
  let state = { ...start };
  for (const r of revisions) {
    visit(r, state);
    if (r.action === 'delete') state = deletedRecord(spec, r);
    else if (undoable(r)) {
      state = { ...state };
      for (const [name, [old]] of Object.entries(r.changes!)) state[name] = old;
    }
  }
}

/** The record now, or its newest delete snapshot when it is gone; undefined when there is neither. */
function latestState(spec: ResourceSpec, current: Record<string, unknown> | undefined, revisions: StoredRevision[]) {
  if (current) return current;
  const deleted = revisions.find((r) => r.action === 'delete');
  return deleted ? deletedRecord(spec, deleted) : undefined;
}

function maskValue(field: FieldSpec | undefined, value: unknown): unknown {
  if (!field?.mask || value === null || value === undefined || value === '') return value;
  return mask(field.mask, value);
}

/**
 * The history entries of a record, newest first: who, when, what, and each changed field with
 * its title, old and new value (personal fields masked when `masked`). Undefined when the record
 * has no revision and does not exist.
 */
export function historyEntries(
  spec: ResourceSpec,
  current: Record<string, unknown> | undefined,
  revisions: StoredRevision[],
  masked: boolean,
): HistoryEntry[] {
  const start = latestState(spec, current, revisions) ?? {};
  const byName = new Map(spec.fields.map((f) => [f.name, f]));
  const entries: HistoryEntry[] = [];
  walkBack(spec, start, revisions, (r, after) => {
    // an import keeps no values: they are the record's state right after it
    const changes = r.changes ?? (r.action === 'import' ? snapshotChanges(spec, after, 'new') : {});
    const list: FieldChange[] = [];
    for (const f of spec.fields) {
      const pair = changes[f.name];
      if (!pair) continue;
      list.push({
        field: f.name,
        title: f.title,
        old: masked ? maskValue(byName.get(f.name), pair[0]) : pair[0],
        new: masked ? maskValue(byName.get(f.name), pair[1]) : pair[1],
      });
    }
    // recorded facts without a field (that a password changed): never a value, shown as recorded
    for (const [name, title] of Object.entries(RECORDED_ONLY)) {
      const pair = changes[name];
      if (pair && !byName.has(name)) list.push({ field: name, title, old: pair[0], new: pair[1] });
    }
    entries.push({ id: r.id, action: r.action, actorKind: r.actorKind, actorName: r.actorName, time: r.time, changes: list });
  });
  return entries;
}

/** Why a record cannot go back to a revision (the caller answers it as 4xx). */
export class RestoreRefused extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export const REVISION_NOT_FOUND = '历史版本不存在';
export const REVISION_IS_DELETE = '该版本是删除记录，请在回收站中恢复';
export const RECORD_IN_BIN = '数据已删除，请在回收站中恢复';
export const NOTHING_TO_RESTORE = '当前数据与该版本一致，无需恢复';

/** The record's state right after `revisionId`, worked out from the record as stored now. */
export function stateAt(
  spec: ResourceSpec,
  current: Record<string, unknown> | undefined,
  revisions: StoredRevision[],
  revisionId: number,
): Record<string, unknown> {
  const target = revisions.find((r) => r.id === revisionId);
  if (!target) throw new RestoreRefused(404, REVISION_NOT_FOUND);
  if (target.action === 'delete') throw new RestoreRefused(400, REVISION_IS_DELETE);
  if (!current) throw new RestoreRefused(404, RECORD_IN_BIN);
  let found: Record<string, unknown> | undefined;
  walkBack(spec, current, revisions, (r, after) => {
    if (r.id === revisionId) found = after;
  });
  return found!;
}

/** The update body that brings `current` to `state`: the id and every writable field that differs. */
export function restoreBody(spec: ResourceSpec, current: Record<string, unknown>, state: Record<string, unknown>): Record<string, unknown> {
  const id = spec.fields.find((f) => f.auto === 'id')!;
  const body: Record<string, unknown> = { [id.name]: current[id.name] };
  let changed = 0;
  for (const f of spec.fields) {
    if (f.auto || f.readOnly || !(f.name in state)) continue;
    const want = state[f.name] ?? null;
    if (JSON.stringify(want) === JSON.stringify(current[f.name] ?? null)) continue;
    body[f.name] = want;
    changed++;
  }
  if (!changed) throw new RestoreRefused(400, NOTHING_TO_RESTORE);
  return body;
}

/** The recycle bin's entry of each id (its delete revision still in the bin), by record id. */
export async function binEntries(database: Database, spec: ResourceSpec, ids: number[]): Promise<Map<number, StoredRevision>> {
  const out = new Map<number, StoredRevision>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await database.db
      .selectFrom(REVISION_TABLE)
      .selectAll()
      .where('resource', '=', spec.name)
      .where('record_id', 'in', ids.slice(i, i + 500))
      .where('action', '=', 'delete')
      .where('in_bin', '=', database.dialect === 'postgres' ? true : 1)
      .orderBy('id', 'desc')
      .execute();
    for (const r of rows.map((row) => toStoredRevision(row, spec))) if (!out.has(r.recordId)) out.set(r.recordId, r);
  }
  return out;
}

export { maskValue };
