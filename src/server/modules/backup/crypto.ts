/**
 * Backups encrypted at rest: AES-256-GCM over the archive (the gzip-compressed tar), streamed
 * in chunks of 64 KiB so memory stays bounded whatever the size.
 *
 * File format (version 1):
 *   header, 36 bytes: magic `DCBACKUP` (8) | format version (1 byte, = 1) | 3 bytes zero |
 *                     key id (8) | salt (16)
 *   records:          length (4 bytes, big-endian: bit 31 set on the last record, the rest the
 *                     plaintext length, at most 64 KiB) | ciphertext | GCM tag (16)
 * The file key is HKDF-SHA256(operator's key, salt, "dealer-console-backup v1"): a fresh key per
 * archive, so the record's nonce can be its number (4 zero bytes, then the number as 8 bytes).
 * Each record's additional data is the header, its number and whether it is the last one, so
 * records cannot be reordered, dropped, cut off after any record, or moved between archives;
 * the last record (possibly empty) is marked, so a file cut at a record boundary is refused too.
 * The key id (HMAC-SHA256 of the key, 8 bytes) picks the key among the accepted ones and tells
 * a wrong key apart from a damaged file.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';

export const MAGIC = Buffer.from('DCBACKUP', 'latin1');
export const CRYPT_VERSION = 1;
const HEADER_BYTES = 36;
const CHUNK = 64 * 1024;
const TAG = 16;
const LAST = 0x80000000;

/** An operator's backup key: 32 bytes and its id. */
export interface BackupKey {
  key: Buffer;
  id: Buffer;
}

/** A key that cannot decrypt the archive, or an archive the product cannot read: the restore answers 400 with the message. */
export class BackupCryptError extends Error {}

export const WRONG_KEY =
  '备份文件的加密密钥与本系统设置的不符，无法解密（请在 BACKUP_ENCRYPTION_KEY 或 BACKUP_DECRYPTION_KEYS 中设置加密该备份时的密钥）';
export const TAMPERED = '备份文件已损坏或被篡改（加密校验未通过）';
export const CUT_OFF = '备份文件不完整（缺少结尾），可能在复制或上传时被截断';

/** A key from its text: 32 bytes as base64 (`openssl rand -base64 32`) or as 64 hex digits; null when it is not one. */
export function parseBackupKey(text: string): BackupKey | null {
  const t = text.trim();
  let key: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(t)) key = Buffer.from(t, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=?$/.test(t) || /^[A-Za-z0-9_-]{43}=?$/.test(t)) key = Buffer.from(t, 'base64');
  if (!key || key.length !== 32) return null;
  return { key, id: createHmac('sha256', key).update('dealer-console-backup key id').digest().subarray(0, 8) };
}

/** A new random key, as base64 text. */
export function newBackupKeyText(): string {
  return randomBytes(32).toString('base64');
}

const fileKey = (key: Buffer, salt: Buffer) => Buffer.from(hkdfSync('sha256', key, salt, 'dealer-console-backup v1', 32));

function nonceOf(n: number): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64BE(BigInt(n), 4);
  return nonce;
}

function aadOf(header: Buffer, n: number, last: boolean): Buffer {
  const tail = Buffer.alloc(9);
  tail.writeBigUInt64BE(BigInt(n), 0);
  tail[8] = last ? 1 : 0;
  return Buffer.concat([header, tail]);
}

/** Encrypts the stream written through it under `key`. */
export function encryptStream(backupKey: BackupKey): Transform {
  const salt = randomBytes(16);
  const header = Buffer.concat([MAGIC, Buffer.from([CRYPT_VERSION, 0, 0, 0]), backupKey.id, salt]);
  const key = fileKey(backupKey.key, salt);
  let n = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const record = (plain: Buffer, last: boolean): Buffer => {
    const cipher = createCipheriv('aes-256-gcm', key, nonceOf(n));
    cipher.setAAD(aadOf(header, n, last));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE((plain.length | (last ? LAST : 0)) >>> 0);
    n++;
    return Buffer.concat([length, body, cipher.getAuthTag()]);
  };
  return new Transform({
    construct(callback) {
      this.push(header);
      callback();
    },
    transform(chunk: Buffer, _enc, callback: TransformCallback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      // a full record goes out once more follows it (the last one is marked, so it waits for the end)
      if (pendingBytes > CHUNK) {
        let all = Buffer.concat(pending);
        while (all.length > CHUNK) {
          this.push(record(all.subarray(0, CHUNK), false));
          all = all.subarray(CHUNK);
        }
        pending = [all];
        pendingBytes = all.length;
      }
      callback();
    },
    flush(callback: TransformCallback) {
      this.push(record(Buffer.concat(pending), true));
      callback();
    },
  });
}

/** Decrypts an archive written by encryptStream with one of `keys`; errors are BackupCryptError with a Chinese message. */
export function decryptStream(keys: BackupKey[]): Transform {
  let buffered: Buffer = Buffer.alloc(0);
  let header: Buffer | null = null;
  let key: Buffer | null = null;
  let n = 0;
  let done = false;
  return new Transform({
    transform(chunk: Buffer, _enc, callback: TransformCallback) {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      try {
        if (!header) {
          if (buffered.length < HEADER_BYTES) return callback();
          header = buffered.subarray(0, HEADER_BYTES);
          if (!header.subarray(0, 8).equals(MAGIC)) throw new BackupCryptError('不是本系统的加密备份文件');
          if (header[8] !== CRYPT_VERSION) throw new BackupCryptError(`不支持的备份加密格式版本：${header[8]}`);
          const id = header.subarray(12, 20);
          const found = keys.find((k) => k.id.equals(id));
          if (!found) throw new BackupCryptError(WRONG_KEY);
          key = fileKey(found.key, header.subarray(20, 36));
          header = Buffer.from(header);
          buffered = buffered.subarray(HEADER_BYTES);
        }
        while (buffered.length >= 4) {
          if (done) throw new BackupCryptError(TAMPERED);
          const word = buffered.readUInt32BE(0);
          const last = (word & LAST) !== 0;
          const length = word & ~LAST;
          if (length > CHUNK) throw new BackupCryptError(TAMPERED);
          if (buffered.length < 4 + length + TAG) break;
          const decipher = createDecipheriv('aes-256-gcm', key!, nonceOf(n));
          decipher.setAAD(aadOf(header, n, last));
          decipher.setAuthTag(buffered.subarray(4 + length, 4 + length + TAG));
          let plain: Buffer;
          try {
            plain = Buffer.concat([decipher.update(buffered.subarray(4, 4 + length)), decipher.final()]);
          } catch {
            throw new BackupCryptError(TAMPERED);
          }
          buffered = buffered.subarray(4 + length + TAG);
          n++;
          if (last) done = true;
          if (plain.length) this.push(plain);
        }
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
    flush(callback: TransformCallback) {
      if (!header) return callback(new BackupCryptError(CUT_OFF));
      if (!done || buffered.length) return callback(new BackupCryptError(done ? TAMPERED : CUT_OFF));
      callback();
    },
  });
}

/** What a file holds by its first bytes: an encrypted backup, an older unencrypted one (gzip), or neither. */
export async function archiveKind(file: string): Promise<'encrypted' | 'plain' | 'unknown'> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    if (bytesRead === 8 && head.equals(MAGIC)) return 'encrypted';
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'plain';
    return 'unknown';
  } finally {
    await handle.close();
  }
}
