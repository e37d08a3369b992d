/**
 * Helpers of the backup tests: every table's rows as comparable text, the uploaded files on
 * disk, and filling a database with data of every kind through the API.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import tar from 'tar-stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Config } from '../../src/server/config.ts';
import { decryptStream, encryptStream, parseBackupKey, type BackupKey } from '../../src/server/modules/backup/crypto.ts';
import { readKeys, writeKey } from '../../src/server/modules/backup/keys.ts';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resources } from '../../src/generated/resources.ts';
import { TRANSIENT_TABLES } from '../../src/server/modules/backup/dump.ts';
import { databaseStorage } from '../../src/server/providers/storage.ts';
import { encryptPassword, loginAs, publicKeyOf } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId } from './helpers.ts';
import { multipartFile } from './multipart.ts';
import { sampleBody } from './sample-records.ts';

/** The product's tables (transient ones left out), sorted. */
export async function tableNames(app: FastifyInstance): Promise<string[]> {
  const rows =
    app.database.dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
          app.database.db,
        )
      : await sql<{ name: string }>`select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind in ('r', 'p')`.execute(app.database.db);
  return (
    rows.rows
      .map((r) => r.name)
      // schema_snapshot is the shape the last start applied: every start writes it again
      .filter((n) => !TRANSIENT_TABLES.has(n) && n !== 'schema_snapshot')
      .sort()
  );
}

const text = (v: unknown): unknown => (v instanceof Uint8Array ? `bytes:${Buffer.from(v).toString('base64')}` : v);

/** Every row of every table, as sorted JSON lines per table. */
export async function snapshot(app: FastifyInstance): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await tableNames(app)) {
    const rows = await app.database.db.selectFrom(table).selectAll().execute();
    out[table] = rows
      .map((r) =>
        JSON.stringify(
          Object.fromEntries(
            Object.entries(r as Record<string, unknown>)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => [k, text(v)]),
          ),
        ),
      )
      .sort();
  }
  return out;
}

/** The files under DATA_DIR/uploads: relative path -> content (base64). */
export function uploadedFiles(dataDir: string): Record<string, string> {
  const root = join(dataDir, 'uploads');
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full, rel ? `${rel}/${name}` : name);
      else out[rel ? `${rel}/${name}` : name] = readFileSync(full).toString('base64');
    }
  };
  walk(root, '');
  return out;
}

export const PNG = (n: number) =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from(`IHDR-backup-test-image-${n}-${'x'.repeat(n * 10)}`),
  ]);

/**
 * Data of every kind: a record of every schema that can be added, pictures on disk (through the
 * API) and in the database (through the database provider), and sessions of several sign-ins.
 * Answers the admin's token and how many schemas got a record.
 */
export async function fillEverything(app: FastifyInstance): Promise<{ admin: string; schemas: number }> {
  const admin = await loginAs(app, 'admin', ADMIN_PASSWORD);
  await loginAs(app, 'admin', ADMIN_PASSWORD);
  let schemas = 0;
  for (const spec of resources) {
    if (!spec.actions.includes('add')) continue;
    const body = await sampleBody(app, admin, resources, spec, 0);
    const res = await app.inject({
      method: 'POST',
      url: `/${spec.path}`,
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: body,
    });
    if (res.statusCode !== 201) throw new Error(`${spec.name}: ${res.statusCode} ${res.body}`);
    schemas++;
  }
  for (let i = 1; i <= 3; i++) {
    const body = multipartFile(`p${i}.png`, PNG(i), 'image/png');
    const res = await app.inject({
      method: 'POST',
      url: '/api/pictures',
      headers: { ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  }
  await databaseStorage(app.database).put({ name: 'in-db.png', contentType: 'image/png', kind: 'picture', content: PNG(9) });
  return { admin, schemas };
}

/** A backup key of the tests (as BACKUP_ENCRYPTION_KEY would give it), and another one. */
export const TEST_BACKUP_KEY = parseBackupKey('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef')!;
export const OTHER_BACKUP_KEY = parseBackupKey('fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210')!;

async function through(input: Buffer, stage: NodeJS.ReadWriteStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await pipeline(Readable.from([input]), stage, sink);
  return Buffer.concat(chunks);
}

/** The archive's gzip-compressed tar, decrypted with the keys of `config`. */
export function decryptArchive(config: Config, archive: Buffer): Promise<Buffer> {
  return through(archive, decryptStream(readKeys(config)));
}

/** Encrypts a gzip-compressed tar as a backup is, with `key` (default: the key of `config`). */
export function encryptArchive(config: Config, gz: Buffer, key: BackupKey = writeKey(config)!): Promise<Buffer> {
  return through(gz, encryptStream(key));
}

/** The entries of a backup archive, in order. */
export async function archiveEntries(config: Config, archive: Buffer): Promise<Array<{ name: string; data: Buffer }>> {
  const out: Array<{ name: string; data: Buffer }> = [];
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      out.push({ name: header.name, data: Buffer.concat(chunks) });
      next();
    });
  });
  const done = new Promise((resolve, reject) => extract.on('finish', resolve).on('error', reject));
  extract.end(gunzipSync(await decryptArchive(config, archive)));
  await done;
  return out;
}

/** A backup archive of these entries, as the product writes one. */
export async function packArchive(config: Config, entries: Array<{ name: string; data: Buffer }>): Promise<Buffer> {
  const pack = tar.pack();
  for (const e of entries) pack.entry({ name: e.name }, e.data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return encryptArchive(config, gzipSync(Buffer.concat(chunks)));
}

/** The admin's password for a restore's step-up, encrypted as the screen sends it. */
export async function stepUpPassword(app: FastifyInstance, password = ADMIN_PASSWORD): Promise<string> {
  return encryptPassword(await publicKeyOf(app), password);
}

/** Restores an uploaded archive through the screen's route, with the password of the step-up (default: the admin's). */
export async function restoreUpload(app: FastifyInstance, name: string, content: Buffer, token: string, password?: string | null) {
  const fields: Record<string, string> = password === null ? {} : { password: password ?? (await stepUpPassword(app)) };
  const body = multipartFile(name, content, 'application/octet-stream', 'file', fields);
  return app.inject({
    method: 'POST',
    url: '/api/backups/restore',
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
}

const run = promisify(execFile);

/** Runs a script of scripts/ as `npm run` does, with the environment of `config`. */
export function script(name: string, config: Config, args: string[] = []) {
  return run(process.execPath, ['--import', 'tsx', join('scripts', name), ...args], {
    env: {
      ...process.env,
      DATA_DIR: config.dataDir,
      DATABASE_URL: config.databaseUrl,
      STORAGE_PROVIDER: config.storage,
      LOG_LEVEL: 'warn',
      BACKUP_ENCRYPTION_KEY: TEST_BACKUP_KEY.key.toString('base64'),
    },
    // a busy machine takes minutes to load the server's modules and build a database
    timeout: 300_000,
  });
}
