/**
 * Record history of the hand-written tables admins edit (users, roles, menus, departments,
 * dictionaries, settings; their specs in src/shared/table-history.ts). Their routes write with
 * their own SQL, so they record their revisions themselves, with this adapter of revisions.ts:
 * inside the transaction of the change, `before` reads the tracked state of the records it is
 * about to change, and `after` reads it again once written and writes one revision per record
 * that changed (create: no state before; delete: none after), in the same transaction. A change
 * that rolls back leaves no revision.
 *
 * The state is record-shaped (`{property: value}` as the spec's fields name them): columns of the
 * table, read through the spec, plus the lists a table keeps elsewhere (a user's roles, a role's
 * departments and menus), read by the table's `extra`.
 */
import type { FastifyRequest } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import type { Db, Dialect } from '../../types.ts';
import { diffRecords, revisionActor, snapshotChanges, writeRevisions, type RevisionAction, type RevisionRow } from './revisions.ts';
import { actorOf } from '../routes.ts';

export type TrackedState = Record<string, unknown>;
export type StateMap = Map<number, TrackedState>;

export interface TrackedTable {
  spec: ResourceSpec;
  /** id column of the table (default `id`) */
  idColumn?: string;
  /** properties kept outside the table's row (lists of ids), by record id */
  extra?: (db: Db, ids: number[]) => Promise<Map<number, TrackedState>>;
  /** the whole state of the records by id (replaces the column read; e.g. key-value settings) */
  read?: (db: Db, ids: number[]) => Promise<StateMap>;
  /** deleted records go to the table's 回收站 (their delete revision is marked `in_bin`; table-recycle-bin.ts) */
  bin?: boolean;
}

function columnValue(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return value === true || value === 1 || value === '1' || value === 't';
  if (type === 'integer' || type === 'number') return Number(value);
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The tracked state of these records now (absent ids are not in the map). */
export async function readTracked(db: Db, table: TrackedTable, ids: number[]): Promise<StateMap> {
  if (!ids.length) return new Map();
  if (table.read) return table.read(db, ids);
  const idColumn = table.idColumn ?? 'id';
  const fields = table.spec.fields.filter((f) => f.column && f.auto !== 'id');
  const out: StateMap = new Map();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom(table.spec.table)
      .select([idColumn, ...fields.map((f) => f.column)])
      .where(idColumn, 'in', ids.slice(i, i + 500))
      .execute();
    for (const row of rows as Array<Record<string, unknown>>) {
      const state: TrackedState = {};
      for (const f of fields) state[f.name] = columnValue(f.type, row[f.column]);
      out.set(Number(row[idColumn]), state);
    }
  }
  if (table.extra && out.size) {
    const more = await table.extra(db, [...out.keys()]);
    for (const [id, state] of out) Object.assign(state, more.get(id) ?? {});
  }
  return out;
}

/** Ids as a sorted list (a revision compares lists of ids as sets). */
export const sortedIds = (ids: unknown[]): number[] => [...new Set(ids.map(Number))].sort((a, b) => a - b);

/** Groups `rows` of (owner, id) pairs as sorted id lists by owner; every owner gets a list. */
export function idListsBy(owners: number[], rows: Array<[unknown, unknown]>, property: string): Map<number, TrackedState> {
  const lists = new Map<number, unknown[]>(owners.map((o) => [o, []]));
  for (const [owner, id] of rows) lists.get(Number(owner))?.push(id);
  return new Map([...lists].map(([o, l]) => [o, { [property]: sortedIds(l) }]));
}

/** A whole record as [null, value] or [value, null] pairs, empty lists left out like empty values. */
function snapshot(spec: ResourceSpec, state: TrackedState, side: 'old' | 'new') {
  const changes = snapshotChanges(spec, state, side);
  for (const [name, pair] of Object.entries(changes))
    if (Array.isArray(pair[side === 'old' ? 0 : 1]) && !(pair[side === 'old' ? 0 : 1] as unknown[]).length) delete changes[name];
  return changes;
}

/**
 * The revisions between two states of the same records: `create` for one absent before,
 * `delete` for one absent after (in the recycle bin when `inBin`), otherwise `action` with the
 * changed properties (none when nothing changed).
 */
export function tableRevisionRows(
  spec: ResourceSpec,
  action: RevisionAction,
  before: StateMap,
  after: StateMap,
  inBin = false,
): RevisionRow[] {
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const rows: RevisionRow[] = [];
  for (const id of ids) {
    const old = before.get(id);
    const now = after.get(id);
    if (!old && now) rows.push({ recordId: id, action: action === 'update' ? 'create' : action, changes: snapshot(spec, now, 'new') });
    else if (old && !now) rows.push({ recordId: id, action: 'delete', changes: snapshot(spec, old, 'old'), inBin });
    else if (old && now) {
      const changes = diffRecords(spec, old, now);
      if (Object.keys(changes).length) rows.push({ recordId: id, action, changes });
    }
  }
  return rows;
}

/**
 * Records the change of these records made by `write` (in the caller's transaction `trx`):
 * their state before and after, one revision for each that changed, by the request's caller.
 * Answers what `write` answers; `ids` may be given after the write (a new record's id) by
 * answering `{ result, ids }` from `idsAfter`.
 */
export async function trackChange<T>(
  trx: Db,
  dialect: Dialect,
  table: TrackedTable,
  request: FastifyRequest | undefined,
  action: RevisionAction,
  ids: number[],
  write: () => Promise<T>,
  idsAfter?: (result: T) => number[],
): Promise<T> {
  const before = await readTracked(trx, table, ids);
  const result = await write();
  const after = await readTracked(trx, table, idsAfter ? [...new Set([...ids, ...idsAfter(result)])] : ids);
  const rows = tableRevisionRows(table.spec, action, before, after, !!table.bin);
  await writeRevisions(trx, dialect, table.spec, revisionActor(request ? actorOf(request) : undefined), rows);
  return result;
}
