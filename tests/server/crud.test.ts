import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { installErrorHandling } from '../../src/server/errors.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { Created, Page, Row } from '../support/answers.ts';
import { resources } from '../../src/generated/resources.ts';
import { routeCatalogue } from '../../src/server/auth/index.ts';

const Q = '/api/sysQuestion';
const ZP = '/api/staffunZp';

function question(overrides: Record<string, unknown> = {}) {
  return { userType: '员工', model: '系统', title: '导出打不开', content: '导出的表格打不开', ...overrides };
}

function posting(overrides: Record<string, unknown> = {}) {
  return {
    deptId: 1,
    job: '销售顾问',
    money: '6000-9000元/月',
    address: '郑州市金水区',
    jobNum: 3,
    jobZz: '接待到店客户',
    jobYq: '大专以上学历',
    enabled: true,
    ...overrides,
  };
}

/** a feedback record as the routes answer it */
interface Question extends Row {
  id: number;
  createTime: string;
  userType: string;
  model: string;
  content: string;
}

describe.each(testApps())('generic CRUD routes on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let reader: Record<string, string>;
  let nokey: Record<string, string>;
  let adder: Record<string, string>;

  const post = (url: string, payload: object, headers = admin) => app.inject({ method: 'POST', url, payload, headers });
  const put = (url: string, payload: object, headers = admin) => app.inject({ method: 'PUT', url, payload, headers });
  const del = (url: string, payload: object, headers = admin) => app.inject({ method: 'DELETE', url, payload, headers });
  const get = (url: string, headers = admin) => app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    await createStaff(app, { username: 'reader', password: 'Reader@2024', permissions: ['sysQuestion:list', 'staffunZp:list'] });
    await createStaff(app, { username: 'adder', password: 'Adder@2024', permissions: ['sysQuestion:add'] });
    await createStaff(app, { username: 'nokey', password: 'Nokey@2024', permissions: [] });
    nokey = bearer(await loginAs(app, 'nokey', 'Nokey@2024'));
    reader = bearer(await loginAs(app, 'reader', 'Reader@2024'));
    adder = bearer(await loginAs(app, 'adder', 'Adder@2024'));
  });
  afterAll(async () => t?.close());

  describe('create', () => {
    it('answers 201 with the stored record; the server sets id and createTime and ignores them if sent', async () => {
      const res = await post(Q, question({ id: 999, createTime: '2000-01-01 00:00:00', username: '  张三 ', mobile: '13800138000' }));
      expect(res.statusCode).toBe(201);
      const body = res.json<Question>();
      expect(body).toMatchObject({
        userType: '员工',
        model: '系统',
        username: '张三',
        mobile: '13800138000',
        status: false,
        enabled: true,
      });
      expect(body.id).toBeGreaterThan(0);
      expect(body.id).not.toBe(999);
      expect(body.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(body.createTime).not.toBe('2000-01-01 00:00:00');
      const list = await get(`${Q}?blurry=${body.id}`);
      expect(list.json<Page>().content[0]).toEqual(body);
    });

    it('stores an empty optional field as null', async () => {
      const res = await post(Q, question({ title: '', remark: '   ', mobile: null }));
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ title: null, remark: null, mobile: null });
    });

    it.each([
      ['userType', '身份不能为空'],
      ['model', '模块不能为空'],
      ['content', '问题描述不能为空'],
    ])('feedback without %s: 400 %s', async (field, message) => {
      for (const value of [undefined, '', '   ', null]) {
        const body: Record<string, unknown> = question();
        if (value === undefined) delete body[field];
        else body[field] = value;
        const res = await post(Q, body);
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).message).toBe(message);
      }
    });

    it.each([
      ['deptId', '所属部门不能为空'],
      ['job', '招聘岗位不能为空'],
      ['address', '工作区域不能为空'],
      ['jobZz', '岗位职责不能为空'],
      ['jobYq', '任职要求不能为空'],
      ['jobNum', '招聘人数不能为空'],
      ['enabled', '是否启用不能为空'],
      ['money', '薪资待遇不能为空'],
    ])('posting without %s: 400 %s', async (field, message) => {
      const body: Record<string, unknown> = posting();
      delete body[field];
      const res = await post(ZP, body);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe(message);
    });

    it('an empty body names the first required field of the form', async () => {
      expect(errorOf(await post(Q, {})).message).toBe('身份不能为空');
      expect(errorOf(await post(ZP, {})).message).toBe('所属部门不能为空');
    });

    it('wrong types, bad options and bad formats are 400 with the schema message and write nothing', async () => {
      const before = (await get(`${Q}?size=1`)).json<Page>().totalElements;
      const cases: Array<[Record<string, unknown>, string]> = [
        [question({ model: '天气' }), '模块取值不正确'],
        [question({ userType: '老板' }), '身份只能是员工或客户'],
        [question({ mobile: '12345' }), '请输入正确的11位手机号码'],
        [question({ status: 'yes' }), '状态只能是已处理或未处理'],
        [question({ content: 'x'.repeat(2001) }), '问题描述长度不能超过2000个字符'],
        [question({ content: 42 }), '问题描述格式不正确'],
        [question({ hacker: 1 }), '不支持的字段: hacker'],
        [question({ content: 'a\u0000b' }), '问题描述包含非法字符'],
      ];
      for (const [body, message] of cases) {
        const res = await post(Q, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(errorOf(res).message).toBe(message);
      }
      const zpCases: Array<[Record<string, unknown>, string]> = [
        [posting({ jobNum: '3' }), '招聘人数不能为空'],
        [posting({ jobNum: 0 }), '请输入正整数'],
        [posting({ jobNum: 1.5 }), '招聘人数不能为空'],
        [posting({ jobNum: 10000 }), '招聘人数不能超过9999'],
        [posting({ deptId: 0 }), '所属部门不能为空'],
        [posting({ deptId: 1e300 }), '所属部门数值过大'],
        [posting({ enabled: 'true' }), '是否启用不能为空'],
        [posting({ job: 'x'.repeat(51) }), '招聘岗位长度不能超过50个字符'],
      ];
      for (const [body, message] of zpCases) {
        const res = await post(ZP, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(errorOf(res).message).toBe(message);
      }
      expect((await get(`${Q}?size=1`)).json<Page>().totalElements).toBe(before);
    });

    it('a body that is not an object is 400 请求内容格式错误', async () => {
      for (const payload of [[question()], 'text', 42]) {
        const res = await app.inject({
          method: 'POST',
          url: Q,
          headers: { ...admin, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).message).toBe('请求内容格式错误');
      }
    });

    it('bad JSON, a __proto__ key, an oversized body and an unknown media type are 4xx in Chinese', async () => {
      let res = await app.inject({
        method: 'POST',
        url: Q,
        headers: { ...admin, 'content-type': 'application/json' },
        payload: '{"userType": "员工",',
      });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('请求内容不是有效的JSON');
      res = await app.inject({
        method: 'POST',
        url: Q,
        headers: { ...admin, 'content-type': 'application/json' },
        payload: '{"userType":"员工","model":"系统","content":"x","__proto__":{"admin":true}}',
      });
      expect(res.statusCode).toBe(400);
      errorOf(res);
      res = await app.inject({
        method: 'POST',
        url: Q,
        headers: { ...admin, 'content-type': 'application/json' },
        payload: JSON.stringify(question({ content: 'x'.repeat(t.config.bodyLimit + 10) })),
      });
      expect(res.statusCode).toBe(413);
      expect(errorOf(res).message).toBe('请求内容过大');
      res = await app.inject({ method: 'POST', url: Q, headers: { ...admin, 'content-type': 'text/xml' }, payload: '<a/>' });
      expect(res.statusCode).toBe(415);
      expect(errorOf(res).message).toBe('不支持的请求内容类型');
    });

    it('SQL-looking text is stored verbatim and breaks nothing', async () => {
      const evil = 'x\'); DROP TABLE sys_question; -- " % _ \\';
      const res = await post(Q, question({ title: evil.slice(0, 100), content: evil, username: "O'Brien" }));
      expect(res.statusCode).toBe(201);
      const id = res.json<Created>().id;
      const list = await get(`${Q}?blurry=${id}`);
      expect(list.json<Page>().content[0]).toMatchObject({ content: evil, username: "O'Brien" });
      const like = await get(`${ZP}?job=${encodeURIComponent("' OR 1=1 --")}`);
      expect(like.statusCode).toBe(200);
      expect(like.json()).toEqual({ content: [], totalElements: 0 });
      expect((await get(`${Q}?size=1`)).statusCode).toBe(200);
    });
  });

  describe('list', () => {
    const ids: number[] = [];
    beforeAll(async () => {
      // a table of its own for the list tests
      await del(
        ZP,
        (await get(`${ZP}?size=1000`)).json<Page<Created>>().content.map((r) => r.id),
      ).catch(() => undefined);
      const rows = [
        posting({ job: '销售顾问', address: '郑州市金水区', jobNum: 3, deptId: 2, enabled: true }),
        posting({ job: '售后顾问', address: '郑州市二七区', jobNum: 1, deptId: 2, enabled: false }),
        posting({ job: '100%_满意专员', address: '洛阳市', jobNum: 5, deptId: 3, enabled: true }),
        posting({ job: '财务', address: '开封市', jobNum: 2, deptId: 4, enabled: true }),
        posting({ job: 'Sales Manager', address: '郑州市郑东新区', jobNum: 4, deptId: 3, enabled: false }),
      ];
      for (const r of rows) {
        const res = await post(ZP, r);
        expect(res.statusCode).toBe(201);
        ids.push(res.json<Created>().id);
      }
    });

    const jobs = (res: { json<T>(): T }) => res.json<Page<{ job: string }>>().content.map((r) => r.job);

    it('pages 0-based with the default sort id desc and counts all rows', async () => {
      const p0 = await get(`${ZP}?page=0&size=2`);
      expect(p0.statusCode).toBe(200);
      expect(p0.json<Page>().totalElements).toBe(5);
      expect(p0.json<Page<Created>>().content.map((r) => r.id)).toEqual([ids[4], ids[3]]);
      const p2 = await get(`${ZP}?page=2&size=2`);
      expect(p2.json()).toMatchObject({ totalElements: 5 });
      expect(p2.json<Page<Created>>().content.map((r) => r.id)).toEqual([ids[0]]);
      const p9 = await get(`${ZP}?page=9&size=2`);
      expect(p9.json()).toEqual({ content: [], totalElements: 5 });
      // default page size of the spec
      expect((await get(ZP)).json<Page>().content).toHaveLength(5);
    });

    it('sorts by repeated sort parameters', async () => {
      expect(jobs(await get(`${ZP}?sort=jobNum,asc`))).toEqual(['售后顾问', '财务', '销售顾问', 'Sales Manager', '100%_满意专员']);
      const res = await get(`${ZP}?sort=deptId,desc&sort=jobNum,asc`);
      expect(jobs(res)).toEqual(['财务', 'Sales Manager', '100%_满意专员', '售后顾问', '销售顾问']);
    });

    it('filters: eq on integer and boolean, like with literal % and _, between on createTime, blurry', async () => {
      expect(jobs(await get(`${ZP}?deptId=3&sort=id,asc`))).toEqual(['100%_满意专员', 'Sales Manager']);
      expect(jobs(await get(`${ZP}?enabled=false&sort=id,asc`))).toEqual(['售后顾问', 'Sales Manager']);
      expect(jobs(await get(`${ZP}?enabled=true&deptId=2`))).toEqual(['销售顾问']);
      expect(jobs(await get(`${ZP}?job=${encodeURIComponent('顾问')}&sort=id,asc`))).toEqual(['销售顾问', '售后顾问']);
      expect(jobs(await get(`${ZP}?job=${encodeURIComponent('%')}`))).toEqual(['100%_满意专员']);
      expect(jobs(await get(`${ZP}?job=_`))).toEqual(['100%_满意专员']);
      expect(jobs(await get(`${ZP}?job=sales`))).toEqual(['Sales Manager']);
      expect(jobs(await get(`${ZP}?address=${encodeURIComponent('郑州')}&job=${encodeURIComponent('顾问')}&sort=id,asc`))).toEqual([
        '销售顾问',
        '售后顾问',
      ]);

      const today = new Date();
      const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
      // a date-only end covers the whole day
      expect((await get(`${ZP}?createTime=${day}&createTime=${day}`)).json<Page>().totalElements).toBe(5);
      expect((await get(`${ZP}?createTime=2000-01-01&createTime=2000-12-31`)).json<Page>().totalElements).toBe(0);
      expect((await get(`${ZP}?createTime=2000-01-01+00:00:00&createTime=2999-01-01+00:00:00`)).json<Page>().totalElements).toBe(5);
      expect((await get(`${ZP}?createTime=&createTime=2000-01-01`)).json<Page>().totalElements).toBe(0);

      expect(jobs(await get(`${ZP}?blurry=${encodeURIComponent('洛阳')}`))).toEqual(['100%_满意专员']);
      expect(jobs(await get(`${ZP}?blurry=${encodeURIComponent('郑州')}&enabled=false`))).toEqual(['Sales Manager', '售后顾问']);
    });

    it('reads records by id with a repeatable id filter', async () => {
      const all = (await get(`${ZP}?sort=id,asc`)).json<Page<Created>>().content.map((r) => r.id);
      const pick = [all[0], all[2]];
      const res = (await get(`${ZP}?id=${pick[0]}&id=${pick[1]}&sort=id,asc`)).json<Page<Created>>();
      expect(res.content.map((r) => r.id)).toEqual(pick);
      expect(res.totalElements).toBe(2);
      expect((await get(`${ZP}?id=abc`)).statusCode).toBe(400);
    });

    it('blurry over feedback matches id exactly, identity and module by text', async () => {
      const a = (await post(Q, question({ userType: '客户', model: '售后', content: 'blurry-a' }))).json<Question>();
      const b = (await post(Q, question({ userType: '员工', model: '市场', content: 'blurry-b' }))).json<Question>();
      const byId = (await get(`${Q}?blurry=${a.id}`)).json<Page<Question>>();
      expect(byId.content.map((r) => r.id)).toEqual([a.id]);
      const byModule = (await get(`${Q}?blurry=${encodeURIComponent('市场')}`)).json<Page<Question>>();
      expect(byModule.content.map((r) => r.id)).toContain(b.id);
      expect(byModule.content.every((r) => r.model === '市场' || r.userType === '市场')).toBe(true);
      const customers = (await get(`${Q}?userType=${encodeURIComponent('客户')}`)).json<Page<Question>>();
      expect(customers.content.map((r) => r.id)).toContain(a.id);
      expect(customers.content.every((r) => r.userType === '客户')).toBe(true);
      const done = (await get(`${Q}?status=true`)).json<Page>();
      expect(done.totalElements).toBe(0);
    });

    it.each([
      ['sort=password,desc', '不支持的排序字段: password'],
      ['sort=id,sideways', '排序方向只能是asc或desc: sideways'],
      ['sort=id;drop table x,desc', '不支持的排序字段: id;drop table x'],
      ['hacker=1', '不支持的查询参数: hacker'],
      ['money=1', '不支持的查询参数: money'],
      ['page=-1', '页码必须是不小于0的整数'],
      ['page=abc', '页码必须是不小于0的整数'],
      ['page=1.5', '页码必须是不小于0的整数'],
      ['size=0', '每页条数必须是1到99999之间的整数'],
      ['size=100000', '每页条数必须是1到99999之间的整数'],
      ['deptId=abc', '查询条件「所属部门」的值不正确: abc'],
      ['deptId=1&deptId=2', '查询参数「所属部门」只能有一个值'],
      ['enabled=yes', '查询条件「是否启用」的值不正确: yes'],
      ['createTime=2024-01-01', '查询条件「创建时间」需要开始和结束两个值'],
      ['createTime=2024-02-30&createTime=2024-03-01', '查询条件「创建时间」的值不正确: 2024-02-30'],
      ["createTime=2024-01-01'--&createTime=2024-03-01", "查询条件「创建时间」的值不正确: 2024-01-01'--"],
    ])('GET ?%s is 400 %s', async (query, message) => {
      const res = await get(`${ZP}?${query}`);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe(message);
    });
  });

  describe('update and delete', () => {
    it('PUT with the id in the body answers 204 and changes the record; unknown id 404', async () => {
      const created = (await post(Q, question({ username: '李四', mobile: '13900139000' }))).json<Question>();
      const res = await put(Q, { ...created, status: true, remark: '已回访', username: '' });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const after = (await get(`${Q}?blurry=${created.id}`)).json<Page>().content[0];
      expect(after).toMatchObject({
        status: true,
        remark: '已回访',
        username: null,
        mobile: '13900139000',
        createTime: created.createTime,
      });
      const missing = await put(Q, { ...created, id: 987654 });
      expect(missing.statusCode).toBe(404);
      expect(errorOf(missing).message).toBe('数据不存在');
    });

    it('PUT changes only the fields it sends and validates the record they lead to', async () => {
      const created = (await post(Q, question({ title: '只改状态' }))).json<Question>();
      let res = await put(Q, { id: created.id, status: true });
      expect(res.statusCode).toBe(204);
      let after = (await get(`${Q}?blurry=${created.id}`)).json<Page>().content[0];
      expect(after).toMatchObject({
        status: true,
        title: '只改状态',
        userType: created.userType,
        model: created.model,
        content: created.content,
      });
      // a required field sent empty is refused although the stored record has it
      res = await put(Q, { id: created.id, content: '  ' });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('问题描述不能为空');
      res = await put(Q, { id: created.id, userType: null, status: false });
      expect(errorOf(res).message).toBe('身份不能为空');
      // a bad value among the sent fields
      res = await put(Q, { id: created.id, model: '火星' });
      expect(res.statusCode).toBe(400);
      after = (await get(`${Q}?blurry=${created.id}`)).json<Page>().content[0];
      expect(after).toMatchObject({ status: true, content: created.content, model: created.model });
    });

    it('PUT rejects a missing or bad id', async () => {
      const created = (await post(Q, question())).json<Question>();
      let res = await put(Q, question());
      expect(errorOf(res).message).toBe('ID不能为空');
      res = await put(Q, { ...question(), id: 'x' });
      expect(errorOf(res).message).toBe('ID不能为空');
      res = await put(Q, { id: 987654, status: true });
      expect(res.statusCode).toBe(404);
      expect((await get(`${Q}?blurry=${created.id}`)).json<Page>().content[0].status).toBe(false);
    });

    it('DELETE takes a JSON array of ids, in one go', async () => {
      const a = (await post(Q, question({ content: 'del-a' }))).json<Question>();
      const b = (await post(Q, question({ content: 'del-b' }))).json<Question>();
      const c = (await post(Q, question({ content: 'del-c' }))).json<Question>();
      const res = await del(Q, [a.id, b.id]);
      expect(res.statusCode).toBe(200);
      expect((await get(`${Q}?blurry=${a.id}`)).json<Page>().totalElements).toBe(0);
      expect((await get(`${Q}?blurry=${b.id}`)).json<Page>().totalElements).toBe(0);
      expect((await get(`${Q}?blurry=${c.id}`)).json<Page>().totalElements).toBe(1);
    });

    it('DELETE rejects an empty selection and bad ids without deleting anything', async () => {
      const c = (await post(Q, question({ content: 'keep' }))).json<Question>();
      let res = await del(Q, []);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('请至少选择一条数据');
      for (const payload of [[c.id, 'x'], [c.id, -1], [c.id, 1.5], { id: c.id }]) {
        res = await del(Q, payload);
        expect(res.statusCode).toBe(400);
      }
      expect((await get(`${Q}?blurry=${c.id}`)).json<Page>().totalElements).toBe(1);
    });
  });

  describe('access', () => {
    it('every staff route of every schema needs a valid token: 401 without one', async () => {
      // generated from the route table: each route under a generated resource's path but the dealer's and
      // the applicant's own (other tokens) and the public ones PUBLIC_ROUTES of permission-matrix.test.ts
      // names (the open postings, an applicant's registration and resume)
      const PUBLIC = new Set(['POST /api/staffun', 'POST /api/staffun/resume/sendCode', 'POST /api/staffun/resume']);
      const under = (url: string) => resources.some((s) => url === `/${s.path}` || url.startsWith(`/${s.path}/`));
      const routes = routeCatalogue(app).filter(
        (r) =>
          !r.identity &&
          !r.url.includes('*') &&
          !r.url.split('/').includes('public') &&
          !PUBLIC.has(`${r.method} ${r.url}`) &&
          under(r.url),
      );
      expect(routes.length).toBeGreaterThan(resources.length * 5);
      const wrong: string[] = [];
      for (const r of routes) {
        const method = r.method as 'GET';
        const url = r.url.replace(/:[A-Za-z]+/g, '1');
        const payload = method === 'GET' ? undefined : {};
        const res = await app.inject({ method, url, payload });
        if (res.statusCode !== 401) wrong.push(`${r.method} ${r.url} without a token -> ${res.statusCode}`);
        else errorOf(res);
        const dead = await app.inject({ method, url, headers: bearer('not-a-token'), payload });
        if (dead.statusCode !== 401) wrong.push(`${r.method} ${r.url} with a dead token -> ${dead.statusCode}`);
      }
      expect(wrong).toEqual([]);
    }, 60_000);

    it('reading needs the :list key, writes their own keys (403), admin passes', async () => {
      expect((await get(Q, reader)).statusCode).toBe(200);
      // signed in without the key: closed, the list, a record by id and the posting look-up alike
      for (const url of [Q, `${Q}?id=1`, `${ZP}/getZpById?id=1`]) expect((await get(url, nokey)).statusCode, url).toBe(403);
      const before = (await get(`${Q}?size=1`)).json<Page>().totalElements;
      const denied = await post(Q, question(), reader);
      expect(denied.statusCode).toBe(403);
      errorOf(denied);
      expect((await get(`${Q}?size=1`)).json<Page>().totalElements).toBe(before);
      const created = await post(Q, question(), adder);
      expect(created.statusCode).toBe(201);
      const id = created.json<Created>().id;
      expect((await put(Q, { ...created.json<Row>(), status: true }, adder)).statusCode).toBe(403);
      expect((await del(Q, [id], adder)).statusCode).toBe(403);
      expect((await get(`${Q}/download`, adder)).statusCode).toBe(403);
      expect((await app.inject({ method: 'POST', url: `${Q}/import`, headers: adder })).statusCode).toBe(403);
      expect((await post(ZP, posting(), adder)).statusCode).toBe(403);
      expect((await del(Q, [id], admin)).statusCode).toBe(200);
    });

    it('routes exist only for the actions of the spec (staffunZp has no import)', async () => {
      const res = await app.inject({ method: 'POST', url: `${ZP}/import`, headers: admin });
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).message).toBe('接口不存在');
    });
  });

  describe('GET api/staffunZp/getZpById', () => {
    it('answers the posting, 404 when missing, 400 when the id is not a positive integer', async () => {
      const created = (await post(ZP, posting({ job: '按编号查看' }))).json<Created>();
      const res = await get(`${ZP}/getZpById?id=${created.id}`, reader);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(created);
      const missing = await get(`${ZP}/getZpById?id=99999999`, reader);
      expect(missing.statusCode).toBe(404);
      expect(errorOf(missing).message).toBe('数据不存在');
      for (const q of ['id=abc', 'id=0', 'id=-3', '', 'id=1&id=2']) {
        const bad = await get(`${ZP}/getZpById?${q}`, reader);
        expect(bad.statusCode, q).toBe(400);
        expect(errorOf(bad).message).toBe('ID必须是正整数');
      }
    });
  });

  it('a path written with a closing slash, as the spec writes some (DELETE api/staff/), reaches the same route', async () => {
    const created = (await post(`${Q}/`, question({ title: '尾斜杠' }))).json<Question>();
    expect(created.id).toBeGreaterThan(0);
    expect((await get(`${Q}/?blurry=${created.id}`)).json<Page>().totalElements).toBe(1);
    expect((await del(`${Q}/`, [created.id])).statusCode).toBe(200);
    expect((await get(`${Q}?blurry=${created.id}`)).json<Page>().totalElements).toBe(0);
  });

  it('an unknown path is 404 接口不存在', async () => {
    const res = await get('/api/definitely/not/here');
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toBe('接口不存在');
  });
});

describe('error handler', () => {
  it('turns an unexpected failure into 500 服务器内部错误 without internals', async () => {
    const app = Fastify({ logger: false });
    installErrorHandling(app);
    app.get('/boom', () => Promise.reject(new Error('relation "sys_secret" does not exist at SELECT password FROM sys_user')));
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(errorOf(res).message).toBe('服务器内部错误');
    expect(res.body).not.toContain('sys_secret');
    expect(Object.keys(res.json<Row>()).sort()).toEqual(['message', 'status', 'timestamp']);
    await app.close();
  });
});
