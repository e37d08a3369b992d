/**
 * A migration step carried into the entity's history and recycle bin (`sys_revision`), so that
 * what was stored before the schema changed still comes back:
 * - a renamed property is named by its new name in every revision, so an old version restores it
 *   and a deleted record keeps its value;
 * - a type change converts every value that converts (the same value in the new type); a value
 *   that does not is left as it was in the history, so the history stays true, and restoring that
 *   version is refused with the property's message;
 * - records in the recycle bin are rows that can come back: the reviewer's choice for the rows
 *   (`nonConverting: null`, `tooLong: truncate`, `replace`) applies to them too, so a restore
 *   from the bin is not refused for a value the table no longer accepts.
 * A revision names a property by its name, or by its column when it was written by the bulk
 * path (`$columns`, crud/history/revisions.ts); both are handled.
 */
import { sql } from 'kysely';
import type { Db, Dialect } from '../types.ts';
import { COLUMN_CHANGES, REVISION_TABLE } from '../crud/history/revisions.ts';
import { convertValue, liveColumns, type MigrationStep } from './schema-plan.ts';

/** Revisions read per batch. */
const BATCH = 1000;

type Pair = [unknown, unknown];
/** Rewrites one revision's changes in place; true when it changed them. */
type Visit = (changes: Record<string, unknown>, inBin: boolean) => boolean;

async function eachRevision(db: Db, dialect: Dialect, entity: string, visit: Visit): Promise<void> {
  if (!(await liveColumns(db, dialect, REVISION_TABLE))) return;
  const t = sql.table(REVISION_TABLE);
  for (let last = 0; ;) {
    const r = await sql<{ id: number | string; changes: string | null; in_bin: unknown }>`select id, changes, in_bin from ${t}
      where resource = ${entity} and id > ${last} and changes is not null order by id limit ${sql.lit(BATCH)}`.execute(db);
    for (const row of r.rows) {
      let changes: Record<string, unknown>;
      try {
        changes = JSON.parse(String(row.changes)) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (!changes || typeof changes !== 'object' || Array.isArray(changes)) continue;
      const inBin = row.in_bin === true || row.in_bin === 1 || row.in_bin === '1';
      if (visit(changes, inBin)) await sql`update ${t} set changes = ${JSON.stringify(changes)} where id = ${row.id}`.execute(db);
    }
    if (r.rows.length < BATCH) return;
    last = Number(r.rows[r.rows.length - 1].id);
  }
}

/** The key a revision names the property by: its column in the bulk form, else its name. */
const keyOf = (changes: Record<string, unknown>, property: string, column: string) => (changes[COLUMN_CHANGES] ? column : property);

/** Maps both values of the property's pair; true when one changed. */
function mapPair(changes: Record<string, unknown>, key: string, map: (v: unknown) => unknown): boolean {
  const pair = changes[key];
  if (!Array.isArray(pair)) return false;
  const next = (pair as Pair).map((v) => (v === null || v === undefined ? v : map(v))) as Pair;
  if (JSON.stringify(next) === JSON.stringify(pair)) return false;
  changes[key] = next;
  return true;
}

const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

export async function applyStepToRevisions(db: Db, dialect: Dialect, step: MigrationStep): Promise<void> {
  switch (step.kind) {
    case 'rename': {
      // migrations written before the old name was recorded: the column's name in camelCase
      const from = step.fromProperty ?? camelCase(step.from);
      await eachRevision(db, dialect, step.entity, (changes) => {
        const [old, now] = changes[COLUMN_CHANGES] ? [step.from, step.to.column] : [from, step.to.name];
        if (old === now || !(old in changes) || now in changes) return false;
        const renamed = Object.entries(changes).map(([k, v]) => [k === old ? now : k, v] as const);
        for (const k of Object.keys(changes)) delete changes[k];
        Object.assign(changes, Object.fromEntries(renamed));
        return true;
      });
      return;
    }
    case 'typeChange': {
      const to = step.to;
      if (to.money) return; // the history's money values are yuan, the column's cents: left as they were
      await eachRevision(db, dialect, step.entity, (changes, inBin) =>
        mapPair(changes, keyOf(changes, to.name, to.column), (v) => {
          const c = convertValue(v, to);
          return c.ok ? c.value : inBin && step.nonConverting === 'null' ? null : v;
        }),
      );
      return;
    }
    case 'narrow': {
      const max = step.to.maxLength;
      if (step.tooLong !== 'truncate' || max === undefined) return;
      await eachRevision(
        db,
        dialect,
        step.entity,
        (changes, inBin) =>
          inBin &&
          mapPair(changes, keyOf(changes, step.to.name, step.to.column), (v) =>
            typeof v === 'string' ? [...v].slice(0, max).join('') : v,
          ),
      );
      return;
    }
    case 'enumNarrowed': {
      const replace = new Map(Object.entries(step.replace ?? {}));
      if (!replace.size) return;
      await eachRevision(
        db,
        dialect,
        step.entity,
        (changes, inBin) =>
          inBin &&
          mapPair(changes, keyOf(changes, step.to.name, step.to.column), (v) => {
            const k = typeof v === 'string' ? v : JSON.stringify(v);
            return replace.has(k) ? replace.get(k) : v;
          }),
      );
      return;
    }
    default:
      return;
  }
}
