import { describe, expect, it } from 'vitest';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { exportStream } from '../../src/server/crud/sheets/spreadsheet.ts';
import { testApps } from './helpers.ts';
import { exportParams as params, spec, withExportRows } from './export-rows.ts';

const ROWS = 2_500;

async function allBytes(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of stream) parts.push(b as Buffer);
  return Buffer.concat(parts);
}

async function titles(body: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const out: string[] = [];
  wb.worksheets[0].eachRow((row, n) => {
    if (n > 1) out.push(row.getCell(3).text);
  });
  return out;
}

// The export reads its batches on a connection of its own (PostgreSQL: one of the pool's, held for
// the whole export): it must give that connection back however the export ends, or a few stopped
// downloads would starve the pool.
describe.each(testApps())('the export connection on %s', (_name, start) => {
  const app = withExportRows(start, ROWS, '导出');

  it('every row once, in order, for the id sort and for another sort', async () => {
    const byId = await titles(await allBytes(exportStream(app().app.database, spec, params(), () => undefined)));
    expect(byId).toHaveLength(ROWS);
    expect(byId[0]).toBe(`导出${ROWS - 1}`);
    expect(new Set(byId).size).toBe(ROWS);
    const byTitle = await titles(await allBytes(exportStream(app().app.database, spec, params({ sort: 'title,asc' }), () => undefined)));
    expect(byTitle).toEqual([...byId].sort());
  });

  it('exports stopped after their first bytes give their connections back', async () => {
    for (let i = 0; i < 4; i++) {
      const stream = exportStream(app().app.database, spec, params(), () => undefined);
      await new Promise<void>((resolve, reject) => {
        stream.once('data', () => {
          stream.destroy();
          resolve();
        });
        stream.once('error', reject);
      });
      await new Promise((resolve) => stream.once('close', resolve));
    }
    // with both connections still held, this would wait for the pool's timeout and fail
    const started = Date.now();
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM sys_question`.execute(app().app.database.db);
    expect(Number(rows[0].n)).toBe(ROWS);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await titles(await allBytes(exportStream(app().app.database, spec, params(), () => undefined)))).toHaveLength(ROWS);
  });

  it('a read that fails ends the export with the error and frees the connection', async () => {
    const failing = params();
    // a condition on a column that does not exist: the database refuses the first read
    failing.conditions.push({ kind: 'eq', field: { ...spec.fields[1], column: 'no_such_column' }, value: 'x' } as never);
    const errors: unknown[] = [];
    await expect(allBytes(exportStream(app().app.database, spec, failing, (err) => errors.push(err)))).rejects.toThrow();
    expect(errors).toHaveLength(1);
    expect(await titles(await allBytes(exportStream(app().app.database, spec, params(), () => undefined)))).toHaveLength(ROWS);
  });
});
