/**
 * The import template of a resource (GET <base>/template, the `:import` key): an xlsx whose
 * first sheet has the columns the import reads, headed by their Chinese titles (required ones in
 * red with a note), one example row that the import accepts as it is, and a drop-down list (data
 * validation) on every column with options (dictionary fields, booleans) holding the labels the
 * import understands. The lists live on a hidden second sheet, so long option lists and labels
 * with commas work too; text columns are formatted as text so a mobile or ID number stays as typed.
 *
 * The example value of a field: the schema's own `examples` (standard JSON Schema), else one made
 * from its type, options, format, bounds and pattern (well-known valid mobiles, ID numbers, VINs,
 * plates, credit codes...), else a short text. Reference fields take an existing record's id,
 * department fields the caller's department. The test over every importable schema downloads
 * the template, fills nothing in, imports it and expects it accepted.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { optionLabel, permissionKey } from '../../../shared/resource-spec.ts';
import type { Database } from '../../types.ts';
import { attachmentHeader, sheetFields, XLSX_MIME } from './spreadsheet.ts';
import { dateText, dateTimeText } from '../values.ts';
import { checkRecord } from '../validation.ts';
import { plainText } from '../../../shared/text.ts';

/** The columns the import reads, in the export's order (list columns, then form fields), then any other. */
export function templateFields(spec: ResourceSpec): FieldSpec[] {
  const properties = (spec.schema.properties as Record<string, unknown>) ?? {};
  const importable = (f: FieldSpec) => !f.auto && !f.readOnly && f.name in properties;
  const ordered = sheetFields(spec).filter(importable);
  for (const f of spec.fields) if (importable(f) && !ordered.includes(f)) ordered.push(f);
  return ordered;
}

type PropertySchema = {
  examples?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  multipleOf?: number;
  format?: string;
  const?: unknown;
};

/** Texts valid for the product's common patterns, tried in turn against a field's pattern. */
export const PATTERN_SAMPLES = [
  '13800138000', // mobile
  '11010519491231002X', // resident ID number (check digit valid)
  'LSVAU218XN2183294', // VIN (check character valid)
  '沪A12345', // plate
  '沪AD12345', // new-energy plate
  '91310000MA1FL4C65L', // unified social credit code
  '021-12345678', // landline
  '6222021234567890123', // bank card
  'example@example.com',
  'https://www.example.com',
  '192.168.1.1',
  'E12345678', // passport
  '100',
  '1',
  '0.5',
  '10.00',
  'ABC123',
  'A',
  'abc',
  '示例',
];

function propertyOf(spec: ResourceSpec, field: FieldSpec): PropertySchema {
  const properties = spec.schema.properties as Record<string, PropertySchema | undefined> | undefined;
  return properties?.[field.name] ?? {};
}

function numberExample(p: PropertySchema, integer: boolean): number {
  let low = p.minimum ?? (p.exclusiveMinimum !== undefined ? p.exclusiveMinimum + (integer ? 1 : 0.5) : undefined);
  const high = p.maximum ?? (p.exclusiveMaximum !== undefined ? p.exclusiveMaximum - (integer ? 1 : 0.5) : undefined);
  low ??= high !== undefined ? Math.min(1, high) : 1;
  let n = Math.max(low, Math.min(1, high ?? 1));
  if (high !== undefined && n > high) n = high;
  if (integer) n = Math.ceil(n);
  if (p.multipleOf) n = Math.ceil(n / p.multipleOf) * p.multipleOf;
  return n;
}

function textExample(field: FieldSpec, p: PropertySchema): string {
  const now = new Date();
  if (p.format === 'date' || field.format === 'date') return dateText(now);
  if (p.format === 'date-time' || field.format === 'date-time') return dateTimeText(now);
  if (p.format === 'email') return 'example@example.com';
  if (p.format === 'uri' || p.format === 'url') return 'https://www.example.com';
  const max = p.maxLength ?? field.maxLength ?? 200;
  const min = p.minLength ?? 0;
  const fits = (s: string) => [...s].length <= max && [...s].length >= min;
  if (p.pattern) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(p.pattern, 'u');
    } catch {
      re = undefined;
    }
    const sample = re && PATTERN_SAMPLES.find((s) => re.test(s) && fits(s));
    if (sample) return sample;
  }
  let text = `示例${field.title}`;
  while ([...text].length < min) text += '示例内容';
  return [...text].slice(0, Math.max(min, Math.min(max, [...text].length))).join('');
}

/** The example row as API values (by property name). `refIds` holds an existing id per referenced table. */
export function exampleRecord(
  spec: ResourceSpec,
  refIds: Record<string, number | null> = {},
  orgId: number | null = null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of templateFields(spec)) {
    const p = propertyOf(spec, field);
    let value: unknown;
    if (Array.isArray(p.examples) && p.examples.length) value = p.examples[0];
    else if (p.const !== undefined) value = p.const;
    else if (field.options?.length)
      value = field.default !== undefined && field.options.some((o) => o.value === field.default) ? field.default : field.options[0].value;
    else if (field.scope === 'org') value = orgId ?? refIds[field.ref?.resource ?? ''] ?? undefined;
    else if (field.scope === 'dept') value = refIds[field.ref?.resource ?? ''] ?? undefined;
    else if (field.ref) value = refIds[field.ref.resource] ?? undefined;
    else if (field.type === 'boolean') value = field.default ?? true;
    else if (field.type === 'integer' || field.type === 'number') value = field.default ?? numberExample(p, field.type === 'integer');
    else value = field.default ?? textExample(field, p);
    if (value !== undefined && value !== null) out[field.name] = value;
  }
  return out;
}

/** A value as the template's cell shows it (option labels, 是/否), the way the import reads it back. */
function cellOf(field: FieldSpec, value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (field.options?.length) return optionLabel(field, value) ?? plainText(value);
  if (field.type === 'boolean') return value ? '是' : '否';
  if (typeof value === 'number') return value;
  return plainText(value);
}

/** Labels of a column's drop-down list, or null for a free column. */
export function dropDownLabels(field: FieldSpec): string[] | null {
  if (field.options?.length) return field.options.map((o) => o.label);
  if (field.type === 'boolean') return ['是', '否'];
  return null;
}

/** rows of the data sheet that carry the drop-down lists */
export const TEMPLATE_ROWS = 1000;
const LISTS_SHEET = '选项';

export function templateFileName(spec: ResourceSpec): string {
  return `${spec.title}导入模板.xlsx`;
}

/** Referenced resources that are hand-written tables rather than schemas: their table and id column. */
const TABLE_RESOURCES: Record<string, { table: string; id: string }> = {
  dept: { table: 'sys_dept', id: 'id' },
  users: { table: 'sys_user', id: 'id' },
};

/**
 * An existing id per resource the template's reference fields point at (the example row needs
 * one): departments are the caller's own (else the first), other records the first one stored.
 */
export async function referenceIds(
  database: Database,
  spec: ResourceSpec,
  specs: ResourceSpec[],
  caller?: { deptId: number | null; orgId: number | null },
): Promise<Record<string, number | null>> {
  const out: Record<string, number | null> = {};
  for (const field of templateFields(spec)) {
    if (!field.ref || field.ref.resource in out) continue;
    const name = field.ref.resource;
    if (name === 'dept' && caller?.deptId) {
      out[name] = caller.deptId;
      continue;
    }
    const target = specs.find((s) => s.name === name);
    const idField = target ? (target.fields.find((f) => f.auto === 'id') ?? target.fields.find((f) => f.name === 'id')) : undefined;
    const where = target && idField ? { table: target.table, id: idField.column } : TABLE_RESOURCES[name];
    if (!where) continue;
    const row = await database.db.selectFrom(where.table).select(where.id).orderBy(where.id).limit(1).executeTakeFirst();
    out[name] = row ? Number(row[where.id]) : null;
  }
  return out;
}

/** The template workbook. */
export async function templateWorkbook(spec: ResourceSpec, example: Record<string, unknown>): Promise<Buffer> {
  const fields = templateFields(spec);
  // exceljs loads with the first template asked for, not with the server (it is large)
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = spec.title;
  const sheet = book.addWorksheet(spec.title.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  const lists = book.addWorksheet(LISTS_SHEET, { state: 'hidden' });
  sheet.columns = fields.map((f) => ({ header: f.title, key: f.name, width: Math.min(40, Math.max(12, [...f.title].length * 2 + 4)) }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  fields.forEach((f, i) => {
    const cell = header.getCell(i + 1);
    const hints = [
      f.required ? '必填' : '选填',
      f.placeholder,
      f.format === 'date' ? '格式：2024-01-31' : f.format === 'date-time' ? '格式：2024-01-31 08:30:00' : '',
      f.ref ? '填写编号（ID）' : '',
    ].filter(Boolean);
    cell.note = hints.join('；');
    if (f.required) cell.font = { bold: true, color: { argb: 'FFD9001B' } };
  });
  sheet.addRow(fields.map((f) => cellOf(f, example[f.name])));
  let listColumn = 0;
  fields.forEach((f, i) => {
    const column = sheet.getColumn(i + 1);
    if (f.type === 'string' && !f.options?.length) column.numFmt = '@';
    const labels = dropDownLabels(f);
    if (!labels) return;
    listColumn += 1;
    const letter = lists.getColumn(listColumn).letter;
    labels.forEach((label, r) => (lists.getCell(r + 1, listColumn).value = label));
    const range = `'${LISTS_SHEET}'!$${letter}$1:$${letter}$${labels.length}`;
    for (let row = 2; row <= TEMPLATE_ROWS + 1; row++) {
      sheet.getCell(row, i + 1).dataValidation = {
        type: 'list',
        allowBlank: !f.required,
        formulae: [range],
        showErrorMessage: true,
        errorStyle: 'stop',
        errorTitle: f.title,
        error: `请从下拉列表中选择${f.title}`,
      };
    }
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Whether the example row passes the same validation as an import row (reported by the test). */
export function exampleProblem(spec: ResourceSpec, example: Record<string, unknown>): string | null {
  const result = checkRecord(spec, example, 'create');
  return result.ok ? null : `${result.error.field?.title ?? ''}: ${result.error.message}`;
}

/** GET <base>/template for every spec that imports; the `:import` key, like the import itself. */
export function registerTemplateRoute(app: FastifyInstance, spec: ResourceSpec, specs: ResourceSpec[]): void {
  if (!spec.actions.includes('import')) return;
  app.get(`/${spec.path}/template`, { preHandler: app.requirePermission(permissionKey(spec, 'import')) }, async (request, reply) => {
    const caller = request.user ? { deptId: request.user.deptId, orgId: request.user.orgId } : undefined;
    const example = exampleRecord(spec, await referenceIds(app.database, spec, specs, caller), caller?.orgId ?? null);
    const content = await templateWorkbook(spec, example);
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', attachmentHeader(templateFileName(spec), `${spec.name}-template.xlsx`))
      .header('cache-control', 'no-store')
      .send(content);
  });
}
