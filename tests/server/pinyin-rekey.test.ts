import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { PINYIN_MARKER_TABLE, pinyinTable } from '../../src/server/crud/pinyin/pinyin-search.ts';
import { pinyinKeyRanges } from '../../src/server/crud/pinyin/pinyin-keys.ts';
import { PINYIN_RULE_VERSION } from '../../src/shared/pinyin.ts';
import { ensureResourceTables } from '../../src/server/db/migrate.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Page } from '../support/answers.ts';

const staff = resourceByName.staff;
const STAFF = `/${staff.path}`;
const NAME = staff.fields.find((f) => f.name === 'name')!;
const JOB = staff.fields.find((f) => f.name === 'job')!;

describe.each(testApps())('stored pinyin keys on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;

  const names = async (text: string): Promise<string[]> => {
    const res = await app.inject({
      method: 'GET',
      url: `${STAFF}?page=0&size=50&sort=id,asc&blurry=${encodeURIComponent(text)}`,
      headers: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json<Page<{ name: string }>>()
      .content.map((r) => r.name)
      .sort();
  };
  const keysOf = async (side: string, id: number) =>
    (await app.database.db.selectFrom(side).select('key').where('row_id', '=', id).orderBy('key').execute()).map((r) => r.key as string);

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    await insertAll(app.database, staff, [
      { name: '张三', mobile: '13800000001', job: '市场推广经理' },
      { name: '赵航', mobile: '13800000002', job: '重庆区域经理' },
      { name: '张小明', mobile: '13800000003', job: '售后服务主管' },
    ]);
  });
  afterAll(async () => t?.close());

  it('stores two keys per reading, a title too', async () => {
    const [zs] = await app.database.db.selectFrom(staff.table).select('id').where('name', '=', '张三').execute();
    expect(await keysOf(pinyinTable(staff, NAME), Number(zs.id))).toEqual(['zhangsan', '~zs|zhang-san---']);
    // 64 keys for this title before (广 reads guang and an: two combinations)
    expect(await keysOf(pinyinTable(staff, JOB), Number(zs.id))).toEqual([
      'shichangtuianjingli',
      'shichangtuiguangjingli',
      '~sctajl|shi---chang-tui---an----jingli',
      '~sctgjl|shi---chang-tui---guang-jingli',
    ]);
  });

  it('finds mixed forms through the initials range and its pattern', async () => {
    expect(await names('zsan')).toEqual(['张三']);
    expect(await names('zxming')).toEqual(['张小明']);
    expect(await names('zhangxm')).toEqual(['张小明']);
    expect(await names('zhxm')).toEqual([]);
    // z + hang: 赵航 is found by zhang as the rule says
    expect(await names('zhang')).toEqual(['张三', '张小明', '赵航']);
    expect(await names('sctuig')).toEqual(['张三']);
    expect(await names('zqqyjl')).toEqual(['赵航']);
    // past four syllables the rest is all full or all initials
    expect(await names('shouhfwzhug')).toEqual(['张小明']);
    expect(await names('shfwzg')).toEqual(['张小明']);
    expect(await names('shfwzgu')).toEqual([]);
    // the job's name filter takes the same route
    const res = await app.inject({ method: 'GET', url: `${STAFF}?page=0&size=50&name=zsan`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Page<{ name: string }>>().content.map((r) => r.name)).toEqual(['张三']);
  });

  it('reads a mixed range through the key index', async () => {
    const side = pinyinTable(staff, NAME);
    const r = pinyinKeyRanges('zsan')!.find((x) => x.like.length)!;
    const range = sql`select row_id from ${sql.table(side)} where key >= ${r.from} and key < ${r.to} and key like ${r.like[0]}`;
    if (t.dialect === 'postgres') {
      const plan = await app.database.db.connection().execute(async (conn) => {
        await sql`set enable_seqscan = off`.execute(conn);
        const rows = (await sql<{ 'QUERY PLAN': string }>`explain (costs off) ${range}`.execute(conn)).rows;
        await sql`set enable_seqscan = on`.execute(conn);
        return rows.map((x) => x['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/Index/);
    } else {
      const plan = (await sql<{ detail: string }>`explain query plan ${range}`.execute(app.database.db)).rows
        .map((x) => x.detail)
        .join('\n');
      expect(plan).toMatch(/SEARCH .* USING PRIMARY KEY \(key>\? AND key<\?\)/);
    }
  });

  it('keeps the total of a pinyin search in the count cache until a write through the app', async () => {
    const total = async (q: string) => {
      const res = await app.inject({ method: 'GET', url: `${STAFF}?page=0&size=1&sort=id,asc&blurry=${q}`, headers: admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Page<unknown>>().totalElements;
    };
    const { db } = app.database;
    expect(await total('zxm')).toBe(1);
    // a row and its keys written behind the app's back: PostgreSQL's kept total does not see it;
    // SQLite's is kept with the file's change stamp, which any write changes, so it counts again
    const [{ id }] = await db.insertInto(staff.table).values({ name: '周晓梅', mobile: '13800000009' }).returning('id').execute();
    await db
      .insertInto(pinyinTable(staff, NAME))
      .values([
        { key: 'zhouxiaomei', row_id: Number(id) },
        { key: '~zxm|zhou--xiao--mei---', row_id: Number(id) },
      ])
      .execute();
    expect(await total('zxm')).toBe(app.database.dialect === 'sqlite' ? 2 : 1);
    // a write through the app counts again
    const created = await app.inject({
      method: 'POST',
      url: STAFF,
      headers: admin,
      payload: { name: '赵小米', mobile: '13800000010', sex: 1, orgId: 1, deptId: 1, job: '销售顾问', entryDate: '2024-03-01', status: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await total('zxm')).toBe(3);
    await db.deleteFrom(staff.table).where('name', 'in', ['周晓梅', '赵小米']).execute();
    await db
      .deleteFrom(pinyinTable(staff, NAME))
      .where('key', 'in', ['zhouxiaomei', '~zxm|zhou--xiao--mei---', 'zhaoxiaomi', '~zxm|zhao--xiao--mi----'])
      .execute();
  });

  it('computes the keys of an older rule again at the next start', async () => {
    const side = pinyinTable(staff, NAME);
    const { db } = app.database;
    const [zs] = await db.selectFrom(staff.table).select('id').where('name', '=', '张三').execute();
    const id = Number(zs.id);
    // keys as version 1 stored them: every mix (zsan), no form key
    await db.deleteFrom(side).where('row_id', '=', id).execute();
    await db
      .insertInto(side)
      .values([
        { key: 'zhangsan', row_id: id },
        { key: 'zsan', row_id: id },
      ])
      .execute();
    await db.updateTable(PINYIN_MARKER_TABLE).set({ version: 1 }).where('table_name', '=', staff.table).execute();
    await ensureResourceTables(app.database, [staff]);
    expect(await keysOf(side, id)).toEqual(['zhangsan', '~zs|zhang-san---']);
    const markers = await db
      .selectFrom(PINYIN_MARKER_TABLE)
      .select(['version', 'complete'])
      .where('table_name', '=', staff.table)
      .execute();
    expect(markers.map((m) => [Number(m.version), Boolean(m.complete)])).toEqual([
      [PINYIN_RULE_VERSION, true],
      [PINYIN_RULE_VERSION, true],
    ]);
    expect(await names('zsan')).toEqual(['张三']);
    expect(await names('zs')).toEqual(['张三']);
  });
});
