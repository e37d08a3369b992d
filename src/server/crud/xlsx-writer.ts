/**
 * A streaming xlsx writer for one worksheet of plain values: the sheet XML is produced by a
 * generator that the zip archiver pulls, so nothing is produced faster than the reader of the
 * archive takes it (real back-pressure, flat memory for any row count).
 *
 * The package holds the minimal parts spreadsheet applications need: [Content_Types].xml,
 * _rels/.rels, xl/workbook.xml, xl/_rels/workbook.xml.rels, xl/styles.xml and
 * xl/worksheets/sheet1.xml. Text is written as inline strings (no shared-string table to keep
 * in memory), numbers as numbers; characters XML cannot carry are left out.
 */
import { Readable } from 'node:stream';
import archiver from 'archiver';

export type CellValue = string | number | null;

export interface SheetColumn {
  title: string;
  /** in characters */
  width: number;
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** Excel's limit on the text of one cell */
const MAX_CELL_TEXT = 32767;

// everything outside XML 1.0's Char production (control characters, lone surrogates, U+FFFE/F)
const INVALID_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text as XML character data: escaped, without characters XML forbids. */
export function xmlText(text: string): string {
  return text.replace(INVALID_XML, '').replace(/[&<>"]/g, (c) => ESCAPES[c]);
}

/** 0 -> A, 25 -> Z, 26 -> AA ... */
export function columnLetters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** A worksheet name Excel accepts: no []:*?/\, not empty, at most 31 characters. */
export function sheetName(title: string): string {
  const name = title
    .replace(/[[\]:*?/\\]/g, ' ')
    .trim()
    .slice(0, 31);
  return name || 'Sheet1';
}

function rowXml(letters: string[], rowNumber: number, values: CellValue[]): string {
  let xml = `<row r="${rowNumber}">`;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    const ref = letters[i] + rowNumber;
    if (typeof v === 'number' && Number.isFinite(v)) {
      xml += `<c r="${ref}"><v>${v}</v></c>`;
    } else {
      const text = String(v);
      if (text === '') continue;
      xml += `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(text.length > MAX_CELL_TEXT ? text.slice(0, MAX_CELL_TEXT) : text)}</t></is></c>`;
    }
  }
  return `${xml}</row>`;
}

async function* sheetXml(columns: SheetColumn[], batches: AsyncIterable<CellValue[][]> | Iterable<CellValue[][]>): AsyncGenerator<Buffer> {
  const letters = columns.map((_, i) => columnLetters(i));
  const cols = columns
    .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.round(c.width * 100) / 100}" customWidth="1"/>`)
    .join('');
  yield Buffer.from(
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      '<sheetViews><sheetView workbookViewId="0"/></sheetViews>' +
      '<sheetFormatPr defaultRowHeight="15"/>' +
      `<cols>${cols}</cols><sheetData>` +
      rowXml(
        letters,
        1,
        columns.map((c) => c.title),
      ),
  );
  let rowNumber = 1;
  for await (const rows of batches) {
    let xml = '';
    for (const values of rows) xml += rowXml(letters, ++rowNumber, values);
    if (xml) yield Buffer.from(xml);
  }
  yield Buffer.from('</sheetData></worksheet>');
}

function staticParts(title: string): Array<[string, string]> {
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
        '</Relationships>',
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        '<bookViews><workbookView/></bookViews>' +
        `<sheets><sheet name="${xmlText(sheetName(title))}" sheetId="1" r:id="rId1"/></sheets>` +
        '</workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
        '</Relationships>',
    ],
    [
      'xl/styles.xml',
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
        '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
        '</styleSheet>',
    ],
  ];
}

/**
 * An xlsx file as a stream: a title row with the column titles, then one row per value array of
 * `batches` (read only as fast as the stream is consumed). When `batches` fails, `onError` is
 * told and the stream is destroyed with the error; destroying the stream stops reading.
 */
export function xlsxStream(
  title: string,
  columns: SheetColumn[],
  batches: AsyncIterable<CellValue[][]> | Iterable<CellValue[][]>,
  onError: (err: unknown) => void,
): Readable {
  const archive = archiver('zip', { zlib: { level: 1 } });
  const sheet = Readable.from(sheetXml(columns, batches), { objectMode: false, highWaterMark: 64 * 1024 });
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    onError(err);
    sheet.destroy();
    archive.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  sheet.on('error', fail);
  archive.on('error', fail);
  archive.on('close', () => sheet.destroy());
  for (const [name, content] of staticParts(title)) archive.append(content, { name });
  archive.append(sheet, { name: 'xl/worksheets/sheet1.xml' });
  archive.finalize().catch(fail);
  return archive;
}
