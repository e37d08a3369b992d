import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sanitizeRichText } from '../../src/server/modules/help/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { Created, Page, Row } from '../support/answers.ts';

describe('rich text sanitising', () => {
  it('keeps structure, links and images; drops scripts, handlers and javascript: links', () => {
    expect(sanitizeRichText('<h3>标题</h3><p onclick="x()">段落<script>alert(1)</script></p>')).toBe('<h3>标题</h3><p>段落</p>');
    expect(sanitizeRichText('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichText('<a href="https://example.com" target="_blank">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeRichText('<img src="https://example.com/a.png" onerror="x()">')).toBe('<img src="https://example.com/a.png" />');
    expect(sanitizeRichText('<iframe src="https://evil"></iframe><style>p{}</style><table><tr><td colspan="2">格</td></tr></table>')).toBe(
      '<table><tr><td colspan="2">格</td></tr></table>',
    );
  });
});

describe.each(testApps())('menu help pages and job descriptions on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let menuId: number;

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    const menu = await app.database.db
      .selectFrom('sys_menu')
      .select('id')
      .where('permission', '=', 'timing:list')
      .executeTakeFirstOrThrow();
    menuId = Number(menu.id);
  });
  afterAll(async () => t?.close());

  it('stores pageRemark sanitised and answers it by menuId; one help page per menu', async () => {
    let res = await app.inject({
      method: 'POST',
      url: '/api/menuPage',
      headers: admin,
      payload: { menuId, title: '定时任务说明', pageRemark: '<p>说明<img src=x onerror=alert(1)></p><script>steal()</script>' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<Row>().pageRemark).toBe('<p>说明<img src="x" /></p>');
    const id = res.json<Created>().id;
    // the page is keyed by its menu (x-unique): a second page for it is refused, the first is edited instead
    res = await app.inject({
      method: 'POST',
      url: '/api/menuPage',
      headers: admin,
      payload: { menuId, title: '另一份说明', pageRemark: '<p>另</p>' },
    });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe(`菜单ID“${menuId}”已存在`);
    res = await app.inject({ method: 'GET', url: `/api/menuPage?menuId=${menuId}`, headers: admin });
    expect(res.json<Page>().totalElements).toBe(1);
    expect(res.json<Page>().content[0]).toMatchObject({ id, title: '定时任务说明', pageRemark: '<p>说明<img src="x" /></p>' });
    // an update is sanitised too
    res = await app.inject({
      method: 'PUT',
      url: '/api/menuPage',
      headers: admin,
      payload: { id, menuId, title: '定时任务说明', pageRemark: '<b onmouseover="x">粗</b>' },
    });
    expect(res.statusCode).toBe(204);
    const stored = await app.database.db.selectFrom('sys_menu_page').select('page_remark').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.page_remark).toBe('<b>粗</b>');
  });

  it('refuses missing fields, script-only content and an unknown menu', async () => {
    const post = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/menuPage', headers: admin, payload });
    let res = await post({ title: 't', pageRemark: '<p>x</p>' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('菜单不能为空');
    res = await post({ menuId, title: 't', pageRemark: '<script>x()</script>' });
    expect(errorOf(res).message).toBe('页面说明不能为空');
    res = await post({ menuId: 987654, title: 't', pageRemark: '<p>x</p>' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('菜单不存在：987654');
    res = await app.inject({ method: 'GET', url: '/api/menuPage?menuId=abc', headers: admin });
    expect(res.statusCode).toBe(400);
  });

  it('menuPage keys guard the writes; any signed-in user reads ("read": ["signedIn"])', async () => {
    await createStaff(app, { username: 'reader', password: 'Reader@2024', permissions: [] });
    const reader = bearer(await loginAs(app, 'reader', 'Reader@2024'));
    const res = await app.inject({
      method: 'POST',
      url: '/api/menuPage',
      headers: reader,
      payload: { menuId, title: 't', pageRemark: '<p>x</p>' },
    });
    expect(res.statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/menuPage?menuId=${menuId}`, headers: reader })).statusCode).toBe(200);
    const keys = await app.database.db
      .selectFrom('sys_menu')
      .select('permission')
      .where('permission', 'like', 'menuPage:%')
      .orderBy('permission')
      .execute();
    expect(keys.map((k): unknown => k.permission)).toEqual([
      'menuPage:add',
      'menuPage:del',
      'menuPage:download',
      'menuPage:edit',
      'menuPage:list',
    ]);
  });

  it('finds the menu of a screen path for the help button', async () => {
    let res = await app.inject({ method: 'GET', url: '/api/menuPage/menu?path=%2Fdj', headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ menuId, title: '定时任务' });
    res = await app.inject({ method: 'GET', url: '/api/menuPage/menu?path=brandTree', headers: admin });
    expect(res.json<Row>().title).toBe('品牌车型');
    res = await app.inject({ method: 'GET', url: '/api/menuPage/menu?path=%2Fnowhere', headers: admin });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toBe('当前页面没有对应的菜单');
    res = await app.inject({ method: 'GET', url: '/api/menuPage/menu', headers: admin });
    expect(res.statusCode).toBe(400);
  });

  it('job descriptions are stored sanitised, per role name', async () => {
    let res = await app.inject({
      method: 'POST',
      url: '/api/jobExplain',
      headers: admin,
      payload: { roleName: '销售顾问', content: '<p>接待客户<script>x</script></p>' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ roleName: '销售顾问', content: '<p>接待客户</p>', enabled: true, sort: 999 });
    res = await app.inject({ method: 'GET', url: `/api/jobExplain?roleName=${encodeURIComponent('销售')}&enabled=true`, headers: admin });
    expect(res.json<Page>().content.map((r) => r.roleName)).toEqual(['销售顾问']);
    res = await app.inject({ method: 'POST', url: '/api/jobExplain', headers: admin, payload: { roleName: '销售顾问', content: '  ' } });
    expect(res.statusCode).toBe(400);
  });
});

describe.each(testApps())('demo help on %s', (_name, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start({ seedDemo: true });
  });
  afterAll(async () => t?.close());

  it('seeds help for the jobs and brand screens and the admin job description', async () => {
    const pages = await t.app.database.db.selectFrom('sys_menu_page').select('title').orderBy('id').execute();
    expect(pages.map((p): unknown => p.title)).toEqual(['定时任务使用说明', '品牌车型维护说明']);
    const explains = await t.app.database.db.selectFrom('sys_job_explain').select('role_name').execute();
    expect(explains.map((e): unknown => e.role_name)).toEqual(['admin']);
  });
});
