/**
 * Helpers of the backup tests: every table's rows as comparable text, the uploaded files on
 * disk, and filling a database with data of every kind through the API.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { resources } from '../../src/generated/resources.ts';
import { TRANSIENT_TABLES } from '../../src/server/modules/backup/dump.ts';
import { databaseStorage } from '../../src/server/providers/storage.ts';
import { loginAs } from './auth-helpers.ts';
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
  return rows.rows
    .map((r) => r.name)
    .filter((n) => !TRANSIENT_TABLES.has(n))
    .sort();
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
