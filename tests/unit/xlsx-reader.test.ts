/**
 * The import's own sheet reader (xlsx-reader.ts) reads what exceljs reads: workbooks written by
 * exceljs and by the console's export are read by both and compared cell by cell; hand-made XML
 * (no `r` attributes, `x:` prefixes, entities, phonetic runs, date styles, workbook order) is
 * checked against the values it must give. Chinese text and emoji cross the reader's chunk
 * boundaries in the large sheets (the old streaming reader damaged such characters).
 */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sheetRows, isDateFormat, type SheetValue } from '../../src/server/crud/sheets/xlsx-reader.ts';
import { XmlScanner } from '../../src/server/crud/sheets/xml-scan.ts';
import { xlsxStream, type CellValue } from '../../src/server/crud/sheets/xlsx-writer.ts';
import { buildZip } from '../server/zip-fixtures.ts';

const LIMIT = 1024 * 1024 * 1024;

/** A cell as the import uses it: rich text joined, a formula's result, an error's text; '' as null. */
function plain(v: unknown): SheetValue {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'object' && !(v instanceof Date)) {
    const o = v as { richText?: Array<{ text: string }>; result?: unknown; text?: unknown; error?: string };
    if (Array.isArray(o.richText)) return plain(o.richText.map((p) => p.text).join(''));
    if ('result' in o) return plain(o.result);
    if ('text' in o) return plain(o.text);
    if (o.error) return o.error;
    return null;
  }
  return v as SheetValue;
}

type Rows = Array<[number, SheetValue[]]>;

/** The rows holding a value, each as [number, values by column from 1], trailing nulls dropped. */
function compact(rows: Array<{ number: number; values: unknown[] }>): Rows {
  const out: Rows = [];
  for (const r of rows) {
    const values: SheetValue[] = [];
    for (let c = 1; c < r.values.length; c++) values.push(plain(r.values[c]));
    while (values.length && values[values.length - 1] === null) values.pop();
    if (values.length) out.push([r.number, values]);
  }
  return out;
}

async function ours(file: Buffer): Promise<Rows> {
  const rows: Array<{ number: number; values: unknown[] }> = [];
  for await (const batch of sheetRows(file, LIMIT)) rows.push(...batch);
  return compact(rows);
}

async function exceljs(file: Buffer): Promise<Rows> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(file as unknown as ArrayBuffer);
  const rows: Array<{ number: number; values: unknown[] }> = [];
  wb.worksheets[0].eachRow((row) => rows.push({ number: row.number, values: (row.values as unknown[]) ?? [] }));
  return compact(rows);
}

const LONG = '第条问题：保养预约页面打不开，换了浏览器也一样😀请尽快处理吧';

describe('the import sheet reader against exceljs', () => {
  it('reads an exceljs workbook alike: shared strings, dates in several formats, booleans, formulas, rich text, errors, sparse and empty rows', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('花名册');
    ws.addRow(['姓名', '入职日期', '打卡时间', '金额', '在职', '简介', '公式', '文本公式', '备注']);
    ws.getColumn(2).numFmt = 'yyyy"年"m"月"d"日"';
    ws.getColumn(3).numFmt = 'yyyy-mm-dd hh:mm:ss';
    ws.getColumn(4).numFmt = '#,##0.00 "元"';
    for (let i = 1; i <= 3000; i++) {
      const r = ws.addRow([
        `张${i}伟`,
        new Date(Date.UTC(2024, i % 12, 1 + (i % 28))),
        new Date(Date.UTC(2023, 5, 1, 9, 30, i % 60)),
        i * 1.25,
        i % 2 === 0,
        { richText: [{ text: '销售' }, { font: { bold: true }, text: `顾问${i}` }] },
        { formula: `D${i + 1}*2`, result: i * 2.5 },
        { formula: '"甲"&"乙"', result: '甲乙' },
        i % 7 === 0 ? { error: '#N/A' } : `${i}${LONG}`.repeat(1 + (i % 3)),
      ]);
      if (i % 500 === 0) r.getCell(9).value = '  两端有空格  ';
    }
    ws.addRow([]);
    ws.getCell('AD3005').value = '远处的格子';
    ws.getCell('C3010').value = new Date(Date.UTC(2024, 1, 29, 23, 59, 59));
    ws.getCell('C3010').numFmt = 'h:mm';
    ws.getCell('A3011').value = 'A&B <c> "q" \'s\'';
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const expected = await exceljs(file);
    const got = await ours(file);
    expect(got.length).toBe(3004);
    expect(got).toEqual(expected);
    expect(got[1][1]).toEqual([
      '张1伟',
      new Date(Date.UTC(2024, 1, 2)),
      new Date(Date.UTC(2023, 5, 1, 9, 30, 1)),
      1.25,
      false,
      '销售顾问1',
      2.5,
      '甲乙',
      `1${LONG}`.repeat(2),
    ]);
  }, 60_000);

  it('reads exceljs\'s streaming writer alike (text as t="str" without shared strings, no styles)', async () => {
    const chunks: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    });
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: false });
    const ws = wb.addWorksheet('问题反馈');
    ws.addRow(['身份', '模块', '标题', '问题描述']).commit();
    for (let i = 1; i <= 2000; i++)
      ws.addRow(['员工', i % 2 ? '系统' : null, `大文件导入${i}`, `${LONG}${i} & <${i}>`, i, i % 3 === 0]).commit();
    ws.commit();
    await wb.commit();
    const file = Buffer.concat(chunks);
    const got = await ours(file);
    expect(got).toEqual(await exceljs(file));
    expect(got[2]).toEqual([3, ['员工', null, '大文件导入2', `${LONG}2 & <2>`, 2, false]]);
  }, 60_000);

  it("reads the console's own export alike: inline strings and the labels' shared strings, 10,000 rows of Chinese and emoji", async () => {
    const columns = ['身份', '模块', '问题描述', '状态', '数量'].map((title) => ({
      title,
      width: 10,
      labels: title === '状态' ? ['未处理', '已处理'] : undefined,
    }));
    function* batches(): Generator<CellValue[][]> {
      for (let i = 1; i <= 10_000; i += 1000) {
        const b: CellValue[][] = [];
        for (let j = i; j < i + 1000; j++)
          b.push(['员工', j % 5 ? '销售' : null, `第${j}条${LONG}`, j % 3 ? '未处理' : '已处理', j % 4 ? j : null]);
        yield b;
      }
    }
    const chunks: Buffer[] = [];
    await pipeline(
      xlsxStream('问题反馈', columns, batches(), (e) => {
        throw e;
      }),
      new Writable({
        write(chunk: Buffer, _enc, done) {
          chunks.push(chunk);
          done();
        },
      }),
    );
    const file = Buffer.concat(chunks);
    const got = await ours(file);
    expect(got).toEqual(await exceljs(file));
    expect(got).toHaveLength(10_001);
    expect(got[9_999]).toEqual([10_000, ['员工', '销售', `第9999条${LONG}`, '已处理', 9_999]]);
  }, 60_000);
});

// ---------------------------------------------------------------- hand-made parts

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

function handMade(sheet: string, opts: { date1904?: boolean; sheetFirst?: boolean } = {}): Buffer {
  const workbook =
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${REL}">` +
    (opts.date1904 ? '<workbookPr date1904="1"/>' : '<workbookPr/>') +
    // the second part is the first tab: the reader follows the workbook's order, not the part names
    '<sheets><sheet name="说明" sheetId="2" r:id="rId9"/><sheet name="数据" sheetId="1" r:id="rId1"/></sheets></workbook>';
  const rels =
    `<Relationships xmlns="${PKG}">` +
    `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
    `<Relationship Id="rId9" Type="${REL}/worksheet" Target="/xl/worksheets/sheet2.xml"/>` +
    `<Relationship Id="rId3" Type="${REL}/sharedStrings" Target="strings.xml"/>` +
    `<Relationship Id="rId4" Type="${REL}/styles" Target="styles.xml"/>` +
    '</Relationships>';
  const strings =
    `<sst xmlns="${MAIN}" count="6" uniqueCount="6">` +
    '<si><t>张三</t><rPh sb="0" eb="2"><t>zhangsan</t></rPh><phoneticPr fontId="1"/></si>' +
    '<si><r><rPr><b/><sz val="11"/><rFont val="宋体"/></rPr><t xml:space="preserve">李 </t></r><r><t>四</t></r></si>' +
    '<si><t>A&amp;B &lt;c&gt; &quot;q&quot; &apos;s&apos; &#26410;&#x5904;&#x1F600;</t></si>' +
    '<si><t/></si>' +
    '<si><t><![CDATA[<原样> & raw]]></t></si>' +
    '<si><t>第一行\r\n第二行_x000D_</t></si>' +
    '</sst>';
  const styles =
    `<styleSheet xmlns="${MAIN}"><numFmts count="3">` +
    '<numFmt numFmtId="164" formatCode="yyyy/m/d;@"/><numFmt numFmtId="165" formatCode="0.00&quot;天&quot;"/>' +
    '<numFmt numFmtId="166" formatCode="[Red]#,##0"/></numFmts>' +
    '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
    '<cellXfs count="8"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="31"/><xf numFmtId="164"/>' +
    '<xf numFmtId="165"/><xf numFmtId="58"/><xf numFmtId="22"/><xf numFmtId="166"/></cellXfs></styleSheet>';
  const other = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>不是第一个工作表</t></is></c></row></sheetData></worksheet>`;
  return buildZip([
    { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
    { name: 'xl/workbook.xml', data: Buffer.from(workbook) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(rels) },
    { name: 'xl/strings.xml', data: Buffer.from(strings) },
    { name: 'xl/styles.xml', data: Buffer.from(styles), deflate: false },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(other) },
    { name: 'xl/worksheets/sheet2.xml', data: Buffer.from(sheet) },
  ]);
}

const day = (y: number, m: number, d: number, h = 0, min = 0) => new Date(Date.UTC(y, m - 1, d, h, min));

describe('the import sheet reader on hand-made XML', () => {
  const sheet =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<!-- written by hand -->` +
    `<x:worksheet xmlns:x="${MAIN}"><x:sheetData>` +
    // cells without r follow the previous one; the row without r follows the previous row
    '<x:row r="1"><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c r="E1" t="s"><x:v>2</x:v></x:c><x:c t="s"><x:v>3</x:v></x:c><x:c t="s"><x:v>4</x:v></x:c><x:c t="s"><x:v>5</x:v></x:c></x:row>' +
    '<x:row><x:c t="inlineStr"><x:is><x:r><x:t>王</x:t></x:r><x:r><x:rPr><x:b/></x:rPr><x:t xml:space="preserve"> 五</x:t></x:r><x:rPh><x:t>wang</x:t></x:rPh></x:is></x:c>' +
    '<x:c t="str"><x:f>A1&amp;"x"</x:f><x:v>张三&amp;x</x:v></x:c><x:c t="b"><x:v>1</x:v></x:c><x:c t="b"><x:f>1=2</x:f><x:v>0</x:v></x:c>' +
    '<x:c t="e"><x:f>1/0</x:f><x:v>#DIV/0!</x:v></x:c><x:c t="e"><x:v>#N/A</x:v></x:c><x:c><x:v>1.5E3</x:v></x:c><x:c t="n"><x:v>-0.25</x:v></x:c></x:row>' +
    '<x:row r="5" spans="1:3"/>' +
    '<x:row r="7"><x:c r="A7" s="1"><x:v>45352</x:v></x:c><x:c r="B7" s="2"><x:v>45352.5</x:v></x:c><x:c r="C7" s="3"><x:v>45353</x:v></x:c>' +
    '<x:c r="D7" s="4"><x:v>3.5</x:v></x:c><x:c r="E7" s="5"><x:v>45354</x:v></x:c><x:c r="F7" s="6"><x:f>NOW()</x:f><x:v>45352.75</x:v></x:c><x:c r="G7" s="7"><x:v>42</x:v></x:c>' +
    '<x:c r="H7" s="1"/><x:c r="I7" t="d"><x:v>2024-03-01T08:30:00</x:v></x:c><x:c r="J7"><x:f>A7</x:f></x:c></x:row>' +
    '<x:row r="9"><x:c r="b9" t="inlineStr"><x:is><x:t>007</x:t></x:is></x:c><x:c r="C9" t="str"><x:v>0012</x:v></x:c></x:row>' +
    '</x:sheetData><x:mergeCells count="1"><x:mergeCell ref="A1:B1"/></x:mergeCells></x:worksheet>';

  it('reads prefixed elements, cells and rows without r, entities, CDATA, rich and phonetic runs, formula results, dates by style, the first tab of the workbook', async () => {
    expect(await ours(handMade(sheet))).toEqual([
      [1, ['张三', '李 四', null, null, 'A&B <c> "q" \'s\' 未处😀', null, '<原样> & raw', '第一行\n第二行_x000D_']],
      [2, ['王 五', '张三&x', true, false, '#DIV/0!', '#N/A', 1500, -0.25]],
      [
        7,
        [
          day(2024, 3, 1),
          day(2024, 3, 1, 12),
          day(2024, 3, 2),
          3.5,
          day(2024, 3, 3),
          day(2024, 3, 1, 18),
          42,
          null,
          day(2024, 3, 1, 8, 30),
        ],
      ],
      [9, [null, '007', '0012']],
    ]);
  });

  it('reads dates of a 1904 workbook', async () => {
    const rows = await ours(
      handMade(`<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" s="1"><v>43890</v></c></row></sheetData></worksheet>`, {
        date1904: true,
      }),
    );
    expect(rows).toEqual([[1, [day(2024, 3, 1)]]]);
  });

  it('reads the same events whatever the chunking', () => {
    const record = (chunkSize: number) => {
      const log: string[] = [];
      const scanner = new XmlScanner({
        open: (b, ns, ne, as, ae, empty) => log.push(`<${b.toString('latin1', ns, ne)}|${b.toString('utf8', as, ae)}|${empty}`),
        close: (b, ns, ne) => log.push(`</${b.toString('latin1', ns, ne)}`),
        text: (b, s, e, cdata) => log.push(`${cdata ? 'C' : 'T'}${b.toString('utf8', s, e)}`),
      });
      const bytes = Buffer.from(sheet);
      for (let i = 0; i < bytes.length; i += chunkSize) scanner.write(bytes.subarray(i, i + chunkSize));
      scanner.end();
      return log;
    };
    const whole = record(1 << 20);
    expect(whole.length).toBeGreaterThan(100);
    for (const size of [1, 2, 3, 7, 64]) expect(record(size)).toEqual(whole);
  });

  it('ends on damaged XML with its own error (never a crash of its own code), whatever bytes are changed or cut', async () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const bytes = Buffer.from(sheet);
    const outcomes = new Set<string>();
    for (let n = 0; n < 300; n++) {
      const damaged = Buffer.from(bytes.subarray(0, n % 3 === 0 ? Math.floor(random() * bytes.length) : bytes.length));
      for (let k = 0; k < 1 + Math.floor(random() * 6); k++)
        damaged[Math.floor(random() * damaged.length)] = '<>/"=&;: x'.charCodeAt(Math.floor(random() * 10));
      try {
        await ours(handMade(damaged.toString('latin1')));
        outcomes.add('read');
      } catch (err) {
        outcomes.add((err as Error).constructor.name);
      }
    }
    expect([...outcomes].sort()).toEqual(['XmlFormatError', 'read']);
  });

  it('tells date formats from others as Excel shows them', () => {
    for (const code of ['yyyy/m/d;@', 'yyyy"年"m"月"d"日"', 'h:mm AM/PM', 'mm:ss.0', 'DD/MM/YYYY', '[h]:mm:ss'])
      expect([code, isDateFormat(code)]).toEqual([code, true]);
    for (const code of ['General', '0.00', '#,##0 "元"', '0.00E+00', '[Red]#,##0', '@', '0\\h', '_(* #,##0_)'])
      expect([code, isDateFormat(code)]).toEqual([code, false]);
  });
});
