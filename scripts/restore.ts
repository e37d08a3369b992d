/**
 * npm run restore FILE: restores a backup archive into the database and upload folder the
 * environment names (DATA_DIR or DATABASE_URL), with the checks and the all-or-nothing swap of
 * the 备份管理 screen (see src/server/modules/backup/restore.ts): the archive is decrypted with
 * BACKUP_ENCRYPTION_KEY or one of BACKUP_DECRYPTION_KEYS (an unencrypted archive of the older
 * format is accepted with a warning) and verified against
 * its manifest, a fresh database is built and counted, the present state is saved as a
 * pre-restore backup in BACKUP_DIR, then one transaction swaps the data. Stop every instance of
 * the server first (a running one would keep its in-memory caches of the old data); the
 * screen's restore is the way to restore while serving. The product's tables are made first
 * (as at a start), so a backup can be restored into an empty database. Exits 1, changing nothing, when refused.
 */
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { buildApp } from '../src/server/app.ts';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/index.ts';
import { ApiError } from '../src/server/errors.ts';
import { exclusively } from '../src/server/modules/backup/create.ts';
import { restoreBackup } from '../src/server/modules/backup/restore.ts';
import { announce, RESTORED_TITLE, restoredMessage } from '../src/server/modules/backup/notices.ts';

const arg = process.argv[2];
if (!arg) {
  console.error('usage: npm run restore FILE   (a backup-....tar.gz.enc written by npm run backup or the schedule)');
  process.exit(2);
}
const file = resolve(arg);
if (!existsSync(file)) {
  console.error(`no such file: ${file}`);
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
// the product's tables as this version defines them (an empty database gets them all), then closed
const app = await buildApp({ ...config, jobsEnabled: false, serveWeb: false, seedDemo: false });
await app.ready();
await app.close();
const database = await openDatabase(config);
try {
  // an archive of the older unencrypted format is accepted here, with a warning (the screen refuses it)
  const result = await exclusively('restore', () =>
    restoreBackup(database, config, file, (stage) => console.log(stage), { allowPlain: true }),
  );
  await announce(
    undefined,
    database,
    RESTORED_TITLE,
    restoredMessage(result.manifest.createdAt, file.split('/').pop()!, result.before.name),
  );
  console.log(
    `restored ${result.rows} rows of ${Object.keys(result.manifest.tables).length} tables and ${result.manifest.uploads.count} uploaded files from the backup of ${result.manifest.createdAt}`,
  );
  console.log(`the state before the restore was saved as ${resolve(config.backupDir, result.before.name)}`);
} catch (err) {
  console.error(`restore failed, nothing was changed: ${err instanceof ApiError || err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
