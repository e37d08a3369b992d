/**
 * The backup archive: a gzip-compressed tar of the database dump and the uploaded files, with
 * `manifest.json` as its last entry (it lists every other entry with its size and SHA-256, so it
 * can only be written once they are), encrypted with the operator's key (crypto.ts). Writing
 * goes to a hidden `.partial` name beside the target and is renamed into place once complete and
 * flushed: an archive under its final name is always whole.
 * Reading decrypts and streams the archive into a folder, hashing each entry as it goes; the
 * caller compares the hashes with the manifest before using anything. What an archive may unpack
 * to is capped before anything is written: every entry's declared size counts against the cap
 * before its first byte is written, and the bytes coming out of gunzip are counted as they come
 * (a gzip bomb stops at the cap); whatever was written is removed by the caller's cleanup.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Transform } from 'node:stream';
import tar from 'tar-stream';
import { BackupCryptError, decryptStream, encryptStream, type BackupKey } from './crypto.ts';

export const MANIFEST_ENTRY = 'manifest.json';
const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;
/** entry names the product writes: relative, plain characters, no `..` */
const SAFE_ENTRY = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

export interface ArchiveEntry {
  path: string;
  size: number;
  sha256: string;
}

/** A file to put in the archive under `path`. */
export interface ArchiveSource {
  path: string;
  file: string;
}

/** The archive could not be read or is not one of ours (the restore answers 400 with the message). */
export class ArchiveError extends Error {}

function addFile(pack: tar.Pack, name: string, file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  return new Promise<string>((resolve, reject) => {
    const entry = pack.entry({ name, size, mode: 0o600, mtime: new Date() }, (err) => (err ? reject(err) : resolve(hash.digest('hex'))));
    const source = createReadStream(file);
    source.on('data', (chunk) => hash.update(chunk));
    source.on('error', reject);
    source.pipe(entry);
  });
}

/**
 * Writes `target` from the sources, then the manifest `manifestOf(entries)` gives; answers the
 * archive's size in bytes. Nothing is left under `target` when it fails.
 */
export async function writeArchive(
  target: string,
  sources: ArchiveSource[],
  manifestOf: (entries: ArchiveEntry[]) => unknown,
  key: BackupKey,
): Promise<number> {
  const partial = join(dirname(target), `.${basename(target)}.partial`);
  const pack = tar.pack();
  const written = pipeline(pack, createGzip({ level: 6 }), encryptStream(key), createWriteStream(partial, { mode: 0o600 }));
  try {
    const entries: ArchiveEntry[] = [];
    for (const s of sources) {
      const { size } = await stat(s.file);
      entries.push({ path: s.path, size, sha256: await addFile(pack, s.path, s.file, size) });
    }
    const manifest = Buffer.from(JSON.stringify(manifestOf(entries), null, 2));
    pack.entry({ name: MANIFEST_ENTRY, size: manifest.length, mode: 0o600, mtime: new Date() }, manifest);
    pack.finalize();
    await written;
    const handle = await open(partial, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, target);
    return (await stat(target)).size;
  } catch (err) {
    pack.destroy();
    await written.catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  }
}

export interface ReadArchive {
  /** the manifest's text, parsed (checked by the caller) */
  manifest: unknown;
  /** every other entry as read, with its size and hash */
  entries: Map<string, { size: number; sha256: string }>;
}

export interface ReadOptions {
  /** the keys the archive may be encrypted with; null: an unencrypted archive of the older format */
  keys: BackupKey[] | null;
  /** the most the archive may unpack to, in bytes */
  maxBytes: number;
}

const MIB = 1024 * 1024;
export const tooLarge = (maxBytes: number) =>
  `备份文件解压后超过上限 ${Math.round(maxBytes / MIB)} MiB（BACKUP_MAX_UNPACKED_MB，且不超过备份文件大小的 ${UNPACK_RATIO} 倍），已停止解压，现有数据未改变`;

/** An uploaded or listed archive may unpack to at most this many times its own size (at least UNPACK_FLOOR). */
export const UNPACK_RATIO = 200;
export const UNPACK_FLOOR = 64 * MIB;

/** The cap of what an archive of `archiveBytes` may unpack to: the ratio (at least the floor), within BACKUP_MAX_UNPACKED_MB. */
export function unpackCap(archiveBytes: number, maxUnpackedMb: number): number {
  return Math.min(maxUnpackedMb * MIB, Math.max(UNPACK_FLOOR, archiveBytes * UNPACK_RATIO));
}

/** Counts what passes and stops the stream once it exceeds `max` bytes. */
function byteCap(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, callback) {
      seen += chunk.length;
      if (seen > max) return callback(new ArchiveError(tooLarge(max)));
      callback(null, chunk);
    },
  });
}

/**
 * Reads the archive at `source`, writing each entry where `placeOf(path)` says (a file path, or
 * null to refuse the entry). Answers the manifest and what was read; throws ArchiveError for
 * anything that is not a complete archive of the product, that another key encrypted, or that
 * unpacks to more than `maxBytes`.
 */
export async function readArchive(source: string, placeOf: (path: string) => string | null, opts: ReadOptions): Promise<ReadArchive> {
  const entries = new Map<string, { size: number; sha256: string }>();
  let manifestText: string | undefined;
  let declared = 0;
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const fail = (message: string) => {
      stream.resume();
      next(new ArchiveError(message));
    };
    if (header.type !== 'file') return fail(`备份文件中有不支持的条目：${header.name}`);
    // the declared size counts before anything of the entry is written
    declared += header.size ?? 0;
    if (declared > opts.maxBytes) return fail(tooLarge(opts.maxBytes));
    if (header.name === MANIFEST_ENTRY) {
      if ((header.size ?? 0) > MANIFEST_MAX_BYTES) return fail('备份清单过大，不是本系统的备份文件');
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        manifestText = Buffer.concat(chunks).toString('utf8');
        next();
      });
      stream.on('error', next);
      return;
    }
    const place = SAFE_ENTRY.test(header.name) && !entries.has(header.name) ? placeOf(header.name) : null;
    if (!place) return fail(`备份文件中有不认识的条目：${header.name.slice(0, 200)}`);
    const hash = createHash('sha256');
    let size = 0;
    mkdir(dirname(place), { recursive: true })
      .then(() => {
        stream.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          size += chunk.length;
        });
        return pipeline(stream, createWriteStream(place, { mode: 0o600 }));
      })
      .then(
        () => {
          entries.set(header.name, { size, sha256: hash.digest('hex') });
          next();
        },
        (err: unknown) => next(err),
      );
  });
  // the tar's own headers and padding come on top of the entries
  const slack = 16 * MIB;
  const reading = opts.keys
    ? pipeline(createReadStream(source), decryptStream(opts.keys), createGunzip(), byteCap(opts.maxBytes + slack), extract)
    : pipeline(createReadStream(source), createGunzip(), byteCap(opts.maxBytes + slack), extract);
  await reading.catch((err: unknown) => {
    if (err instanceof ArchiveError) throw err;
    if (err instanceof BackupCryptError) throw new ArchiveError(err.message);
    throw new ArchiveError('备份文件不完整或已损坏，无法读取');
  });
  if (manifestText === undefined) throw new ArchiveError('备份文件缺少清单（manifest.json），可能不完整或已损坏');
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText);
  } catch {
    throw new ArchiveError('备份清单（manifest.json）格式错误');
  }
  return { manifest, entries };
}
