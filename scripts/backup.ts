/**
 * npm run backup: writes a backup of the database and the uploaded files into BACKUP_DIR
 * (default DATA_DIR/backups), reading the same environment as the server (DATA_DIR or
 * DATABASE_URL). Safe while the server runs: SQLite is copied through its online backup API,
 * PostgreSQL read in one snapshot. Prints the archive's path; exits 1 on failure.
 */
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/index.ts';
import { createBackup } from '../src/server/modules/backup/create.ts';

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
const database = await openDatabase(config);
try {
  const made = await createBackup(database, config, { reason: 'cli', bulk: true });
  console.log(`backup written: ${join(config.backupDir, made.name)} (${made.size} bytes)`);
} catch (err) {
  console.error(`backup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
