/**
 * Data scope (全部 / 本级 / 自定义) on the users list, the department lists and a generic
 * schema list with `x-scope: "dept"` (staffunZp.deptId), on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, submitId, testApps, type TestApp } from './helpers.ts';
import type { Created, Page } from '../support/answers.ts';

/** a node of the department tree */
interface DeptNode {
  name: string;
  disabled: boolean;
  children: DeptNode[];
}

const PASSWORD = 'Scope_pass1';

describe.each(testApps())('data scope on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  const dept: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const postings: Record<string, number> = {};

  const api = (token: string, method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(token), ...(method === 'GET' ? {} : { submit_id: submitId() }) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    const root = (await api(admin, 'GET', '/api/dept/lazy?pid=0')).json<Created[]>()[0].id;
    const mk = async (name: string, pid: number) => {
      const res = await api(admin, 'POST', '/api/dept', { name, pid, sort: 1, enabled: true });
      expect(res.statusCode, res.body).toBe(201);
      dept[name] = res.json<Created>().id;
    };
    await mk('甲公司', root);
    await mk('甲销售部', dept['甲公司']);
    await mk('甲销售一组', dept['甲销售部']);
    await mk('乙公司', root);
    dept['root'] = root;
    const keys = ['user:list', 'staffunZp:list', 'staffunZp:edit', 'staffunZp:del', 'staffunZp:download', 'staffunZp:add'];
    await createStaff(t.app, { username: 'all', password: PASSWORD, permissions: keys, dataScope: '全部', deptId: dept['乙公司'] });
    await createStaff(t.app, { username: 'own', password: PASSWORD, permissions: keys, dataScope: '本级', deptId: dept['甲销售部'] });
    const customId = await createStaff(t.app, {
      username: 'custom',
      password: PASSWORD,
      permissions: keys,
      dataScope: '自定义',
      deptId: dept['乙公司'],
    });
    const role = await t.app.database.db
      .selectFrom('sys_users_roles')
      .select('role_id')
      .where('user_id', '=', customId)
      .executeTakeFirstOrThrow();
    await t.app.database.db.insertInto('sys_roles_depts').values({ role_id: role.role_id, dept_id: dept['甲公司'] }).execute();
    for (const u of ['all', 'own', 'custom']) tokens[u] = await loginAs(t.app, u, PASSWORD);
    for (const d of ['甲公司', '甲销售部', '甲销售一组', '乙公司']) {
      const res = await api(admin, 'POST', '/api/staffunZp', {
        deptId: dept[d],
        job: `${d}岗位`,
        address: '郑州',
        jobZz: '职责',
        jobYq: '要求',
        jobNum: 1,
        enabled: true,
        money: '面议',
      });
      expect(res.statusCode, res.body).toBe(201);
      postings[d] = res.json<Created>().id;
    }
  }, 60_000);
  afterAll(() => t?.close());

  const body = (deptId: number, job: string, id?: number) => ({
    ...(id ? { id } : {}),
    deptId,
    job,
    address: '郑州',
    jobZz: '职责',
    jobYq: '要求',
    jobNum: 1,
    enabled: true,
    money: '面议',
  });
  const jobs = async (who: string) =>
    (await api(tokens[who], 'GET', '/api/staffunZp?size=100'))
      .json<Page<{ job: string }>>()
      .content.map((r) => r.job)
      .sort();
  const users = async (who: string) =>
    (await api(tokens[who], 'GET', '/api/users?size=100'))
      .json<Page<{ username: string }>>()
      .content.map((r) => r.username)
      .sort();

  it('全部 sees every row', async () => {
    expect(await jobs('all')).toEqual(['乙公司岗位', '甲公司岗位', '甲销售一组岗位', '甲销售部岗位'].sort());
    expect(await users('all')).toEqual(['admin', 'all', 'custom', 'own']);
  });

  it('本级 sees only its own department', async () => {
    expect(await jobs('own')).toEqual(['甲销售部岗位']);
    expect(await users('own')).toEqual(['own']);
    const depts = (await api(tokens.own, 'GET', '/api/dept?size=100')).json<Page>().content.map((d) => d.name);
    expect(depts).toEqual(['甲销售部']);
    // the tree shows the way down to it
    const tree = (await api(tokens.own, 'GET', '/api/dept/getDeptList')).json<DeptNode[]>();
    expect(tree[0].children[0].children[0].name).toBe('甲销售部');
    expect(tree[0].children).toHaveLength(1);
    // the ancestors are only the way down: marked, and not editable
    expect([tree[0].disabled, tree[0].children[0].disabled, tree[0].children[0].children[0].disabled]).toEqual([true, true, false]);
  });

  it('自定义 sees the chosen departments and everything below them', async () => {
    expect(await jobs('custom')).toEqual(['甲公司岗位', '甲销售一组岗位', '甲销售部岗位'].sort());
    const ids = (await api(tokens.custom, 'GET', '/api/dept?size=100'))
      .json<Page<{ name: string }>>()
      .content.map((d) => d.name)
      .sort();
    expect(ids).toEqual(['甲公司', '甲销售一组', '甲销售部'].sort());
  });

  it('filters, counts and exports stay inside the scope', async () => {
    const res = await api(tokens.own, 'GET', `/api/staffunZp?deptId=${dept['乙公司']}`);
    expect(res.json()).toEqual({ content: [], totalElements: 0 });
    const mine = await api(tokens.own, 'GET', '/api/staffunZp');
    expect(mine.json<Page>().totalElements).toBe(1);
    const xlsx = await api(tokens.own, 'GET', '/api/staffunZp/download');
    expect(xlsx.statusCode).toBe(200);
    const whole = await api(tokens.all, 'GET', '/api/staffunZp/download');
    expect(xlsx.rawPayload.length).toBeLessThan(whole.rawPayload.length);
  });

  it('writes outside the scope are refused and change nothing (a record outside it answers as a missing one)', async () => {
    const edit = await api(tokens.own, 'PUT', '/api/staffunZp', body(dept['乙公司'], '改了', postings['乙公司']));
    const absent = await api(tokens.own, 'PUT', '/api/staffunZp', body(dept['乙公司'], '改了', 987654));
    expect(edit.statusCode).toBe(404);
    expect(errorOf(edit).message).toBe(errorOf(absent).message);
    const move = await api(tokens.own, 'PUT', '/api/staffunZp', body(dept['乙公司'], '甲销售部岗位', postings['甲销售部']));
    expect(move.statusCode).toBe(403);
    const create = await api(tokens.own, 'POST', '/api/staffunZp', body(dept['乙公司'], '外部'));
    expect(create.statusCode).toBe(403);
    const del = await api(tokens.own, 'DELETE', '/api/staffunZp', [postings['甲销售部'], postings['乙公司']]);
    expect(del.statusCode).toBe(404);
    const move2 = await api(tokens.own, 'PUT', '/api/staffunZp', body(dept['乙公司'], '甲销售部岗位', postings['甲销售部']));
    expect(errorOf(move2).message).toBe('没有权限操作该部门的数据');
    expect((await jobs('all')).length).toBe(4);
    const ok = await api(tokens.own, 'PUT', '/api/staffunZp', body(dept['甲销售部'], '甲销售部岗位', postings['甲销售部']));
    expect(ok.statusCode).toBe(204);
  });

  it('a single posting by id follows the scope too', async () => {
    expect((await api(tokens.own, 'GET', `/api/staffunZp/getZpById?id=${postings['甲销售部']}`)).statusCode).toBe(200);
    // outside the scope it is not there for the caller: 404, as for an id that does not exist
    const outside = await api(tokens.own, 'GET', `/api/staffunZp/getZpById?id=${postings['乙公司']}`);
    expect(outside.statusCode).toBe(404);
    expect(errorOf(outside).message).toBe('数据不存在');
    expect((await api(tokens.custom, 'GET', `/api/staffunZp/getZpById?id=${postings['甲销售一组']}`)).statusCode).toBe(200);
  });

  it('users outside the scope cannot be changed; departments outside cannot be edited', async () => {
    const other = (await api(admin, 'GET', '/api/users?blurry=all')).json<Page<Created>>().content[0];
    const res = await api(tokens.own, 'POST', `/api/users/resetPass?userName=all&userid=${other.id}`);
    expect(res.statusCode).toBe(403);
    const dres = await api(admin, 'GET', '/api/users?size=100');
    expect(dres.json<Page>().totalElements).toBe(4);
  });

  it('the organisation of users/option is fixed to the own one without 全部', async () => {
    const missing = await api(tokens.own, 'GET', '/api/users/option');
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).message).toBe('请选择公司');
    const foreign = await api(tokens.own, 'GET', `/api/users/option?orgId=${dept['乙公司']}`);
    expect(foreign.statusCode).toBe(403);
    const own = await api(tokens.own, 'GET', `/api/users/option?orgId=${dept.root}&page=0&size=99999&sort=id,ASC`);
    expect(own.statusCode).toBe(200);
    // the organisation's users inside the scope: 本级 lists its own department only
    expect(own.json<Page>().content.map((u) => u.username)).toEqual(['own']);
    const everyone = await api(tokens.all, 'GET', `/api/users/option?orgId=${dept.root}`);
    expect(everyone.json<Page>().content.map((u) => u.username)).toEqual(expect.arrayContaining(['admin', 'own', 'custom', 'all']));
    const any = await api(tokens.all, 'GET', `/api/users/option?orgId=${dept['乙公司']}`);
    expect(any.statusCode).toBe(200);
  });
});
