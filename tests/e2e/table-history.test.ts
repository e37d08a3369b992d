/**
 * 历史记录 on the hand-written administration screens in a real browser: on 用户管理 a user
 * created and edited through the API shows its timeline from its row (newest first, who, when,
 * each changed field under its Chinese title, the department and roles by name); 恢复到此版本
 * after a confirmation brings the old nickname back and joins the timeline. On 角色管理 a role's
 * edit shows the same way. Screenshots: table-history-user.png, table-history-user-restored.png,
 * table-history-role.png.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN,
  api,
  launchBrowser,
  newPage,
  openFromMenu,
  shot,
  shotOnFailure,
  signInAs,
  startProduct,
  tokenOf,
  type Product,
} from './support.ts';
import { notice } from './list-helpers.ts';

let product: Product;
let browser: Browser;
let page: Page;
let token: string;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: false });
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15000);
  await signInAs(page, product, ADMIN);
  token = await tokenOf(page);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const created = (body: string) => (JSON.parse(body) as { id: number }).id;

describe('history of the hand-written administration screens', () => {
  it('用户管理: a user’s history from its row, and 恢复到此版本 after a confirmation', async () => {
    const root = (JSON.parse((await api(product, token, 'GET', '/api/dept/lazy?pid=0')).body) as Array<{ id: number }>)[0].id;
    const dept = await api(product, token, 'POST', '/api/dept', { name: '历史测试部', pid: root, sort: 1, enabled: true });
    const role = await api(product, token, 'POST', '/api/roles', { name: '历史测试岗', level: 3, dataScope: '本级', description: '' });
    const user = {
      username: 'history_user',
      nickName: '张历史',
      phone: '13800138011',
      sex: 1,
      enabled: true,
      deptId: created(dept.body),
      orgId: root,
      roles: [{ id: created(role.body) }],
    };
    const made = await api(product, token, 'POST', '/api/users', user);
    expect(made.status, made.body).toBe(201);
    const id = created(made.body);
    const edited = await api(product, token, 'PUT', '/api/users', { ...user, id, nickName: '张新名', enabled: false });
    expect(edited.status, edited.body).toBe(204);

    await openFromMenu(page, '用户管理', 'api/users');
    await page.getByRole('row').filter({ hasText: 'history_user' }).getByRole('button', { name: '历史记录' }).click();
    const dialog = page.getByRole('dialog', { name: /历史记录/ });
    const entries = dialog.getByTestId('history-entry');
    await entries.nth(1).waitFor();
    expect(await entries.count()).toBe(2);
    const newest = entries.first();
    const text = (await newest.textContent()) ?? '';
    expect(text).toContain('修改');
    expect(text).toContain('admin');
    expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    const cells = async (entry: typeof newest, title: string) =>
      (await entry.getByRole('row').filter({ hasText: title }).getByRole('cell').allTextContents()).map((t) => t.trim());
    expect(await cells(newest, '昵称')).toEqual(['昵称', '张历史', '张新名']);
    expect(await cells(newest, '状态')).toEqual(['状态', '启用', '禁用']);
    const first = entries.nth(1);
    expect(await first.textContent()).toContain('新增');
    expect((await cells(first, '部门'))[2]).toContain('历史测试部');
    expect((await cells(first, '岗位'))[2]).toContain('历史测试岗');
    await shot(page, 'table-history-user', { fullPage: false });

    await first.getByRole('button', { name: '恢复到此版本' }).click();
    await page.getByRole('dialog', { name: '恢复到此版本' }).getByRole('button', { name: '确定' }).click();
    await notice(page, '恢复成功').waitFor();
    await expect.poll(() => entries.count()).toBe(3);
    expect(await entries.first().textContent()).toContain('恢复');
    expect(await cells(entries.first(), '昵称')).toEqual(['昵称', '张新名', '张历史']);
    await shot(page, 'table-history-user-restored', { fullPage: false });
    await dialog.getByRole('button', { name: '关闭' }).click();
    const stored = JSON.parse((await api(product, token, 'GET', '/api/users?blurry=history_user')).body) as {
      content: Array<{ nickName: string; enabled: boolean }>;
    };
    expect(stored.content[0]).toMatchObject({ nickName: '张历史', enabled: true });
  });

  it('角色管理: a role’s history from its row', async () => {
    const role = await api(product, token, 'POST', '/api/roles', { name: '历史角色', level: 3, dataScope: '本级', description: '旧说明' });
    const id = created(role.body);
    const edited = await api(product, token, 'PUT', '/api/roles', {
      id,
      name: '历史角色',
      level: 4,
      dataScope: '本级',
      description: '新说明',
    });
    expect(edited.status, edited.body).toBe(204);
    await openFromMenu(page, '角色管理', 'api/roles');
    await page.getByRole('row').filter({ hasText: '历史角色' }).getByRole('button', { name: '历史记录' }).click();
    const dialog = page.getByRole('dialog', { name: /历史记录/ });
    const entries = dialog.getByTestId('history-entry');
    await entries.nth(1).waitFor();
    const rows = (await entries.first().getByRole('row').allTextContents()).map((t) => t.trim());
    expect(rows).toEqual(expect.arrayContaining(['角色级别34', '描述旧说明新说明']));
    await shot(page, 'table-history-role', { fullPage: false });
    await dialog.getByRole('button', { name: '关闭' }).click();
  });
});
