/**
 * The spec's calls that had no route: companies and department notes (deptRemark), the web
 * user's SMS code (userWeb/getMsg), the decision centre's sign-in links (decision/sso), the
 * scheduled tasks' writes at api/code, the dealer sign-in as a GET (405, Allow: POST) and
 * findZhclItem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { nowText } from '../../src/server/db/index.ts';
import { latestOutbox } from '../../src/server/providers/outbox.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { codeFromOutbox } from './account-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created, Page, Row } from '../support/answers.ts';

describe.each(testApps())('spec calls on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  const ids: Record<string, number> = {};

  const call = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
    app.inject({
      method: method as 'PUT',
      url,
      headers: { ...headers, ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const dept = async (name: string, pid: number | null) =>
    Number(
      (
        await app.database.db
          .insertInto('sys_dept')
          .values({ pid, name, sort: 1, enabled: 1, create_time: nowText() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );

  beforeAll(async () => {
    t = await start({ ssoLinkUrl: 'https://bi.example.com/sso', ssoSecret: 'a-secret-of-sixteen-chars' });
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    ids.root = Number(
      (await app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirstOrThrow()).id,
    );
    ids.sales = await dept('销售部', ids.root);
    ids.team = await dept('展厅一组', ids.sales);
    ids.luoyang = await dept('洛阳分公司', null);
    ids.lySales = await dept('洛阳销售部', ids.luoyang);
  }, 60_000);
  afterAll(() => t?.close());

  it('getOrg lists the companies of the data scope; getDeptRemarkByOrgId the departments of one, with notes', async () => {
    const all = (await call('GET', '/api/system/deptRemark/getOrg', admin)).json<Row[]>();
    expect(all.map((o) => o.id).sort()).toEqual([ids.root, ids.luoyang].sort());
    // a 本级 user of 洛阳销售部 sees only 洛阳分公司, and only its own department inside it
    await createStaff(app, { username: 'ly', password: 'Luoyang@2024', permissions: [], deptId: ids.lySales });
    await app.database.db.updateTable('sys_user').set({ org_id: ids.luoyang }).where('username', '=', 'ly').execute();
    const ly = bearer(await loginAs(app, 'ly', 'Luoyang@2024'));
    expect((await call('GET', '/api/system/deptRemark/getOrg', ly)).json<Row[]>().map((o) => o.name)).toEqual(['洛阳分公司']);
    const own = (await call('GET', `/api/system/deptRemark/getDeptRemarkByOrgId?orgId=${ids.luoyang}`, ly)).json<Row[]>();
    expect(own.map((d) => d.path)).toEqual(['洛阳分公司/洛阳销售部']);
    const other = await call('GET', `/api/system/deptRemark/getDeptRemarkByOrgId?orgId=${ids.root}`, ly);
    expect(other.statusCode).toBe(403);
    expect(errorOf(other).message).toBe('没有权限查看该公司');

    // admin writes a note; anyone in scope reads it; a department is no company
    const put = await call('PUT', '/api/system/deptRemark', admin, { id: ids.team, remark: '  周末轮休  ' });
    expect(put.statusCode, put.body).toBe(200);
    const tree = (await call('GET', `/api/system/deptRemark/getDeptRemarkByOrgId?orgId=${ids.root}`, admin)).json<Row[]>();
    const team = tree.find((d) => d.id === ids.team);
    expect(team).toMatchObject({ remark: '周末轮休' });
    expect(team?.path).toMatch(/\/销售部\/展厅一组$/);
    expect(tree[0].id).toBe(ids.root);
    expect(errorOf(await call('GET', `/api/system/deptRemark/getDeptRemarkByOrgId?orgId=${ids.sales}`, admin)).message).toBe('公司不存在');
    expect(errorOf(await call('GET', '/api/system/deptRemark/getDeptRemarkByOrgId', admin)).message).toBe('请选择公司');
    expect(errorOf(await call('PUT', '/api/system/deptRemark', admin, { id: ids.team, remark: 'x'.repeat(501) })).message).toBe(
      '备注长度不能超过500个字符',
    );
    expect((await call('PUT', '/api/system/deptRemark', ly, { id: ids.lySales, remark: 'x' })).statusCode).toBe(403);
    await call('PUT', '/api/system/deptRemark', admin, { id: ids.team, remark: '' });
    const cleared = (await call('GET', `/api/system/deptRemark/getDeptRemarkByOrgId?orgId=${ids.root}`, admin)).json<Row[]>();
    expect(cleared.find((d) => d.id === ids.team)?.remark).toBeNull();
  });

  it("userWeb/getMsg sends an SMS code to a number on file through the outbox, with sendMsg's checks", async () => {
    await app.database.db.updateTable('sys_user').set({ phone: '13911112222' }).where('username', '=', 'admin').execute();
    const res = await call('POST', '/api/userWeb/getMsg?mobile=13911112222');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ message: string }>().message).toBe('发送成功，验证码有效期5分钟');
    expect(await codeFromOutbox(app, '13911112222')).toMatch(/^\d{6}$/);
    // at most one code a minute to a number, shared with sendMsg
    expect((await call('GET', '/api/sendMsg?phone=13911112222')).statusCode).toBe(429);
    // a number not on file gets the same answer as one that is, and no SMS
    expect((await call('POST', '/api/userWeb/getMsg?mobile=13900009999')).json<{ message: string }>().message).toBe(
      '发送成功，验证码有效期5分钟',
    );
    await app.verificationCodes.settled();
    expect(await latestOutbox(app.database.db, '13900009999')).toBeFalsy();
    expect(errorOf(await call('POST', '/api/userWeb/getMsg?mobile=123')).message).toBe('请输入正确的11位手机号码');
  });

  it('decision/sso pages the sign-in links issued, for holders of DecisionCenter:sso', async () => {
    await createStaff(app, { username: 'analyst', password: 'Analyst@2024', permissions: ['DecisionCenter:list'] });
    const analyst = bearer(await loginAs(app, 'analyst', 'Analyst@2024'));
    for (let i = 0; i < 3; i++)
      expect((await call('GET', '/api/decision/getDecision', analyst)).json<{ ssoHref: string }>().ssoHref).toMatch(
        /^https:\/\/bi\.example\.com\/sso\?user=analyst/,
      );
    expect((await call('GET', '/api/decision/sso', analyst)).statusCode).toBe(403);
    const page = (await call('GET', '/api/decision/sso?page=0&size=2&sort=id,desc', admin)).json<Page<Created>>();
    expect(page.totalElements).toBe(3);
    expect(page.content).toHaveLength(2);
    expect(page.content[0]).toMatchObject({ username: 'analyst' });
    expect(page.content[0].createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(page.content[0].id).toBeGreaterThan(page.content[1].id);
    expect(JSON.stringify(page)).not.toContain('sign=');
    expect((await call('GET', '/api/decision/sso?username=nobody', admin)).json<Page>().totalElements).toBe(0);
    expect(errorOf(await call('GET', '/api/decision/sso?sort=password,asc', admin)).message).toMatch(/^不支持的排序/);
    expect(errorOf(await call('GET', '/api/decision/sso?createTime=2024-02-30&createTime=2024-03-01', admin)).status).toBe(400);
  });

  it('POST and PUT api/code create and edit a scheduled task like api/dj; GET api/code stays the captcha', async () => {
    const task = {
      money: '清理验证码',
      project: 'authMaintenance',
      methodName: 'purgeExpiredCaptchas',
      params: '',
      cronExpression: '0 0 4 * * ?',
      remark: '每天4点',
    };
    const created = await call('POST', '/api/code', admin, task);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Created>().id;
    expect((await call('PUT', '/api/code', admin, { ...task, id, cronExpression: '0 30 4 * * ?' })).statusCode).toBe(204);
    const row = (await call('GET', `/api/dj?id=${id}`, admin)).json<Page>().content[0];
    expect(row).toMatchObject({ id, cronExpression: '0 30 4 * * ?' });
    expect(errorOf(await call('PUT', '/api/code', admin, { ...task, id, cronExpression: 'nope' })).status).toBe(400);
    expect(errorOf(await call('POST', '/api/code', admin, { ...task, methodName: 'unknown' })).message).toMatch(/^未注册的任务/);
    await createStaff(app, { username: 'viewer', password: 'Viewer@2024', permissions: ['timing:list'] });
    expect((await call('POST', '/api/code', bearer(await loginAs(app, 'viewer', 'Viewer@2024')), task)).statusCode).toBe(403);
    const captcha = await call('GET', '/api/code');
    expect(captcha.statusCode).toBe(200);
  });

  it('the dealer sign-in as a GET answers 405 with Allow: POST and says why', async () => {
    const res = await call('GET', '/comp/dbcCompany/auth/login?username=a&password=b');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toMatchObject({ status: 405, message: '请使用POST方式提交账号和密码，账号和密码不能放在地址中' });
  });

  it('findZhclItem lists the enabled 库品类型 as items, narrowed by name', async () => {
    for (const [name, code, unit, enabled, sort] of [
      ['脚垫', 'MAT', '套', true, 2],
      ['贴膜', 'FILM', '张', true, 1],
      ['停用件', 'OLD', '件', false, 0],
    ] as const) {
      expect((await call('POST', '/api/tms/tmsWareType', admin, { name, code, unit, enabled, sort })).statusCode).toBe(201);
    }
    const all = (await call('GET', '/api/tms/tmsZhcl/findZhclItem', admin)).json<Row[]>();
    expect(all.map((x) => [x.name, x.code, x.unit])).toEqual([
      ['贴膜', 'FILM', '张'],
      ['脚垫', 'MAT', '套'],
    ]);
    expect(
      (await call('GET', `/api/tms/tmsZhcl/findZhclItem?name=${encodeURIComponent('脚')}`, admin)).json<Row[]>().map((x) => x.name),
    ).toEqual(['脚垫']);
    expect((await call('GET', '/api/tms/tmsZhcl/findZhclItem?name=%25', admin)).json()).toEqual([]);
    await createStaff(app, { username: 'nowares', password: 'Nowares@2024', permissions: [] });
    expect((await call('GET', '/api/tms/tmsZhcl/findZhclItem', bearer(await loginAs(app, 'nowares', 'Nowares@2024')))).statusCode).toBe(
      403,
    );
  });
});
