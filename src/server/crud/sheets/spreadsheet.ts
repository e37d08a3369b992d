/**
 * xlsx export and import of a resource.
 *
 * Columns (both ways): the list columns in order, then the remaining form fields; the header
 * row holds their Chinese titles. Booleans and option fields are written as their Chinese
 * labels and read back from them.
 *
 * Export streams through xlsx-writer.ts: rows are read in batches (keyset by id for the id sort,
 * otherwise the sorted ids first and rows fetched by id) only when the zip writer pulls more
 * sheet XML, so memory stays flat for any row count.
 *
 * Import reads the first worksheet streaming (xlsx-reader.ts), maps header titles to
 * fields, validates every row with the same validator as the API, and writes nothing unless
 * every row is valid.
 */
import { transferStarted, type Transfer } from '../../metrics/transfers.ts';
import { Readable } from 'node:stream';
import type { FieldSpec, ResourceSpec } from '../../../shared/resource-spec.ts';
import { listFields, optionLabel } from '../../../shared/resource-spec.ts';
import { mask } from '../../../shared/masks.ts';
import type { Database } from '../../types.ts';
import { rowArrayReader } from '../../db/index.ts';
import { filteredQuery, orderedQuery } from '../repository.ts';
import type { ListParams } from '../query/query.ts';
import { checkRecord } from '../validation.ts';
import { xlsxStream, type CellValue } from './xlsx-writer.ts';
import { sheetRows, type SheetValue } from './xlsx-reader.ts';
import { dateText, dateTimeText, fromColumnValue, idField } from '../values.ts';
import { plainText } from '../../../shared/text.ts';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const BATCH = 1000;

/** Columns of export and import, in order. */
export function sheetFields(spec: ResourceSpec): FieldSpec[] {
  const out = [...listFields(spec)];
  for (const f of spec.fields) if (f.form && !out.includes(f)) out.push(f);
  return out;
}

function cellValue(field: FieldSpec, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (field.options?.length) return optionLabel(field, value) ?? plainText(value);
  if (field.type === 'boolean') return value ? '是' : '否';
  if (typeof value === 'number') return value;
  return plainText(value);
}

/** `attachment; filename="..."; filename*=UTF-8''...` with an ASCII fallback name. */
export function attachmentHeader(fileName: string, asciiName: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encoded}`;
}

export function exportFileName(spec: ResourceSpec): string {
  return `${spec.title}数据.xlsx`;
}

/**
 * The rows to export as arrays in the order of `columns` (rowArrays: no object per row), batch by
 * batch: keyset by id for the id sort, otherwise the sorted ids first (compact), then the rows.
 * On PostgreSQL every batch is read on the same connection, held for the whole export (no pool
 * checkout per batch) and given back however the export ends, and the next batch is asked for
 * before the current one is given out: PostgreSQL reads it while this process writes the sheet.
 * On SQLite a read runs in this thread, so there is nothing to overlap and batches are read in
 * turn. (Reading ahead was first measured at a load average of 6-10, with no idle core for
 * PostgreSQL, and left out; on a quiet machine it saves about 0.6 s of 6.5 per 1,000,000 rows:
 * scripts/bench/README.md, "The export reads ahead on PostgreSQL".)
 */
async function* rowBatches(database: Database, spec: ResourceSpec, params: ListParams, columns: string[]): AsyncGenerator<unknown[][]> {
  const id = idField(spec);
  const idAt = columns.indexOf(id.column);
  const idOnly = params.sort.length === 1 && params.sort[0].field === id;
  const readAhead = database.dialect === 'postgres';
  const reader = await rowArrayReader(database);
  /** a read sent ahead, settled before the reader is closed */
  let ahead: Promise<unknown> | undefined;
  const sendAhead = <T>(read: Promise<T>): Promise<T> => {
    ahead = read.catch(() => undefined);
    return read;
  };
  try {
    if (idOnly) {
      const desc = params.sort[0].desc;
      const batchAfter = (last: number | undefined) => {
        let q = filteredQuery(database, spec, params.conditions).clearSelect().select(columns);
        if (last !== undefined) q = q.where(id.column, desc ? '<' : '>', last);
        return reader.read(
          q
            .orderBy(id.column, desc ? 'desc' : 'asc')
            .limit(BATCH)
            .compile(),
        );
      };
      let last: number | undefined;
      let next: Promise<unknown[][]> | undefined;
      for (;;) {
        const rows = await (next ?? batchAfter(last));
        if (rows.length === 0) return;
        const more = rows.length === BATCH;
        // before the rows are given out: their consumer turns them into cells in place
        last = Number(rows[rows.length - 1][idAt]);
        next = more && readAhead ? sendAhead(batchAfter(last)) : undefined;
        yield rows;
        if (!more) return;
      }
    }
    const idRows = await orderedQuery(
      filteredQuery(database, spec, params.conditions).clearSelect().select(id.column),
      params.sort,
    ).execute();
    const ids = Float64Array.from(idRows, (r) => Number(r[id.column]));
    idRows.length = 0;
    const chunkAt = (i: number) => Array.from(ids.subarray(i, i + BATCH));
    const batchOf = (chunk: number[]) =>
      reader.read(database.db.selectFrom(spec.table).select(columns).where(id.column, 'in', chunk).compile());
    let next: Promise<unknown[][]> | undefined;
    for (let i = 0; i < ids.length; i += BATCH) {
      const chunk = chunkAt(i);
      const rows = await (next ?? batchOf(chunk));
      next = readAhead && i + BATCH < ids.length ? sendAhead(batchOf(chunkAt(i + BATCH))) : undefined;
      const byId = new Map(rows.map((r) => [Number(r[idAt]), r]));
      yield chunk.map((k) => byId.get(k)).filter((r): r is unknown[] => !!r);
    }
  } finally {
    await ahead;
    reader.close();
  }
}

/**
 * A long export makes garbage faster than V8 returns memory (its old space grows to the next
 * limit before a full collection): every COLLECT_EVERY_ROWS rows the export asks for a full
 * collection when the server runs with --expose-gc (`npm start` does). The live heap is small
 * (about 23 MB), so each takes a few milliseconds, and the RSS of a 1,000,000-row export stays flat.
 */
export const COLLECT_EVERY_ROWS = 50_000;
const collectGarbage = (): void => (globalThis as { gc?: () => void }).gc?.();

/**
 * Starts writing the export into a stream and returns it at once; rows are read only as fast as
 * the stream is consumed. `onError` is told if the export fails midway (the stream is then
 * destroyed); destroying the stream stops the export.
 */
export function exportStream(
  database: Database,
  spec: ResourceSpec,
  params: ListParams,
  onError: (err: unknown) => void,
  /** told the number of rows written so far, after each batch (progress of a background export) */
  onRows?: (written: number) => void,
  /** personal fields (x-mask) written masked: the caller may not see them in full */
  masked = false,
): Readable {
  const fields = sheetFields(spec);
  const cell = (f: FieldSpec, value: unknown) => {
    const v = cellValue(f, value);
    return masked && f.mask && v !== null && v !== '' ? mask(f.mask, v) : v;
  };
  // the texts an option or yes/no column holds, unless masking may change them
  const labels = (f: FieldSpec): string[] | undefined =>
    masked && f.mask ? undefined : f.options?.length ? f.options.map((o) => o.label) : f.type === 'boolean' ? ['是', '否'] : undefined;
  const columns = fields.map((f) => ({
    title: f.title,
    width: Math.min(60, Math.max(10, (f.list?.width ?? 120) / 7)),
    labels: labels(f),
  }));
  async function* values(): AsyncGenerator<CellValue[][]> {
    const transfer = transferStarted(database, 'export');
    let completed = false;
    try {
      yield* batches(transfer);
      completed = true;
    } finally {
      transfer.end(completed);
    }
  }
  async function* batches(transfer: Transfer): AsyncGenerator<CellValue[][]> {
    let sinceCollect = 0;
    let written = 0;
    // the sheet's columns first (their values at these places), then the id when it is not among them
    const columns = fields.map((f) => f.column);
    if (!columns.includes(idField(spec).column)) columns.push(idField(spec).column);
    const width = fields.length;
    for await (const rows of rowBatches(database, spec, params, columns)) {
      // each row's array becomes its cells in place (no second array per row); an id read only
      // for the keyset is cut off
      for (const row of rows) {
        for (let i = 0; i < width; i++) row[i] = cell(fields[i], fromColumnValue(fields[i], row[i]));
        row.length = width;
      }
      yield rows as CellValue[][];
      transfer.rows(rows.length);
      written += rows.length;
      onRows?.(written);
      sinceCollect += rows.length;
      if (sinceCollect >= COLLECT_EVERY_ROWS) {
        sinceCollect = 0;
        collectGarbage();
      }
    }
  }
  return xlsxStream(spec.title, columns, values(), onError);
}

export interface ImportRowError {
  row: number;
  column: string;
  message: string;
}

export type ImportResult =
  | { ok: true; records: Record<string, unknown>[]; /** sheet row of each record */ rows: number[] }
  | { ok: false; message: string; errors: ImportRowError[] };

export class UnreadableSheetError extends Error {}

export const MAX_IMPORT_ROWS = 100_000;
export const MAX_REPORTED_ERRORS = 100;
/** what readImport unpacks at most when its caller names no limit (the route passes its own) */
export const DEFAULT_MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;

/** A sheet value as the JSON value the validator expects for the field (see importerOf). */
type Importer = (value: SheetValue) => unknown;

const TRUE_TEXTS = new Set(['是', 'true', 'TRUE', '1']);
const FALSE_TEXTS = new Set(['否', 'false', 'FALSE', '0']);

/**
 * How a field's cells become the JSON value the validator expects. An option field's label (or
 * its stored value) is looked up in maps built once per import, not searched per cell; a text
 * the field does not know is handed on as it is, for the validator to name.
 */
function importerOf(field: FieldSpec): Importer {
  if (field.options?.length) {
    const byLabel = new Map<string, unknown>();
    const byValue = new Map<string, unknown>();
    for (const o of field.options) {
      if (!byLabel.has(o.label)) byLabel.set(o.label, o.value);
      if (!byValue.has(String(o.value))) byValue.set(String(o.value), o.value);
    }
    return (value) => {
      if (value === null) return null;
      const text = value instanceof Date ? dateTimeText(value) : String(value).trim();
      if (byLabel.has(text)) return byLabel.get(text);
      if (byValue.has(text)) return byValue.get(text);
      return text;
    };
  }
  switch (field.type) {
    case 'boolean':
      return (value) => {
        if (value === null || typeof value === 'boolean') return value;
        const text = String(value).trim();
        return TRUE_TEXTS.has(text) ? true : FALSE_TEXTS.has(text) ? false : text;
      };
    case 'integer':
    case 'number':
      return (value) => {
        if (value === null || typeof value === 'number') return value;
        const text = String(value).trim();
        const n = Number(text);
        return text !== '' && Number.isFinite(n) ? n : text;
      };
    case 'string':
      return (value) => {
        if (value === null) return null;
        if (value instanceof Date) {
          // date cells are read as UTC instants of the local wall time (xlsx-reader.ts, as exceljs did)
          const local = new Date(value.getTime() + value.getTimezoneOffset() * 60_000);
          return field.format === 'date' ? dateText(local) : dateTimeText(local);
        }
        return String(value);
      };
  }
}

/** Whether a row holds nothing but blank cells. */
function blankRow(values: SheetValue[]): boolean {
  for (const v of values) if (v !== undefined && v !== null && String(v).trim() !== '') return false;
  return true;
}

/**
 * Reads and validates an uploaded workbook. Throws UnreadableSheetError when the file is not a
 * readable xlsx; answers the records to insert or the row/column errors.
 */
export async function readImport(spec: ResourceSpec, file: Buffer, maxUnpackedBytes = DEFAULT_MAX_UNPACKED_BYTES): Promise<ImportResult> {
  const fields = spec.fields.filter((f) => !f.auto && f.name in ((spec.schema.properties as Record<string, unknown>) ?? {}));
  const records: Record<string, unknown>[] = [];
  const rowNumbers: number[] = [];
  const errors: ImportRowError[] = [];
  let header: Map<number, FieldSpec> | undefined;
  // the header's columns, field names and importers side by side (no map walked per row)
  let columns: number[] = [];
  let names: string[] = [];
  let importers: Importer[] = [];
  let firstError: string | undefined;
  let tooMany = false;
  try {
    reading: for await (const rows of sheetRows(file, maxUnpackedBytes)) {
      for (const row of rows) {
        const cells = row.values;
        if (!header) {
          header = new Map();
          cells.forEach((v, col) => {
            const title = String(v ?? '').trim();
            const field = fields.find((f) => f.title === title);
            if (field && ![...header!.values()].includes(field)) header!.set(col, field);
          });
          columns = [...header.keys()];
          names = [...header.values()].map((f) => f.name);
          importers = [...header.values()].map(importerOf);
          continue;
        }
        if (blankRow(cells)) continue;
        if (records.length + errors.length >= MAX_IMPORT_ROWS) {
          tooMany = true;
          break reading;
        }
        const body: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) body[names[i]] = importers[i](cells[columns[i]] ?? null);
        const result = checkRecord(spec, body, 'create');
        if (result.ok) {
          records.push(result.values);
          rowNumbers.push(row.number);
        } else {
          const column = result.error.field?.title ?? '';
          const message = column ? `第${row.number}行「${column}」: ${result.error.message}` : `第${row.number}行: ${result.error.message}`;
          firstError ??= message;
          if (errors.length < MAX_REPORTED_ERRORS) errors.push({ row: row.number, column, message: result.error.message });
          else if (errors.length === MAX_REPORTED_ERRORS) break reading;
        }
      }
    }
  } catch (err) {
    throw new UnreadableSheetError(err instanceof Error ? err.message : String(err));
  }
  if (tooMany) return { ok: false, message: `一次最多导入${MAX_IMPORT_ROWS}行数据`, errors: [] };
  if (!header || header.size === 0) return { ok: false, message: '模板格式不正确，未找到可导入的列', errors: [] };
  if (firstError) return { ok: false, message: firstError, errors };
  if (records.length === 0) return { ok: false, message: '文件中没有数据', errors: [] };
  return { ok: true, records, rows: rowNumbers };
}
