/**
 * One guard for every record an applicant's token reaches, generated over the schemas and the
 * route table (a new applicant-owned schema or a new route under one is covered without editing
 * this file). For every schema owned by an applicant (`ownedByApplicant`), applicant B makes two
 * records and deletes one; applicant A then asks every route under the resource's path (list
 * look-ups by `?id=`, `/{id}/history`, restore to a version, the recycle bin's restore and purge,
 * update, delete) about three ids: B's live record, an id that never existed, and B's deleted
 * record. The three answers (status and message, the asked id written as ID) must be the same,
 * and none a 5xx. Prints the routes covered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../src/generated/resources.ts';
import { routeCatalogue } from '../../src/server/auth/index.ts';
import { REVISION_TABLE } from '../../src/server/crud/history/revisions.ts';
import { idCardCheckDigit } from '../../src/shared/validators.ts';
import type { ResourceSpec } from '../../src/shared/resource-spec.ts';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, submitId, testApps, type TestApp } from './helpers.ts';
import { sampleBody } from './sample-records.ts';
import type { Created } from '../support/answers.ts';

const ABSENT = 987654321;
const owned = resources.filter((s) => s.ownedByApplicant);

function idNumber(seq: string): string {
  const first17 = `410102${'19950312'}${seq}`;
  return first17 + idCardCheckDigit(first17);
}

describe.each(testApps())("an applicant's doors on %s", (_name, start) => {
  let t: TestApp;
  let admin: string;
  let a: string;
  let b: string;
  const covered = new Set<string>();
  let asked = 0;
  let address = 0;

  const call = async (token: string | undefined, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      // each call from its own address: the registration rate limit stays out of the way
      remoteAddress: `10.9.${Math.floor(++address / 250)}.${address % 250}`,
      headers: { ...(token ? bearer(token) : {}), ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const posting = await call(admin, 'POST', '/api/staffunZp', {
      deptId: 1,
      job: '门岗位',
      money: '6000-9000元/月',
      address: '郑州市金水区',
      jobNum: 3,
      jobZz: '接待到店客户',
      jobYq: '大专以上学历',
      enabled: true,
      remark: '',
    });
    expect(posting.statusCode, posting.body).toBe(201);
    const postingId = posting.json<Created>().id;
    const register = async (seq: string, mobile: string) => {
      const res = await call(undefined, 'POST', '/api/staffun', {
        staffunZpId: postingId,
        ypqd: '招聘网站',
        ypmx: '智联招聘',
        name: '张门',
        mobile,
        sex: 1,
        card: idNumber(seq),
        birthday: '1995-03-12',
        hyzk: 0,
        email: `door${seq}@example.com`,
        cardProvince: '410000',
        cardCity: '410100',
        cardCounty: '410102',
        cardAddress: '中原区建设路1号',
        nowProvince: '410000',
        nowCity: '410100',
        nowCounty: '410105',
        nowAddress: '金水区花园路2号',
        edu: 3,
        work: 3,
        syMoney: 6000,
        zsMoney: 8000,
        yjdg: '2026-12-01',
        outWork: 1,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<Created<{ token: string }>>().token;
    };
    a = await register('871', '13800000871');
    b = await register('873', '13800000873');
  }, 60_000);
  afterAll(() => {
    console.log(`applicant doors: ${owned.length} applicant-owned schemas, ${covered.size} routes, ${asked} triples of questions`);
    return t?.close();
  });

  it('covers every applicant-owned schema', () => {
    expect(owned.length).toBeGreaterThan(0);
  });

  it.each(owned.map((s) => [s.name, s] as [string, ResourceSpec]))('%s', async (_n, spec) => {
    const base = `/${spec.path}`;
    const make = async (variant: number) => {
      const body = await sampleBody(t.app, admin, resources, spec, variant);
      delete body[spec.ownedByApplicant!];
      const res = await call(b, 'POST', base, body);
      expect(res.statusCode, `${base}: ${res.body}`).toBe(201);
      return Number(res.json<Created>().id);
    };
    const hidden = await make(0);
    const gone = await make(1);
    const del = await call(b, 'DELETE', base, [gone]);
    expect(del.statusCode, del.body).toBe(200);
    const revision = Number(
      (
        await t.app.database.db
          .selectFrom(REVISION_TABLE)
          .select('id')
          .where('record_id', '=', hidden)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    );

    const answer = async (method: string, url: string, payload: unknown, id: number) => {
      const res = await call(a, method, url, payload);
      let message: string;
      try {
        const m = res.json<{ message?: unknown }>().message;
        message = typeof m === 'string' ? m : '';
      } catch {
        message = '';
      }
      return `${res.statusCode} ${message.split(String(id)).join('ID')}`;
    };
    const routes = routeCatalogue(t.app).filter((r) => (r.url === base || r.url.startsWith(`${base}/`)) && !r.url.includes('*'));
    const wrong: string[] = [];
    // writes last: a door that let a hidden record through must not change what the reads find
    const order = (m: string) => ['GET', 'PUT', 'POST', 'DELETE'].indexOf(m);
    for (const r of [...routes].sort((x, y) => order(x.method) - order(y.method))) {
      const takesPathId = r.url.includes(':id');
      if (/:[A-Za-z]+/.test(r.url) && !takesPathId) continue;
      const ask = (id: number) => {
        const url = takesPathId ? r.url.replace(':id', String(id)).replace(/:[A-Za-z]+/g, String(revision)) : r.url;
        if (r.method === 'GET') return answer('GET', takesPathId ? url : `${url}?id=${id}`, undefined, id);
        if (r.method === 'PUT') return answer('PUT', url, takesPathId ? {} : { id }, id);
        return answer(r.method, url, [id], id);
      };
      const answers = [await ask(hidden), await ask(ABSENT), await ask(gone)];
      covered.add(`${r.method} ${r.url}`);
      asked++;
      if (new Set(answers).size !== 1)
        wrong.push(`${r.method} ${r.url}: hidden ${answers[0]} / absent ${answers[1]} / deleted ${answers[2]}`);
      if (answers.some((x) => x.startsWith('5'))) wrong.push(`${r.method} ${r.url}: ${answers.join(' / ')}`);
    }
    expect(wrong).toEqual([]);
    // the doors that matter most were among them
    for (const door of ['GET /:id/history', 'POST /recycleBin/restore', 'DELETE /recycleBin'])
      expect(
        routes.some((r) => `${r.method} ${r.url.slice(base.length)}` === door),
        `${spec.name} ${door}`,
      ).toBe(true);
    // B's records are untouched by A's questions
    const still = await t.app.database.db.selectFrom(spec.table).select('id').where('id', '=', hidden).executeTakeFirst();
    expect(still, `${spec.name}: B's record is still there`).toBeDefined();
  });
});
