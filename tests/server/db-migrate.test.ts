import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { resources, resourceByName } from '../../src/generated/resources.ts';
import type { FieldSpec, ResourceSpec } from '../../src/shared/resource-spec.ts';
import { ensureResourceTables } from '../../src/server/db/migrate.ts';
import type { Database } from '../../src/server/types.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Created, ErrorBody, Page } from '../support/answers.ts';

async function columnsOf(database: Database, table: string): Promise<Record<string, string>> {
  if (database.dialect === 'postgres') {
    const r = await sql<{ column_name: string; data_type: string; character_maximum_length: number | null }>`
      select column_name, data_type, character_maximum_length from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(database.db);
    return Object.fromEntries(
      r.rows.map((c) => [c.column_name, c.character_maximum_length ? `${c.data_type}(${c.character_maximum_length})` : c.data_type]),
    );
  }
  const r = await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${table})`.execute(database.db);
  return Object.fromEntries(r.rows.map((c) => [c.name, c.type.toLowerCase()]));
}

async function indexesOf(database: Database, table: string): Promise<string[]> {
  if (database.dialect === 'postgres') {
    const r = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(database.db);
    return r.rows.map((x) => x.indexname);
  }
  const r = await sql<{ name: string }>`select name from pragma_index_list(${table})`.execute(database.db);
  return r.rows.map((x) => x.name);
}

/** A copy of sysQuestion with two more fields, as after someone edits the schema. */
function extendedQuestion(): ResourceSpec {
  const base = structuredClone(resourceByName.sysQuestion);
  const priority: FieldSpec = {
    name: 'priority',
    column: 'priority',
    title: '优先级',
    type: 'integer',
    required: false,
    readOnly: false,
    default: 2,
    input: 'number',
    filter: 'eq',
    form: true,
    messages: {},
  };
  const dueDate: FieldSpec = {
    name: 'dueDate',
    column: 'due_date',
    title: '期限',
    type: 'string',
    format: 'date',
    required: false,
    readOnly: false,
    input: 'date',
    form: true,
    messages: {},
  };
  base.fields.push(priority, dueDate);
  const schema = base.schema as { properties: Record<string, unknown> };
  schema.properties.priority = { type: 'integer', minimum: 1, maximum: 5 };
  schema.properties.dueDate = { type: 'string', format: 'date' };
  return base;
}

describe.each(testApps())('tables from specs on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
  });
  afterAll(async () => t?.close());

  it('creates each table with the storage types and indexes of its fields', async () => {
    const cols = await columnsOf(app.database, 'sys_question');
    const pg = app.database.dialect === 'postgres';
    expect(cols).toMatchObject(
      pg
        ? {
            id: 'bigint',
            user_type: 'character varying(10)',
            content: 'character varying(2000)',
            mobile: 'text',
            status: 'boolean',
            create_time: 'timestamp without time zone',
          }
        : { id: 'integer', user_type: 'varchar(10)', mobile: 'text', status: 'integer', create_time: 'text' },
    );
    const zp = await columnsOf(app.database, 'staffun_zp');
    expect(Object.keys(zp).sort()).toEqual(resourceByName.staffunZp.fields.map((f) => f.column).sort());
    const idx = await indexesOf(app.database, 'sys_question');
    expect(idx).toEqual(
      expect.arrayContaining(['idx_sys_question_status_id', 'idx_sys_question_model_id', 'idx_sys_question_create_time']),
    );
  });

  it('a second start keeps every row', async () => {
    const created = (
      await app.inject({
        method: 'POST',
        url: '/api/sysQuestion',
        headers: admin,
        payload: { userType: '员工', model: '系统', content: '重启后还在' },
      })
    ).json<Created>();
    await ensureResourceTables(app.database, resources);
    const again = await t.reopen();
    const token = bearer(await loginAs(again, 'admin', ADMIN_PASSWORD));
    const res = await again.inject({ method: 'GET', url: `/api/sysQuestion?blurry=${created.id}`, headers: token });
    expect(res.json<Page>().content).toEqual([created]);
  });

  it('a field added to a schema adds its column and keeps the data; nothing is dropped', async () => {
    const before = (
      await app.inject({
        method: 'POST',
        url: '/api/sysQuestion',
        headers: admin,
        payload: { userType: '客户', model: '售后', content: '加字段之前' },
      })
    ).json<Created>();
    const extended = extendedQuestion();
    const specs = resources.map((r) => (r.name === 'sysQuestion' ? extended : r));
    const next = await t.reopen({ resources: specs });
    const cols = await columnsOf(next.database, 'sys_question');
    expect(cols).toHaveProperty('priority');
    expect(cols).toHaveProperty('due_date');
    const token = bearer(await loginAs(next, 'admin', ADMIN_PASSWORD));
    const old = (await next.inject({ method: 'GET', url: `/api/sysQuestion?blurry=${before.id}`, headers: token })).json<Page>().content[0];
    expect(old).toEqual({ ...before, priority: 2, dueDate: null });
    const created = await next.inject({
      method: 'POST',
      url: '/api/sysQuestion',
      headers: token,
      payload: { userType: '员工', model: '系统', content: '新字段', priority: 5, dueDate: '2025-02-28' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ priority: 5, dueDate: '2025-02-28' });
    const bad = await next.inject({
      method: 'POST',
      url: '/api/sysQuestion',
      headers: token,
      payload: { userType: '员工', model: '系统', content: 'x', dueDate: '2025-02-30' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().message).toBe('期限格式不正确');
    expect((await next.inject({ method: 'GET', url: '/api/sysQuestion?priority=5', headers: token })).json<Page>().totalElements).toBe(1);

    // back to the original schema: the extra columns and their values stay in the table
    const back = await t.reopen();
    const kept = await columnsOf(back.database, 'sys_question');
    expect(kept).toHaveProperty('priority');
    const raw = await back.database.db
      .selectFrom('sys_question')
      .select(['priority', 'due_date'])
      .where('id', '=', created.json<Created>().id)
      .executeTakeFirstOrThrow();
    expect(Number(raw.priority)).toBe(5);
    expect(raw.due_date).toBe('2025-02-28');
  });

  it('several instances may prepare the tables at once', async () => {
    const extended = extendedQuestion();
    extended.fields.push({ ...extended.fields.find((f) => f.name === 'priority')!, name: 'weight', column: 'weight' });
    await Promise.all([1, 2, 3].map(() => ensureResourceTables(app.database, [extended])));
    expect(await columnsOf(app.database, 'sys_question')).toHaveProperty('weight');
  });

  it('a money column made before money was exact (floating-point yuan) becomes integer cents once, keeping every amount', async () => {
    const money = structuredClone(resourceByName.expense);
    money.table = 'expense_legacy_money';
    // the same entity as an older schema described it: a plain number column of yuan
    const legacy = structuredClone(money);
    for (const f of legacy.fields) delete f.money;
    await ensureResourceTables(app.database, [legacy]);
    const pg = app.database.dialect === 'postgres';
    expect((await columnsOf(app.database, money.table)).money).toBe(pg ? 'double precision' : 'real');
    const amounts = [12.34, 0.29, 0.1, 999999999.99, 1.005, null];
    for (const [i, m] of amounts.entries()) {
      await app.database.db
        .insertInto(money.table)
        .values({ project: `旧数据${i}`, money: m, on_time: '2026-01-01' })
        .execute();
    }
    // the start with x-money converts; a second start (and concurrent ones) change nothing more
    await Promise.all([1, 2].map(() => ensureResourceTables(app.database, [money])));
    await ensureResourceTables(app.database, [money]);
    const rows = await app.database.db.selectFrom(money.table).select(['project', 'money']).orderBy('id').execute();
    // 1.005 as a double is 1.00499999999999989...: stored as the nearest cent of its shortest text
    expect(rows.map((r) => (r.money === null ? null : Number(r.money)))).toEqual([1234, 29, 10, 99999999999, pg ? 101 : 100, null]);
    if (pg) expect((await columnsOf(app.database, money.table)).money).toBe('bigint');
    const { rowToRecord } = await import('../../src/server/crud/values.ts');
    const read = (await app.database.db.selectFrom(money.table).selectAll().orderBy('id').execute()).map(
      (r) => rowToRecord(money, r as Record<string, unknown>).money,
    );
    expect(read).toEqual([12.34, 0.29, 0.1, 999999999.99, pg ? 1.01 : 1, null]);
    // new rows written as cents next to converted ones, and the sum is exact
    await app.database.db.insertInto(money.table).values({ project: '新数据', money: 20, on_time: '2026-01-02' }).execute();
    const sum = await sql<{ s: unknown }>`select sum(money) as s from ${sql.table(money.table)} where money < 100000`.execute(
      app.database.db,
    );
    expect(Number(sum.rows[0].s)).toBe(1234 + 29 + 10 + (pg ? 101 : 100) + 20);
  });
});
