/** Hand-made zip files for the hostile-upload tests: a plain builder, bombs and broken files. */
import { deflateRawSync } from 'node:zlib';

export interface ZipPart {
  name: string;
  data: Buffer;
  /** store deflated (default) or as is */
  deflate?: boolean;
  /** set the "encrypted" flag as a password-protected zip does */
  encrypted?: boolean;
}

/** A zip archive of the parts (CRCs left 0: readers that check them refuse it, which the tests do not rely on). */
export function buildZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const body = p.deflate === false ? p.data : deflateRawSync(p.data);
    const flags = p.encrypted ? 1 : 0;
    const method = p.deflate === false ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(p.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(p.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const WORKBOOK = Buffer.from(
  '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="a" sheetId="1"/></sheets></workbook>',
);

/** A workbook whose one sheet unpacks to `bytes` bytes of blanks (a zip bomb when large). */
export function bombXlsx(bytes: number): Buffer {
  return buildZip([
    { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
    { name: 'xl/workbook.xml', data: WORKBOOK },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(bytes, 0x20) },
  ]);
}

/** The hostile files every import route must answer 400, by name. */
export function hostileImportFiles(bombBytes: number): Record<string, Buffer> {
  const real = bombXlsx(1000);
  return {
    empty: Buffer.alloc(0),
    text: Buffer.from('这不是一个表格文件\n'),
    truncated: real.subarray(0, Math.floor(real.length / 2)),
    'truncated-head': real.subarray(0, 10),
    'password-protected': Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4096)]),
    'encrypted-entries': buildZip([
      { name: 'xl/workbook.xml', data: WORKBOOK, encrypted: true },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from('<x/>'), encrypted: true },
    ]),
    'no-sheet': buildZip([{ name: 'hello.txt', data: Buffer.from('hi') }]),
    'bad-deflate': buildZip([
      { name: 'xl/workbook.xml', data: WORKBOOK },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from('not deflated at all'), deflate: false },
    ]).fill(0x41, 60, 90),
    bomb: bombXlsx(bombBytes),
  };
}
