/**
 * Import templates, generated over every schema that imports: GET <base>/template (the `:import`
 * key) answers an xlsx whose first sheet is headed by the import columns' Chinese titles, with an
 * example row and a drop-down list (data validation) of the option labels on every option column;
 * that file, imported as downloaded, is accepted and stores the example row.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { dropDownLabels, templateFields } from '../../src/server/crud/sheets/import-template.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { multipartFile, XLSX_TYPE } from './multipart.ts';

/** A cell's value as text: the template writes plain values; anything else (rich text, a date) shows as its JSON. */
function cellText(value: ExcelJS.CellValue): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** every importable schema, those that others reference first (their example rows point at a stored record) */
function referencedFirst(): typeof resources {
  const specs = resources.filter((s) => s.actions.includes('import'));
  const out: typeof resources = [];
  const visit = (s: (typeof resources)[number]) => {
    if (out.includes(s)) return;
    for (const f of s.fields) {
      const target = specs.find((x) => x.name === f.ref?.resource && x !== s);
      if (target) visit(target);
    }
    out.push(s);
  };
  specs.forEach(visit);
  return out;
}
const importable = referencedFirst();

describe.each(testApps())('import templates on %s', (_dialect, start) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('there are importable schemas to test', () => {
    expect(importable.length).toBeGreaterThan(10);
  });

  it.each(importable.map((s) => [s.name, s] as const))(
    '%s: the template has the import columns, an example row and drop-down lists, and imports as downloaded',
    async (_name, spec) => {
      const res = await t.app.inject({ method: 'GET', url: `/${spec.path}/template`, headers: bearer(admin) });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX_TYPE);
      const encoded = /filename\*=UTF-8''(.+)$/.exec(String(res.headers['content-disposition']))?.[1] ?? '';
      expect(decodeURIComponent(encoded)).toBe(`${spec.title}导入模板.xlsx`);

      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      const fields = templateFields(spec);
      const header = fields.map((_f, i) => cellText(sheet.getRow(1).getCell(i + 1).value));
      expect(header).toEqual(fields.map((f) => f.title));
      // the example row fills every required column
      for (const [i, f] of fields.entries()) {
        const value = sheet.getRow(2).getCell(i + 1).value;
        if (f.required) expect(value, f.title).not.toBeNull();
      }
      // option columns: a list validation whose range on the hidden sheet holds exactly the option labels
      const lists = book.getWorksheet('选项')!;
      expect(lists.state).toBe('hidden');
      for (const [i, f] of fields.entries()) {
        const labels = dropDownLabels(f);
        const validation = sheet.getRow(2).getCell(i + 1).dataValidation;
        if (!labels) {
          expect(validation?.type, f.title).toBeUndefined();
          continue;
        }
        expect(validation?.type, f.title).toBe('list');
        const m = /^'选项'!\$([A-Z]+)\$1:\$\1\$(\d+)$/.exec(String(validation.formulae?.[0]));
        expect(m, String(validation.formulae?.[0])).not.toBeNull();
        const listed = Array.from({ length: Number(m![2]) }, (_x, r) => cellText(lists.getCell(`${m![1]}${r + 1}`).value));
        expect(listed, f.title).toEqual(labels);
        // the example value is one of them
        expect(labels, f.title).toContain(cellText(sheet.getRow(2).getCell(i + 1).value));
        // and the list covers the rows a user fills in
        expect(sheet.getRow(500).getCell(i + 1).dataValidation?.type).toBe('list');
      }

      const before = Number(
        (
          await t.app.database.db
            .selectFrom(spec.table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const body = multipartFile(`${spec.title}导入模板.xlsx`, res.rawPayload, XLSX_TYPE);
      const imported = await t.app.inject({
        method: 'POST',
        url: `/${spec.path}/import`,
        headers: { ...bearer(admin), ...body.headers, submit_id: submitId() },
        payload: body.payload,
      });
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json()).toEqual({ count: 1 });
      const after = Number(
        (
          await t.app.database.db
            .selectFrom(spec.table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(after).toBe(before + 1);
    },
  );

  it('the template takes the :import key', async () => {
    const spec = importable[0];
    await createStaff(t.app, { username: 'tplreader', password: 'Template_pass1', permissions: [`${spec.permission}:list`] });
    const reader = await loginAs(t.app, 'tplreader', 'Template_pass1');
    expect((await t.app.inject({ method: 'GET', url: `/${spec.path}/template`, headers: bearer(reader) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/${spec.path}/template` })).statusCode).toBe(401);
  });
});
