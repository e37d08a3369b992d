/**
 * The staff roster's own rules and calls (api/staff): the record rules of the generic writes,
 * the look-ups, 调岗/离职 with their history and the linked system user, and the WeCom member
 * calls against a fake WeCom server (a refusal writes nothing). Data scope: a 本级 user of the
 * head office sees and changes only head-office entries, never those of the second company.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/server/config.ts';
import { nowText } from '../../src/server/db/index.ts';
import { hashPassword } from '../../src/server/auth/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created, Page, Row } from '../support/answers.ts';

interface FakeWecom {
  url: string;
  server: Server;
  /** every member call: path and body (or query) */
  calls: Array<{ path: string; body: Row }>;
  members: Map<string, Row>;
}

/** A stand-in for WeCom's member API: one corp, the contacts secret, members kept in memory. */
async function fakeWecom(): Promise<FakeWecom> {
  const calls: FakeWecom['calls'] = [];
  const members = new Map<string, Row>();
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      const send = (v: Row) => res.end(JSON.stringify(v));
      if (u.pathname === '/cgi-bin/gettoken') {
        const ok = u.searchParams.get('corpid') === 'ww-staff' && u.searchParams.get('corpsecret') === 'contact-secret';
        return send(
          ok ? { errcode: 0, access_token: 'CONTACT-TOKEN', expires_in: 7200 } : { errcode: 40001, errmsg: 'invalid credential' },
        );
      }
      if (u.searchParams.get('access_token') !== 'CONTACT-TOKEN') return send({ errcode: 40014, errmsg: 'invalid access_token' });
      const body: Row = raw ? (JSON.parse(raw) as Row) : Object.fromEntries(u.searchParams);
      calls.push({ path: u.pathname, body });
      const userid = String((body.userid as string | undefined) ?? '');
      // a name WeCom refuses, to prove nothing is written on a refusal
      if (body.name === '拒绝' || userid === 'refused' || body.biz_mail === 'refused@corp.com' || body.avatar_mediaid === 'refused') {
        return send({ errcode: 60104, errmsg: 'mobile existed' });
      }
      if (u.pathname === '/cgi-bin/user/create') {
        if (members.has(userid)) return send({ errcode: 60102, errmsg: 'userid existed' });
        members.set(userid, body);
        return send({ errcode: 0, errmsg: 'created' });
      }
      if (u.pathname === '/cgi-bin/user/update') {
        if (!members.has(userid)) return send({ errcode: 60111, errmsg: 'userid not found' });
        members.set(userid, { ...members.get(userid), ...body });
        return send({ errcode: 0, errmsg: 'updated' });
      }
      if (u.pathname === '/cgi-bin/user/delete') {
        if (!members.delete(userid)) return send({ errcode: 60111, errmsg: 'userid not found' });
        return send({ errcode: 0, errmsg: 'deleted' });
      }
      res.statusCode = 404;
      send({});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, calls, members };
}

describe('WeCom contacts secret', () => {
  it('defaults to WECOM_SECRET and may be set on its own', () => {
    expect(loadConfig({ WECOM_CORP_ID: 'c', WECOM_AGENT_ID: '1', WECOM_SECRET: 'app' }).wecomContactSecret).toBe('app');
    expect(
      loadConfig({ WECOM_CORP_ID: 'c', WECOM_AGENT_ID: '1', WECOM_SECRET: 'app', WECOM_CONTACT_SECRET: 'contacts' }).wecomContactSecret,
    ).toBe('contacts');
    expect(loadConfig({}).wecomContactSecret).toBe('');
  });
});

describe.each(testApps())('staff roster on %s', (_dialect, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let wecom: FakeWecom;
  let admin: Record<string, string>;
  let hr: Record<string, string>;
  let viewer: Record<string, string>;
  let reader: Record<string, string>;
  const ids: Record<string, number> = {};

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
    app.inject({
      method,
      url,
      headers: { ...headers, ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload !== undefined ? { payload } : {}),
    });
  const stored = async (id: number): Promise<Created> => (await call('GET', `/api/staff?id=${id}`, admin)).json<Page<Created>>().content[0];
  const historyCount = async () =>
    Number(
      (
        await app.database.db
          .selectFrom('staff_job_history')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function dept(name: string, pid: number | null): Promise<number> {
    const row = await app.database.db
      .insertInto('sys_dept')
      .values({ pid, name, sort: 10, enabled: 1, create_time: nowText() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }
  async function role(name: string, level: number): Promise<number> {
    const row = await app.database.db
      .insertInto('sys_role')
      .values({ name, level, data_scope: '本级', description: name, create_time: nowText() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }
  async function user(username: string, deptId: number, orgId: number, roleIds: number[]): Promise<number> {
    const now = nowText();
    const row = await app.database.db
      .insertInto('sys_user')
      .values({
        username,
        nick_name: username,
        password: await hashPassword('User@2024x'),
        sex: 1,
        dept_id: deptId,
        org_id: orgId,
        enabled: 1,
        lock_time: 0,
        is_def_password: 0,
        pwd_reset_time: now,
        create_time: now,
        update_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const r of roleIds)
      await app.database.db
        .insertInto('sys_users_roles')
        .values({ user_id: Number(row.id), role_id: r })
        .execute();
    return Number(row.id);
  }
  async function entry(values: Row): Promise<Created> {
    const res = await call('POST', '/api/staff', admin, {
      sex: 1,
      job: '销售顾问',
      entryDate: '2024-03-01',
      status: 1,
      orgId: ids.root,
      deptId: ids.sales,
      ...values,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Created>();
  }

  beforeAll(async () => {
    wecom = await fakeWecom();
    t = await start({
      wecomCorpId: 'ww-staff',
      wecomAgentId: '1000003',
      wecomSecret: 'app-secret',
      wecomContactSecret: 'contact-secret',
      wecomApiBase: wecom.url,
    });
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    const root = await app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirstOrThrow();
    ids.root = Number(root.id);
    ids.sales = await dept('销售部', ids.root);
    ids.service = await dept('售后服务部', ids.root);
    ids.luoyang = await dept('洛阳分公司', null);
    ids.luoyangSales = await dept('洛阳销售部', ids.luoyang);
    ids.consultantRole = await role('销售顾问岗', 3);
    ids.serviceRole = await role('服务顾问岗', 4);
    ids.managerRole = await role('总经理岗', 2);
    await createStaff(app, { username: 'hr', password: 'Hr@20240', permissions: ['staff:list', 'staff:edit', 'staff:add'] });
    hr = bearer(await loginAs(app, 'hr', 'Hr@20240'));
    await createStaff(app, { username: 'viewer', password: 'Viewer@2024', permissions: ['staff:list'] });
    viewer = bearer(await loginAs(app, 'viewer', 'Viewer@2024'));
    await createStaff(app, { username: 'reader', password: 'Reader@2024', permissions: ['staff:list', 'staff:sensitive'] });
    reader = bearer(await loginAs(app, 'reader', 'Reader@2024'));
    for (const [name, code] of [
      ['销售顾问', 'XSGW'],
      ['服务顾问', 'FWGW'],
      ['人事专员', 'RSZY'],
    ]) {
      const res = await call('POST', '/api/jp/jpType', admin, { name, code, category: '销售' });
      expect(res.statusCode, res.body).toBe(201);
      ids[code] = res.json<Created>().id;
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    wecom?.server.close();
  });

  describe('record rules of the generic writes', () => {
    it('refuses a department outside the company, a missing company, job type or account, and an account linked twice', async () => {
      const body = {
        name: '规则',
        mobile: '13900000001',
        sex: 1,
        job: '销售顾问',
        entryDate: '2024-03-01',
        status: 1,
        orgId: ids.root,
        deptId: ids.luoyangSales,
      };
      const cases: Array<[Row, string]> = [
        [{}, '部门不属于所选公司'],
        [{ orgId: 987654, deptId: ids.sales }, '公司不存在'],
        [{ deptId: 987654 }, '部门不存在'],
        [{ deptId: ids.sales, jpTypeId: 987654 }, '岗位类型不存在'],
        [{ deptId: ids.sales, userId: 987654 }, '系统账号不存在'],
        [{ deptId: ids.sales, orgId: undefined }, '所属公司不能为空'],
      ];
      for (const [change, message] of cases) {
        const res = await call('POST', '/api/staff', admin, { ...body, ...change });
        expect(res.statusCode, message).toBe(400);
        expect(errorOf(res).message).toBe(message);
      }
      expect((await call('GET', '/api/staff?mobile=13900000001', admin)).json<Page>().totalElements).toBe(0);

      const account = await user('linked1', ids.sales, ids.root, []);
      const first = await entry({ name: '关联', mobile: '13900000002', userId: account });
      const second = await call('POST', '/api/staff', admin, { ...body, deptId: ids.sales, mobile: '13900000003', userId: account });
      expect(second.statusCode).toBe(400);
      expect(errorOf(second).message).toBe('该系统账号已关联其他员工');
      // the entry itself keeps its account on an update; a move into the second company must bring its department
      const keep = await call('PUT', '/api/staff', admin, { ...first, job: '展厅经理' });
      expect(keep.statusCode, keep.body).toBe(204);
      const move = await call('PUT', '/api/staff', admin, { ...first, orgId: ids.luoyang });
      expect(errorOf(move).message).toBe('部门不属于所选公司');
      expect((await stored(first.id)).orgId).toBe(ids.root);
      // the company is scoped: hr (本级, head office) cannot create in the second company
      const out = await call('POST', '/api/staff', hr, { ...body, orgId: ids.luoyang, deptId: ids.luoyangSales, mobile: '13900000004' });
      expect(out.statusCode).toBe(403);
    });

    it('an edit cannot end an employment: leaving goes through staffLeave', async () => {
      const e = await entry({ name: '编辑离职', mobile: '13900000020' });
      const res = await call('PUT', '/api/staff', admin, { ...e, status: 0, leaveDate: '2026-01-01' });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('请通过「离职」办理员工离职（会同时禁用其系统账号）');
      expect((await stored(e.id)).status).toBe(1);
      // a former employee's other fields stay editable, and an entry may be recorded as former from the start
      const old = await entry({ name: '老员工', mobile: '13900000021', status: 0, leaveDate: '2023-01-01' });
      expect((await call('PUT', '/api/staff', admin, { ...old, remark: '档案补录' })).statusCode).toBe(204);
      await call('DELETE', '/api/staff', admin, [e.id, old.id]);
    });

    it('keeps a job type in use (restrict)', async () => {
      const e = await entry({ name: '类型', mobile: '13900000010', jpTypeId: ids.RSZY });
      const del = await call('DELETE', '/api/jp/jpType', admin, [ids.RSZY]);
      expect(del.statusCode).toBe(400);
      expect(errorOf(del).message).toContain('员工花名册');
      await call('DELETE', '/api/staff', admin, [e.id]);
    });
  });

  describe('look-ups', () => {
    beforeAll(async () => {
      ids.zhang = (await entry({ name: '张三', mobile: '13811110001', deptId: ids.service, job: '服务顾问', jpTypeId: ids.FWGW })).id;
      ids.li = (await entry({ name: '李四', mobile: '13811110002', jpTypeId: ids.XSGW })).id;
      ids.an = (await entry({ name: '安娜', mobile: '13811110003', jpTypeId: ids.XSGW })).id;
      ids.gone = (await entry({ name: '离职者', mobile: '13811110004', status: 0, leaveDate: '2024-06-01', jpTypeId: ids.XSGW })).id;
      ids.ly = (
        await entry({ name: '洛阳王', mobile: '13811110005', orgId: ids.luoyang, deptId: ids.luoyangSales, jpTypeId: ids.XSGW })
      ).id;
      ids.consultantUser = await user('lisi', ids.sales, ids.root, [ids.consultantRole]);
      await call('PUT', '/api/staff', admin, { ...(await stored(ids.li)), userId: ids.consultantUser });
    });

    it('findByMobile answers the entry or null, and 400 for a bad number', async () => {
      // a caller who sees mobiles masked may not look up by one: 403 for a stored and an unknown number alike
      const masked = await call('GET', '/api/staff/findByMobile?mobile=13811110001', viewer);
      const unknown = await call('GET', '/api/staff/findByMobile?mobile=13811119999', viewer);
      expect(masked.statusCode).toBe(403);
      expect(errorOf(masked).message).toBe(errorOf(unknown).message);
      expect(errorOf(masked).message).toContain('手机号码');
      const found = await call('GET', '/api/staff/findByMobile?mobile=13811110001', reader);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json()).toMatchObject({
        id: ids.zhang,
        name: '张三',
        deptId: ids.service,
        deptName: '售后服务部',
        jpTypeName: '服务顾问',
        status: 1,
      });
      expect((await call('GET', '/api/staff/findByMobile?mobile=13811119999', reader)).json()).toBeNull();
      for (const bad of ['1381111', '23811110001', 'abc']) {
        const res = await call('GET', `/api/staff/findByMobile?mobile=${bad}`, reader);
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).message).toBe('请输入正确的11位手机号码');
      }
      expect(errorOf(await call('GET', '/api/staff/findByMobile', reader)).message).toBe('请输入手机号');
      expect((await call('GET', '/api/staff/findByMobile?mobile=13811110001&x=1', reader)).statusCode).toBe(400);
      // outside the scope: not visible
      expect((await call('GET', '/api/staff/findByMobile?mobile=13811110005', reader)).json()).toBeNull();
      expect((await call('GET', '/api/staff/findByMobile?mobile=13811110005', admin)).json<Created>().id).toBe(ids.ly);
    });

    it('getAllOnStaff lists a company by department then name, with the status', async () => {
      const res = await call('GET', `/api/staff/getAllOnStaff?orgId=${ids.root}`, viewer);
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json<Created[]>();
      const mine = list.filter((r) => [ids.zhang, ids.li, ids.an, ids.gone].includes(r.id));
      // 销售部 before 售后服务部 (same sort, lower id); 安娜 (an) before 李四 (li) in pinyin order
      expect(mine.map((r) => r.name)).toEqual(['安娜', '李四', '张三']);
      expect(Object.keys(mine[0]).sort()).toEqual(
        ['deptId', 'deptName', 'id', 'job', 'jpTypeId', 'jpTypeName', 'mobile', 'name', 'orgId', 'sex', 'status', 'userId'].sort(),
      );
      const left = (await call('GET', `/api/staff/getAllOnStaff?orgId=${ids.root}&status=0`, viewer)).json<Created[]>();
      expect(left.map((r) => r.id)).toContain(ids.gone);
      expect(left.every((r) => r.status === 0)).toBe(true);
      expect(errorOf(await call('GET', '/api/staff/getAllOnStaff', viewer)).message).toBe('请选择公司');
      expect((await call('GET', `/api/staff/getAllOnStaff?orgId=${ids.root}&status=2`, viewer)).statusCode).toBe(400);
      expect((await call('GET', '/api/staff/getAllOnStaff?orgId=abc', viewer)).statusCode).toBe(400);
      const out = await call('GET', `/api/staff/getAllOnStaff?orgId=${ids.luoyang}`, viewer);
      expect(out.statusCode).toBe(403);
      expect(errorOf(out).message).toBe('没有权限操作该部门的数据');
      expect((await call('GET', `/api/staff/getAllOnStaff?orgId=${ids.luoyang}`, admin)).json<Created[]>().map((r) => r.id)).toEqual([
        ids.ly,
      ]);
    });

    it('search finds up to 20 on-staff entries by name or mobile inside the scope', async () => {
      expect((await call('GET', '/api/staff/search?search=', viewer)).json()).toEqual([]);
      expect((await call('GET', '/api/staff/search', viewer)).json()).toEqual([]);
      expect((await call('GET', '/api/staff/search?search=张', viewer)).json<Created[]>().map((r) => r.id)).toEqual([ids.zhang]);
      // the mobile is searched only for callers who see it in full
      expect((await call('GET', '/api/staff/search?search=1381111000', viewer)).json()).toEqual([]);
      const byMobile = (await call('GET', '/api/staff/search?search=1381111000', reader))
        .json<Created[]>()
        .map((r) => r.id)
        .sort();
      expect(byMobile).toEqual([ids.zhang, ids.li, ids.an].sort()); // not the one who left, not the other company
      expect((await call('GET', '/api/staff/search?search=洛阳', admin)).json<Created[]>().map((r) => r.id)).toEqual([ids.ly]);
      expect((await call('GET', '/api/staff/search?search=%25', viewer)).json()).toEqual([]); // % is a character, not a wildcard
      const rows = Array.from({ length: 22 }, (_, i) => ({
        name: `批量${i}`,
        mobile: `1370000${String(i).padStart(4, '0')}`,
        sex: 1,
        job: 'x',
        entry_date: '2024-01-01',
        status: 1,
        org_id: ids.root,
        dept_id: ids.sales,
      }));
      await app.database.db.insertInto('staff').values(rows).execute();
      expect((await call('GET', '/api/staff/search?search=批量', viewer)).json()).toHaveLength(20);
      expect((await call('GET', `/api/staff/search?search=${'x'.repeat(51)}`, viewer)).statusCode).toBe(400);
      await app.database.db.deleteFrom('staff').where('name', 'like', '批量%').execute();
    });

    it('getStaffByOrgIdAndPostType matches the job type by code or id', async () => {
      const byCode = await call('GET', `/api/staff/getStaffByOrgIdAndPostType?orgId=${ids.root}&postType=XSGW`, viewer);
      expect(byCode.statusCode, byCode.body).toBe(200);
      expect(byCode.json<Created[]>().map((r) => r.id)).toEqual([ids.an, ids.li]);
      const byId = await call('GET', `/api/staff/getStaffByOrgIdAndPostType?orgId=${ids.root}&postType=${ids.FWGW}`, viewer);
      expect(byId.json<Created[]>().map((r) => r.id)).toEqual([ids.zhang]);
      expect(errorOf(await call('GET', `/api/staff/getStaffByOrgIdAndPostType?orgId=${ids.root}&postType=NOPE`, viewer)).message).toBe(
        '岗位类型不存在：NOPE',
      );
      expect(errorOf(await call('GET', `/api/staff/getStaffByOrgIdAndPostType?orgId=${ids.root}`, viewer)).message).toBe('请选择岗位类型');
      expect((await call('GET', `/api/staff/getStaffByOrgIdAndPostType?orgId=${ids.luoyang}&postType=XSGW`, viewer)).statusCode).toBe(403);
      expect(
        (await call('GET', `/api/staff/getStaffByOrgIdAndPostType?orgId=${ids.luoyang}&postType=XSGW`, admin))
          .json<Created[]>()
          .map((r) => r.id),
      ).toEqual([ids.ly]);
    });

    it('getStaffByOrgIdAndRoleName finds entries whose linked user holds the role', async () => {
      const res = await call(
        'GET',
        `/api/staff/getStaffByOrgIdAndRoleName?orgId=${ids.root}&roleName=${encodeURIComponent('销售顾问岗')}`,
        viewer,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Created[]>().map((r) => r.id)).toEqual([ids.li]);
      expect(res.json<Row[]>()[0].userId).toBe(ids.consultantUser);
      expect(
        (
          await call('GET', `/api/staff/getStaffByOrgIdAndRoleName?orgId=${ids.root}&roleName=${encodeURIComponent('服务顾问岗')}`, viewer)
        ).json(),
      ).toEqual([]);
      expect(errorOf(await call('GET', `/api/staff/getStaffByOrgIdAndRoleName?orgId=${ids.root}&roleName=nope`, viewer)).message).toBe(
        '角色不存在：nope',
      );
      expect(errorOf(await call('GET', `/api/staff/getStaffByOrgIdAndRoleName?orgId=${ids.root}`, viewer)).message).toBe('请输入角色名称');
      expect((await call('GET', `/api/staff/getStaffByOrgIdAndRoleName?orgId=${ids.luoyang}&roleName=x`, viewer)).statusCode).toBe(403);
    });

    it('needs staff:list', async () => {
      await createStaff(app, { username: 'nobody', password: 'Nobody@2024', permissions: ['sysQuestion:list'] });
      const nobody = bearer(await loginAs(app, 'nobody', 'Nobody@2024'));
      for (const url of [
        'findByMobile?mobile=13811110001',
        `getAllOnStaff?orgId=${ids.root}`,
        'search?search=张',
        `jobHistory?id=${ids.zhang}`,
      ]) {
        expect((await call('GET', `/api/staff/${url}`, nobody)).statusCode, url).toBe(403);
      }
    });
  });

  describe('调岗 and 离职', () => {
    let moved: Created;
    let accountId: number;

    beforeAll(async () => {
      accountId = await user('wangwu', ids.sales, ids.root, [ids.consultantRole]);
      moved = await entry({ name: '王五', mobile: '13822220001', userId: accountId, jpTypeId: ids.XSGW, entryDate: '2024-05-10' });
    });

    it('editJob moves the entry and its user (department and roles) in one step, with a history row', async () => {
      const res = await call('PUT', '/api/staff/editJob', hr, {
        id: moved.id,
        deptId: ids.service,
        job: '服务顾问',
        jpTypeId: ids.FWGW,
        roleIds: [ids.serviceRole, ids.consultantRole],
        remark: '业务调整',
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = await stored(moved.id);
      expect(after).toMatchObject({ deptId: ids.service, job: '服务顾问', jpTypeId: ids.FWGW, updateUser: 'hr' });
      const account = await app.database.db
        .selectFrom('sys_user')
        .select(['dept_id', 'org_id'])
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow();
      expect(Number(account.dept_id)).toBe(ids.service);
      expect(Number(account.org_id)).toBe(ids.root);
      const roles = (await app.database.db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', accountId).execute())
        .map((r) => Number(r.role_id))
        .sort();
      expect(roles).toEqual([ids.consultantRole, ids.serviceRole].sort());
      const history = (await call('GET', `/api/staff/jobHistory?id=${moved.id}`, viewer)).json<Row[]>();
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({
        kind: '调岗',
        fromDeptId: ids.sales,
        fromDeptName: '销售部',
        toDeptId: ids.service,
        toDeptName: '售后服务部',
        fromJob: '销售顾问',
        toJob: '服务顾问',
        fromJpTypeName: '销售顾问',
        toJpTypeName: '服务顾问',
        roles: '销售顾问岗、服务顾问岗',
        remark: '业务调整',
        createUser: 'hr',
      });
      expect(history[0].createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // a job change alone keeps the type when it is left out
      const jobOnly = await call('PUT', '/api/staff/editJob', hr, { id: moved.id, deptId: ids.service, job: '服务主管' });
      expect(jobOnly.statusCode, jobOnly.body).toBe(200);
      expect((await stored(moved.id)).jpTypeId).toBe(ids.FWGW);
    });

    it('editJob refuses bad input, a role above the actor and an entry outside the scope, writing nothing', async () => {
      const before = await stored(moved.id);
      const rolesBefore = (await app.database.db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', accountId).execute())
        .length;
      const count = await historyCount();
      const cases: Array<[Row, number, string]> = [
        [{ id: moved.id, deptId: ids.luoyangSales, job: 'x' }, 400, '部门不属于所选公司'],
        [{ id: moved.id, deptId: 987654, job: 'x' }, 400, '部门不存在'],
        [{ id: moved.id, job: 'x' }, 400, '所属部门不能为空'],
        [{ id: moved.id, deptId: ids.sales }, 400, '岗位不能为空'],
        [{ id: moved.id, deptId: ids.sales, job: 'x'.repeat(51) }, 400, '岗位长度不能超过50个字符'],
        [{ id: moved.id, deptId: ids.sales, job: 'x', jpTypeId: 987654 }, 400, '岗位类型不存在'],
        [{ id: moved.id, deptId: ids.sales, job: 'x', roleIds: [] }, 400, '请选择岗位权限'],
        [{ id: moved.id, deptId: ids.sales, job: 'x', roleIds: [987654] }, 400, '岗位权限不存在'],
        [{ id: moved.id, deptId: ids.sales, job: 'x', roleIds: 'all' }, 400, '岗位权限格式不正确'],
        [{ id: moved.id, deptId: ids.service, job: '服务主管' }, 400, '调岗信息没有变化'],
        [{ id: 'x', deptId: ids.sales, job: 'x' }, 400, 'ID不能为空'],
        [{ id: 987654, deptId: ids.sales, job: 'x' }, 404, '员工不存在'],
        [
          { id: moved.id, deptId: ids.sales, job: 'x', roleIds: [ids.managerRole] },
          403,
          '角色权限不足，你的角色级别：3，低于操作的角色级别：2',
        ],
        [{ id: ids.ly, deptId: ids.luoyangSales, job: 'x' }, 404, '员工不存在'],
      ];
      for (const [body, status, message] of cases) {
        const res = await call('PUT', '/api/staff/editJob', hr, body);
        expect(res.statusCode, message).toBe(status);
        expect(errorOf(res).message).toBe(message);
      }
      expect((await call('PUT', '/api/staff/editJob', hr, [1])).statusCode).toBe(400);
      const noUser = await call('PUT', '/api/staff/editJob', hr, {
        id: ids.zhang,
        deptId: ids.sales,
        job: 'x',
        roleIds: [ids.serviceRole],
      });
      expect(errorOf(noUser).message).toBe('该员工未关联系统账号，不能设置岗位权限');
      expect((await call('PUT', '/api/staff/editJob', viewer, { id: moved.id, deptId: ids.sales, job: 'x' })).statusCode).toBe(403);
      expect(await stored(moved.id)).toEqual(before);
      expect(
        (await app.database.db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', accountId).execute()).length,
      ).toBe(rolesBefore);
      expect(await historyCount()).toBe(count);
    });

    it('staffLeave ends the employment: status, date, the user disabled and signed out, a history row', async () => {
      const session = bearer(await loginAs(app, 'wangwu', 'User@2024x'));
      expect((await call('GET', '/api/info', session)).statusCode).toBe(200);
      const cases: Array<[Row, number, string]> = [
        [{ id: moved.id, leaveDate: '2024-05-09' }, 400, '离职日期不能早于入职日期（2024-05-10）'],
        [{ id: moved.id, leaveDate: '2024-02-30' }, 400, '离职日期格式不正确'],
        [{ id: moved.id, leaveDate: 20240601 }, 400, '离职日期格式不正确'],
        [{ id: moved.id, cause: 'x'.repeat(501) }, 400, '离职原因长度不能超过500个字符'],
        [{ id: ids.ly }, 404, '员工不存在'],
        [{}, 400, 'ID不能为空'],
      ];
      for (const [body, status, message] of cases) {
        const res = await call('PUT', '/api/staff/staffLeave', hr, body);
        expect(res.statusCode, message).toBe(status);
        expect(errorOf(res).message).toBe(message);
      }
      expect((await stored(moved.id)).status).toBe(1);
      expect((await call('GET', '/api/info', session)).statusCode).toBe(200);

      const res = await call('PUT', '/api/staff/staffLeave', hr, { id: moved.id, leaveDate: '2026-01-31', cause: '个人原因' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 0, leaveDate: '2026-01-31', userDisabled: true });
      expect(await stored(moved.id)).toMatchObject({ status: 0, leaveDate: '2026-01-31' });
      const account = await app.database.db.selectFrom('sys_user').select('enabled').where('id', '=', accountId).executeTakeFirstOrThrow();
      expect(Boolean(account.enabled)).toBe(false);
      expect((await call('GET', '/api/info', session)).statusCode).toBe(401);
      const [last] = (await call('GET', `/api/staff/jobHistory?id=${moved.id}`, viewer)).json<Row[]>();
      expect(last).toMatchObject({
        kind: '离职',
        fromDeptName: '售后服务部',
        fromJob: '服务主管',
        leaveDate: '2026-01-31',
        remark: '个人原因',
        createUser: 'hr',
      });

      const twice = await call('PUT', '/api/staff/staffLeave', hr, { id: moved.id });
      expect(twice.statusCode).toBe(400);
      expect(errorOf(twice).message).toBe('该员工已离职');
      expect(errorOf(await call('PUT', '/api/staff/editJob', hr, { id: moved.id, deptId: ids.sales, job: 'x' })).message).toBe(
        '该员工已离职',
      );
    });

    it('调岗 and 离职 leave revisions of the entry and of its user, written by the moves themselves (refused ones leave none)', async () => {
      type Entry = { action: string; actorName: string; changes: Array<{ field: string; old: unknown; new: unknown }> };
      const historyOf = async (url: string) => {
        const res = await call('GET', url, admin);
        expect(res.statusCode, res.body).toBe(200);
        return res.json<Page<Entry>>().content;
      };
      const pairs = (e: Entry) => Object.fromEntries(e.changes.map((c) => [c.field, [c.old, c.new]]));
      const entry = await historyOf(`/api/staff/${moved.id}/history`);
      expect(entry.map((e) => e.action)).toEqual(['status', 'update', 'update', 'create']);
      expect(entry[0].actorName).toBe('hr');
      expect(pairs(entry[0])).toEqual({ status: [1, 0], leaveDate: [null, '2026-01-31'] });
      expect(pairs(entry[1])).toEqual({ job: ['服务顾问', '服务主管'] });
      expect(pairs(entry[2])).toEqual({ deptId: [ids.sales, ids.service], job: ['销售顾问', '服务顾问'], jpTypeId: [ids.XSGW, ids.FWGW] });
      // the linked user: disabled by 离职, moved (department and roles) by 调岗
      const account = await historyOf(`/api/users/${accountId}/history`);
      expect(account.map((e) => e.action)).toEqual(['update', 'update']);
      expect(account[0].changes.map((c) => c.field)).toEqual(['enabled']);
      expect(account[1].changes.map((c) => c.field).sort()).toEqual(['deptId', 'roleIds']);
      expect(account.every((e) => e.actorName === 'hr')).toBe(true);
    });

    it('staffLeave defaults to today and works without a linked user', async () => {
      const e = await entry({ name: '今天走', mobile: '13822220002', entryDate: '2020-01-01' });
      const res = await call('PUT', '/api/staff/staffLeave', hr, { id: e.id });
      expect(res.statusCode, res.body).toBe(200);
      const today = new Date();
      const p = (n: number) => String(n).padStart(2, '0');
      expect(res.json()).toMatchObject({
        leaveDate: `${today.getFullYear()}-${p(today.getMonth() + 1)}-${p(today.getDate())}`,
        userDisabled: false,
      });
    });

    it('staffLeave refuses the entry of the actor', async () => {
      const hrId = Number(
        (await app.database.db.selectFrom('sys_user').select('id').where('username', '=', 'hr').executeTakeFirstOrThrow()).id,
      );
      const own = await entry({ name: '人事', mobile: '13822220003', userId: hrId });
      const res = await call('PUT', '/api/staff/staffLeave', hr, { id: own.id });
      expect(errorOf(res).message).toBe('不能办理自己的离职');
      expect((await stored(own.id)).status).toBe(1);
    });

    it('jobHistory checks its id and the scope', async () => {
      expect(errorOf(await call('GET', '/api/staff/jobHistory', viewer)).message).toBe('ID不能为空');
      expect((await call('GET', '/api/staff/jobHistory?id=abc', viewer)).statusCode).toBe(400);
      expect((await call('GET', '/api/staff/jobHistory?id=987654', viewer)).statusCode).toBe(404);
      // an entry outside the scope is not there for the caller: 404, as one that does not exist
      const outside = await call('GET', `/api/staff/jobHistory?id=${ids.ly}`, viewer);
      expect(outside.statusCode).toBe(404);
      expect(errorOf(outside).message).toBe('员工不存在');
      expect((await call('GET', `/api/staff/jobHistory?id=${ids.ly}`, admin)).json()).toEqual([]);
    });
  });

  describe('WeCom members', () => {
    let member: Created;
    let accountId: number;

    beforeAll(async () => {
      accountId = await user('zhaoliu', ids.sales, ids.root, []);
      member = await entry({ name: '赵六', mobile: '13833330001', sex: 0, email: 'zl@example.com', userId: accountId });
    });

    it('creates the member from the entry (userid from the mobile) and binds it', async () => {
      const res = await call('POST', '/api/staff/qywx', hr, { id: member.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ id: member.id, qywxUserId: '13833330001' });
      expect(wecom.members.get('13833330001')).toMatchObject({
        userid: '13833330001',
        name: '赵六',
        mobile: '13833330001',
        gender: '2',
        position: '销售顾问',
        email: 'zl@example.com',
        department: [1],
      });
      expect((await stored(member.id)).qywxUserId).toBe('13833330001');
      const account = await app.database.db
        .selectFrom('sys_user')
        .select('wecom_user_id')
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow();
      expect(account.wecom_user_id).toBe('13833330001');
      const again = await call('POST', '/api/staff/qywx', hr, { id: member.id });
      expect(again.statusCode).toBe(400);
      expect(errorOf(again).message).toBe('该员工已绑定企业微信（13833330001）');
    });

    it('a WeCom refusal answers 502 with its message and writes nothing', async () => {
      const other = await entry({ name: '拒绝', mobile: '13833330002' });
      const calls = wecom.calls.length;
      const res = await call('POST', '/api/staff/qywx', hr, { id: other.id, userid: 'ref.user' });
      expect(res.statusCode).toBe(502);
      expect(errorOf(res).message).toBe('企业微信返回错误：mobile existed');
      expect(wecom.calls.length).toBe(calls + 1);
      expect((await stored(other.id)).qywxUserId).toBeNull();
      const mail = await call('PUT', '/api/staff/qywxEmail', hr, { id: member.id, email: 'refused@corp.com' });
      expect(mail.statusCode).toBe(502);
      expect((await stored(member.id)).qywxEmail).toBeNull();
      const avatar = await call('PUT', '/api/staff/updateAvatarMediaId', hr, { id: member.id, mediaId: 'refused' });
      expect(avatar.statusCode).toBe(502);
      expect((await stored(member.id)).avatarMediaId).toBeNull();
    });

    it('refuses bad input before asking WeCom', async () => {
      const calls = wecom.calls.length;
      const plain = await entry({ name: '未绑定', mobile: '13833330003' });
      const cases: Array<[string, string, Row, number, string]> = [
        ['POST', 'qywx', { id: plain.id, userid: 'bad id!' }, 400, '企业微信账号只能包含字母、数字和 _ . @ -'],
        ['POST', 'qywx', { id: plain.id, userid: '13833330001' }, 400, '该企业微信账号已绑定其他员工'],
        ['POST', 'qywx', { id: ids.ly }, 404, '员工不存在'],
        ['POST', 'qywx', {}, 400, 'ID不能为空'],
        ['PUT', 'updateQywx', { id: plain.id }, 400, '该员工未绑定企业微信'],
        ['PUT', 'qywxEmail', { id: member.id, email: 'not-mail' }, 400, '邮箱格式错误'],
        ['PUT', 'qywxEmail', { id: member.id }, 400, '企业邮箱不能为空'],
        ['PUT', 'qywxEmail', { id: plain.id, email: 'a@corp.com' }, 400, '该员工未绑定企业微信'],
        ['PUT', 'updateAvatarMediaId', { id: member.id }, 400, '头像素材不能为空'],
        ['PUT', 'updateAvatarMediaId', { id: member.id, mediaId: 'a b' }, 400, '头像素材ID格式不正确'],
        ['DELETE', `deleteQywx?id=${plain.id}`, {}, 400, '该员工未绑定企业微信'],
        ['DELETE', 'deleteQywx', {}, 400, 'ID不能为空'],
      ];
      for (const [method, path, body, status, message] of cases) {
        const res = await call(method as 'PUT', `/api/staff/${path}`, hr, body);
        expect(res.statusCode, `${path} ${message}`).toBe(status);
        expect(errorOf(res).message).toBe(message);
      }
      expect(wecom.calls.length).toBe(calls);
      expect((await call('PUT', '/api/staff/updateQywx', viewer, { id: member.id })).statusCode).toBe(403);
    });

    it('pushes the entry, sets the mailbox and avatar, and deletes the member', async () => {
      await call('PUT', '/api/staff', admin, { ...(await stored(member.id)), job: '销售主管' });
      const push = await call('PUT', '/api/staff/updateQywx', hr, { id: member.id });
      expect(push.statusCode, push.body).toBe(200);
      expect(wecom.members.get('13833330001')?.position).toBe('销售主管');
      const mail = await call('PUT', '/api/staff/qywxEmail', hr, { id: member.id, email: 'zhaoliu@corp.com' });
      expect(mail.statusCode, mail.body).toBe(200);
      expect(wecom.members.get('13833330001')?.biz_mail).toBe('zhaoliu@corp.com');
      const avatar = await call('PUT', '/api/staff/updateAvatarMediaId', hr, { id: member.id, mediaId: '3Xa-media_1' });
      expect(avatar.statusCode, avatar.body).toBe(200);
      expect(wecom.members.get('13833330001')?.avatar_mediaid).toBe('3Xa-media_1');
      expect(await stored(member.id)).toMatchObject({
        qywxUserId: '13833330001',
        qywxEmail: 'zhaoliu@corp.com',
        avatarMediaId: '3Xa-media_1',
      });
      // the read-only fields cannot be written through the generic edit
      await call('PUT', '/api/staff', admin, { ...(await stored(member.id)), qywxUserId: 'hacked' });
      expect((await stored(member.id)).qywxUserId).toBe('13833330001');

      const del = await call('DELETE', `/api/staff/deleteQywx?id=${member.id}`, hr);
      expect(del.statusCode, del.body).toBe(200);
      expect(wecom.members.has('13833330001')).toBe(false);
      expect(await stored(member.id)).toMatchObject({ qywxUserId: null, qywxEmail: null, avatarMediaId: null });
      const account = await app.database.db
        .selectFrom('sys_user')
        .select('wecom_user_id')
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow();
      expect(account.wecom_user_id).toBeNull();
      // with a chosen userid, and the id in the body of the delete
      expect((await call('POST', '/api/staff/qywx', hr, { id: member.id, userid: 'zhao.liu' })).statusCode).toBe(200);
      const byBody = await call('DELETE', '/api/staff/deleteQywx', hr, { id: member.id });
      expect(byBody.statusCode, byBody.body).toBe(200);
      expect(wecom.members.size).toBe(0);
    });
  });
});

describe.each(testApps())('staff WeCom calls without WeCom on %s', (_dialect, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t?.close());

  it('answers 400 企业微信未配置 and names what to set', async () => {
    const admin = bearer(await loginAs(t.app, 'admin', ADMIN_PASSWORD));
    for (const [method, path] of [
      ['POST', 'qywx'],
      ['PUT', 'updateQywx'],
      ['PUT', 'qywxEmail'],
      ['PUT', 'updateAvatarMediaId'],
      ['DELETE', 'deleteQywx?id=1'],
    ]) {
      const res = await t.app.inject({
        method: method as 'PUT',
        url: `/api/staff/${path}`,
        headers: { ...admin, submit_id: submitId() },
        payload: { id: 1 },
      });
      expect(res.statusCode, path).toBe(400);
      expect(errorOf(res).message).toMatch(/^企业微信未配置：请设置 WECOM_CORP_ID、WECOM_AGENT_ID、WECOM_SECRET/);
    }
  });
});

describe.each(testApps())('staff WeCom calls with WeCom unreachable on %s', (_dialect, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start({ wecomCorpId: 'ww-staff', wecomAgentId: '1', wecomSecret: 's', wecomApiBase: 'http://127.0.0.1:1' });
  });
  afterAll(() => t?.close());

  it('answers 502 企业微信返回错误 and binds nothing', async () => {
    const admin = bearer(await loginAs(t.app, 'admin', ADMIN_PASSWORD));
    const root = Number((await t.app.database.db.selectFrom('sys_dept').select('id').orderBy('id').executeTakeFirstOrThrow()).id);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/staff',
      headers: { ...admin, submit_id: submitId() },
      payload: {
        name: '断网',
        mobile: '13944440001',
        sex: 1,
        job: '销售顾问',
        entryDate: '2024-03-01',
        status: 1,
        orgId: root,
        deptId: root,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/staff/qywx',
      headers: { ...admin, submit_id: submitId() },
      payload: { id: created.json<Created>().id },
    });
    expect(res.statusCode).toBe(502);
    expect(errorOf(res).message).toMatch(/^企业微信返回错误：无法连接企业微信/);
    const after = (await t.app.inject({ method: 'GET', url: `/api/staff?id=${created.json<Created>().id}`, headers: admin })).json<Page>()
      .content[0];
    expect(after.qywxUserId).toBeNull();
  });
});
