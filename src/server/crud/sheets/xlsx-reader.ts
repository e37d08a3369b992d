/**
 * Reads the rows of an uploaded workbook's first worksheet, streaming, for the import
 * (spreadsheet.ts readImport).
 *
 * The zip's central directory (xlsx-inspect.ts) locates the parts; the workbook and its
 * relationships name the first worksheet in the workbook's own order, the styles tell which
 * cells hold dates, and the shared-string table is read into memory. The worksheet itself is
 * inflated in 64 KB chunks and tokenised (xml-scan.ts) as they come, so memory holds a chunk and
 * the rows of one chunk, never the sheet. Bytes are decoded as UTF-8 only for the texts kept,
 * each from complete bytes, so no character is split between chunks.
 *
 * Cell values are what exceljs's streaming reader made of the same cells, as the import used
 * them: shared and inline strings as text (rich-text runs joined, phonetic runs `<rPh>` left
 * out), `t="str"` and formula texts, booleans, error cells as their text (`#N/A`), numbers, and
 * numbers whose style has a date format as a Date of that wall time read as UTC (built-in formats
 * 14-22, 27-36, 45-47 and 50-58, and custom formats with date or time codes). Beyond exceljs:
 * a formula's boolean, error or date result keeps its type; cells and rows without an `r`
 * attribute follow the previous one; elements with a namespace prefix (`<x:c>`) are read.
 * `_xHHHH_` escapes stay as written, as exceljs left them.
 *
 * Every part is inflated with its output counted against `maxUnpackedBytes`, whatever the zip's
 * headers claim; a file that is not a readable workbook throws SheetFormatError (or the
 * InspectError of the zip reading).
 */
import { createInflateRaw } from 'node:zlib';
import { entryData, zipEntries, type ZipEntry } from './xlsx-inspect.ts';
import { attributes, eachAttribute, nameIs, xmlText, XmlScanner, type XmlEvents } from './xml-scan.ts';

export type SheetValue = string | number | boolean | Date | null;

export interface SheetRow {
  /** the row's number in the sheet (1 for the first) */
  number: number;
  /** by column number from 1 (index 0 unused, missing cells left out), as exceljs's row.values */
  values: SheetValue[];
}

export class SheetFormatError extends Error {}

/** Excel's last column, XFD */
const MAX_COLUMNS = 16_384;
const CHUNK = 64 * 1024;
/** the parts other than the sheet and the shared strings are small; a larger one is not a workbook of ours */
const MAX_SMALL_PART = 16 * 1024 * 1024;

interface Budget {
  left: number;
}

/** The unpacked bytes of a part, chunk by chunk, counted against the budget. */
async function* unpacked(file: Buffer, entry: ZipEntry, budget: Budget, limit = Infinity): AsyncGenerator<Buffer> {
  const data = entryData(file, entry);
  let total = 0;
  const count = (n: number) => {
    total += n;
    budget.left -= n;
    if (budget.left < 0 || total > limit) throw new SheetFormatError(`part ${entry.name} unpacks beyond the limit`);
  };
  if (entry.method === 0) {
    count(data.length);
    yield data;
    return;
  }
  if (entry.method !== 8) throw new SheetFormatError(`part ${entry.name}: compression method ${entry.method}`);
  const inflate = createInflateRaw({ chunkSize: CHUNK });
  inflate.end(data);
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      count(chunk.length);
      yield chunk;
    }
  } finally {
    inflate.destroy();
  }
}

async function scanPart(file: Buffer, entry: ZipEntry, budget: Budget, events: XmlEvents, limit?: number): Promise<void> {
  const scanner = new XmlScanner(events);
  for await (const chunk of unpacked(file, entry, budget, limit)) scanner.write(chunk);
  scanner.end();
}

/** An XML part's elements with their attributes (for the small parts). */
function elementsOf(onOpen: (name: string, attrs: () => Map<string, string>) => void, onClose?: (name: string) => void): XmlEvents {
  return {
    open: (buf, ns, ne, as, ae) => onOpen(buf.toString('latin1', ns, ne), () => attributes(buf, as, ae)),
    close: (buf, ns, ne) => onClose?.(buf.toString('latin1', ns, ne)),
    text: () => {},
  };
}

// ---------------------------------------------------------------- styles

/** Built-in number formats that show dates or times (in the Chinese, Japanese, Korean locales too). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

/** Whether a format code shows a date or time: a date/time code outside quotes, brackets and escapes. */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/\[[^\]]*]/g, '')
    .replace(/"[^"]*"/g, '')
    .replace(/[\\_*]./g, '');
  return /[ymdhsb]/i.test(bare);
}

/** For each cell style (cellXfs index), whether its number format is a date format. */
async function dateStyles(file: Buffer, entry: ZipEntry | undefined, budget: Budget): Promise<boolean[]> {
  if (!entry) return [];
  const custom = new Map<number, string>();
  const formatIds: number[] = [];
  let inCellXfs = false;
  await scanPart(
    file,
    entry,
    budget,
    elementsOf(
      (name, attrs) => {
        if (name === 'numFmt') {
          const a = attrs();
          custom.set(Number(a.get('numFmtId')), a.get('formatCode') ?? '');
        } else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) formatIds.push(Number(attrs().get('numFmtId') ?? 0));
      },
      (name) => {
        if (name === 'cellXfs') inCellXfs = false;
      },
    ),
    MAX_SMALL_PART,
  );
  return formatIds.map((id) => {
    const code = custom.get(id);
    return code !== undefined ? isDateFormat(code) : DATE_FORMAT_IDS.has(id);
  });
}

// ---------------------------------------------------------------- shared strings

/** The shared-string table: each item's text, rich-text runs joined, phonetic runs left out. */
async function sharedStrings(file: Buffer, entry: ZipEntry | undefined, budget: Budget): Promise<string[]> {
  const out: string[] = [];
  if (!entry) return out;
  let text = '';
  let inItem = false;
  let inText = false;
  let phonetic = 0;
  await scanPart(file, entry, budget, {
    open(buf, ns, ne) {
      const len = ne - ns;
      if (len === 2 && nameIs(buf, ns, ne, 'si')) {
        inItem = true;
        text = '';
        phonetic = 0;
      } else if (len === 1 && buf[ns] === 0x74 /* t */) inText = inItem && phonetic === 0;
      else if (len === 3 && nameIs(buf, ns, ne, 'rPh')) phonetic++;
    },
    close(buf, ns, ne) {
      const len = ne - ns;
      if (len === 1 && buf[ns] === 0x74) inText = false;
      else if (len === 3 && nameIs(buf, ns, ne, 'rPh')) phonetic--;
      else if (len === 2 && nameIs(buf, ns, ne, 'si')) {
        out.push(text);
        inItem = false;
      }
    },
    text(buf, start, end, cdata) {
      if (inText) text += cdata ? buf.toString('utf8', start, end) : xmlText(buf, start, end);
    },
  });
  return out;
}

// ---------------------------------------------------------------- workbook

interface WorkbookInfo {
  sheet: ZipEntry;
  sharedStrings?: ZipEntry;
  styles?: ZipEntry;
  date1904: boolean;
}

/** A relationship target of xl/workbook.xml as a part name. */
function partName(target: string): string {
  const parts = target.startsWith('/') ? [] : ['xl'];
  for (const p of target.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return parts.join('/');
}

async function workbookInfo(file: Buffer, entries: ZipEntry[], budget: Budget): Promise<WorkbookInfo> {
  // part names are case-insensitive (OPC)
  const byName = new Map(entries.map((e) => [e.name.toLowerCase(), e]));
  const find = (name: string) => byName.get(name.toLowerCase());
  const workbook = find('xl/workbook.xml');
  if (!workbook) throw new SheetFormatError('no workbook part');
  let firstSheetId: string | undefined;
  let date1904 = false;
  await scanPart(
    file,
    workbook,
    budget,
    elementsOf((name, attrs) => {
      if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attrs().get('date1904') ?? '');
      else if (name === 'sheet' && firstSheetId === undefined) firstSheetId = attrs().get('id') ?? '';
    }),
    MAX_SMALL_PART,
  );
  const targets = new Map<string, string>();
  let sharedStringsName = 'xl/sharedStrings.xml';
  let stylesName = 'xl/styles.xml';
  const rels = find('xl/_rels/workbook.xml.rels');
  if (rels)
    await scanPart(
      file,
      rels,
      budget,
      elementsOf((name, attrs) => {
        if (name !== 'Relationship') return;
        const a = attrs();
        const target = a.get('Target');
        if (!target || a.get('TargetMode') === 'External') return;
        targets.set(a.get('Id') ?? '', partName(target));
        const type = a.get('Type') ?? '';
        if (type.endsWith('/sharedStrings')) sharedStringsName = partName(target);
        else if (type.endsWith('/styles')) stylesName = partName(target);
      }),
      MAX_SMALL_PART,
    );
  const named = firstSheetId !== undefined ? targets.get(firstSheetId) : undefined;
  // without the relationship, the lowest-numbered sheet part as a workbook of one sheet holds it
  const sheet =
    (named && find(named)) ||
    entries
      .filter((e) => /^xl\/worksheets\/sheet\d+\.xml$/i.test(e.name))
      .sort((a, b) => Number(/\d+/.exec(a.name.slice(14))?.[0]) - Number(/\d+/.exec(b.name.slice(14))?.[0]))[0];
  if (!sheet) throw new SheetFormatError('no worksheet part');
  return { sheet, sharedStrings: find(sharedStringsName), styles: find(stylesName), date1904 };
}

// ---------------------------------------------------------------- worksheet

/** a cell's `t`: number (none or n), shared string, inline string, formula text, boolean, error, ISO date */
const CellType = { Number: 0, Shared: 1, Inline: 2, Str: 3, Bool: 4, Error: 5, IsoDate: 6 } as const;
type CellType = (typeof CellType)[keyof typeof CellType];

function cellType(buf: Buffer, start: number, end: number): CellType {
  switch (end - start) {
    case 1:
      if (buf[start] === 0x73 /* s */) return CellType.Shared;
      if (buf[start] === 0x62 /* b */) return CellType.Bool;
      if (buf[start] === 0x65 /* e */) return CellType.Error;
      if (buf[start] === 0x64 /* d */) return CellType.IsoDate;
      return CellType.Number;
    case 3:
      return nameIs(buf, start, end, 'str') ? CellType.Str : CellType.Number;
    case 9:
      return nameIs(buf, start, end, 'inlineStr') ? CellType.Inline : CellType.Number;
    default:
      return CellType.Number;
  }
}

/** A plain run of up to 15 decimal digits as its number; -1 for anything else. */
function digits(buf: Buffer, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = buf[i] - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Excel's serial day number as the Date exceljs made of it (the wall time as a UTC instant). */
function excelDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));
}

/** The tokeniser's listener for a worksheet: collects the rows of each chunk into `rows`. */
class SheetRows implements XmlEvents {
  rows: SheetRow[] = [];
  private inSheetData = false;
  private rowNumber = 0;
  private values: SheetValue[] | undefined;
  private column = 0;
  // the cell being read
  private inCell = false;
  private type: CellType = CellType.Number;
  private style = 0;
  private inInline = false;
  private phonetic = 0;
  private capture = false;
  private value: string | undefined;
  private integer = -1;

  constructor(
    private readonly shared: string[],
    private readonly dates: boolean[],
    private readonly date1904: boolean,
  ) {}

  open(buf: Buffer, ns: number, ne: number, as: number, ae: number): void {
    const len = ne - ns;
    const first = buf[ns];
    if (len === 1) {
      if (!this.inCell) {
        if (first === 0x63 /* c */ && this.values) this.openCell(buf, as, ae);
      } else if (first === 0x76 /* v */) this.capture = true;
      else if (first === 0x74 /* t */) this.capture = this.inInline && this.phonetic === 0;
    } else if (len === 3) {
      if (this.inSheetData && nameIs(buf, ns, ne, 'row')) this.openRow(buf, as, ae);
      else if (this.inCell && nameIs(buf, ns, ne, 'rPh')) this.phonetic++;
    } else if (len === 2) {
      if (this.inCell && nameIs(buf, ns, ne, 'is')) {
        this.inInline = true;
        this.value ??= '';
      }
    } else if (len === 9 && nameIs(buf, ns, ne, 'sheetData')) this.inSheetData = true;
  }

  close(buf: Buffer, ns: number, ne: number): void {
    const len = ne - ns;
    const first = buf[ns];
    if (len === 1) {
      if (first === 0x76 /* v */ || first === 0x74 /* t */) this.capture = false;
      else if (first === 0x63 /* c */ && this.inCell) this.closeCell();
    } else if (len === 3) {
      if (nameIs(buf, ns, ne, 'row') && this.values) {
        this.rows.push({ number: this.rowNumber, values: this.values });
        this.values = undefined;
      } else if (this.inCell && nameIs(buf, ns, ne, 'rPh')) this.phonetic--;
    } else if (len === 2) {
      if (this.inCell && nameIs(buf, ns, ne, 'is')) this.inInline = false;
    } else if (len === 9 && nameIs(buf, ns, ne, 'sheetData')) this.inSheetData = false;
  }

  text(buf: Buffer, start: number, end: number, cdata: boolean): void {
    if (!this.capture) return;
    if (!cdata && this.value === undefined && this.integer < 0 && (this.type <= CellType.Shared || this.type === CellType.Bool)) {
      // most values are plain integers (shared-string indexes, counts, 0/1): no string for them
      const n = digits(buf, start, end);
      if (n >= 0) {
        this.integer = n;
        return;
      }
    }
    const piece = cdata ? buf.toString('utf8', start, end) : xmlText(buf, start, end);
    if (this.integer >= 0) {
      this.value = String(this.integer);
      this.integer = -1;
    }
    this.value = this.value === undefined ? piece : this.value + piece;
  }

  private openRow(buf: Buffer, as: number, ae: number): void {
    let number = 0;
    eachAttribute(buf, as, ae, (ns, ne, vs, ve) => {
      if (ne - ns === 1 && buf[ns] === 0x72 /* r */) number = digits(buf, vs, ve);
    });
    this.rowNumber = number > 0 ? number : this.rowNumber + 1;
    this.values = [];
    this.column = 0;
  }

  private openCell(buf: Buffer, as: number, ae: number): void {
    let column = 0;
    let type: CellType = CellType.Number;
    let style = 0;
    eachAttribute(buf, as, ae, (ns, ne, vs, ve) => {
      if (ne - ns !== 1) return;
      const name = buf[ns];
      if (name === 0x72 /* r */) {
        for (let i = vs; i < ve; i++) {
          const b = buf[i] & 0xdf; // upper case
          if (b < 0x41 || b > 0x5a) break;
          column = column * 26 + (b - 0x40);
          if (column > MAX_COLUMNS) throw new SheetFormatError('cell beyond the last column');
        }
      } else if (name === 0x74 /* t */) type = cellType(buf, vs, ve);
      else if (name === 0x73 /* s */) style = Math.max(0, digits(buf, vs, ve));
    });
    this.column = column > 0 ? column : this.column + 1;
    if (this.column > MAX_COLUMNS) throw new SheetFormatError('cell beyond the last column');
    this.inCell = true;
    this.type = type;
    this.style = style;
    this.inInline = false;
    this.phonetic = 0;
    this.capture = false;
    this.value = undefined;
    this.integer = -1;
  }

  private closeCell(): void {
    this.inCell = false;
    this.capture = false;
    const value = this.cellValue();
    if (value !== null) this.values![this.column] = value;
  }

  private number(): number {
    return this.integer >= 0 ? this.integer : this.value === undefined ? NaN : parseFloat(this.value);
  }

  private cellValue(): SheetValue {
    const { integer, value: text } = this;
    if (integer < 0 && text === undefined) return null;
    switch (this.type) {
      case CellType.Shared:
        return this.shared[integer >= 0 ? integer : parseInt(text!, 10)] ?? null;
      case CellType.Inline:
      case CellType.Str:
      case CellType.Error:
        return text ?? String(integer);
      case CellType.Bool:
        return (integer >= 0 ? integer : parseInt(text!, 10)) !== 0;
      case CellType.IsoDate: {
        const at = text ?? String(integer);
        const time = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(at) || !at.includes('T') ? at : `${at}Z`);
        return Number.isNaN(time) ? at : new Date(time);
      }
      default: {
        const n = this.number();
        return this.dates[this.style] ? excelDate(n, this.date1904) : n;
      }
    }
  }
}

/**
 * The rows of the workbook's first worksheet, a chunk's rows at a time, in sheet order. Stop
 * iterating at any point to stop reading.
 */
export async function* sheetRows(file: Buffer, maxUnpackedBytes: number): AsyncGenerator<SheetRow[]> {
  const budget: Budget = { left: maxUnpackedBytes };
  const entries = zipEntries(file);
  const info = await workbookInfo(file, entries, budget);
  const shared = await sharedStrings(file, info.sharedStrings, budget);
  const dates = await dateStyles(file, info.styles, budget);
  const listener = new SheetRows(shared, dates, info.date1904);
  const scanner = new XmlScanner(listener);
  for await (const chunk of unpacked(file, info.sheet, budget)) {
    scanner.write(chunk);
    if (listener.rows.length) {
      const rows = listener.rows;
      listener.rows = [];
      yield rows;
    }
  }
  scanner.end();
  if (listener.rows.length) yield listener.rows;
}
