/**
 * Checks an uploaded .xlsx before a spreadsheet reader sees it, so that no file can hang an
 * import or make it unpack without bound:
 * - empty, not a zip, truncated (no end-of-central-directory record), an encrypted workbook
 *   (Office keeps those in an OLE compound file, not a zip) or encrypted zip entries: refused;
 * - every entry is inflated once, in small chunks whose output is counted and dropped, and the
 *   whole file is refused as soon as the count passes `maxUnpackedBytes` (entry headers may lie
 *   about their sizes, so the count is of what inflating really yields);
 * - the parts a workbook needs (the workbook and a worksheet) must be present.
 * Memory stays at a few chunks whatever the file holds. Refusals are InspectError with a
 * Chinese message the route answers as a 400.
 */
import { createInflateRaw } from 'node:zlib';

export const XLSX_EMPTY = '上传的文件是空的';
export const XLSX_ENCRYPTED = '文件已加密，请取消密码后再上传';
export const XLSX_NOT_ZIP = '文件无法读取，请上传有效的xlsx文件';
export const XLSX_NO_SHEET = '文件中没有工作表，请上传有效的xlsx文件';
export const xlsxTooLarge = (maxBytes: number) => `文件解压后超过 ${Math.round(maxBytes / 1024 / 1024)}MB，请拆分后再导入`;

export class InspectError extends Error {}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const MAX_ENTRIES = 10_000;

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localOffset: number;
  crc: number;
  /** the size its header claims once unpacked (inspectXlsx counts the real one) */
  size: number;
}

/** The entries of the zip's central directory; InspectError when there is none to read. */
export function zipEntries(file: Buffer): ZipEntry[] {
  if (file.length === 0) throw new InspectError(XLSX_EMPTY);
  if (file.subarray(0, 8).equals(OLE_SIGNATURE)) throw new InspectError(XLSX_ENCRYPTED);
  if (file.length < 22 || file.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new InspectError(XLSX_NOT_ZIP);
  // the end record sits in the last 22 + 65535 (comment) bytes
  let eocd = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 0xffff); i--) {
    if (file.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new InspectError(XLSX_NOT_ZIP);
  const count = file.readUInt16LE(eocd + 10);
  const dirSize = file.readUInt32LE(eocd + 12);
  const dirOffset = file.readUInt32LE(eocd + 16);
  if (count === 0 || count > MAX_ENTRIES || dirOffset + dirSize > eocd) throw new InspectError(XLSX_NOT_ZIP);
  const entries: ZipEntry[] = [];
  let at = dirOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > eocd || file.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new InspectError(XLSX_NOT_ZIP);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const commentLength = file.readUInt16LE(at + 32);
    const entry: ZipEntry = {
      flags: file.readUInt16LE(at + 8),
      method: file.readUInt16LE(at + 10),
      compressedSize: file.readUInt32LE(at + 20),
      crc: file.readUInt32LE(at + 16),
      size: file.readUInt32LE(at + 24),
      localOffset: file.readUInt32LE(at + 42),
      name: file.toString('utf8', at + 46, at + 46 + nameLength),
    };
    if (entry.flags & 1) throw new InspectError(XLSX_ENCRYPTED);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The compressed bytes of one entry, located through its local header. */
export function entryData(file: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== LOCAL_SIGNATURE) throw new InspectError(XLSX_NOT_ZIP);
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > file.length) throw new InspectError(XLSX_NOT_ZIP);
  return file.subarray(start, end);
}

/** Inflates `data` counting its output; stops with InspectError once `budget` bytes are passed. */
function countInflated(data: Buffer, budget: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let total = 0;
    let done = false;
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    const finish = (err: Error | null) => {
      if (done) return;
      done = true;
      inflate.destroy();
      if (err) reject(err);
      else resolve(total);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > budget) finish(new InspectError('too large'));
    });
    inflate.on('end', () => finish(null));
    inflate.on('error', () => finish(new InspectError(XLSX_NOT_ZIP)));
    inflate.end(data);
  });
}

/**
 * Refuses (InspectError) a file that is not a plain, readable workbook whose parts unpack to
 * at most `maxUnpackedBytes` in all.
 */
export async function inspectXlsx(file: Buffer, maxUnpackedBytes: number): Promise<void> {
  const entries = zipEntries(file);
  const names = new Set(entries.map((e) => e.name));
  if (!names.has('xl/workbook.xml') || !entries.some((e) => /^xl\/worksheets\/[^/]+\.xml$/.test(e.name)))
    throw new InspectError(XLSX_NO_SHEET);
  let left = maxUnpackedBytes;
  for (const entry of entries) {
    const data = entryData(file, entry);
    let size: number;
    if (entry.method === 0) size = data.length;
    else if (entry.method === 8) {
      try {
        size = await countInflated(data, left);
      } catch (err) {
        if (err instanceof InspectError && err.message === 'too large') throw new InspectError(xlsxTooLarge(maxUnpackedBytes));
        throw err;
      }
    } else throw new InspectError(XLSX_NOT_ZIP);
    left -= size;
    if (left < 0) throw new InspectError(xlsxTooLarge(maxUnpackedBytes));
  }
}
