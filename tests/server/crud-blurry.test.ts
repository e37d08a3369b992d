import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';

const Q = '/api/sysQuestion';
const ZP = '/api/staffunZp';
const spec = resourceByName.sysQuestion;

interface Row {
  id: number;
  userType: string;
  model: string;
  content: string;
}

describe.each(testApps())('blurry search on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let all: Row[];

  const search = async (text: string, extra = '') => {
    const res = await app.inject({
      method: 'GET',
      url: `${Q}?page=0&size=999&sort=id,asc&blurry=${encodeURIComponent(text)}${extra}`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<Page<Row>>();
    return {
      ids: body.content.map((r) => r.id),
      total: body.totalElements,
    };
  };
  const idsWhere = (keep: (r: Row) => boolean) => all.filter(keep).map((r) => r.id);

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    const models = ['系统', '销售', '售后', '人事', '客户', '市场'];
    const rows = Array.from({ length: 24 }, (_, i) => ({
      userType: i % 3 === 0 ? '客户' : '员工',
      model: models[i % models.length],
      // free text that an option search must not look at
      content: i === 5 ? '销售 客户 Sales 11' : `row ${i}`,
    }));
    await insertAll(app.database, spec, rows);
    const res = await app.inject({
      method: 'GET',
      url: `${Q}?page=0&size=999&sort=id,asc`,
      headers: admin,
    });
    all = res.json<Page<Row>>().content;
    expect(all).toHaveLength(24);
  });
  afterAll(async () => t?.close());

  it('finds option fields by any part of their value or label', async () => {
    // 客 is part of 客户, an identity and a module
    const guest = await search('客');
    expect(guest.ids).toEqual(idsWhere((r) => r.userType === '客户' || r.model === '客户'));
    expect(guest.total).toBe(guest.ids.length);
    // 售 is part of 销售 and 售后
    expect((await search('售')).ids).toEqual(idsWhere((r) => r.model === '销售' || r.model === '售后'));
    expect((await search('售后')).ids).toEqual(idsWhere((r) => r.model === '售后'));
    expect((await search('员工')).ids).toEqual(idsWhere((r) => r.userType === '员工'));
  });

  it('finds nothing when no option matches and the text is not an id', async () => {
    for (const text of ['Sales', '销售顾问', '%', '_', 'row']) {
      const found = await search(text);
      expect(found.ids, text).toEqual([]);
      expect(found.total, text).toBe(0);
    }
  });

  it('an integer matches the id exactly, never as part of another id or of text', async () => {
    const first = all[0].id;
    expect((await search(String(first))).ids).toEqual([first]);
    const eleven = all.find((r) => r.id === 11) ? [11] : [];
    expect((await search('11')).ids).toEqual(eleven);
    expect((await search('999999')).ids).toEqual([]);
  });

  it('combines with the other filters', async () => {
    const found = await search('客', `&userType=${encodeURIComponent('员工')}`);
    expect(found.ids).toEqual(idsWhere((r) => r.userType === '员工' && r.model === '客户'));
  });

  it('free-text fields still match by contained text', async () => {
    const created = await app.inject({
      method: 'POST',
      url: ZP,
      headers: admin,
      payload: {
        deptId: 1,
        job: 'Blurry 专员',
        money: '面议',
        address: '开封市Gulou区',
        jobNum: 1,
        jobZz: '无',
        jobYq: '无',
        enabled: true,
      },
    });
    expect(created.statusCode).toBe(201);
    const res = (
      await app.inject({
        method: 'GET',
        url: `${ZP}?blurry=${encodeURIComponent('gulou')}`,
        headers: admin,
      })
    ).json<Page<Created>>();
    expect(res.content.map((r) => r.id)).toEqual([created.json<Created>().id]);
  });
});
