/**
 * The server's RSA key pair for sign-in: the browser encrypts the password with RSA-OAEP
 * (SHA-256) under the public key; the server decrypts it here. The pair is generated on the
 * first start and kept in the database (table sys_secret), so that it lives with the data
 * (the SQLite file in the data directory) and every instance on one PostgreSQL database
 * shares it. Node 20 refuses PKCS#1 v1.5 decryption, so OAEP is the only padding accepted.
 */
import type { Db } from '../types.ts';
import { constants, createPrivateKey, createPublicKey, generateKeyPair, privateDecrypt, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { nowText } from '../db/index.ts';

const generate = promisify(generateKeyPair);
const SECRET_NAME = 'rsa.privateKey';

export interface RsaKeys {
  privateKey: KeyObject;
  /** base64 of the SPKI DER, as served by GET /api/publicKey */
  publicKeyBase64: string;
}

async function newPrivateKeyPem(): Promise<string> {
  const { privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return privateKey;
}

export function keysFromPem(pem: string): RsaKeys {
  const privateKey = createPrivateKey(pem);
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return { privateKey, publicKeyBase64: der.toString('base64') };
}

/** Loads the key pair, creating it on the first start. Safe when several instances start at once. */
export async function loadOrCreateKeys(db: Db): Promise<RsaKeys> {
  const read = async () =>
    (await db.selectFrom('sys_secret').select('value').where('name', '=', SECRET_NAME).executeTakeFirst())?.value as string | undefined;
  let pem = await read();
  if (!pem) {
    const fresh = await newPrivateKeyPem();
    await db
      .insertInto('sys_secret')
      .values({ name: SECRET_NAME, value: fresh, create_time: nowText() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    pem = await read(); // another instance may have won the race: use its key
  }
  if (!pem) throw new Error('RSA key pair could not be stored');
  return keysFromPem(pem);
}

/** Decrypts a base64 RSA-OAEP(SHA-256) ciphertext to UTF-8 text; null when it is not one. */
export function decryptPassword(keys: RsaKeys, ciphertextBase64: string): string | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(ciphertextBase64) || ciphertextBase64.length > 1024) return null;
  try {
    const plain = privateDecrypt(
      { key: keys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(ciphertextBase64, 'base64'),
    );
    const text = plain.toString('utf8');
    // a valid decryption of garbage bytes is not a password either
    if (Buffer.from(text, 'utf8').compare(plain) !== 0) return null;
    return text;
  } catch {
    return null;
  }
}
