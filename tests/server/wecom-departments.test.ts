/**
 * 部门管理 and WeCom contacts, and WeCom approvals of car-use demands, against a fake WeCom
 * server: a real HTTP server speaking WeCom's documented requests and answers
 * (cgi-bin/gettoken, department/list|create|update|delete, user/list, oa/getapprovaldetail),
 * reached through WECOM_API_BASE. A refusal of WeCom writes nothing locally.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { nowText } from '../../src/server/db/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import { addCustomer, addMember, createCompany, dealerToken, submitDemand } from './dealer-helpers.ts';
import type { Created, Row } from '../support/answers.ts';

/** a member of the fake WeCom's contacts */
interface WecomUser {
  userid: string;
  name: string;
  mobile?: string;
  department: number[];
}

/** the answer of 同步企业微信部门 (syncQwDept): department names by what the pull did */
interface DeptSync {
  linked: string[];
  created: string[];
  renamed: string[];
  moved: string[];
  unlinked: string[];
  skipped: number;
}

interface FakeWecom {
  url: string;
  server: Server;
  calls: Array<{ path: string; body: Row }>;
  departments: Map<number, Row>;
  users: WecomUser[];
  approvals: Map<string, Row>;
  nextId: number;
}

const CORP = 'ww-dept';
const CONTACT_SECRET = 'contact-secret';
const APP_SECRET = 'app-secret';

/** WeCom as its API documentation describes it: one corp, two secrets, contacts kept in memory. */
async function fakeWecom(): Promise<FakeWecom> {
  const fake: FakeWecom = {
    url: '',
    server: undefined as unknown as Server,
    calls: [],
    departments: new Map(),
    users: [],
    approvals: new Map(),
    nextId: 100,
  };
  fake.server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json; charset=UTF-8');
      const send = (v: Row) => res.end(JSON.stringify({ errcode: 0, errmsg: 'ok', ...v }));
      const fail = (errcode: number, errmsg: string) => res.end(JSON.stringify({ errcode, errmsg }));
      if (u.pathname === '/cgi-bin/gettoken') {
        if (u.searchParams.get('corpid') !== CORP) return fail(40013, 'invalid corpid');
        const secret = u.searchParams.get('corpsecret');
        if (secret === CONTACT_SECRET) return send({ access_token: 'CONTACTS', expires_in: 7200 });
        if (secret === APP_SECRET) return send({ access_token: 'APP', expires_in: 7200 });
        return fail(40001, 'invalid credential');
      }
      const token = u.searchParams.get('access_token');
      const approvalCall = u.pathname === '/cgi-bin/oa/getapprovaldetail';
      if (token !== (approvalCall ? 'APP' : 'CONTACTS')) return fail(40014, 'invalid access_token');
      let body: Row;
      try {
        body = raw ? (JSON.parse(raw) as Row) : Object.fromEntries(u.searchParams);
      } catch {
        return fail(47001, 'data format error');
      }
      fake.calls.push({ path: u.pathname, body });
      switch (u.pathname) {
        case '/cgi-bin/department/list':
          return send({ department: [...fake.departments.values()] });
        case '/cgi-bin/department/create': {
          if (!fake.departments.has(Number(body.parentid))) return fail(60004, 'parent department not found');
          if (body.name === '拒绝') return fail(60008, 'department existed');
          const id = fake.nextId++;
          fake.departments.set(id, {
            id,
            name: body.name,
            parentid: Number(body.parentid),
            order: Number(body.order ?? 0),
            department_leader: [],
          });
          return send({ id });
        }
        case '/cgi-bin/department/update': {
          const d = fake.departments.get(Number(body.id));
          if (!d) return fail(60003, 'department not found');
          if (body.order === 999_000) return fail(60011, 'no privilege to access/modify contact/party/agent');
          Object.assign(d, body.name === undefined ? {} : { name: body.name }, body.order === undefined ? {} : { order: body.order });
          return send({});
        }
        case '/cgi-bin/department/delete': {
          const id = Number(body.id);
          if (!fake.departments.has(id)) return fail(60003, 'department not found');
          if ([...fake.departments.values()].some((d) => d.parentid === id)) return fail(60006, 'department contains sub-departments');
          if (fake.users.some((x) => x.department.includes(id))) return fail(60005, 'department contains users');
          fake.departments.delete(id);
          return send({});
        }
        case '/cgi-bin/user/list': {
          const id = Number(body.department_id);
          if (!fake.departments.has(id)) return fail(60003, 'department not found');
          return send({ userlist: fake.users.filter((x) => x.department.includes(id)) });
        }
        case '/cgi-bin/oa/getapprovaldetail': {
          const info = fake.approvals.get(String(body.sp_no));
          if (!info) return fail(301025, 'sp_no not exist');
          return send({ info });
        }
      }
      res.statusCode = 404;
      fail(404, 'not found');
    });
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  return fake;
}

/** An approval as getapprovaldetail answers it, with a text control 业务单号 when given. */
function approval(spNo: string, spStatus: number, bizNo?: string, speech = ''): Row {
  return {
    sp_no: spNo,
    sp_name: '代步车用车审批',
    sp_status: spStatus,
    template_id: 'C4RbNH7A',
    apply_time: 1700000000,
    applyer: { userid: 'zhangsan', partyid: '2' },
    sp_record: [
      {
        sp_status: spStatus,
        approverattr: 1,
        details: [{ approver: { userid: 'lisi' }, speech, sp_status: spStatus, sptime: 1700000100, media_id: [] }],
      },
    ],
    notifyer: [],
    apply_data: {
      contents:
        bizNo === undefined
          ? []
          : [{ control: 'Text', id: 'Text-1', title: [{ text: '业务单号', lang: 'zh_CN' }], value: { text: bizNo } }],
    },
    comments: [],
  };
}

describe.each(testApps())('WeCom departments and approvals on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let wecom: FakeWecom;
  let admin: Record<string, string>;
  let syncer: Record<string, string>;
  let plain: Record<string, string>;
  let rootId: number;

  const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
    app.inject({
      method: method as 'PUT',
      url,
      headers: { ...headers, ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const depts = async () =>
    (await app.database.db.selectFrom('sys_dept').select(['id', 'pid', 'name', 'sort', 'wecom_dept_id']).orderBy('id').execute()).map(
      (d) => ({
        id: Number(d.id),
        pid: d.pid === null ? null : Number(d.pid),
        name: String(d.name),
        sort: Number(d.sort),
        wecomId: d.wecom_dept_id === null ? null : Number(d.wecom_dept_id),
      }),
    );
  const byName = async (name: string) => (await depts()).find((d) => d.name === name)!;

  beforeAll(async () => {
    wecom = await fakeWecom();
    t = await start({
      wecomCorpId: CORP,
      wecomAgentId: '1000002',
      wecomSecret: APP_SECRET,
      wecomContactSecret: CONTACT_SECRET,
      wecomApiBase: wecom.url,
    });
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    rootId = Number(
      (await app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirstOrThrow()).id,
    );
    await createStaff(app, { username: 'syncer', password: 'Syncer@2024', permissions: ['dept:qywx', 'dept:list'], dataScope: '全部' });
    syncer = bearer(await loginAs(app, 'syncer', 'Syncer@2024'));
    await createStaff(app, { username: 'plain', password: 'Plain@2024', permissions: ['dept:list', 'dept:edit'] });
    plain = bearer(await loginAs(app, 'plain', 'Plain@2024'));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => wecom?.server.close(r));
  });
  beforeEach(() => {
    wecom.calls.length = 0;
  });

  it('pulls WeCom departments: links the root and same-named ones, creates the rest, then renames and moves', async () => {
    const now = nowText();
    const sales = Number(
      (
        await app.database.db
          .insertInto('sys_dept')
          .values({ pid: rootId, name: '销售部', sort: 5, enabled: 1, create_time: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    wecom.departments.set(1, { id: 1, name: '某某汽车集团', parentid: 0, order: 100000000 });
    wecom.departments.set(2, { id: 2, name: '销售部', parentid: 1, order: 200 });
    wecom.departments.set(3, { id: 3, name: '售后服务部', parentid: 1, order: 300 });
    wecom.departments.set(4, { id: 4, name: '展厅一组', parentid: 2, order: 10 });
    wecom.departments.set(77, { id: 77, name: '孤儿部门', parentid: 999, order: 1 });

    const res = await call('GET', '/api/dept/syncQwDept', syncer);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json<DeptSync>();
    expect(r.linked.sort()).toEqual(['某某汽车集团', '销售部'].sort());
    expect(r.created.sort()).toEqual(['售后服务部', '展厅一组'].sort());
    expect(r.skipped).toBe(1);
    let all = await depts();
    expect(all.find((d) => d.id === rootId)!.wecomId).toBe(1);
    // WeCom's root is the enterprise: the top company keeps its own name
    expect(all.find((d) => d.id === rootId)!.name).not.toBe('某某汽车集团');
    expect(r.renamed).toEqual([]);
    expect(all.find((d) => d.id === sales)!.wecomId).toBe(2);
    const after = await byName('售后服务部');
    expect(after).toMatchObject({ pid: rootId, wecomId: 3, sort: 1 }); // WeCom's larger order comes first
    expect(await byName('展厅一组')).toMatchObject({ pid: sales, wecomId: 4 });
    expect(all.some((d) => d.name === '孤儿部门')).toBe(false);

    // renamed and moved in WeCom; a second pull follows, and is idempotent after that
    wecom.departments.get(3)!.name = '售后部';
    wecom.departments.get(4)!.parentid = 3;
    const again = (await call('GET', '/api/dept/syncQwDept', syncer)).json<DeptSync>();
    expect(again.renamed).toEqual(['售后服务部 → 售后部']);
    expect(again.moved).toEqual(['展厅一组']);
    expect(again.created).toEqual([]);
    all = await depts();
    expect(all.find((d) => d.wecomId === 4)!.pid).toBe(after.id);
    const third = (await call('GET', '/api/dept/syncQwDept', syncer)).json<DeptSync>();
    expect([third.created, third.renamed, third.moved, third.linked]).toEqual([[], [], [], []]);
    // the tree answers the link for the screen
    const tree = (await call('GET', '/api/dept/lazy?pid=0', admin)).json<Row[]>();
    expect(tree.find((n) => n.id === rootId)?.wecomDeptId).toBe(1);
  });

  it('clears the link of a department WeCom no longer has, and keeps the department', async () => {
    wecom.departments.set(5, { id: 5, name: '临时项目组', parentid: 1, order: 1 });
    await call('GET', '/api/dept/syncQwDept', syncer);
    expect((await byName('临时项目组')).wecomId).toBe(5);
    wecom.departments.delete(5);
    const r = (await call('GET', '/api/dept/syncQwDept', syncer)).json<DeptSync>();
    expect(r.unlinked).toEqual(['临时项目组']);
    expect((await byName('临时项目组')).wecomId).toBeNull();
  });

  it('creates a department in WeCom under its parent and keeps its id; deletes it there and clears it', async () => {
    const now = nowText();
    const sales = await byName('销售部');
    const id = Number(
      (
        await app.database.db
          .insertInto('sys_dept')
          .values({ pid: sales.id, name: '网销组', sort: 3, enabled: 1, create_time: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const res = await call('PUT', '/api/dept/addQw', syncer, { id });
    expect(res.statusCode, res.body).toBe(200);
    const wecomId = res.json<{ wecomDeptId: number }>().wecomDeptId;
    expect(wecom.departments.get(wecomId)).toMatchObject({ name: '网销组', parentid: 2, order: 1_000_000 - 3 });
    expect((await byName('网销组')).wecomId).toBe(wecomId);
    expect(errorOf(await call('PUT', '/api/dept/addQw', syncer, { id })).message).toMatch(/^该部门已同步到企业微信/);

    // a child of an unsynced parent, and a name WeCom refuses: nothing stored
    const loose = Number(
      (
        await app.database.db
          .insertInto('sys_dept')
          .values({ pid: id, name: '拒绝', sort: 1, enabled: 1, create_time: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const orphanParent = Number(
      (
        await app.database.db
          .insertInto('sys_dept')
          .values({ pid: rootId, name: '未同步部门', sort: 1, enabled: 1, create_time: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const orphan = Number(
      (
        await app.database.db
          .insertInto('sys_dept')
          .values({ pid: orphanParent, name: '下级', sort: 1, enabled: 1, create_time: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    expect(errorOf(await call('PUT', '/api/dept/addQw', syncer, { id: orphan })).message).toBe('请先将上级部门同步到企业微信');
    const refused = await call('PUT', '/api/dept/addQw', syncer, { id: loose });
    expect(refused.statusCode).toBe(502);
    expect(errorOf(refused).message).toBe('企业微信返回错误：department existed');
    expect((await byName('拒绝')).wecomId).toBeNull();

    // WeCom refuses to delete a department with members; then it goes
    wecom.users.push({ userid: 'wx-temp', name: '临时', department: [wecomId] });
    const busy = await call('DELETE', `/api/dept/delQw?id=${id}`, syncer);
    expect(busy.statusCode).toBe(502);
    expect(errorOf(busy).message).toBe('企业微信返回错误：department contains users');
    expect((await byName('网销组')).wecomId).toBe(wecomId);
    wecom.users.pop();
    const del = await call('DELETE', '/api/dept/delQw', syncer, { id });
    expect(del.statusCode, del.body).toBe(200);
    expect(wecom.departments.has(wecomId)).toBe(false);
    expect((await byName('网销组')).wecomId).toBeNull();
    expect(errorOf(await call('DELETE', '/api/dept/delQw', syncer, [id])).message).toBe('该部门尚未同步到企业微信');
    expect(errorOf(await call('DELETE', `/api/dept/delQw?id=${rootId}`, syncer)).message).toBe('不能删除企业微信的根部门');
  });

  it('saves the order of siblings in WeCom and in the tree; a refusal keeps the tree', async () => {
    const sales = await byName('销售部');
    const service = await byName('售后部');
    const res = await call('PUT', '/api/dept/updateOrder', syncer, [
      { id: service.id, sort: 1 },
      { id: sales.id, sort: 2 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ saved: 2, pushed: 2 });
    expect(wecom.departments.get(3)!.order).toBe(999_999);
    expect(wecom.departments.get(2)!.order).toBe(999_998);
    expect((await byName('售后部')).sort).toBe(1);
    expect((await byName('销售部')).sort).toBe(2);
    // 1000000 − 1000 = 999000: the fake refuses that order
    const refused = await call('PUT', '/api/dept/updateOrder', syncer, { depts: [{ id: sales.id, sort: 1000 }] });
    expect(refused.statusCode).toBe(502);
    expect((await byName('销售部')).sort).toBe(2);
    expect(
      errorOf(
        await call('PUT', '/api/dept/updateOrder', syncer, [
          { id: sales.id, sort: 1 },
          { id: rootId, sort: 1 },
        ]),
      ).message,
    ).toBe('只能调整同一上级部门下的部门顺序');
    expect(errorOf(await call('PUT', '/api/dept/updateOrder', syncer, [{ id: sales.id, sort: -1 }])).message).toBe(
      '排序必须在0到999999之间',
    );
  });

  it('binds WeCom members of a department to roster entries by mobile or by name, and lists the rest', async () => {
    const sales = await byName('销售部');
    const entry = async (name: string, mobile: string) => {
      const res = await call('POST', '/api/staff', admin, {
        name,
        mobile,
        sex: 1,
        job: '销售顾问',
        entryDate: '2024-03-01',
        status: 1,
        orgId: rootId,
        deptId: sales.id,
      });
      expect(res.statusCode, res.body).toBe(201);
      return Number(res.json<Created>().id);
    };
    const wang = await entry('王强', '13900000001');
    const li = await entry('李娜', '13900000002');
    await entry('赵敏', '13900000003');
    wecom.users.push(
      { userid: 'wangqiang', name: '王强', mobile: '13900000001', department: [2] },
      { userid: 'lina', name: '李娜', department: [2] },
      { userid: 'stranger', name: '陌生人', department: [2] },
    );
    const res = await call('PUT', '/api/dept/synStaffs', syncer, { id: sales.id });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json<Row>();
    expect(r.members).toBe(3);
    expect(r.bound).toEqual(['王强（wangqiang）', '李娜（lina）']);
    expect(r.notOnRoster).toEqual(['陌生人（stranger）']);
    expect(r.notInWecom).toEqual(['赵敏']);
    const ids = await app.database.db
      .selectFrom('staff')
      .select(['id', 'qywx_user_id'])
      .where('id', 'in', [wang, li])
      .orderBy('id')
      .execute();
    expect(ids.map((x): unknown => x.qywx_user_id)).toEqual(['wangqiang', 'lina']);
    const again = (await call('PUT', '/api/dept/synStaffs', syncer, { id: sales.id })).json<Row>();
    expect(again).toMatchObject({ bound: [], alreadyBound: 2 });
    expect(errorOf(await call('PUT', '/api/dept/synStaffs', syncer, { id: (await byName('网销组')).id })).message).toBe(
      '该部门尚未同步到企业微信',
    );
  });

  it('needs the key, and 全部 data scope for the whole-tree pull', async () => {
    for (const [m, u, b] of [
      ['GET', '/api/dept/syncQwDept'],
      ['PUT', '/api/dept/synStaffs', { id: rootId }],
      ['PUT', '/api/dept/addQw', { id: rootId }],
      ['DELETE', `/api/dept/delQw?id=${rootId}`],
      ['PUT', '/api/dept/updateOrder', [{ id: rootId, sort: 1 }]],
    ] as const) {
      expect((await call(m, u, plain, b)).statusCode, u).toBe(403);
    }
    await createStaff(app, { username: 'localsync', password: 'Local@2024', permissions: ['dept:qywx'] });
    const local = bearer(await loginAs(app, 'localsync', 'Local@2024'));
    const res = await call('GET', '/api/dept/syncQwDept', local);
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toBe('同步企业微信部门需要全部数据权限');
  });

  it('syncs a WeCom approval into the car-use demand it belongs to', async () => {
    const adminToken = await loginAs(app, 'admin', ADMIN_PASSWORD);
    await createCompany(app, adminToken, 'wxdealer');
    const dealer = await dealerToken(app, 'wxdealer');
    await addMember(app, { mobile: '13800000011', surname: '周杰', subscribe: 1 });
    const cust = await addCustomer(app, dealer, '13800000011');
    const passed = await submitDemand(app, dealer, cust);
    const refused = await submitDemand(app, dealer, cust);
    const pending = await submitDemand(app, dealer, cust);
    wecom.approvals.set('202401010001', approval('202401010001', 2, String(passed)));
    wecom.approvals.set('202401010002', approval('202401010002', 3, undefined, '事故责任未认定'));
    wecom.approvals.set('202401010003', approval('202401010003', 1, String(pending)));
    const status = async (id: number) =>
      app.database.db.selectFrom('dbc_info').select(['status', 'sh_status', 'audit_reason']).where('id', '=', id).executeTakeFirstOrThrow();

    const ok = await call('GET', '/api/qywxapp/approval/approvalBizSync/202401010001', admin);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      spNo: '202401010001',
      bizId: passed,
      spStatus: 2,
      spStatusName: '已通过',
      status: 2,
      shStatus: 2,
      result: '已按企业微信审批结果审核通过',
    });
    expect(ok.json<Row>().syncTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await status(passed)).toMatchObject({ status: 2, sh_status: 2 });
    const history = (await call('GET', `/api/dbc/dbcInfo/history?id=${passed}`, admin)).json<Row[]>();
    expect(history.at(-1)).toMatchObject({ action: 'approve', actor: 'admin（企业微信审批）' });
    // a second sync changes nothing
    expect((await call('GET', '/api/qywxapp/approval/approvalBizSync/202401010001', admin)).json<Row>().result).toBe(
      '用车需求已审核，未作更改',
    );

    // no 业务单号 in the form: the demand's dialog names it; then the link is kept
    expect(errorOf(await call('GET', '/api/qywxapp/approval/approvalBizSync/202401010002', admin)).message).toMatch(
      /^审批单未关联用车需求/,
    );
    const no = await call('GET', `/api/qywxapp/approval/approvalBizSync/202401010002?bizId=${refused}`, admin);
    expect(no.json()).toMatchObject({ bizId: refused, spStatusName: '已驳回', status: 3, shStatus: 3, auditReason: '事故责任未认定' });
    expect(errorOf(await call('GET', `/api/qywxapp/approval/approvalBizSync/202401010002?bizId=${pending}`, admin)).message).toBe(
      '该审批单属于另一条用车需求',
    );

    const wait = (await call('GET', '/api/qywxapp/approval/approvalBizSync/202401010003', admin)).json<Row>();
    expect(wait).toMatchObject({ spStatusName: '审批中', status: 1, result: '审批状态：审批中，用车需求未作更改' });
    expect(await status(pending)).toMatchObject({ status: 1, sh_status: 1 });

    const missing = await call('GET', '/api/qywxapp/approval/approvalBizSync/209900000000', admin);
    expect(missing.statusCode).toBe(502);
    expect(errorOf(missing).message).toBe('企业微信返回错误：sp_no not exist');
    expect(errorOf(await call('GET', '/api/qywxapp/approval/approvalBizSync/abc', admin)).message).toBe('审批单号只能是1到64位数字');
    expect((await call('GET', '/api/qywxapp/approval/approvalBizSync/202401010001', plain)).statusCode).toBe(403);
    // the approval token comes from the app secret, the department calls from the contacts secret
    expect(wecom.calls.filter((c) => c.path === '/cgi-bin/oa/getapprovaldetail').length).toBeGreaterThan(0);
  });
});

describe.each(testApps())('WeCom not configured on %s', (_name, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start();
  }, 60_000);
  afterAll(() => t?.close());

  it('answers 400 企业微信未配置 on each WeCom call of the department tree and the approval sync', async () => {
    const admin = bearer(await loginAs(t.app, 'admin', ADMIN_PASSWORD));
    for (const [m, u, b] of [
      ['GET', '/api/dept/syncQwDept'],
      ['PUT', '/api/dept/synStaffs', { id: 1 }],
      ['PUT', '/api/dept/addQw', { id: 1 }],
      ['DELETE', '/api/dept/delQw?id=1'],
      ['PUT', '/api/dept/updateOrder', [{ id: 1, sort: 1 }]],
      ['GET', '/api/qywxapp/approval/approvalBizSync/202401010001'],
    ] as const) {
      const res = await t.app.inject({
        method: m as 'PUT',
        url: u,
        headers: { ...admin, submit_id: submitId() },
        ...(b === undefined ? {} : { payload: b as object }),
      });
      expect(res.statusCode, u).toBe(400);
      expect(errorOf(res).message, u).toMatch(/^企业微信未配置/);
    }
  });
});
