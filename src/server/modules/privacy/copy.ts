/**
 * The copy for the person (PIPL art. 45): what findPerson found, as one JSON document or one
 * xlsx workbook (a sheet per schema or table with the records, one with every revision, one with
 * the log lines), property titles as the screens show them.
 */
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { sheetName } from '../../crud/sheets/xlsx-writer.ts';
import type { FindResult } from './find.ts';
import type { RequestRow } from './requests.ts';

export function copyDocument(found: FindResult, specs: ResourceSpec[], madeAt: string) {
  return {
    madeAt,
    count: found.count,
    entities: found.groups.map((g) => {
      const spec = specs.find((s) => s.name === g.resource);
      return {
        resource: g.resource,
        title: g.title,
        fields: spec ? Object.fromEntries(spec.fields.map((f) => [f.name, f.title])) : undefined,
        records: g.records,
        deletedIds: g.deletedIds,
        history: g.revisions,
      };
    }),
    log: found.logs,
  };
}

const cell = (v: unknown): string | number | null =>
  v === null || v === undefined ? null : typeof v === 'number' ? v : typeof v === 'string' ? v : JSON.stringify(v);

export async function copyWorkbook(found: FindResult, specs: ResourceSpec[]): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const used = new Set<string>();
  const sheet = (title: string) => {
    let name = sheetName(title);
    for (let i = 2; used.has(name); i++) name = sheetName(`${title}${i}`);
    used.add(name);
    return wb.addWorksheet(name);
  };
  for (const g of found.groups) {
    const spec = specs.find((s) => s.name === g.resource);
    const keys = [...new Set(g.records.flatMap((r) => Object.keys(r)))];
    const ws = sheet(g.title);
    ws.addRow(keys.map((k) => spec?.fields.find((f) => f.name === k)?.title ?? k));
    for (const r of g.records) ws.addRow(keys.map((k) => cell(r[k])));
    if (g.deletedIds.length) ws.addRow([`已删除（在历史记录中）的记录ID：${g.deletedIds.join(',')}`]);
  }
  const history = sheet('历史记录');
  history.addRow(['数据', '记录ID', '操作', '时间', '操作人', '变更']);
  for (const g of found.groups)
    for (const r of g.revisions) history.addRow([g.title, r.recordId, r.action, r.time, r.actorName, cell(r.changes)]);
  const log = sheet('操作日志');
  log.addRow(['ID', '用户', '描述', '方法', '参数', '时间']);
  for (const l of found.logs) log.addRow([l.id, l.username, l.description, l.method, l.params, l.createTime]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The requests as one sheet, for an audit. */
export async function requestsWorkbook(rows: RequestRow[]): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('个人信息请求记录');
  ws.addRow(['ID', '时间', '类型', '对象', '事由', '状态', '结果数', '操作人', '明细']);
  for (const r of rows)
    ws.addRow([r.id, r.createTime, r.kindTitle, r.subject, r.reason, r.status, r.resultCount, r.username ?? '系统', cell(r.detail)]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
