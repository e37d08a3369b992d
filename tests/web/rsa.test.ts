import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptPassword } from '../../src/web/common/rsa.ts';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const spkiBase64 = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

function decrypt(b64: string): string {
  return privateDecrypt(
    { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(b64, 'base64'),
  ).toString('utf8');
}

describe('password encryption (RSA-OAEP, SHA-256)', () => {
  it('uses WebCrypto when available', async () => {
    const cipher = await encryptPassword('Admin@123 密码', spkiBase64, globalThis.crypto.subtle);
    expect(Buffer.from(cipher, 'base64')).toHaveLength(256);
    expect(decrypt(cipher)).toBe('Admin@123 密码');
  });

  it('falls back to node-forge without crypto.subtle (plain-HTTP pages)', async () => {
    const cipher = await encryptPassword('Admin@123 密码', spkiBase64, undefined);
    expect(decrypt(cipher)).toBe('Admin@123 密码');
  });

  it('accepts a PEM public key', async () => {
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(decrypt(await encryptPassword('x', pem))).toBe('x');
  });
});
