import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { PINYIN_MARKER_TABLE, pinyinTable } from '../../src/server/crud/pinyin/pinyin-search.ts';
import { ensureResourceTables } from '../../src/server/db/migrate.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';

const staff = resourceByName.staff;
const jpType = resourceByName.jpType;
const STAFF = `/${staff.path}`;
const JP = `/${jpType.path}`;

interface Named {
  id: number;
  name: string;
}

const people = ['张三', '张伟', '章子怡', '曾国藩', '单田芳', '解缙', '仇英', '区家明', '朴志勇', '赵四', 'Tom 李', '欧阳锋'];

describe.each(testApps())('pinyin search on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;

  const names = async (path: string, text: string): Promise<{ names: string[]; total: number }> => {
    const res = await app.inject({
      method: 'GET',
      url: `${path}?page=0&size=50&sort=id,asc&blurry=${encodeURIComponent(text)}`,
      headers: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Page<Named>>();
    return { names: page.content.map((r) => r.name), total: page.totalElements };
  };

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    // the import path: insertAll computes the keys in the same transaction
    await insertAll(
      app.database,
      staff,
      people.map((name, i) => ({ name, mobile: `1380000${String(i).padStart(4, '0')}`, job: i % 2 ? '销售顾问' : '行政专员' })),
    );
  });
  afterAll(async () => t?.close());

  it('finds names by initials, full pinyin and mixed forms', async () => {
    expect((await names(STAFF, 'zs')).names).toEqual(['张三', '赵四']);
    expect((await names(STAFF, 'zhang')).names).toEqual(['张三', '张伟', '章子怡']);
    expect((await names(STAFF, 'zhan')).names).toEqual(['张三', '张伟', '章子怡']);
    expect((await names(STAFF, 'zh')).names).toEqual(['张三', '张伟', '章子怡', '赵四']);
    expect((await names(STAFF, 'zsan')).names).toEqual(['张三']);
    expect((await names(STAFF, 'zhangw')).names).toEqual(['张伟']);
    expect((await names(STAFF, 'ZHANG San')).names).toEqual(['张三']);
    const found = await names(STAFF, 'z');
    expect(found.names).toEqual(['张三', '张伟', '章子怡', '曾国藩', '赵四']);
    expect(found.total).toBe(5);
  });

  it('gives surnames their surname reading', async () => {
    expect((await names(STAFF, 'zengguofan')).names).toEqual(['曾国藩']);
    expect((await names(STAFF, 'shantf')).names).toEqual(['单田芳']);
    expect((await names(STAFF, 'xiej')).names).toEqual(['解缙']);
    expect((await names(STAFF, 'qiuy')).names).toEqual(['仇英']);
    expect((await names(STAFF, 'oujm')).names).toEqual(['区家明']);
    expect((await names(STAFF, 'piaozy')).names).toEqual(['朴志勇']);
    expect((await names(STAFF, 'oyf')).names).toEqual(['欧阳锋']);
  });

  it('keeps Latin text and character search as before', async () => {
    expect((await names(STAFF, 'tom')).names).toEqual(['Tom 李']);
    expect((await names(STAFF, 'toml')).names).toEqual(['Tom 李']);
    expect((await names(STAFF, '张')).names).toEqual(['张三', '张伟']);
    // other searched fields: the mobile by its digits, the job (also marked) by pinyin
    expect((await names(STAFF, '13800000003')).names).toEqual([people[3]]);
    expect((await names(STAFF, 'xsgw')).total).toBe(6);
    expect((await names(STAFF, 'xingz')).total).toBe(6);
  });

  it('keeps the keys on create, update and delete', async () => {
    const created = await app.inject({ method: 'POST', url: JP, headers: admin, payload: { name: '重庆长安' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Created>().id;
    for (const q of ['cqca', 'zqcha', 'chongqingchangan', 'zhongqingzhangan']) expect((await names(JP, q)).names, q).toEqual(['重庆长安']);
    const updated = await app.inject({ method: 'PUT', url: JP, headers: admin, payload: { id, name: '银行卡' } });
    expect(updated.statusCode, updated.body).toBeLessThan(300);
    expect((await names(JP, 'cq')).names).toEqual([]);
    expect((await names(JP, 'yhk')).names).toEqual(['银行卡']);
    const side = pinyinTable(
      jpType,
      jpType.fields.find((f) => f.name === 'name')!,
    );
    const deleted = await app.inject({ method: 'DELETE', url: JP, headers: admin, payload: [id] });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect((await names(JP, 'yhk')).names).toEqual([]);
    const left = await app.database.db.selectFrom(side).select('key').where('row_id', '=', id).execute();
    expect(left).toEqual([]);
  });

  it('the migration fills the keys of rows stored without them, and searches use the key index', async () => {
    const field = staff.fields.find((f) => f.name === 'name')!;
    const side = pinyinTable(staff, field);
    const { db } = app.database;
    // rows as an older version left them: written without keys, no marker
    await db.insertInto(staff.table).values({ name: '司马懿', mobile: '13900000001' }).execute();
    await db.insertInto(staff.table).values({ name: '诸葛亮', mobile: '13900000002' }).execute();
    await db.deleteFrom(side).execute();
    await db.deleteFrom(PINYIN_MARKER_TABLE).where('table_name', '=', staff.table).execute();
    expect((await names(STAFF, 'zs')).names).toEqual([]);
    await ensureResourceTables(app.database, [staff]);
    expect((await names(STAFF, 'zs')).names).toEqual(['张三', '赵四']);
    expect((await names(STAFF, 'smy')).names).toEqual(['司马懿']);
    expect((await names(STAFF, 'zhugel')).names).toEqual(['诸葛亮']);
    const marker = await db
      .selectFrom(PINYIN_MARKER_TABLE)
      .select(['column_name', 'complete'])
      .where('table_name', '=', staff.table)
      .$castTo<{ column_name: string; complete: boolean | number }>()
      .execute();
    expect(marker.map((m): [string, boolean] => [m.column_name, Boolean(m.complete)]).sort()).toEqual([
      ['job', true],
      ['name', true],
    ]);
    // a second start finds the marker complete and leaves the keys alone
    const before = await db
      .selectFrom(side)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    await ensureResourceTables(app.database, [staff]);
    const after = await db
      .selectFrom(side)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    // the search is an index range on the side table, not a scan
    const range = sql`select row_id from ${sql.table(side)} where key >= ${'zs'} and key < ${'zt'}`;
    const plan =
      t.dialect === 'postgres'
        ? (await sql<{ 'QUERY PLAN': string }>`explain (costs off) ${range}`.execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n')
        : (await sql<{ detail: string }>`explain query plan ${range}`.execute(db)).rows.map((r) => r.detail).join('\n');
    if (t.dialect === 'postgres') {
      // a tiny table may be read whole; the index must still be usable for the range
      const forced = await db.connection().execute(async (conn) => {
        await sql`set enable_seqscan = off`.execute(conn);
        const rows = (await sql<{ 'QUERY PLAN': string }>`explain (costs off) ${range}`.execute(conn)).rows;
        await sql`set enable_seqscan = on`.execute(conn);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(forced, plan).toMatch(/Index/);
    } else {
      expect(plan).toMatch(/SEARCH .* USING PRIMARY KEY \(key>\? AND key<\?\)/);
    }
  });
});
