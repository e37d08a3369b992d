/**
 * A zip archive as a stream, for the xlsx export: small parts given whole, and one part given as
 * an async iterable of bytes (the sheet), deflated as it is read and never held whole.
 *
 * Written here rather than through a general archiver because the export is the product's
 * largest answer: the checksum is Node's native `zlib.crc32` (the archiver computed it in
 * JavaScript, about 4 % of a 1,000,000-row export), and the sheet goes from its generator to the
 * deflater and out without the archiver's queue of streams. A streamed part is written with a
 * data descriptor (its sizes follow its data); an archive past 4 GB gets the ZIP64 records, as
 * APPNOTE 6.3 describes, so readers that go by the central directory (Excel, LibreOffice, WPS)
 * open any size.
 *
 * Back-pressure: the sheet is pulled only as fast as the stream is read, with at most
 * IN_FLIGHT chunks in the deflater, which works in Node's thread pool while the next chunk is
 * produced. Destroying the stream stops the sheet's generator (and so its database reading).
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

export interface ZipPart {
  name: string;
  /** the whole part, or its bytes as they are produced */
  content: string | AsyncIterable<Buffer>;
}

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
const ZIP64_END_OF_CENTRAL = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EXTRA = 0x0001;
const DEFLATE = 8;
/** bit 3: sizes in a data descriptor after the data; bit 11: the name is UTF-8 */
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const VERSION = 20;
const VERSION_ZIP64 = 45;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** chunks handed to the deflater before the oldest must be done */
const IN_FLIGHT = 2;

interface Written {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** The limits past which ZIP64 records are written (smaller in tests, to reach that path). */
export interface ZipLimits {
  max32: number;
  max16: number;
}

function dosDateTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: (Math.max(d.getFullYear() - 1980, 0) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function localHeader(
  name: Buffer,
  flags: number,
  stamp: { time: number; date: number },
  crc: number,
  compressed: number,
  size: number,
): Buffer {
  const b = Buffer.alloc(30 + name.length);
  b.writeUInt32LE(LOCAL_HEADER, 0);
  b.writeUInt16LE(VERSION, 4);
  b.writeUInt16LE(flags, 6);
  b.writeUInt16LE(DEFLATE, 8);
  b.writeUInt16LE(stamp.time, 10);
  b.writeUInt16LE(stamp.date, 12);
  b.writeUInt32LE(crc, 14);
  b.writeUInt32LE(compressed, 18);
  b.writeUInt32LE(size, 22);
  b.writeUInt16LE(name.length, 26);
  b.writeUInt16LE(0, 28);
  name.copy(b, 30);
  return b;
}

function dataDescriptor(part: Written, limits: ZipLimits): Buffer {
  if (part.compressed > limits.max32 || part.size > limits.max32) {
    const b = Buffer.alloc(24);
    b.writeUInt32LE(DATA_DESCRIPTOR, 0);
    b.writeUInt32LE(part.crc, 4);
    b.writeBigUInt64LE(BigInt(part.compressed), 8);
    b.writeBigUInt64LE(BigInt(part.size), 16);
    return b;
  }
  const b = Buffer.alloc(16);
  b.writeUInt32LE(DATA_DESCRIPTOR, 0);
  b.writeUInt32LE(part.crc, 4);
  b.writeUInt32LE(part.compressed, 8);
  b.writeUInt32LE(part.size, 12);
  return b;
}

function centralHeader(part: Written, stamp: { time: number; date: number }, limits: ZipLimits): Buffer {
  // ZIP64 extra: the figures too large for their field, in this order
  const big: bigint[] = [];
  if (part.size > limits.max32) big.push(BigInt(part.size));
  if (part.compressed > limits.max32) big.push(BigInt(part.compressed));
  if (part.offset > limits.max32) big.push(BigInt(part.offset));
  const extra = big.length ? 4 + 8 * big.length : 0;
  const b = Buffer.alloc(46 + part.name.length + extra);
  b.writeUInt32LE(CENTRAL_HEADER, 0);
  b.writeUInt16LE(big.length ? VERSION_ZIP64 : VERSION, 4);
  b.writeUInt16LE(big.length ? VERSION_ZIP64 : VERSION, 6);
  b.writeUInt16LE(part.flags, 8);
  b.writeUInt16LE(DEFLATE, 10);
  b.writeUInt16LE(stamp.time, 12);
  b.writeUInt16LE(stamp.date, 14);
  b.writeUInt32LE(part.crc, 16);
  b.writeUInt32LE(part.compressed > limits.max32 ? MAX32 : part.compressed, 20);
  b.writeUInt32LE(part.size > limits.max32 ? MAX32 : part.size, 24);
  b.writeUInt16LE(part.name.length, 28);
  b.writeUInt16LE(extra, 30);
  // comment length, disk, internal and external attributes: 0
  b.writeUInt32LE(part.offset > limits.max32 ? MAX32 : part.offset, 42);
  part.name.copy(b, 46);
  if (big.length) {
    let at = 46 + part.name.length;
    b.writeUInt16LE(ZIP64_EXTRA, at);
    b.writeUInt16LE(8 * big.length, at + 2);
    at += 4;
    for (const n of big) {
      b.writeBigUInt64LE(n, at);
      at += 8;
    }
  }
  return b;
}

function endRecords(count: number, directorySize: number, directoryOffset: number, limits: ZipLimits): Buffer {
  const zip64 = count > limits.max16 || directorySize > limits.max32 || directoryOffset > limits.max32;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL, 0);
  end.writeUInt16LE(zip64 ? MAX16 : count, 8);
  end.writeUInt16LE(zip64 ? MAX16 : count, 10);
  end.writeUInt32LE(zip64 ? MAX32 : directorySize, 12);
  end.writeUInt32LE(zip64 ? MAX32 : directoryOffset, 16);
  if (!zip64) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(ZIP64_END_OF_CENTRAL, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(VERSION_ZIP64, 12);
  record.writeUInt16LE(VERSION_ZIP64, 14);
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(directorySize), 40);
  record.writeBigUInt64LE(BigInt(directoryOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(ZIP64_LOCATOR, 0);
  locator.writeBigUInt64LE(BigInt(directoryOffset + directorySize), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}

/** Deflates `source` as it is read, yielding compressed bytes; `sums` gets the checksum and sizes. */
async function* deflated(source: AsyncIterable<Buffer>, level: number, sums: { crc: number; size: number }): AsyncGenerator<Buffer> {
  const deflater = zlib.createDeflateRaw({ level });
  const out: Buffer[] = [];
  let failure: Error | undefined;
  deflater.on('data', (b: Buffer) => out.push(b));
  deflater.on('error', (err) => (failure = err));
  const pending: Promise<void>[] = [];
  const write = (chunk: Buffer) => new Promise<void>((resolve, reject) => deflater.write(chunk, (err) => (err ? reject(err) : resolve())));
  try {
    for await (const chunk of source) {
      if (!chunk.length) continue;
      sums.crc = zlib.crc32(chunk, sums.crc);
      sums.size += chunk.length;
      const written = write(chunk);
      // a failure surfaces where it is awaited, or through `failure` when it is not
      written.catch(() => undefined);
      pending.push(written);
      if (pending.length >= IN_FLIGHT) await pending.shift();
      if (failure) throw failure;
      while (out.length) yield out.shift()!;
    }
    await Promise.all(pending);
    const ended = new Promise<void>((resolve, reject) => {
      deflater.once('end', resolve);
      deflater.once('error', reject);
    });
    deflater.end();
    await ended;
    while (out.length) yield out.shift()!;
  } finally {
    deflater.destroy();
  }
}

async function* zipBytes(parts: ZipPart[], level: number, limits: ZipLimits): AsyncGenerator<Buffer> {
  const stamp = dosDateTime(new Date());
  const written: Written[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    if (typeof part.content === 'string') {
      const raw = Buffer.from(part.content, 'utf8');
      const data = zlib.deflateRawSync(raw, { level });
      const entry: Written = { name, flags: FLAG_UTF8, crc: zlib.crc32(raw), compressed: data.length, size: raw.length, offset };
      const header = localHeader(name, entry.flags, stamp, entry.crc, entry.compressed, entry.size);
      yield header;
      yield data;
      offset += header.length + data.length;
      written.push(entry);
      continue;
    }
    const entry: Written = { name, flags: FLAG_UTF8 | FLAG_DESCRIPTOR, crc: 0, compressed: 0, size: 0, offset };
    const header = localHeader(name, entry.flags, stamp, 0, 0, 0);
    yield header;
    offset += header.length;
    const sums = { crc: 0, size: 0 };
    for await (const bytes of deflated(part.content, level, sums)) {
      entry.compressed += bytes.length;
      yield bytes;
    }
    entry.crc = sums.crc;
    entry.size = sums.size;
    const descriptor = dataDescriptor(entry, limits);
    yield descriptor;
    offset += entry.compressed + descriptor.length;
    written.push(entry);
  }
  const directory = Buffer.concat(written.map((w) => centralHeader(w, stamp, limits)));
  yield directory;
  yield endRecords(written.length, directory.length, offset, limits);
}

/**
 * The archive of `parts`, in their order, as a byte stream. An error of a part's source destroys
 * the stream with that error; destroying the stream stops the sources.
 */
export function zipStream(parts: ZipPart[], options: { level?: number; limits?: ZipLimits } = {}): Readable {
  const limits = options.limits ?? { max32: MAX32, max16: MAX16 };
  return Readable.from(zipBytes(parts, options.level ?? 1, limits), { objectMode: false, highWaterMark: 64 * 1024 });
}
