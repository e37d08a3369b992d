/**
 * The 系统管理 screens in Chromium: an empty 确定 on 用户, 角色, 菜单, 部门, 字典 and 业务字典 marks
 * the fields with the server's messages (shared definition, src/shared/admin-forms.ts) and sends
 * no request; a name already taken comes back from the server marked on its field.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { ADMIN, launchBrowser, newPage, openFromMenu, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;
const writes: string[] = [];

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15000);
  page.on('request', (r: Request) => {
    if (['POST', 'PUT', 'DELETE'].includes(r.method()) && new URL(r.url()).pathname.startsWith('/api/'))
      writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await signInAs(page, product, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

const SCREENS: Array<[string, string, string, string[]]> = [
  ['用户管理', 'api/users', '新增', ['用户名不能为空', '昵称不能为空', '请选择部门', '请选择岗位']],
  ['角色管理', 'api/roles', '新增', ['角色名称不能为空']],
  ['菜单管理', 'api/menus/getMenusByPid', '新增', ['菜单标题不能为空', '路由地址不能为空']],
  ['部门管理', 'api/dept/lazy', '新增', ['部门名称不能为空']],
  ['字典管理', 'api/dict', '新增', ['字典名称不能为空']],
  ['业务字典', 'api/busidict/list/0', '新增类别', ['名称不能为空', '编码不能为空']],
];

describe('系统管理 forms in the browser', () => {
  it.each(SCREENS)('%s: an empty 确定 marks the fields and sends nothing', async (title, path, add, messages) => {
    await openFromMenu(page, title, path);
    await page.locator('#main-content').getByRole('button', { name: add, exact: true }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const before = writes.length;
    await dialog.getByRole('button', { name: '确定' }).click();
    for (const m of messages) await dialog.getByText(m, { exact: true }).waitFor();
    expect(await dialog.locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(1);
    await shot(page, `admin-form-empty-${title}`, { fullPage: false });
    expect(writes.slice(before)).toEqual([]);
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('字典管理: a name already taken is marked on 字典名称', async () => {
    await openFromMenu(page, '字典管理', 'api/dict');
    // the first name once the list has loaded (a busy machine may still show the loading row)
    const firstCell = page.getByRole('table').first().getByRole('cell').first();
    let existing = '';
    await expect
      .poll(async () => (existing = (await firstCell.innerText().catch(() => '')).trim()), { timeout: 15000 })
      .toMatch(/^[A-Za-z0-9_]+$/);
    await page.locator('#main-content').getByRole('button', { name: '新增', exact: true }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /字典名称/ }).fill(existing);
    const sent = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/dict' && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: '确定' }).click();
    expect((await sent).status()).toBe(400);
    await dialog.getByText('字典名称已存在', { exact: true }).waitFor();
    expect(await dialog.getByRole('textbox', { name: /字典名称/ }).getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'admin-form-server-field', { fullPage: false });
    await dialog.getByRole('button', { name: '取消' }).click();
  });
});
