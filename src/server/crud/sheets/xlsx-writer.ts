/**
 * A streaming xlsx writer for one worksheet of plain values: the sheet XML is produced by a
 * generator that the zip writer (zip-writer.ts) pulls, so nothing is produced faster than the reader of the
 * archive takes it (real back-pressure, flat memory for any row count).
 *
 * The package holds the minimal parts spreadsheet applications need: [Content_Types].xml,
 * _rels/.rels, xl/workbook.xml, xl/_rels/workbook.xml.rels, xl/styles.xml and
 * xl/worksheets/sheet1.xml, and xl/sharedStrings.xml when columns name their labels. Text is
 * written as inline strings, except a column's labels known before any row (option labels,
 * 是/否), which a small shared-string table written ahead of the sheet holds (no table grows with
 * the rows); numbers as numbers; characters XML cannot carry are left out.
 */
import { Readable } from 'node:stream';
import { zipStream, type ZipPart } from './zip-writer.ts';

export type CellValue = string | number | null;

export interface SheetColumn {
  title: string;
  /** in characters */
  width: number;
  /**
   * The texts most of this column's cells hold (option labels, 是/否), known before any row: they
   * go into the shared-string table written ahead of the sheet, and such a cell is written as its
   * index (`<c r="B2" t="s"><v>3</v></c>`) instead of the text inline.
   */
  labels?: string[];
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

/** anything xmlText might change: &<>", control characters, any surrogate (a pair is kept below), U+FFFE/F */
const NEEDS_WORK = /[^\t\n\r\x20\x21\x23-\x25\x27-\x3B\x3D\x3F-\uD7FF\uE000-\uFFFD]/;

/** Text as XML character data: escaped, without characters XML forbids. */
export function xmlText(text: string): string {
  // most cells have nothing to change: one scan instead of two replacing ones
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(INVALID_XML, '').replace(/[&<>"]/g, (c) => ESCAPES[c]);
}

/** xml:space="preserve" only where it changes something: whitespace at either end of the text */
const edgeSpace = (text: string) => text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32;

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

/** per column: the shared-string index of each of its labels (undefined: no labels) */
type SharedIndex = Array<Map<string, number> | undefined>;

function rowXml(letters: string[], rowNumber: number, values: CellValue[], shared: SharedIndex): string {
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
      const index = shared[i]?.get(text);
      if (index !== undefined) {
        xml += `<c r="${ref}" t="s"><v>${index}</v></c>`;
        continue;
      }
      const cut = text.length > MAX_CELL_TEXT ? text.slice(0, MAX_CELL_TEXT) : text;
      xml += edgeSpace(cut)
        ? `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(cut)}</t></is></c>`
        : `<c r="${ref}" t="inlineStr"><is><t>${xmlText(cut)}</t></is></c>`;
    }
  }
  return `${xml}</row>`;
}

/** The shared-string table of the columns' labels (each text once) and each column's index into it. */
function sharedStrings(columns: SheetColumn[]): { texts: string[]; index: SharedIndex } {
  const all = new Map<string, number>();
  const index: SharedIndex = columns.map((c) => {
    if (!c.labels?.length) return undefined;
    const own = new Map<string, number>();
    for (const label of c.labels) {
      // a label XML cannot carry as it is stays inline (written as the cell would be without a table)
      if (label === '' || label.length > MAX_CELL_TEXT || xmlText(label) !== label || edgeSpace(label)) continue;
      let at = all.get(label);
      if (at === undefined) all.set(label, (at = all.size));
      own.set(label, at);
    }
    return own.size ? own : undefined;
  });
  return { texts: [...all.keys()], index };
}

function sharedStringsXml(texts: string[]): string {
  return (
    `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${texts.length}" uniqueCount="${texts.length}">` +
    texts.map((t) => `<si><t>${t}</t></si>`).join('') +
    '</sst>'
  );
}

async function* sheetXml(
  columns: SheetColumn[],
  batches: AsyncIterable<CellValue[][]> | Iterable<CellValue[][]>,
  shared: SharedIndex,
): AsyncGenerator<Buffer> {
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
        [],
      ),
  );
  let rowNumber = 1;
  for await (const rows of batches) {
    let xml = '';
    for (const values of rows) xml += rowXml(letters, ++rowNumber, values, shared);
    if (xml) yield Buffer.from(xml);
  }
  yield Buffer.from('</sheetData></worksheet>');
}

function staticParts(title: string, withSharedStrings: boolean): Array<[string, string]> {
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        (withSharedStrings
          ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
          : '') +
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
        (withSharedStrings ? `<Relationship Id="rId3" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` : '') +
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
  const shared = sharedStrings(columns);
  const parts: ZipPart[] = staticParts(title, shared.texts.length > 0).map(([name, content]) => ({ name, content }));
  // ahead of the sheet, so a streaming reader knows the texts before the cells that use them
  if (shared.texts.length) parts.push({ name: 'xl/sharedStrings.xml', content: sharedStringsXml(shared.texts) });
  parts.push({ name: 'xl/worksheets/sheet1.xml', content: sheetXml(columns, batches, shared.index) });
  const archive = zipStream(parts);
  archive.once('error', onError);
  return archive;
}
