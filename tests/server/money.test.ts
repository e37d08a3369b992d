/**
 * Money (`x-money`) over EVERY money field of every schema, from the specs alone: at most two
 * decimals on create (最多只能输入两位小数) and in imports, stored as integer cents, read back
 * exactly, summed exactly by /total, exported as the same yuan figure. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { resources } from '../../src/generated/resources.ts';
import type { FieldSpec, ResourceSpec } from '../../src/shared/resource-spec.ts';
import { MONEY_MESSAGE } from '../../src/shared/money.ts';
import { sheetFields } from '../../src/server/crud/sheets/spreadsheet.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Created, ErrorBody, Page, Row } from '../support/answers.ts';
import { multipartFile, XLSX_TYPE } from './multipart.ts';
import { sampleBody } from './sample-records.ts';

const moneyFields: Array<[string, ResourceSpec, FieldSpec]> = resources.flatMap((spec) =>
  spec.fields.filter((f) => f.money).map((f) => [`${spec.name}.${f.name}`, spec, f] as [string, ResourceSpec, FieldSpec]),
);

/** Money fields a client writes through the generic create route. */
function writable(spec: ResourceSpec, field: FieldSpec): boolean {
  return spec.actions.includes('add') && field.form && !field.readOnly && field.name in ((spec.schema.properties as object) ?? {});
}

/** A valid two-decimal amount inside the field's bounds whose float sum would not be exact. */
function amounts(spec: ResourceSpec, field: FieldSpec): [number, number] {
  const p = (spec.schema.properties as Record<string, Record<string, number>>)[field.name] ?? {};
  const lo = Math.max(p.minimum ?? 0, p.exclusiveMinimum ?? 0);
  return [lo + 0.1, lo + 0.2];
}

it('money fields exist and every amount in yuan is marked x-money', () => {
  expect(moneyFields.length).toBeGreaterThanOrEqual(10);
  expect(moneyFields.filter(([, s, f]) => writable(s, f)).length).toBeGreaterThanOrEqual(8);
  for (const spec of resources) {
    for (const f of spec.fields) {
      // titles naming a price, fee, budget, amount or salary in yuan are money
      if (f.type === 'number' && /元|金额|费|价|预算|薪资|收益|毛利/.test(f.title))
        expect(f.money, `${spec.name}.${f.name} ${f.title}`).toBe(true);
      if (f.money) expect(f.type).toBe('number');
    }
  }
});

describe.each(testApps())('money on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t?.close());

  const post = (spec: ResourceSpec, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/${spec.path}`, headers: bearer(admin), payload: payload as Record<string, unknown> });

  describe.each(moneyFields)('%s', (_name, spec, field) => {
    it('refuses three decimals with 最多只能输入两位小数, stores cents and reads the amount back exactly', async () => {
      if (!writable(spec, field)) return;
      const base = await sampleBody(t.app, admin, resources, spec, 0);
      const [x, y] = amounts(spec, field);
      const bad = await post(spec, { ...base, [field.name]: x + 0.005 });
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json<ErrorBody>().message).toBe(MONEY_MESSAGE);

      const ids: number[] = [];
      for (const v of [x, y]) {
        const res = await post(spec, { ...(await sampleBody(t.app, admin, resources, spec, ids.length)), [field.name]: v });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json<Row>()[field.name]).toBe(v);
        ids.push(res.json<Created>().id);
      }
      const raw = await t.app.database.db.selectFrom(spec.table).select(field.column).where('id', '=', ids[0]).executeTakeFirstOrThrow();
      expect(Number((raw as Record<string, unknown>)[field.column])).toBe(Math.round(x * 100));
      const read = await t.app.inject({ method: 'GET', url: `/${spec.path}?id=${ids[0]}`, headers: bearer(admin) });
      expect(read.json<Page>().content[0][field.name]).toBe(x);

      // /total: the exact sum (0.1 + 0.2 is 0.3, not 0.30000000000000004)
      if (spec.total?.includes(field.name)) {
        const total = await t.app.inject({ method: 'GET', url: `/${spec.path}/total?id=${ids[0]}&id=${ids[1]}`, headers: bearer(admin) });
        expect(total.statusCode, total.body).toBe(200);
        const expected = Math.round((x + y) * 100) / 100;
        expect(total.json<Row>()[field.name]).toBe(expected);
        expect(total.json<{ count: number }>().count).toBe(2);
      }

      // export shows yuan; the same sheet with three decimals is refused on import, nothing stored
      if (!spec.actions.includes('download')) return;
      const file = await t.app.inject({ method: 'GET', url: `/${spec.path}/download?id=${ids[0]}`, headers: bearer(admin) });
      expect(file.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      const column = sheetFields(spec).indexOf(field) + 1;
      expect(column).toBeGreaterThan(0);
      expect(sheet.getRow(1).getCell(column).value).toBe(field.title);
      expect(sheet.getRow(2).getCell(column).value).toBe(x);
      if (!spec.actions.includes('import')) return;
      sheet.getRow(2).getCell(column).value = x + 0.005;
      const upload = multipartFile('money.xlsx', Buffer.from(await book.xlsx.writeBuffer()), XLSX_TYPE);
      const before = (await t.app.inject({ method: 'GET', url: `/${spec.path}?size=1`, headers: bearer(admin) })).json<Page>()
        .totalElements;
      const imported = await t.app.inject({
        method: 'POST',
        url: `/${spec.path}/import`,
        headers: { ...bearer(admin), ...upload.headers },
        payload: upload.payload,
      });
      expect(imported.statusCode, imported.body).toBe(400);
      expect(imported.body).toContain(MONEY_MESSAGE);
      expect((await t.app.inject({ method: 'GET', url: `/${spec.path}?size=1`, headers: bearer(admin) })).json<Page>().totalElements).toBe(
        before,
      );
    });
  });
});
