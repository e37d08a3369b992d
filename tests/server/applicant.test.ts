/**
 * Public applicant onboarding: registration rules, the applicant token's scope over the
 * education / training / work entries, the rules of each entry, finishing, the public
 * posting reads and the move into the staff roster. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { idCardCheckDigit } from '../../src/shared/validators.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { codeFromOutbox } from './account-helpers.ts';
import { latestOutbox } from '../../src/server/providers/outbox.ts';
import type { Created, ErrorBody, Page, Row } from '../support/answers.ts';

/** An 18-digit ID with its GB 11643 check digit. */
export function idNumber(region: string, birthday: string, seq: string): string {
  const first17 = `${region}${birthday.replace(/-/g, '')}${seq}`;
  return first17 + idCardCheckDigit(first17);
}

const MALE_ID = idNumber('410102', '1995-03-12', '123'); // 3rd sequence digit 3: odd, male
const FEMALE_ID = idNumber('410105', '1998-11-02', '024'); // 2: even, female

/** A new ID number on each call (one record per ID number): a man born 1995-03-12 or a woman born 1998-11-02. */
let cardCount = 0;
export function freshCard(sex: 0 | 1 = 1): string {
  const seq = String(10 + (cardCount++ % 89)).padStart(2, '0');
  return sex === 1 ? idNumber('410102', '1995-03-12', `${seq}5`) : idNumber('410105', '1998-11-02', `${seq}6`);
}

function registration(postingId: number, overrides: Record<string, unknown> = {}) {
  return {
    staffunZpId: postingId,
    ypqd: '招聘网站',
    ypmx: '智联招聘',
    name: '张三',
    mobile: '13800138000',
    sex: 1,
    card: MALE_ID,
    birthday: '1995-03-12',
    hyzk: 0,
    email: 'zhangsan@example.com',
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
    ...overrides,
  };
}

const education = (overrides: Record<string, unknown> = {}) => ({
  xl: 3,
  school: '郑州大学',
  specialty: '市场营销',
  startDate: '2013-09-01',
  endDate: '2017-07-01',
  zmr: '王老师',
  zmrPhone: '13900139000',
  ...overrides,
});
const work = (overrides: Record<string, unknown> = {}) => ({
  company: '郑州某汽车销售服务有限公司',
  status: 1,
  startDate: '2017-08-01',
  endDate: '2020-06-30',
  job: '销售顾问',
  money: '8000元',
  cause: '个人发展',
  zmr: '李经理',
  zmrPhone: '13700137000',
  remark: '负责展厅接待与成交',
  ...overrides,
});
const training = (overrides: Record<string, unknown> = {}) => ({
  address: '郑州培训中心',
  dept: '人事部',
  title: '新车型产品培训',
  startDate: '2018-03-01',
  endDate: '2018-03-01',
  person: '赵讲师',
  pxxz: '内部培训',
  result: '合格',
  type: '产品',
  pxzs: '结业证书',
  ...overrides,
});

describe.each(testApps())('applicant onboarding on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let postingId: number;
  let closedPostingId: number;

  // each call from its own address, so the registration rate limit (tested below) stays out of the way
  let address = 0;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: string | object) =>
    app.inject({
      method,
      url,
      // the socket's address: X-Forwarded-For counts only through a trusted proxy
      remoteAddress: `10.0.${Math.floor(++address / 250)}.${address % 250}`,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });

  async function register(overrides: Record<string, unknown> = {}) {
    const card = (overrides.card as string | undefined) ?? freshCard(1);
    const res = await call('POST', '/api/staffun', {}, registration(postingId, { ...overrides, card }));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<Created<{ token: string }>>();
    return { id: body.id, headers: bearer(body.token), token: body.token, card };
  }

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    const posting = {
      deptId: 1,
      job: '销售顾问',
      money: '6000-9000元/月',
      address: '郑州市金水区',
      jobNum: 3,
      jobZz: '接待到店客户',
      jobYq: '大专以上学历',
      enabled: true,
      remark: '内部备注',
    };
    postingId = (await call('POST', '/api/staffunZp', admin, posting)).json<Created>().id;
    closedPostingId = (await call('POST', '/api/staffunZp', admin, { ...posting, job: '已停招岗位', enabled: false })).json<Created>().id;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('registration', () => {
    it('creates the applicant with status 1 and answers its id and an applicant token', async () => {
      const res = await call('POST', '/api/staffun', {}, registration(postingId, { status: 3, roleId: 1 }));
      expect(res.statusCode).toBe(201);
      const { id, token } = res.json<Created<{ token: string }>>();
      expect(id).toBeGreaterThan(0);
      expect(token).toMatch(/^ap\./);
      const stored = (await call('GET', `/api/staffun?id=${id}`, admin)).json<Page>().content[0];
      expect(stored).toMatchObject({ name: '张三', status: 1, card: MALE_ID, cardCounty: '410102', edu: 3 });
      expect(stored.roleId).toBeNull();
    });

    it('accepts a 15-digit ID and a female ID with the even digit', async () => {
      await register({ card: '410102950312123', birthday: '1995-03-12', sex: 1 });
      await register({ card: FEMALE_ID, birthday: '1998-11-02', sex: 0, name: '李四' });
    });

    it.each([
      [{ card: MALE_ID.slice(0, 17) + (MALE_ID[17] === '1' ? '2' : '1') }, '身份证号码不正确'],
      [{ card: '41010219950312' }, '身份证号码不正确'],
      [{ birthday: '1995-03-13' }, '出生日期与身份证号码不符'],
      [{ sex: 0 }, '性别与身份证号码不符'],
      [{ email: 'not-an-email' }, '输入邮箱格式错误, 请重新输入'],
      [{ email: '' }, '请输入邮箱地址'],
      [{ mobile: '12345678901' }, '请输入正确的11位手机号码'],
      [{ name: '' }, '姓名不能为空'],
      [{ ypqd: undefined }, '应聘渠道不能为空'],
      [{ staffunZpId: undefined }, '应聘岗位不能为空'],
      [{ yjdg: undefined }, '预计到岗日期不能为空'],
      [{ outWork: undefined }, '是否接受外派不能为空'],
      [{ cardCity: '420100' }, '请选择正确的户籍所在省市区'],
      [{ nowCounty: '999999' }, '请选择正确的现居住省市区'],
    ])('refuses %j with its message and writes nothing', async (change, message) => {
      const before = (await call('GET', '/api/staffun?size=1', admin)).json<Page>().totalElements;
      const res = await call('POST', '/api/staffun', {}, registration(postingId, change));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe(message);
      expect((await call('GET', '/api/staffun?size=1', admin)).json<Page>().totalElements).toBe(before);
    });

    it('refuses a posting that is closed or missing', async () => {
      for (const id of [closedPostingId, 999999]) {
        const res = await call('POST', '/api/staffun', {}, registration(id));
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).message).toBe('所选招聘岗位不存在或已停止招聘');
      }
    });

    it('refuses a body that is not an object', async () => {
      const res = await call('POST', '/api/staffun', { 'content-type': 'application/json' }, '[1,2]');
      expect(res.statusCode).toBe(400);
    });
  });

  describe('nobody enumerates applicants without a staff permission', () => {
    it('refuses the list without a token, with an applicant token and with a staff token lacking staffun:list', async () => {
      const me = await register();
      expect((await call('GET', '/api/staffun')).statusCode).toBe(401);
      expect((await call('GET', '/api/staffun', me.headers)).statusCode).toBe(401);
      expect((await call('GET', `/api/staffun?id=${me.id}`, me.headers)).statusCode).toBe(401);
      await createStaff(app, { username: 'clerk', password: 'Clerk@12345', permissions: ['sysQuestion:add'] });
      const clerk = bearer(await loginAs(app, 'clerk', 'Clerk@12345'));
      expect((await call('GET', '/api/staffun', clerk)).statusCode).toBe(403);
      expect((await call('GET', '/api/staffunEducation', clerk)).statusCode).toBe(403);
      expect((await call('GET', '/api/staffun/download', me.headers)).statusCode).toBe(401);
      expect((await call('GET', '/api/staffunEducation/download', me.headers)).statusCode).toBe(401);
    });

    it('staff export applicants and their entries as xlsx with the download keys', async () => {
      const me = await register({ mobile: '13800000009' });
      await call('POST', '/api/staffunWork', me.headers, work());
      for (const path of ['staffun', 'staffunWork']) {
        const res = await call('GET', `/api/${path}/download`, admin);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toContain('spreadsheetml');
        expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
      }
      await createStaff(app, { username: 'exporter', password: 'Exporter@123', permissions: ['staffun:list'] });
      const exporter = bearer(await loginAs(app, 'exporter', 'Exporter@123'));
      expect((await call('GET', '/api/staffun/download', exporter)).statusCode).toBe(403);
    });

    it('lets staff with staffun:list read applicants and their entries', async () => {
      await createStaff(app, { username: 'hr', password: 'Hr@1234567', permissions: ['staffun:list', 'staffunEducation:list'] });
      const hr = bearer(await loginAs(app, 'hr', 'Hr@1234567'));
      const me = await register();
      await call('POST', '/api/staffunEducation', me.headers, education());
      expect((await call('GET', '/api/staffun', hr)).json<Page>().totalElements).toBeGreaterThan(0);
      const entries = (await call('GET', `/api/staffunEducation?staffunId=${me.id}`, hr)).json<Page>();
      expect(entries.totalElements).toBe(1);
      // but may not add entries without staffunEducation:add
      expect((await call('POST', '/api/staffunEducation', hr, { ...education(), staffunId: me.id })).statusCode).toBe(403);
    });
  });

  describe('the applicant token is scoped to its own records', () => {
    let a: { id: number; headers: Record<string, string> };
    let b: { id: number; headers: Record<string, string> };
    let bEducationId: number;

    beforeAll(async () => {
      a = await register({ mobile: '13800000001' });
      b = await register({ mobile: '13800000002', card: freshCard(0), birthday: '1998-11-02', sex: 0, name: '王五' });
      const res = await call('POST', '/api/staffunEducation', b.headers, education());
      expect(res.statusCode, res.body).toBe(201);
      bEducationId = res.json<Created>().id;
    });

    it('creates, lists, updates and deletes its own entries on all three resources', async () => {
      for (const [path, body] of [
        ['staffunEducation', education()],
        ['staffunWork', work()],
        ['staffunPx', training()],
      ] as const) {
        const created = await call('POST', `/api/${path}`, a.headers, body);
        expect(created.statusCode, created.body).toBe(201);
        const record = created.json<Created>();
        expect(record.staffunId).toBe(a.id);
        const listed = (await call('GET', `/api/${path}?staffunId=${a.id}&page=0&size=99999&sort=id,desc`, a.headers)).json<
          Page<Created>
        >();
        expect(listed.content.map((r) => r.id)).toEqual([record.id]);
        // without the filter the list is still only the applicant's own
        expect((await call('GET', `/api/${path}`, a.headers)).json<Page>().content.every((r) => r.staffunId === a.id)).toBe(true);
        const updated = await call('PUT', `/api/${path}`, a.headers, { ...body, id: record.id, startDate: '2010-01-01' });
        expect(updated.statusCode, updated.body).toBe(204);
        const removed = await call('DELETE', `/api/${path}`, a.headers, [record.id]);
        expect(removed.statusCode).toBe(200);
        expect((await call('GET', `/api/${path}?staffunId=${a.id}`, a.headers)).json<Page>().totalElements).toBe(0);
      }
    });

    it("refuses another applicant's records by list filter, by id, by crafted body staffunId and by delete", async () => {
      const list = await call('GET', `/api/staffunEducation?staffunId=${b.id}`, a.headers);
      expect(list.statusCode).toBe(403);
      expect(errorOf(list).message).toBe('无权访问其他应聘人员的信息');
      expect((await call('GET', `/api/staffunEducation?staffunId=${a.id}&staffunId=${b.id}`, a.headers)).statusCode).toBe(403);
      // by id: an id of b's is not there for a (404, as an id that does not exist)
      const byId = await call('GET', `/api/staffunEducation?id=${bEducationId}`, a.headers);
      expect(byId.statusCode).toBe(404);
      expect(errorOf(byId).message).toBe('数据不存在');
      // crafted body
      const crafted = await call('POST', '/api/staffunEducation', a.headers, { ...education(), staffunId: b.id });
      expect(crafted.statusCode).toBe(403);
      // another applicant's record answers as a missing one
      const edit = await call('PUT', '/api/staffunEducation', a.headers, { ...education({ school: '篡改大学' }), id: bEducationId });
      expect(edit.statusCode).toBe(404);
      expect(errorOf(edit).message).toBe('数据不存在');
      const move = await call('PUT', '/api/staffunEducation', b.headers, { ...education(), id: bEducationId, staffunId: a.id });
      expect(move.statusCode).toBe(403);
      const remove = await call('DELETE', '/api/staffunEducation', a.headers, [bEducationId]);
      expect(remove.statusCode).toBe(404);
      // a mixed delete removes nothing
      const mine = (await call('POST', '/api/staffunEducation', a.headers, education())).json<Created>().id;
      expect((await call('DELETE', '/api/staffunEducation', a.headers, [mine, bEducationId])).statusCode).toBe(404);
      expect((await call('GET', `/api/staffunEducation?id=${mine}`, a.headers)).json<Page>().content).toHaveLength(1);
      const still = (await call('GET', `/api/staffunEducation?staffunId=${b.id}`, admin)).json<Page>().content;
      expect(still).toHaveLength(1);
      expect(still[0].school).toBe('郑州大学');
    });

    it('refuses missing, forged and staff-kind tokens', async () => {
      expect((await call('GET', `/api/staffunEducation?staffunId=${a.id}`)).statusCode).toBe(401);
      expect((await call('POST', '/api/staffunEducation', {}, { ...education(), staffunId: a.id })).statusCode).toBe(401);
      const forged = await call('GET', `/api/staffunEducation?staffunId=${a.id}`, bearer(`ap.${'x'.repeat(43)}`));
      expect(forged.statusCode).toBe(401);
      expect(errorOf(forged).message).toBe('登记信息已失效，请重新填写应聘人员信息登记表');
      // a staff token is not an applicant token
      const staffFinish = await call('POST', '/api/staffun/staffJoin', admin, {});
      expect(staffFinish.statusCode).toBe(401);
      expect(errorOf(staffFinish).message).toBe('请先填写应聘人员信息登记表');
      // an applicant token is not a staff token
      expect((await call('POST', '/api/staffjlk/staffJoin', a.headers, { id: a.id })).statusCode).toBe(401);
      expect((await call('GET', '/api/staffunZp', a.headers)).statusCode).toBe(401);
      expect((await call('GET', '/api/info', a.headers)).statusCode).toBe(401);
    });
  });

  describe('entry rules on the server', () => {
    let me: { id: number; headers: Record<string, string> };
    beforeAll(async () => {
      me = await register({ mobile: '13600136000' });
    });
    const refused = async (path: string, body: object, message: string) => {
      const res = await call('POST', `/api/${path}`, me.headers, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).message).toBe(message);
    };

    it('education: required messages, special characters, referee phone, date order', async () => {
      await refused('staffunEducation', education({ xl: undefined }), '学历信息不能为空');
      await refused('staffunEducation', education({ school: '' }), '毕业学院不能为空');
      await refused('staffunEducation', education({ startDate: undefined }), '开始日期不能为空');
      await refused('staffunEducation', education({ endDate: undefined }), '毕业日期不能为空');
      await refused('staffunEducation', education({ specialty: '' }), '所学专业不能为空');
      await refused('staffunEducation', education({ zmr: '' }), '证明人不能为空');
      await refused('staffunEducation', education({ zmrPhone: '' }), '证明人电话不能为空');
      await refused('staffunEducation', education({ zmrPhone: '1390013900' }), '请输入正确的11位手机号码');
      await refused('staffunEducation', education({ xl: 6 }), '学历信息不能为空');
      for (const bad of ['郑州<大学', '郑州 大学', '郑州大学！', "O'Neil", '郑州“大学”', '郑州，大学', 'a/b', '【郑大】']) {
        await refused('staffunEducation', education({ school: bad }), '请认真填写,不支持特殊字符');
      }
      await refused('staffunEducation', education({ zmr: '王#' }), '请认真填写,不支持特殊字符');
      const combined = '信息保存失败，毕业日期必须大于开始日期或证明人电话不能是自己本人';
      await refused('staffunEducation', education({ zmrPhone: '13600136000' }), combined);
      await refused('staffunEducation', education({ startDate: '2017-07-01', endDate: '2013-09-01' }), combined);
      await refused('staffunEducation', education({ startDate: '2017-07-01', endDate: '2017-07-01' }), combined);
      // a PUT that moves the start after the stored end is refused too
      const id = (await call('POST', '/api/staffunEducation', me.headers, education())).json<Created>().id;
      const res = await call('PUT', '/api/staffunEducation', me.headers, { ...education(), id, startDate: '2018-01-01' });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe(combined);
      // allowed characters: ( ) . - and letters
      expect((await call('POST', '/api/staffunEducation', me.headers, education({ school: 'HenanUniversity(郑州)-1.0' }))).statusCode).toBe(
        201,
      );
    });

    it('work: required messages, special characters, referee phone, date order', async () => {
      await refused('staffunWork', work({ company: '' }), '公司名称不能为空');
      await refused('staffunWork', work({ startDate: undefined }), '开始日期不能为空');
      await refused('staffunWork', work({ endDate: undefined }), '结束日期不能为空');
      await refused('staffunWork', work({ job: '' }), '职务不能为空');
      await refused('staffunWork', work({ money: '' }), '薪资部门不能为空');
      await refused('staffunWork', work({ cause: '' }), '离职原因不能为空');
      await refused('staffunWork', work({ zmr: '' }), '证明人不能为空');
      await refused('staffunWork', work({ zmrPhone: '' }), '证明人电话不能为空');
      await refused('staffunWork', work({ zmrPhone: 'abc' }), '请输入正确的11位手机号码');
      await refused('staffunWork', work({ remark: '' }), '工作经历不能为空');
      for (const field of ['company', 'job', 'money', 'cause', 'zmr', 'remark']) {
        await refused('staffunWork', work({ [field]: '有&符号' }), '请认真填写,不支持特殊字符');
      }
      await refused('staffunWork', work({ zmrPhone: '13600136000' }), '信息保存失败,证明人电话不能是自己本人');
      await refused('staffunWork', work({ startDate: '2021-01-01', endDate: '2020-01-01' }), '信息保存失败,结束日期必须大于开始日期');
    });

    it('training: every field but the remark is required', async () => {
      const messages: Record<string, string> = {
        address: '培训地址不能为空',
        dept: '培训部门不能为空',
        title: '培训标题不能为空',
        startDate: '开始日期不能为空',
        endDate: '结束时间不能为空',
        person: '培训人不能为空',
        pxxz: '培训性质不能为空',
        result: '培训结果不能为空',
        type: '培训类型不能为空',
        pxzs: '培训证书不能为空',
      };
      for (const [field, message] of Object.entries(messages)) await refused('staffunPx', training({ [field]: undefined }), message);
      expect((await call('POST', '/api/staffunPx', me.headers, training({ remark: undefined }))).statusCode).toBe(201);
      await refused('staffunPx', training({ startDate: '2018-03-02', endDate: '2018-03-01' }), '信息保存失败,结束日期必须大于开始日期');
    });

    it('staff edits of an applicant and of the roster check the ID number too', async () => {
      const me = await register({ mobile: '13600136001' });
      const stored = (await call('GET', `/api/staffun?id=${me.id}`, admin)).json<Page>().content[0];
      const badCard = MALE_ID.slice(0, 17) + (MALE_ID[17] === '1' ? '2' : '1');
      const res = await call('PUT', '/api/staffun', admin, { ...stored, card: badCard });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('身份证号码不正确');
      expect((await call('PUT', '/api/staffun', admin, { ...stored, nowCounty: '420102' })).statusCode).toBe(400);
      expect((await call('PUT', '/api/staffun', admin, { ...stored, remark: '已电话沟通' })).statusCode).toBe(204);
      const roster = await call('POST', '/api/staff', admin, {
        name: '钱七',
        mobile: '13300133000',
        sex: 1,
        orgId: 1,
        deptId: 1,
        job: '库管',
        entryDate: '2026-01-05',
        status: 1,
        card: badCard,
      });
      expect(roster.statusCode).toBe(400);
      expect(errorOf(roster).message).toBe('身份证号码不正确');
    });

    it('an applicant may keep at most 30 entries of one kind', async () => {
      const flood = await register({ mobile: '13600136009' });
      for (let i = 0; i < 30; i++) {
        const res = await call('POST', '/api/staffunPx', flood.headers, training({ title: `培训${i}` }));
        expect(res.statusCode, res.body).toBe(201);
      }
      const res = await call('POST', '/api/staffunPx', flood.headers, training({ title: '培训31' }));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('每类信息最多填写30条');
      // changing an existing one is still fine
      const some = (await call('GET', `/api/staffunPx?staffunId=${flood.id}&size=1`, flood.headers)).json<Page>().content[0];
      expect((await call('PUT', '/api/staffunPx', flood.headers, { ...training({ title: '改名' }), id: some.id })).statusCode).toBe(204);
    });

    it('staff writes to an applicant that does not exist are refused', async () => {
      const res = await call('POST', '/api/staffunWork', admin, { ...work(), staffunId: 999999 });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('应聘人员不存在');
    });
  });

  describe('finishing and joining the roster', () => {
    it('确认填写完毕 needs an education entry, marks 已提交 and ends the token', async () => {
      const me = await register({ mobile: '13500135000' });
      const early = await call('POST', '/api/staffun/staffJoin', me.headers, { id: me.id });
      expect(early.statusCode).toBe(400);
      expect(errorOf(early).message).toBe('请至少填写一条教育信息');
      await call('POST', '/api/staffunEducation', me.headers, education());
      const other = await register({ mobile: '13500135001' });
      expect((await call('POST', '/api/staffun/staffJoin', me.headers, { id: other.id })).statusCode).toBe(403);
      const done = await call('POST', '/api/staffun/staffJoin', me.headers, { id: me.id });
      expect(done.statusCode, done.body).toBe(200);
      const stored = (await call('GET', `/api/staffun?id=${me.id}`, admin)).json<Page>().content[0];
      expect(stored.status).toBe(2);
      expect((await call('GET', `/api/staffunEducation?staffunId=${me.id}`, me.headers)).statusCode).toBe(401);
      expect((await call('POST', '/api/staffunEducation', me.headers, education())).statusCode).toBe(401);
    });

    it('staffjlk/staffJoin copies the applicant into the roster once, in one transaction', async () => {
      const me = await register({ mobile: '13400134000', name: '赵六' });
      const res = await call('POST', '/api/staffjlk/staffJoin', admin, { id: me.id, entryDate: '2026-12-01' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        name: '赵六',
        mobile: '13400134000',
        sex: 1,
        card: me.card,
        birthday: '1995-03-12',
        email: 'zhangsan@example.com',
        edu: 3,
        orgId: 1,
        deptId: 1,
        job: '销售顾问',
        entryDate: '2026-12-01',
        status: 1,
        staffunId: me.id,
        address: '河南省/郑州市/金水区 金水区花园路2号',
      });
      expect((await call('GET', `/api/staffun?id=${me.id}`, admin)).json<Page>().content[0].status).toBe(3);
      const again = await call('POST', '/api/staffjlk/staffJoin', admin, { id: me.id });
      expect(again.statusCode).toBe(400);
      expect(errorOf(again).message).toBe('该应聘人员已入职');
      expect((await call('GET', `/api/staff?staffunId=${me.id}`, admin)).json<Page>().totalElements).toBe(1);
      // a bad override changes nothing
      const other = await register({ mobile: '13400134001' });
      const bad = await call('POST', '/api/staffjlk/staffJoin', admin, { id: other.id, entryDate: '2026-13-45' });
      expect(bad.statusCode).toBe(400);
      expect((await call('GET', `/api/staffun?id=${other.id}`, admin)).json<Page>().content[0].status).toBe(1);
      expect((await call('POST', '/api/staffjlk/staffJoin', admin, { id: 999999 })).statusCode).toBe(404);
      expect((await call('POST', '/api/staffjlk/staffJoin', admin, { id: 'x' })).statusCode).toBe(400);
    });

    it('staffjlk/staffJoin needs staff:add', async () => {
      await createStaff(app, { username: 'viewer', password: 'Viewer@1234', permissions: ['staffun:list'] });
      const viewer = bearer(await loginAs(app, 'viewer', 'Viewer@1234'));
      const me = await register({ mobile: '13400134002' });
      expect((await call('POST', '/api/staffjlk/staffJoin', viewer, { id: me.id })).statusCode).toBe(403);
    });
  });

  describe('coming back: resumed with ID number + mobile + SMS code; nothing says whether an ID number applied', () => {
    const count = async (card: string) =>
      Number(
        (
          await app.database.db
            .selectFrom('staffun')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('card', '=', card)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('a registration answers alike whether or not its ID number applied before: each is a new application', async () => {
      const me = await register({ mobile: '13300133000' });
      const again = await call(
        'POST',
        '/api/staffun',
        {},
        registration(postingId, { card: me.card, mobile: '13300133000', name: '张三再来' }),
      );
      const fresh = await call('POST', '/api/staffun', {}, registration(postingId, { card: freshCard(1), mobile: '13300133100' }));
      expect([again.statusCode, fresh.statusCode]).toEqual([201, 201]);
      const shape = (res: typeof again) => Object.keys(res.json<Record<string, unknown>>()).sort();
      expect(shape(again)).toEqual(shape(fresh));
      expect(again.json<{ id: number }>().id).not.toBe(me.id);
      // lower-case x and spaces name the same ID number, and register as well
      const spaced = await call('POST', '/api/staffun', {}, registration(postingId, { card: ` ${me.card.toLowerCase()} ` }));
      expect(spaced.statusCode).toBe(201);
      expect(await count(me.card)).toBe(3);
    });

    it('resuming finds the application of the ID number and mobile: another mobile under the same ID number does not stand in the way', async () => {
      const me = await register({ mobile: '13300133101' });
      // someone else registers the same ID number with another mobile, later
      const other = await call('POST', '/api/staffun', {}, registration(postingId, { card: me.card, mobile: '13300133102' }));
      expect(other.statusCode).toBe(201);
      expect((await call('POST', '/api/staffun/resume/sendCode', {}, { card: me.card, mobile: '13300133101' })).statusCode).toBe(200);
      const code = await codeFromOutbox(app, '13300133101');
      const ok = await call('POST', '/api/staffun/resume', {}, { card: me.card, mobile: '13300133101', code });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ id: me.id });
    });

    it('sendCode answers and limits alike for a pair on file and one that is not', async () => {
      const me = await register({ mobile: '13300133103' });
      const pairs = [
        { card: me.card, mobile: '13300133103' }, // on file
        { card: me.card, mobile: '13300133104' }, // the ID number with a mobile not on file
        { card: freshCard(0), mobile: '13300133105' }, // neither
      ];
      const first = await Promise.all(pairs.map((p) => call('POST', '/api/staffun/resume/sendCode', {}, p)));
      expect(first.map((r) => [r.statusCode, r.body])).toEqual(pairs.map(() => [200, first[0].body]));
      // the second ask within the minute: the same 429 for each
      const second = await Promise.all(pairs.map((p) => call('POST', '/api/staffun/resume/sendCode', {}, p)));
      expect(second.map((r) => r.statusCode)).toEqual([429, 429, 429]);
      expect(new Set(second.map((r) => errorOf(r).message.replace(/\d+/, 'N'))).size).toBe(1);
      // only the registered mobile got an SMS
      await app.verificationCodes.settled();
      expect(await latestOutbox(app.database.db, '13300133104')).toBeFalsy();
      await app.verificationCodes.settled();
      expect(await latestOutbox(app.database.db, '13300133105')).toBeFalsy();
      // and a held code opens nothing, whatever is typed
      for (const code of ['000000', '123456']) {
        const res = await call('POST', '/api/staffun/resume', {}, { card: me.card, mobile: '13300133104', code });
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).message).toBe('验证码错误');
      }
    });

    it('the SMS code goes only to the registered mobile; the right code gives a new token for the same record', async () => {
      const me = await register({ mobile: '13300133002' });
      expect((await call('POST', '/api/staffunEducation', me.headers, education())).statusCode).toBe(201);
      // a mobile that is not the registered one: the same answer, and no SMS
      const wrong = await call('POST', '/api/staffun/resume/sendCode', {}, { card: me.card, mobile: '13300133999' });
      expect(wrong.statusCode).toBe(200);
      expect(wrong.json<ErrorBody>().message).toBe('发送成功，验证码有效期5分钟');
      await app.verificationCodes.settled();
      expect(await latestOutbox(app.database.db, '13300133999')).toBeFalsy();
      expect((await call('POST', '/api/staffun/resume/sendCode', {}, { card: '123', mobile: '13300133002' })).statusCode).toBe(400);
      expect((await call('POST', '/api/staffun/resume/sendCode', {}, { card: me.card, mobile: '123' })).statusCode).toBe(400);

      const sent = await call('POST', '/api/staffun/resume/sendCode', {}, { card: me.card.toLowerCase(), mobile: '13300133002' });
      expect(sent.statusCode, sent.body).toBe(200);
      // once a minute per number
      expect((await call('POST', '/api/staffun/resume/sendCode', {}, { card: me.card, mobile: '13300133002' })).statusCode).toBe(429);
      const code = await codeFromOutbox(app, '13300133002');
      const bad = await call(
        'POST',
        '/api/staffun/resume',
        {},
        { card: me.card, mobile: '13300133002', code: code === '000000' ? '111111' : '000000' },
      );
      expect(bad.statusCode).toBe(400);
      expect(errorOf(bad).message).toBe('验证码错误');
      const ok = await call('POST', '/api/staffun/resume', {}, { card: me.card, mobile: '13300133002', code });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ id: me.id, mobile: '13300133002' });
      const token = bearer(ok.json<{ token: string }>().token);
      // the new token sees what was entered before, and continues
      expect((await call('GET', `/api/staffunEducation?staffunId=${me.id}`, token)).json<Page>().totalElements).toBe(1);
      expect((await call('POST', '/api/staffunWork', token, work())).statusCode).toBe(201);
      // a code is used once
      expect((await call('POST', '/api/staffun/resume', {}, { card: me.card, mobile: '13300133002', code })).statusCode).toBe(400);
      expect(await count(me.card)).toBe(1);
    });

    it('a submitted application cannot be resumed nor registered again', async () => {
      const me = await register({ mobile: '13300133003' });
      await call('POST', '/api/staffunEducation', me.headers, education());
      expect((await call('POST', '/api/staffun/staffJoin', me.headers, { id: me.id })).statusCode).toBe(200);
      expect((await call('POST', '/api/staffun/resume/sendCode', {}, { card: me.card, mobile: '13300133003' })).statusCode).toBe(200);
      const code = await codeFromOutbox(app, '13300133003');
      const res = await call('POST', '/api/staffun/resume', {}, { card: me.card, mobile: '13300133003', code });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('您的应聘登记已提交，不能再修改');
      expect(res.json()).not.toHaveProperty('token');
      // registering again is a new application, the submitted one stays as it is
      expect((await call('POST', '/api/staffun', {}, registration(postingId, { card: me.card, mobile: '13300133003' }))).statusCode).toBe(
        201,
      );
      expect(await count(me.card)).toBe(2);
    });
  });

  describe('public postings', () => {
    it('lists only enabled postings with their public fields', async () => {
      const res = await call('GET', '/api/staffunZp/public');
      expect(res.statusCode).toBe(200);
      const { content } = res.json<Page<Created>>();
      expect(content.map((p) => p.id)).toContain(postingId);
      expect(content.map((p) => p.id)).not.toContain(closedPostingId);
      expect(Object.keys(content[0]).sort()).toEqual(['address', 'id', 'job', 'jobNum', 'jobYq', 'jobZz', 'money']);
    });

    it('reads one enabled posting by id and refuses closed, missing and bad ids', async () => {
      const one = await call('GET', `/api/staffunZp/public/getZpById?id=${postingId}`);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ id: postingId, job: '销售顾问' });
      expect(one.json<Row>().remark).toBeUndefined();
      expect((await call('GET', `/api/staffunZp/public/getZpById?id=${closedPostingId}`)).statusCode).toBe(404);
      expect((await call('GET', '/api/staffunZp/public/getZpById?id=abc')).statusCode).toBe(400);
      expect((await call('GET', '/api/staffunZp/public/getZpById')).statusCode).toBe(400);
    });
  });
});

describe.each(testApps())('public applicant endpoints are rate-limited on %s', (_name, start) => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });
  it('answers 429 after 20 registrations within 10 minutes from one address', async () => {
    t = await start();
    let last = 0;
    for (let i = 0; i < 21; i++) {
      last = (await t.app.inject({ method: 'POST', url: '/api/staffun', payload: {} })).statusCode;
    }
    expect(last).toBe(429);
  });
});
