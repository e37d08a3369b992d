import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { pinyinTable } from '../../src/server/crud/pinyin/pinyin-search.ts';
import { pinyinStoredKeys } from '../../src/server/crud/pinyin/pinyin-keys.ts';
import { REVISION_TABLE } from '../../src/server/crud/history/revisions.ts';
import ExcelJS from 'exceljs';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created } from '../support/answers.ts';

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

/** An xlsx of roster rows (the list's column titles) posted to the import route. */
async function importRoster(t: TestApp, token: string, rows: unknown[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('员工花名册');
  ws.addRow(['姓名', '手机号码', '性别', '所属公司', '所属部门', '岗位', '入职日期', '在职状态']);
  for (const r of rows) ws.addRow(r);
  const content = Buffer.from(await wb.xlsx.writeBuffer());
  const boundary = `----roster${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="roster.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
  );
  return t.app.inject({
    method: 'POST',
    url: `/${staff.path}/import`,
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { ...bearer(token), submit_id: submitId(), 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe.each(testApps())('the roster import route on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let companyA: number;
  let salesA: number;
  let companyB: number;

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const root = (await t.app.inject({ method: 'GET', url: '/api/dept/lazy?pid=0', headers: bearer(admin) })).json<Created[]>()[0].id;
    const mk = async (name: string, pid: number) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/dept',
          headers: { ...bearer(admin), submit_id: submitId() },
          payload: { name, pid },
        })
      ).json<Created>().id;
    companyA = await mk('甲公司', root);
    salesA = await mk('甲销售部', companyA);
    companyB = await mk('乙公司', root);
  }, 60_000);
  afterAll(async () => t?.close());

  const row = (i: number, org: number, dept: number) => [
    `张${'伟芳娜'[i % 3]}`,
    `1390000${String(i).padStart(4, '0')}`,
    '男',
    org,
    dept,
    '销售顾问',
    '2024-03-01',
    '在职',
  ];
  const stored = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom(staff.table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('checks every imported row against its company (the tree read once per import) and names the row that does not fit', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => row(i, companyA, i % 2 ? salesA : companyA));
    // row 21 of the sheet (the title is row 1): 甲's department under 乙
    rows[19] = row(19, companyB, salesA);
    const bad = await importRoster(t, admin, rows);
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('第21行: 部门不属于所选公司');
    expect(await stored()).toBe(0);

    rows[19] = row(19, companyB, companyB);
    const good = await importRoster(t, admin, rows);
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json<{ count: number }>().count).toBe(30);
    expect(await stored()).toBe(30);
    const found = await t.app.inject({ method: 'GET', url: `/${staff.path}?page=0&size=50&blurry=zw`, headers: bearer(admin) });
    expect(found.json<{ totalElements: number }>().totalElements).toBe(10);
  });
});
