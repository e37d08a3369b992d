import { describe, expect, it } from 'vitest';
import { constants, createPublicKey, generateKeyPairSync, publicEncrypt } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { decryptPassword, keysFromPem, loadOrCreateKeys } from '../../src/server/auth/rsa.ts';
import { AUTH_TABLES, ensureTables } from '../../src/server/auth/tables.ts';

const { privateKey: pem } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const keys = keysFromPem(pem);

function encrypt(publicKeyBase64: string, text: string, oaepHash = 'sha256', padding = constants.RSA_PKCS1_OAEP_PADDING): string {
  return publicEncrypt(
    { key: createPublicKey({ key: Buffer.from(publicKeyBase64, 'base64'), format: 'der', type: 'spki' }), padding, oaepHash },
    Buffer.from(text, 'utf8'),
  ).toString('base64');
}

describe('RSA-OAEP password transport', () => {
  it('serves the public key as base64 SPKI DER of a 2048-bit key', () => {
    const der = Buffer.from(keys.publicKeyBase64, 'base64');
    expect(der[0]).toBe(0x30);
    expect(der.length).toBeGreaterThan(290);
    expect(keys.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('round trip, including non-ASCII and the longest password', () => {
    for (const p of ['Admin@123456', '密码Pässwörd!', 'a'.repeat(100)]) {
      expect(decryptPassword(keys, encrypt(keys.publicKeyBase64, p))).toBe(p);
    }
  });

  it('each encryption differs (OAEP is randomised)', () => {
    expect(encrypt(keys.publicKeyBase64, 'x')).not.toBe(encrypt(keys.publicKeyBase64, 'x'));
  });

  it('garbage, tampered, wrong hash or wrong padding give null, never throw', () => {
    const good = encrypt(keys.publicKeyBase64, 'secret');
    const bytes = Buffer.from(good, 'base64');
    bytes[bytes.length - 1] ^= 1;
    const tampered = bytes.toString('base64');
    const sha1 = encrypt(keys.publicKeyBase64, 'secret', 'sha1');
    const pkcs1 = encrypt(keys.publicKeyBase64, 'secret', 'sha256', constants.RSA_PKCS1_PADDING);
    for (const bad of [tampered, sha1, pkcs1, 'not base64 at all!', '', 'AAAA', 'A'.repeat(5000), good.slice(10)]) {
      expect(decryptPassword(keys, bad)).toBeNull();
    }
  });

  it('the pair is created once and read back by every later start', async () => {
    const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    await ensureTables(
      db,
      'sqlite',
      AUTH_TABLES.filter((t) => t.name === 'sys_secret'),
    );
    const first = await loadOrCreateKeys(db);
    const second = await loadOrCreateKeys(db);
    expect(second.publicKeyBase64).toBe(first.publicKeyBase64);
    expect(decryptPassword(second, encrypt(first.publicKeyBase64, 'same'))).toBe('same');
    await db.destroy();
  });
});
