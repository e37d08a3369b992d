/**
 * The export's zip writer: archives that readers open and check (JSZip verifies every part's
 * checksum), the ZIP64 records past the 32-bit limits (reached with small limits), back-pressure,
 * and a source's failure or the reader's going away ending the sheet's reading.
 */
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { zipStream, type ZipPart } from '../../src/server/crud/sheets/zip-writer.ts';
import { steady } from '../support/wait.ts';

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function* lines(n: number, width = 80): AsyncGenerator<Buffer> {
  for (let i = 0; i < n; i += 1000) {
    await Promise.resolve();
    let s = '';
    for (let j = i; j < Math.min(n, i + 1000); j++) s += `行${j} ${'数据'.repeat(j % 7)}`.padEnd(width, '·') + '\n';
    yield Buffer.from(s);
  }
}

function expected(n: number, width = 80): string {
  let s = '';
  for (let j = 0; j < n; j++) s += `行${j} ${'数据'.repeat(j % 7)}`.padEnd(width, '·') + '\n';
  return s;
}

async function read(zip: Buffer): Promise<Record<string, string>> {
  const archive = await JSZip.loadAsync(zip, { checkCRC32: true });
  const out: Record<string, string> = {};
  for (const name of Object.keys(archive.files)) out[name] = await archive.files[name].async('string');
  return out;
}

describe('zip writer', () => {
  it('writes whole and streamed parts that a reader opens with their checksums right', async () => {
    const parts: ZipPart[] = [
      { name: '[Content_Types].xml', content: '<Types/>' },
      { name: 'xl/中文名.xml', content: '<a>公司</a>' },
      { name: 'xl/worksheets/sheet1.xml', content: lines(20_000) },
      { name: 'empty.xml', content: '' },
    ];
    const zip = await bytesOf(zipStream(parts));
    const files = await read(zip);
    expect(Object.keys(files)).toEqual(['[Content_Types].xml', 'xl/中文名.xml', 'xl/worksheets/sheet1.xml', 'empty.xml']);
    expect(files['xl/中文名.xml']).toBe('<a>公司</a>');
    expect(files['xl/worksheets/sheet1.xml']).toBe(expected(20_000));
    expect(files['empty.xml']).toBe('');
    // deflated: far smaller than the text
    expect(zip.length).toBeLessThan(Buffer.byteLength(expected(20_000)) / 4);
  });

  it('writes the ZIP64 records when a size, an offset or the count passes its field', async () => {
    const parts: ZipPart[] = [
      { name: 'a.xml', content: 'x'.repeat(5000) },
      { name: 'sheet.xml', content: lines(3000) },
      { name: 'b.xml', content: '<b/>' },
    ];
    const zip = await bytesOf(zipStream(parts, { limits: { max32: 1000, max16: 2 } }));
    // the ZIP64 end record and its locator are there, and the reader still finds every part
    expect(zip.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(zip.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(true);
    const files = await read(zip);
    expect(files['a.xml']).toBe('x'.repeat(5000));
    expect(files['sheet.xml']).toBe(expected(3000));
    expect(files['b.xml']).toBe('<b/>');
  });

  it('reads the source only as fast as the archive is read', async () => {
    let produced = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        await Promise.resolve();
        produced++;
        // hardly compressible: the archive's buffer fills after a few chunks
        yield Buffer.from(randomBytes(20_000).toString('hex'));
      }
    }
    const stream = zipStream([{ name: 'sheet.xml', content: endless() }]);
    stream.read();
    // with nobody reading, the source is pulled until the archive's buffer is full, then no more
    expect(await steady(() => produced, 'the count of chunks pulled from the source')).toBeLessThan(20);
    stream.destroy();
  });

  it('ends the source when the reader goes away', async () => {
    let markClosed!: () => void;
    const closed = new Promise<void>((r) => (markClosed = r));
    async function* endless(): AsyncGenerator<Buffer> {
      try {
        for (;;) {
          await Promise.resolve();
          yield Buffer.from(`${Math.random()}`.repeat(2000));
        }
      } finally {
        markClosed();
      }
    }
    const stream = zipStream([{ name: 'sheet.xml', content: endless() }]);
    for await (const _ of stream) break;
    // the source's finally block runs: the test times out if it never does
    await closed;
  });

  it('fails the stream with the source error', async () => {
    async function* failing(): AsyncGenerator<Buffer> {
      yield Buffer.from('<row/>'.repeat(1000));
      await Promise.resolve();
      throw new Error('数据库读取失败');
    }
    const stream = zipStream([{ name: 'sheet.xml', content: failing() }]);
    stream.resume();
    const [err] = (await once(stream, 'error')) as [Error];
    expect(err.message).toBe('数据库读取失败');
  });
});
