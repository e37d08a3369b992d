/**
 * Instances that start together on one PostgreSQL take turns through table creation, additive
 * migrations and first-start seeding: each holds a session advisory lock on a connection of
 * its own from before its first table until its demo data is in, so a second instance waits
 * and then finds every table and row in place (instead of failing on a duplicate type or key).
 * SQLite needs none: one server owns its file.
 */
import pg from 'pg';
import type { Config } from '../config.ts';

/** The lock's key: one number for every instance of the product on a database. */
const START_LOCK_KEY = 'dealer-console:start';

export interface StartLock {
  release(): Promise<void>;
}

export async function acquireStartLock(config: Config): Promise<StartLock> {
  if (!config.databaseUrl) return { release: () => Promise.resolve() };
  const client = new pg.Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined); // a lost connection drops the lock itself; the start then fails on its own query
  await client.connect();
  await client.query('select pg_advisory_lock(hashtext($1))', [START_LOCK_KEY]);
  return {
    async release() {
      try {
        await client.query('select pg_advisory_unlock(hashtext($1))', [START_LOCK_KEY]);
      } catch {
        /* the connection is gone: so is the lock */
      }
      await client.end().catch(() => undefined);
    },
  };
}
