/**
 * The import route with the product's own sheet reader (crud/sheets/xlsx-reader.ts): a file that passes
 * the zip checks but whose XML cannot be read answers 文件无法读取 as the exceljs reader did (a binary
 * sheet, a workbook part that is not XML, two root elements) and stores nothing; a sheet cut off
 * or holding no element at all, which exceljs read as a sheet without rows (模板格式不正确), is now
 * called unreadable too; a sheet written by another tool (prefixed elements, cells without `r`, entities)
 * imports; the reader's own unpack limit refuses a part beyond it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { readImport, UnreadableSheetError } from '../../src/server/crud/sheets/spreadsheet.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { multipartFile, XLSX_TYPE } from './multipart.ts';
import { buildZip } from './zip-fixtures.ts';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const UNREADABLE = '文件无法读取，请上传有效的xlsx文件';

function workbookWith(
  sheet: Buffer | string,
  workbook = `<workbook xmlns="${MAIN}"><sheets><sheet name="a" sheetId="1"/></sheets></workbook>`,
) {
  return buildZip([
    { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
    { name: 'xl/workbook.xml', data: Buffer.from(workbook) },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.isBuffer(sheet) ? sheet : Buffer.from(sheet) },
  ]);
}

const header =
  '<x:row r="1"><x:c t="inlineStr"><x:is><x:t>身份</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>模块</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>标题</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>问题描述</x:t></x:is></x:c></x:row>';
const row = (title: string, content: string) =>
  `<x:row><x:c t="inlineStr"><x:is><x:t>员工</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>系统</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>${title}</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>${content}</x:t></x:is></x:c></x:row>`;
const sheetXml = (rows: string) =>
  `<?xml version="1.0"?><x:worksheet xmlns:x="${MAIN}"><x:sheetData>${header}${rows}</x:sheetData></x:worksheet>`;

describe.each(testApps())('import through the own sheet reader on %s', (_name, start) => {
  let t: TestApp;
  let admin: Record<string, string>;
  const upload = (content: Buffer) => {
    const m = multipartFile('导入.xlsx', content, XLSX_TYPE);
    return t.app.inject({ method: 'POST', url: '/api/sysQuestion/import', payload: m.payload, headers: { ...admin, ...m.headers } });
  };
  const stored = async () => t.app.database.db.selectFrom('sys_question').select(['title', 'content']).orderBy('id').execute();

  beforeAll(async () => {
    t = await start();
    admin = bearer(await loginAs(t.app, 'admin', ADMIN_PASSWORD));
  });
  afterAll(async () => t?.close());

  it('answers a zip whose sheet or workbook is not readable XML with 文件无法读取 and stores nothing', async () => {
    const before = await stored();
    const damaged = {
      'binary sheet': workbookWith(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))),
      'sheet cut off': workbookWith(sheetXml(row('甲', '乙')).slice(0, -40)),
      'sheet of blanks': workbookWith(Buffer.alloc(2000, 0x20)),
      'workbook not XML': workbookWith(sheetXml(row('甲', '乙')), '这不是XML'),
      'two roots': workbookWith(`${sheetXml(row('甲', '乙'))}<x:worksheet/>`),
    };
    for (const [name, file] of Object.entries(damaged)) {
      const res = await upload(file);
      expect([name, res.statusCode, errorOf(res).message]).toEqual([name, 400, UNREADABLE]);
    }
    expect(await stored()).toEqual(before);
  });

  it('imports a sheet of another tool: prefixed elements, cells and rows without r, entities', async () => {
    const before = await stored();
    const res = await upload(workbookWith(sheetXml(row('A&amp;B &lt;1&gt;', '第一条&#x1F600;') + row('<![CDATA[<原样>]]>', '第二条'))));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 2 });
    expect((await stored()).slice(before.length)).toEqual([
      { title: 'A&B <1>', content: '第一条😀' },
      { title: '<原样>', content: '第二条' },
    ]);
  });

  it('names the first bad row of such a sheet as before', async () => {
    const res = await upload(workbookWith(sheetXml(row('甲', '好') + row('乙', ''))));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('第3行「问题描述」: 问题描述不能为空');
  });
});

describe('readImport', () => {
  it('refuses a workbook whose parts unpack beyond its limit, whatever the zip headers claim', async () => {
    const file = workbookWith(sheetXml(Array.from({ length: 200 }, (_, i) => row(`标题${i}`, '内容')).join('')));
    const spec = resourceByName.sysQuestion;
    expect((await readImport(spec, file)).ok).toBe(true);
    await expect(readImport(spec, file, 4096)).rejects.toBeInstanceOf(UnreadableSheetError);
  });
});
