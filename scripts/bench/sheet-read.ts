/**
 * npm run bench:sheet-read [-- --rows N --runs R]
 *
 * The CPU seconds of reading and validating an uploaded workbook alone (readImport, no server,
 * no database): the 100,000-row feedback sheet and roster sheet that `bench:import` posts, built
 * in memory with the export's writer, each read R times (default 3) in this process. Prints the
 * CPU and wall seconds of each run and the heap/RSS after it, so a change to the reader is
 * measured without the insert's work around it.
 */
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { resourceByName } from '../../src/generated/resources.ts';
import { readImport, sheetFields } from '../../src/server/crud/sheets/spreadsheet.ts';
import { xlsxStream, type CellValue } from '../../src/server/crud/sheets/xlsx-writer.ts';
import type { ResourceSpec } from '../../src/shared/resource-spec.ts';
import { rosterRecords } from './roster-rows.ts';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const ROWS = arg('rows', 100_000);
const RUNS = arg('runs', 3);
const MODELS = ['销售', '售后', '人事', '系统'];

function feedbackRow(i: number): Record<string, CellValue> {
  const named = i % 3 === 0;
  return {
    userType: '员工',
    model: MODELS[i % MODELS.length],
    title: `导入样本${i}`,
    content: `第${i}条问题：保养预约页面打不开，换了浏览器也一样，请尽快处理`,
    remark: i % 2 ? '建议增加提醒' : null,
    status: i % 5 === 0 ? '已处理' : '未处理',
    username: named ? `客户${i % 1000}` : null,
    mobile: named ? `139${String(10_000_000 + (i % 89_999_999)).padStart(8, '0')}` : null,
  };
}

/** The sheet as the export writes it (option labels in the shared-string table, text inline). */
async function workbook(spec: ResourceSpec, rowAt: (i: number) => Record<string, unknown>): Promise<Buffer> {
  const fields = sheetFields(spec);
  function* batches(): Generator<CellValue[][]> {
    for (let i = 1; i <= ROWS; i += 1000) {
      const batch: CellValue[][] = [];
      for (let j = i; j < Math.min(ROWS + 1, i + 1000); j++) {
        const values = rowAt(j);
        batch.push(
          fields.map((f) => {
            const v = values[f.name];
            if (v === undefined || v === null) return null;
            return (f.options?.find((o) => o.value === v)?.label ?? v) as CellValue;
          }),
        );
      }
      yield batch;
    }
  }
  const columns = fields.map((f) => ({ title: f.title, width: 20, labels: f.options?.map((o) => o.label) }));
  const chunks: Buffer[] = [];
  await pipeline(
    xlsxStream(spec.title, columns, batches(), (err) => console.error(err)),
    new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}

const roster = rosterRecords(ROWS);
const sheets: Array<[string, ResourceSpec, Buffer]> = [
  ['问题反馈', resourceByName.sysQuestion, await workbook(resourceByName.sysQuestion, feedbackRow)],
  ['员工花名册', resourceByName.staff, await workbook(resourceByName.staff, (i) => roster[i - 1])],
];
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
console.log(`readImport of ${ROWS} rows, ${RUNS} runs each`);
for (const [label, spec, file] of sheets) {
  for (let run = 1; run <= RUNS; run++) {
    (globalThis as { gc?: () => void }).gc?.();
    const cpu = process.cpuUsage();
    const start = performance.now();
    const result = await readImport(spec, file);
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    const outcome = result.ok ? `${result.records.length} records` : `refused: ${result.message}`;
    console.log(
      `${label} (${mb(file.length)} file) run ${run}: ${seconds.toFixed(2)} s, CPU ${cpuSeconds.toFixed(2)} s, ` +
        `heap ${mb(process.memoryUsage().heapUsed)}, RSS ${mb(process.memoryUsage().rss)}; ${outcome}`,
    );
  }
}
