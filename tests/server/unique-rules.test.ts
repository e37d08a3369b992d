/**
 * `x-unique` through the engine, on both databases: 问题反馈 (schemas/sysQuestion.json) with
 * `title` unique and the root rule ["model", "remark"] (a masked field cannot be unique: codegen
 * refuses it, tests/unit/codegen-unique.test.ts). Create, edit, import (the whole file refused, the row named, nothing
 * written), 恢复到此版本 and the recycle bin answer 409 with 标题“甲”已存在; a write that races past the engine's check is refused by the
 * unique index and still answers 409, never 500.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadSpecs } from '../../codegen/main.ts';
import type { ResourceSpec } from '../../src/shared/resource-spec.ts';
import { insertRecorded, SYSTEM_ACTOR } from '../../src/server/crud/history/recorded-writes.ts';
import { describeError } from '../../src/server/errors.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { multipartFile, XLSX_TYPE } from './multipart.ts';
import type { Created, Page, Row } from '../support/answers.ts';

/** Switched on by a test: the engine's own check is skipped, so only the database's index stands in the way. */
const race = vi.hoisted(() => ({ skipCheck: false, skipped: 0 }));
vi.mock('../../src/server/crud/unique.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/crud/unique.ts')>();
  return {
    ...real,
    assertUnique: (...args: Parameters<typeof real.assertUnique>) => {
      if (!race.skipCheck) return real.assertUnique(...args);
      race.skipped++;
      return Promise.resolve();
    },
  };
});

const Q = '/api/sysQuestion';
const BASE = { userType: '员工', model: '系统', content: '问题' };

/** schemas/ with sysQuestion's unique rules. */
function uniqueSpecs(): ResourceSpec[] {
  const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
  try {
    cpSync('schemas', dir, { recursive: true });
    const file = join(dir, 'sysQuestion.json');
    const q = JSON.parse(readFileSync(file, 'utf8')) as {
      properties: Record<string, Record<string, unknown>>;
      'x-unique'?: string[];
    };
    q.properties.title['x-unique'] = true;
    q.properties.remark.maxLength = 200;
    q.properties.remark.errorMessage = { maxLength: '优化建议长度不能超过200个字符' };
    q['x-unique'] = ['model', 'remark'];
    writeFileSync(file, JSON.stringify(q, null, 2));
    return loadSpecs(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('问题反馈');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe.each(testApps())('unique rules (x-unique) on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let specs: ResourceSpec[];

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = admin) =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (r: Row) => {
    const res = await call('POST', Q, { ...BASE, ...r });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Created>();
  };
  const count = async () => (await call('GET', `${Q}?size=1`)).json<Page>().totalElements;
  const conflict = (res: { statusCode: number; body: string; json(): unknown }, message: string) => {
    expect(res.statusCode, res.body).toBe(409);
    expect(errorOf(res).message).toBe(message);
  };

  beforeAll(async () => {
    specs = uniqueSpecs();
    t = await start({}, { resources: specs });
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
  });
  afterAll(async () => t?.close());

  it('the tables get their unique indexes at start', async () => {
    const db = app.database.db;
    const names =
      app.database.dialect === 'postgres'
        ? (await sql<{ n: string }>`select indexname as n from pg_indexes where tablename = 'sys_question'`.execute(db)).rows
        : (await sql<{ n: string }>`select name as n from pragma_index_list('sys_question') where "unique" = 1`.execute(db)).rows;
    expect(names.map((r) => r.n)).toEqual(expect.arrayContaining(['uq_sys_question_title', 'uq_sys_question_model_remark']));
  });

  it('create: a value taken answers 409 naming the field and the value; empty values never collide', async () => {
    await create({ title: '甲' });
    const before = await count();
    conflict(await call('POST', Q, { ...BASE, title: '甲' }), '标题“甲”已存在');
    // trimmed as stored
    conflict(await call('POST', Q, { ...BASE, title: ' 甲 ' }), '标题“甲”已存在');
    expect(await count()).toBe(before);
    await create({ title: '甲乙' });
    await create({});
    await create({ title: '' });
    // a rule over two properties: the pair, not each value
    await create({ title: 'p1', model: '系统', remark: '建议一' });
    await create({ title: 'p2', model: '销售', remark: '建议一' });
    conflict(await call('POST', Q, { ...BASE, title: 'p3', model: '系统', remark: '建议一' }), '模块“系统”与优化建议“建议一”的组合已存在');
  });

  it('edit: another record holding the value answers 409; the record keeps its own value', async () => {
    const a = await create({ title: '编辑甲' });
    const b = await create({ title: '编辑乙' });
    conflict(await call('PUT', Q, { id: b.id, title: '编辑甲' }), '标题“编辑甲”已存在');
    expect((await call('GET', `${Q}?id=${b.id}`)).json<Page>().content[0]).toMatchObject({ title: '编辑乙' });
    expect((await call('PUT', Q, { id: a.id, title: '编辑甲', remark: '改了建议' })).statusCode).toBe(204);
    expect((await call('PUT', Q, { id: b.id, title: '编辑丙' })).statusCode).toBe(204);
  });

  it('import: a value stored already, or twice in the file, refuses the whole file naming the row', async () => {
    await create({ title: '导入甲' });
    const upload = async (rows: unknown[][]) => {
      const m = multipartFile('问题反馈.xlsx', await workbook([['身份', '模块', '标题', '问题描述'], ...rows]), XLSX_TYPE);
      return app.inject({ method: 'POST', url: `${Q}/import`, payload: m.payload, headers: { ...admin, ...m.headers } });
    };
    const before = await count();
    let res = await upload([
      ['员工', '系统', '导入新一', '一'],
      ['员工', '系统', '导入甲', '二'],
    ]);
    conflict(res, '第3行「标题」: 标题“导入甲”已存在');
    expect(res.json<{ errors: Row[] }>().errors).toEqual([{ row: 3, column: '标题', message: '标题“导入甲”已存在' }]);
    res = await upload([
      ['员工', '系统', '导入新二', '一'],
      ['员工', '系统', '导入新三', '二'],
      ['员工', '系统', '导入新二', '三'],
    ]);
    conflict(res, '第4行「标题」: 标题“导入新二”与第2行重复');
    expect(await count()).toBe(before);
    res = await upload([
      ['员工', '系统', '导入新二', '一'],
      ['员工', '系统', '导入新三', '二'],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await count()).toBe(before + 2);
  });

  it('restore to a version: a value taken since answers 409 and nothing changes', async () => {
    const q = await create({ title: '版本甲' });
    expect((await call('PUT', Q, { id: q.id, title: '版本乙' })).statusCode).toBe(204);
    const entries = (await call('GET', `${Q}/${q.id}/history`)).json<Page<{ id: number }>>().content;
    await create({ title: '版本甲' });
    conflict(await call('POST', `${Q}/${q.id}/restore/${entries[1].id}`), '标题“版本甲”已存在');
    expect((await call('GET', `${Q}?id=${q.id}`)).json<Page>().content[0]).toMatchObject({ title: '版本乙' });
  });

  it('recycle bin: a deleted record does not hold its value; one taken since is not restored', async () => {
    const a = await create({ title: '回收甲' });
    const b = await create({ title: '回收乙' });
    expect((await call('DELETE', Q, [a.id, b.id])).statusCode).toBe(200);
    await create({ title: '回收甲' });
    conflict(await call('POST', `${Q}/recycleBin/restore`, [b.id, a.id]), `无法恢复（ID ${a.id}）：标题“回收甲”已存在`);
    // all or nothing: b stays in the bin too
    expect((await call('GET', `${Q}?id=${b.id}`)).statusCode).toBe(404);
    expect((await call('POST', `${Q}/recycleBin/restore`, [b.id])).statusCode).toBe(200);
  });

  it('a write past the engine: the database refuses the duplicate and the answer is still 409, never 500', async () => {
    const spec = specs.find((s) => s.name === 'sysQuestion')!;
    // a row stored past the engine, then a create through it
    await app.database.db
      .insertInto('sys_question')
      .values({ user_type: '员工', model: '系统', content: '直接写入', title: '竞争甲' })
      .execute();
    conflict(await call('POST', Q, { ...BASE, title: '竞争甲' }), '标题“竞争甲”已存在');
    // the engine's check passed (a write raced it): the unique index refuses, the same 409
    const other = await create({ title: '竞争乙' });
    race.skipped = 0;
    race.skipCheck = true;
    try {
      conflict(await call('POST', Q, { ...BASE, title: '竞争甲' }), '标题“竞争甲”已存在');
      conflict(await call('PUT', Q, { id: other.id, title: '竞争甲' }), '标题“竞争甲”已存在');
      conflict(await call('POST', Q, { ...BASE, title: 'x', model: '系统', remark: '建议一' }), '模块“系统”与优化建议“建议一”的组合已存在');
    } finally {
      race.skipCheck = false;
    }
    // the three writes went past the check: the answers came from the database's refusal
    expect(race.skipped).toBe(3);
    // a module's own write past the engine: the error handler names the rule (without the value)
    const err = await app.database.db
      .transaction()
      .execute((trx) => insertRecorded(trx, spec, app.database.dialect, SYSTEM_ACTOR, { ...BASE, title: '竞争甲' }))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(describeError(err)).toMatchObject({ status: 409, message: '标题已存在', internal: false });
  });
});
