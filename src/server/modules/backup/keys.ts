/**
 * The backup keys: the one new archives are encrypted with (BACKUP_ENCRYPTION_KEY) and the
 * ones archives are read with (that one and BACKUP_DECRYPTION_KEYS, older keys kept for reading
 * after a rotation). Without BACKUP_ENCRYPTION_KEY no backup is written (scheduled, from the
 * screen or the command line): the product writes no archive in clear. The demo (SEED_DEMO on,
 * as `npm start` runs) makes a key of its own on first need, in DATA_DIR/backup-encryption.key,
 * and says so: a key beside the data protects a copy of a backup taken elsewhere, not a stolen
 * server, so a real installation sets its own key and keeps a copy of it away from the server.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { newBackupKeyText, parseBackupKey, type BackupKey } from './crypto.ts';

export const DEMO_KEY_FILE = 'backup-encryption.key';
export const NO_KEY =
  '未设置备份加密密钥（BACKUP_ENCRYPTION_KEY），备份未执行：请系统管理员在服务器环境变量中设置密钥（可用 openssl rand -base64 32 生成）并妥善另存一份，然后重启服务';
export const DEMO_KEY_NOTICE =
  '备份使用演示环境自动生成的加密密钥（保存在数据目录的 backup-encryption.key 中）。正式使用请设置 BACKUP_ENCRYPTION_KEY 并把密钥另存到服务器以外';

export type KeyState = 'configured' | 'demo' | 'missing';

let warned = false;

/** The demo's own key in DATA_DIR, made on first need. */
function demoKey(dataDir: string): BackupKey {
  const file = join(dataDir, DEMO_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, `${newBackupKeyText()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // another process made it first: use that one
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const key = parseBackupKey(readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a backup key (32 bytes as base64)`);
  if (!warned) {
    warned = true;
    console.warn(
      `warning: BACKUP_ENCRYPTION_KEY is not set; the demo encrypts backups with a key of its own in ${file}. Set BACKUP_ENCRYPTION_KEY for real use (docs/backups.md).`,
    );
  }
  return key;
}

export function keyState(config: Config): KeyState {
  if (config.backupKey) return 'configured';
  return config.seedDemo ? 'demo' : 'missing';
}

/** The key new archives are encrypted with; null when none is set (no backup may be written). */
export function writeKey(config: Config): BackupKey | null {
  if (config.backupKey) return config.backupKey;
  return config.seedDemo ? demoKey(config.dataDir) : null;
}

/** The keys an archive may be read with: the current one, then the older ones. */
export function readKeys(config: Config): BackupKey[] {
  const current = config.backupKey ?? (config.seedDemo ? demoKey(config.dataDir) : null);
  return [...(current ? [current] : []), ...config.backupOldKeys];
}
