/**
 * npm run backup:decrypt FILE [OUT]: writes the gzip-compressed tar inside an encrypted backup
 * (backup-….tar.gz.enc) to OUT, or to standard output, decrypted with BACKUP_ENCRYPTION_KEY or
 * one of BACKUP_DECRYPTION_KEYS (the same environment as the server). For looking into an
 * archive (`npm run -s backup:decrypt FILE | tar -xzO manifest.json`) and for a restore test;
 * the decrypted copy holds every record in clear: delete it after use. Exits 1 on a wrong key or
 * a damaged file (whatever was written before the failure is then incomplete).
 */
import { createReadStream, createWriteStream, existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { decryptStream } from '../src/server/modules/backup/crypto.ts';
import { readKeys } from '../src/server/modules/backup/keys.ts';

const [file, out] = process.argv.slice(2);
if (!file || !existsSync(resolve(file))) {
  console.error('usage: npm run -s backup:decrypt FILE [OUT]   (FILE: a backup-....tar.gz.enc)');
  process.exit(2);
}
let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`configuration error: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
try {
  await pipeline(
    createReadStream(resolve(file)),
    decryptStream(readKeys(config)),
    out ? createWriteStream(resolve(out), { mode: 0o600 }) : process.stdout,
  );
} catch (err) {
  if (out) rmSync(resolve(out), { force: true });
  console.error(`decryption failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
