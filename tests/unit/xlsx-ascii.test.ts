/**
 * Chinese text survives an import whatever the size of the sheet: exceljs's streaming reader
 * decodes each chunk on its own, and without the ASCII rewrite a character split between two
 * chunks came back as replacement characters ("未��理").
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { xlsxStream } from '../../src/server/crud/xlsx-writer.ts';
import { asciiXlsx } from '../../src/server/crud/xlsx-ascii.ts';

/** batches of 1000 rows, each handed over asynchronously as the database's are */
async function* rows(n: number) {
  for (let i = 1; i <= n; i += 1000) {
    const b = [];
    for (let j = i; j < Math.min(n + 1, i + 1000); j++) b.push(['员工', '销售', `第${j}条问题：保养预约页面打不开😀`, '未处理']);
    yield await Promise.resolve(b);
  }
}

async function damaged(file: Buffer): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  let bad = 0;
  let n = 0;
  for await (const ws of reader) {
    for await (const row of ws) {
      const v = row.values as unknown[];
      if (row.number === 1) continue;
      n++;
      if (v[2] !== '销售' || v[4] !== '未处理' || v[3] !== `第${row.number - 1}条问题：保养预约页面打不开😀`) bad++;
    }
  }
  expect(n).toBe(10_000);
  return bad;
}

describe('the ASCII rewrite of an uploaded workbook', () => {
  it('keeps every Chinese character (and emoji) of a 10,000-row sheet that the plain reader damages', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ascii-'));
    try {
      const path = join(dir, 'big.xlsx');
      const cols = ['身份', '模块', '问题描述', '状态'].map((title) => ({ title, width: 10 }));
      await pipeline(
        xlsxStream('t', cols, rows(10_000), (e) => {
          throw e;
        }),
        createWriteStream(path),
      );
      const file = readFileSync(path);
      expect(await damaged(file)).toBeGreaterThan(0);
      expect(await damaged(await asciiXlsx(file))).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
