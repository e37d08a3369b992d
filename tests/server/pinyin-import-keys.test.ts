import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { pinyinTable } from '../../src/server/crud/pinyin-search.ts';
import { pinyinStoredKeys } from '../../src/server/crud/pinyin-keys.ts';
import { REVISION_TABLE } from '../../src/server/crud/revisions.ts';
import { testApps, type TestApp } from './helpers.ts';

const staff = resourceByName.staff;
const NAME = staff.fields.find((f) => f.name === 'name')!;
const JOB = staff.fields.find((f) => f.name === 'job')!;
const SURNAMES = Array.from('张曾单解仇区朴重');
const GIVEN = Array.from('三伟庆行乐长');
// titles with polyphonic characters, Latin letters, digits and characters a key leaves out
const JOBS = ['市场推广经理', '重庆区域经理', '银行按揭专员', 'APP运营2组', '"引号"与\\斜杠', "O'Brien助理"];

function records(n: number, offset: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    name: SURNAMES[i % SURNAMES.length] + GIVEN[(i * 7) % GIVEN.length] + (i % 3 ? GIVEN[i % GIVEN.length] : ''),
    mobile: `139${String(offset + i).padStart(8, '0')}`,
    job: JOBS[i % JOBS.length],
  }));
}

describe.each(testApps())('the keys an import writes on %s', (_name, start) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await start();
  });
  afterAll(async () => t?.close());

  const stored = async (side: string) =>
    (await t.app.database.db.selectFrom(side).select(['key', 'row_id']).execute())
      .map((r) => `${String(r.key)} ${Number(r.row_id)}`)
      .sort();

  it('stores for every imported row exactly the keys the rule gives, over several batches', async () => {
    // 2,500 rows: several insert batches, and texts seen again in later batches
    const n = await insertAll(t.app.database, staff, records(2500, 0), { username: 'admin' });
    expect(n).toBe(2500);
    const rows: Record<string, unknown>[] = await t.app.database.db.selectFrom(staff.table).select(['id', 'name', 'job']).execute();
    expect(rows).toHaveLength(2500);
    for (const [field, kind] of [
      [NAME, 'name'],
      [JOB, 'text'],
    ] as const) {
      const want = rows.flatMap((r) => pinyinStoredKeys(String(r[field.column]), kind).map((k) => `${k} ${Number(r.id)}`)).sort();
      expect(want.length).toBeGreaterThan(2500);
      expect(await stored(pinyinTable(staff, field))).toEqual(want);
    }
    // a key of each kind, as the rule stores it
    const [o] = rows.filter((r) => r.job === "O'Brien助理").slice(0, 1);
    const jobKeys = (await stored(pinyinTable(staff, JOB))).filter((k) => k.endsWith(` ${Number(o.id)}`)).map((k) => k.split(' ')[0]);
    expect(jobKeys).toEqual(pinyinStoredKeys("O'Brien助理", 'text').sort());
    // one import revision per row (record history)
    const revisions = await t.app.database.db
      .selectFrom(REVISION_TABLE)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('resource', '=', staff.name)
      .where('action', '=', 'import')
      .executeTakeFirstOrThrow();
    expect(Number(revisions.n)).toBe(2500);
  });

  it('stores nothing, rows, keys or revisions, when a row fails in the database', async () => {
    const count = async (table: string) =>
      Number(
        (
          await t.app.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = [
      await count(staff.table),
      await count(pinyinTable(staff, NAME)),
      await count(pinyinTable(staff, JOB)),
      await count(REVISION_TABLE),
    ];
    const [taken] = await t.app.database.db.selectFrom(staff.table).select('id').limit(1).execute();
    // the last row reuses an id: its batch fails after earlier batches and their keys were written
    const batch = records(1500, 100_000);
    batch[1499] = { ...batch[1499], id: Number(taken.id) };
    await expect(insertAll(t.app.database, staff, batch, { username: 'admin' })).rejects.toThrow();
    expect([
      await count(staff.table),
      await count(pinyinTable(staff, NAME)),
      await count(pinyinTable(staff, JOB)),
      await count(REVISION_TABLE),
    ]).toEqual(before);
  });
});
