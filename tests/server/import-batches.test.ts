/**
 * insertAll's batches as written on each database (on PostgreSQL one statement per thousand rows
 * for the rows, their revisions and their keys: src/server/crud/sheets/pg-import-batch.ts): what a
 * batch leaves out, revisions as recorded, and a row refused by the database inside a batch.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { pinyinTable } from '../../src/server/crud/pinyin/pinyin-search.ts';
import { pinyinStoredKeys } from '../../src/server/crud/pinyin/pinyin-keys.ts';
import { REVISION_TABLE } from '../../src/server/crud/history/revisions.ts';
import { testApps, type TestApp } from './helpers.ts';

const staff = resourceByName.staff;
const NAME = staff.fields.find((f) => f.name === 'name')!;
const JOB = staff.fields.find((f) => f.name === 'job')!;

const roster = (n: number, from: number) =>
  Array.from({ length: n }, (_, i) => ({
    name: `${'张曾单'[i % 3]}${'伟行乐'[(i * 7) % 3]}`,
    mobile: `138${String(from + i).padStart(8, '0')}`,
    job: ['销售顾问', '重庆区域经理', 'APP运营2组'][i % 3],
  }));

describe.each(testApps())('import batches on %s', (dialect, start) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await start();
  });
  afterAll(async () => t?.close());

  const db = () => t.app.database.db;
  const count = async (table: string) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores the column default (PostgreSQL) where a row leaves a field out and another row of its batch gives it, NULL where there is none', async () => {
    // the first thousand rows: only a field without a default left out of some; then one with a default
    const records = roster(1200, 0).map((r, i) => (i % 2 ? (i < 1000 ? { ...r, remark: `备注${i}` } : { ...r, status: 0 }) : r));
    expect(await insertAll(t.app.database, staff, records, { username: 'admin' })).toBe(1200);
    const rows = await db().selectFrom(staff.table).select(['mobile', 'status', 'remark']).orderBy('id').execute();
    expect(rows).toHaveLength(1200);
    rows.forEach((r, i) => {
      expect(r.mobile).toBe(records[i].mobile);
      // SQLite has no DEFAULT in a multi-row VALUES: the query builder writes NULL there (unchanged;
      // an import's records carry every default already, checkRecord fills them in)
      const status = i < 1000 ? 1 : i % 2 ? 0 : dialect === 'postgres' ? 1 : null;
      expect(r.status === null ? null : Number(r.status)).toBe(status);
      expect(r.remark).toBe(i % 2 && i < 1000 ? `备注${i}` : null);
    });
  });

  it('writes one import revision per row, by the importing user, and the keys of every row', async () => {
    const before = await db().selectFrom(staff.table).select(db().fn.max('id').as('m')).executeTakeFirstOrThrow();
    const from = Number(before.m ?? 0);
    expect(await insertAll(t.app.database, staff, roster(2100, 10_000), { username: 'importer' })).toBe(2100);
    const rows: Record<string, unknown>[] = await db()
      .selectFrom(staff.table)
      .select(['id', 'name', 'job'])
      .where('id', '>', from)
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(2100);
    const revisions = await db()
      .selectFrom(REVISION_TABLE)
      .select(['record_id', 'action', 'actor_kind', 'actor_name', 'changes', 'create_time'])
      .where('resource', '=', staff.name)
      .where('record_id', '>', from)
      .orderBy('record_id')
      .execute();
    expect(revisions.map((r) => Number(r.record_id))).toEqual(rows.map((r) => Number(r.id)));
    for (const r of revisions) {
      expect([r.action, r.actor_kind, r.actor_name, r.changes]).toEqual(['import', 'user', 'importer', null]);
      expect(r.create_time).toBeTruthy();
    }
    for (const [field, kind] of [
      [NAME, 'name'],
      [JOB, 'text'],
    ] as const) {
      const want = rows.flatMap((r) => pinyinStoredKeys(String(r[field.column]), kind).map((k) => `${k} ${Number(r.id)}`)).sort();
      const got = (await db().selectFrom(pinyinTable(staff, field)).select(['key', 'row_id']).where('row_id', '>', from).execute())
        .map((r) => `${String(r.key)} ${Number(r.row_id)}`)
        .sort();
      expect(got).toEqual(want);
    }
  });

  it('stores a text with half of a surrogate pair as the driver does, U+FFFD in its place', async () => {
    const records = roster(1000, 80_000);
    records[500] = { ...records[500], name: '张\ud800三' };
    expect(await insertAll(t.app.database, staff, records, { username: 'admin' })).toBe(1000);
    const row = await db().selectFrom(staff.table).select('name').where('mobile', '=', records[500].mobile).executeTakeFirstOrThrow();
    // pg's UTF-8 writes one U+FFFD; better-sqlite3 stores the half's three bytes, read back as three
    expect(row.name).toBe(dialect === 'postgres' ? '张\ufffd三' : '张\ufffd\ufffd\ufffd三');
  });

  it('leaves no row, key or revision when the database refuses a row in the middle of a later batch', async () => {
    // a trigger refuses one name: the database's own error, inside the batch's statement
    if (dialect === 'postgres') {
      await sql`create function refuse_staff() returns trigger language plpgsql as $$
        begin if new.name = '拒绝' then raise exception 'refused'; end if; return new; end $$`.execute(db());
      await sql`create trigger refuse_staff before insert on staff for each row execute function refuse_staff()`.execute(db());
    } else {
      await sql`create trigger refuse_staff before insert on staff when new.name = '拒绝' begin select raise(abort, 'refused'); end`.execute(
        db(),
      );
    }
    try {
      const tables = [staff.table, pinyinTable(staff, NAME), pinyinTable(staff, JOB), REVISION_TABLE];
      const before = await Promise.all(tables.map(count));
      const records = roster(2500, 50_000);
      records[1800] = { ...records[1800], name: '拒绝' };
      await expect(insertAll(t.app.database, staff, records, { username: 'admin' })).rejects.toThrow(/refused/);
      expect(await Promise.all(tables.map(count))).toEqual(before);
    } finally {
      await sql`drop trigger refuse_staff ${dialect === 'postgres' ? sql`on staff` : sql``}`.execute(db());
      if (dialect === 'postgres') await sql`drop function refuse_staff()`.execute(db());
    }
  });
});
