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
 * (as at a start). Exits 1, changing nothing, when refused.
 *
 * The erasure ledger (个人信息保护) is carried as the screen's restore carries it: read with its
 * secret from the database being replaced before anything is changed, written into the restored
 * one and applied, so a person erased after the backup was made is erased again; what was erased
 * again is printed per table. When the present database is absent, empty or cannot be read its
 * ledger is unknown and the restore is refused, unless `--without-ledger` says to go on without
 * it (a lost database): npm run restore -- FILE --without-ledger
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
import {
  LedgerUnreadable,
  readCurrentLedger,
  reErasedText,
  restoreLedger,
  type CarriedLedger,
} from '../src/server/modules/privacy/ledger.ts';
import { resources } from '../src/generated/resources.ts';

const WITHOUT_LEDGER = '--without-ledger';
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const arg = files[0];
if (!arg || files.length > 1 || flags.some((f) => f !== WITHOUT_LEDGER)) {
  console.error(
    `usage: npm run restore -- FILE [${WITHOUT_LEDGER}]   (a backup-....tar.gz.enc written by npm run backup or the schedule;\n` +
      `       ${WITHOUT_LEDGER}: go on when the present database cannot be read, without its erasure ledger)`,
  );
  process.exit(2);
}
const withoutLedger = flags.includes(WITHOUT_LEDGER);
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
// the erasure ledger of the database being replaced, read before anything is built or changed
let carried: CarriedLedger = { secret: null, rows: [] };
try {
  carried = await readCurrentLedger(config);
} catch (err) {
  if (!(err instanceof LedgerUnreadable)) throw err;
  if (!withoutLedger) {
    console.error(`未恢复，现有数据未改变：无法读取当前数据库中的删除登记（${err.message}）。`);
    console.error('删除登记记录了已删除的个人信息，恢复较早的备份后要据此再次删除；不带删除登记恢复，已删除的人员可能重新出现。');
    console.error(`确认当前数据库已丢失、要不带删除登记恢复时，请执行：npm run restore -- ${arg} ${WITHOUT_LEDGER}`);
    process.exit(1);
  }
  console.log(`警告：无法读取当前数据库中的删除登记（${err.message}），按 ${WITHOUT_LEDGER} 不带删除登记恢复`);
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
  try {
    for (const line of reErasedText(carried, await restoreLedger(database, resources, config.dataDir, carried))) console.log(line);
  } catch (err) {
    console.error(
      `备份已恢复，但删除登记未能应用，已删除人员的个人信息可能重新出现：${err instanceof Error ? err.message : String(err)}；请排除原因后重新执行本次恢复`,
    );
    process.exitCode = 1;
  }
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
