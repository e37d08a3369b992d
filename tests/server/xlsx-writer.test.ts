import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { columnLetters, sheetName, xlsxStream, type CellValue } from '../../src/server/crud/sheets/xlsx-writer.ts';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** the rows in two batches, each handed over asynchronously as the database's are */
async function* batches(rows: CellValue[][]): AsyncGenerator<CellValue[][]> {
  yield await Promise.resolve(rows.slice(0, 1));
  yield await Promise.resolve(rows.slice(1));
}

const columns = [
  { title: '标题 & <说明>', width: 20 },
  { title: '数量', width: 8 },
  { title: '备注', width: 30 },
];

describe('xlsx writer', () => {
  it('writes headers and values that exceljs reads back, escaped, without characters XML forbids', async () => {
    const rows: CellValue[][] = [
      ['a & b <c> "d" \'e\'', 1.5, null],
      ['  前后空格  ', -3, '第一行\n第二行'],
      ['控制\u0001字符\u0008与\uD800孤立代理 😀', 0, ''],
    ];
    const file = await collect(xlsxStream('问题/反馈', columns, batches(rows), () => {}));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('问题 反馈');
    const read: unknown[][] = [];
    ws.eachRow({ includeEmpty: true }, (row) => read.push((row.values as unknown[]).slice(1)));
    expect(read[0]).toEqual(['标题 & <说明>', '数量', '备注']);
    expect(read[1]).toEqual(['a & b <c> "d" \'e\'', 1.5]);
    expect(read[2]).toEqual(['  前后空格  ', -3, '第一行\n第二行']);
    expect(read[3]).toEqual(['控制字符与孤立代理 😀', 0]);
    expect(read).toHaveLength(4);
  });

  it('the labels of a column go into the shared-string table ahead of the sheet; other texts of that column stay inline; both read back', async () => {
    const labelled = [
      { title: '状态', width: 10, labels: ['已处理', '未处理', 'a & b', ' 空格 '] },
      { title: '内容', width: 20 },
    ];
    const rows: CellValue[][] = [
      ['已处理', '已处理'],
      ['未处理', ' 前导空格'],
      ['a & b', 'x < y'],
      [' 空格 ', null],
      ['不在表里', '末尾空格 '],
    ];
    const file = await collect(xlsxStream('t', labelled, batches(rows), () => {}));
    // the streaming reader (as imports and the export benchmark read) needs the table before the sheet
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), { sharedStrings: 'cache', worksheets: 'emit' });
    const read: unknown[][] = [];
    for await (const sheet of reader) for await (const row of sheet) read.push((row.values as unknown[]).slice(1));
    expect(read).toEqual([['状态', '内容'], ...rows.map((r) => (r[1] === null ? [r[0]] : r))]);
    const text = file.toString('latin1');
    expect(text.indexOf('xl/sharedStrings.xml')).toBeLessThan(text.indexOf('xl/worksheets/sheet1.xml'));
  });

  it('fails the stream and reports the error when reading rows fails', async () => {
    async function* broken(): AsyncGenerator<CellValue[][]> {
      yield await Promise.resolve([['first', 1, null]]);
      throw new Error('database gone');
    }
    const errors: unknown[] = [];
    await expect(collect(xlsxStream('x', columns, broken(), (e) => errors.push(e)))).rejects.toThrow('database gone');
    expect(errors).toHaveLength(1);
  });

  it('names columns and sheets as Excel does', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(sheetName('a'.repeat(40))).toHaveLength(31);
    expect(sheetName('[]')).toBe('Sheet1');
  });
});
