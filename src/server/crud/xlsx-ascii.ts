/**
 * exceljs's streaming reader decodes each inflated chunk of a sheet on its own, so a Chinese
 * character that straddles two chunks comes out as two replacement characters (seen as
 * "未��理" in a 10,000-row import of the console's own export: a label then fails validation, or
 * free text is stored damaged). The workbook is handed to it rewritten so that every XML part is
 * plain ASCII: each non-ASCII character becomes a numeric character reference (&#26410;), which
 * the XML parser turns back into the same character, whatever the chunking. The rewrite streams
 * (inflate, decode with a decoder that keeps split characters, escape, deflate), so memory
 * stays at a few chunks; other parts are copied as they are.
 */
import { StringDecoder } from 'node:string_decoder';
import { createDeflateRaw, createInflateRaw } from 'node:zlib';
import { zipEntries, type ZipEntry } from './xlsx-inspect.ts';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(crc: number, data: Buffer): number {
  let c = crc ^ 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const NON_ASCII = /[\u{80}-\u{10ffff}]/gu;
const escapeNonAscii = (text: string) => text.replace(NON_ASCII, (ch) => `&#${ch.codePointAt(0)};`);

interface Part {
  name: Buffer;
  data: Buffer;
  method: number;
  crc: number;
  size: number;
}

function localData(file: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  return file.subarray(start, start + entry.compressedSize);
}

/** Inflates an XML part, escapes its non-ASCII characters and deflates it again. */
function asciiPart(compressed: Buffer): Promise<{ data: Buffer; crc: number; size: number }> {
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    const deflate = createDeflateRaw({ level: 1 });
    const decoder = new StringDecoder('utf8');
    const out: Buffer[] = [];
    let crc = 0;
    let size = 0;
    const put = (text: string) => {
      if (!text) return;
      const bytes = Buffer.from(escapeNonAscii(text), 'latin1');
      crc = crc32(crc, bytes);
      size += bytes.length;
      if (!deflate.write(bytes)) inflate.pause();
    };
    deflate.on('drain', () => inflate.resume());
    deflate.on('data', (chunk: Buffer) => out.push(chunk));
    deflate.on('end', () => resolve({ data: Buffer.concat(out), crc, size }));
    deflate.on('error', reject);
    inflate.on('data', (chunk: Buffer) => put(decoder.write(chunk)));
    inflate.on('end', () => {
      put(decoder.end());
      deflate.end();
    });
    inflate.on('error', reject);
    inflate.end(compressed);
  });
}

/** The workbook with every XML part in plain ASCII (see above); call after inspectXlsx accepted it. */
export async function asciiXlsx(file: Buffer): Promise<Buffer> {
  const parts: Part[] = [];
  for (const entry of zipEntries(file)) {
    const data = localData(file, entry);
    const name = Buffer.from(entry.name, 'utf8');
    if (entry.method === 8 && /\.(xml|rels)$/i.test(entry.name)) {
      const p = await asciiPart(data);
      parts.push({ name, data: p.data, method: 8, crc: p.crc, size: p.size });
    } else {
      const raw = entry.method === 0 ? data : undefined;
      parts.push({ name, data, method: entry.method, crc: raw ? crc32(0, raw) : entry.crc, size: raw ? raw.length : entry.size });
    }
  }
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(p.method, 8);
    local.writeUInt32LE(p.crc, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(p.name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt16LE(p.method, 10);
    dir.writeUInt32LE(p.crc, 16);
    dir.writeUInt32LE(p.data.length, 20);
    dir.writeUInt32LE(p.size, 24);
    dir.writeUInt16LE(p.name.length, 28);
    dir.writeUInt32LE(offset, 42);
    chunks.push(local, p.name, p.data);
    central.push(dir, p.name);
    offset += 30 + p.name.length + p.data.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, dirBytes, end]);
}
