/**
 * Helpers of the personal-information tests: one person's identifiers, entering them in a schema
 * (two records: the first edited, the second deleted into the recycle bin), and searching every
 * row of every table (revisions, log, pinyin keys included) for them.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { ResourceSpec } from '../../src/shared/resource-spec.ts';
import { resources } from '../../src/generated/resources.ts';
import { insertRecorded, updateRecorded } from '../../src/server/crud/history/recorded-writes.ts';
import { deleteRecords } from '../../src/server/crud/repository.ts';
import { bearer } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import type { Created } from '../support/answers.ts';

export const PERSON = { idNumber: '320106198506123572', mobile: '13766554433', name: '欧阳明月', birthday: '1985-06-12' };

/** The person's values in a body of `spec`: every id, phone and name property, and a 姓名 field. */
export function withPerson(spec: ResourceSpec, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const f of spec.fields) {
    if (!(f.name in body)) continue;
    if (f.mask === 'id') out[f.name] = PERSON.idNumber;
    if (f.mask === 'phone') out[f.name] = PERSON.mobile;
    if (f.mask === 'date') out[f.name] = PERSON.birthday;
    // the ID number is a man's: the sex must agree with it
    const male = f.options?.find((o) => o.label === '男');
    if (male) out[f.name] = male.value;
    if (f.mask === 'name' || (f.type === 'string' && /^(姓名|客户名称|客户姓名)$/.test(f.title))) out[f.name] = PERSON.name;
  }
  return out;
}

/**
 * Enters the person twice in `spec`, through the screen's routes where the schema offers them,
 * else as the hand-written areas write; the first record is edited (a change the history keeps),
 * the second deleted (into the recycle bin). Answers the two ids.
 */
export async function enterPerson(app: FastifyInstance, token: string, spec: ResourceSpec): Promise<[number, number]> {
  const { db, dialect } = app.database;
  const admin = bearer(token);
  const actor = { kind: 'user' as const, name: 'admin' };
  const ids: number[] = [];
  const bodies: Array<Record<string, unknown>> = [];
  for (const variant of [0, 1]) {
    const body = withPerson(spec, await sampleBody(app, token, resources, spec, variant));
    bodies.push(body);
    if (spec.actions.includes('add')) {
      const res = await app.inject({ method: 'POST', url: `/${spec.path}`, headers: admin, payload: body });
      expect(res.statusCode, `${spec.name}: ${res.body}`).toBe(201);
      ids.push(res.json<Created>().id);
    } else {
      const record = await db.transaction().execute((trx) => insertRecorded(trx, spec, dialect, actor, body));
      ids.push(Number(record.id));
    }
  }
  // a property the two samples differ in, that is not the person's
  const other = spec.fields.find(
    (f) => !f.mask && !f.ref && !f.auto && f.name in bodies[0] && JSON.stringify(bodies[0][f.name]) !== JSON.stringify(bodies[1][f.name]),
  );
  expect(other, `${spec.name}: a property to edit`).toBeDefined();
  const changed = { [other!.name]: bodies[1][other!.name] };
  expect(await db.transaction().execute((trx) => updateRecorded(trx, spec, dialect, actor, [ids[0]], changed))).toBe(1);
  if (spec.actions.includes('del')) {
    const del = await app.inject({ method: 'DELETE', url: `/${spec.path}`, headers: admin, payload: [ids[1]] });
    expect(del.statusCode, `${spec.name} delete: ${del.body}`).toBe(200);
  } else {
    expect(await deleteRecords(app.database, spec, [ids[1]])).toBe(1);
  }
  return [ids[0], ids[1]];
}

/** "table: value" for each of the person's ID number, mobile and name found in a row of a table (revisions and log included). */
export async function personInRows(app: FastifyInstance): Promise<string[]> {
  const tables =
    app.database.dialect === 'sqlite'
      ? await sql<{ table_name: string }>`select name as table_name from sqlite_master where type = 'table'`.execute(app.database.db)
      : await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = 'public'`.execute(
          app.database.db,
        );
  const hits: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table_name)}`.execute(app.database.db);
    const text = JSON.stringify(rows.rows);
    for (const v of [PERSON.idNumber, PERSON.mobile, PERSON.name]) if (text.includes(v)) hits.push(`${table_name}: ${v}`);
  }
  return hits;
}

/**
 * PostgreSQL: the bytes of the files of every table, index and TOAST table of the test's schema
 * as they are on disk after a checkpoint (free space in pages included), read by the server
 * (pg_read_binary_file: the test's user is a superuser).
 */
export async function postgresFileBytes(app: FastifyInstance): Promise<Buffer> {
  const db = app.database.db;
  await sql`checkpoint`.execute(db);
  const files = await sql<{ path: string }>`
    select pg_relation_filepath(c.oid) as path from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'i')
    union
    select pg_relation_filepath(c.reltoastrelid) from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.reltoastrelid <> 0`.execute(db);
  const parts: Buffer[] = [];
  for (const f of files.rows) {
    if (!f.path) continue;
    const r = await sql<{ bytes: Buffer }>`select pg_read_binary_file(${f.path}) as bytes`.execute(db);
    parts.push(r.rows[0].bytes);
  }
  expect(parts.length).toBeGreaterThan(50);
  return Buffer.concat(parts);
}

/** Bytes read per call from a log segment (16 MiB each). */
const WAL_CHUNK = 4 * 1024 * 1024;

/**
 * Which of `values` a file of PostgreSQL's write-ahead log holds (pg_wal, read by the server:
 * the test's user is a superuser); every segment present, or the `newest` few.
 */
export async function walHolds(app: FastifyInstance, values: string[], opts: { newest?: number } = {}): Promise<string[]> {
  const db = app.database.db;
  const r = await sql<{
    name: string;
    size: string | number;
  }>`select name, size from pg_ls_waldir() where name ~ '^[0-9A-F]{24}$' order by name`.execute(db);
  const segments = opts.newest ? r.rows.slice(-opts.newest) : r.rows;
  expect(segments.length).toBeGreaterThan(0);
  const wanted = values.map((v) => Buffer.from(v, 'utf8'));
  const overlap = Math.max(...wanted.map((w) => w.length));
  const found = new Set<string>();
  for (const seg of segments) {
    const size = Number(seg.size);
    for (let at = 0; at < size; at += WAL_CHUNK) {
      const len = Math.min(WAL_CHUNK + overlap, size - at);
      // missing_ok: a checkpoint may remove the segment meanwhile
      const part = await sql<{
        bytes: Buffer | null;
      }>`select pg_read_binary_file(${`pg_wal/${seg.name}`}, ${at}, ${len}, true) as bytes`.execute(db);
      const bytes = part.rows[0].bytes;
      if (!bytes) break;
      wanted.forEach((w, i) => bytes.includes(w) && found.add(values[i]));
    }
  }
  return values.filter((v) => found.has(v));
}
