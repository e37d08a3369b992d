/**
 * A staff user whose role holds only the feedback menu (sysQuestion:list) and no button key:
 * the feedback list shows its rows, but the toolbar offers none of 新增/修改/删除/导出/导入,
 * there is no action column and the status radios are read-only. Compared with admin on the
 * same screen so the check cannot pass because the screen failed to render. A user without
 * the menu does not see it in the sidebar and gets the no-permission page at its address.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createStaff, loginAs } from '../server/auth-helpers.ts';
import { ADMIN, api, launchBrowser, newPage, openFromMenu, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';
import { dataRows, totalText } from './list-helpers.ts';

const PATH = 'api/sysQuestion';
const TOOLBAR_BUTTONS = ['新增', '查看', '删除', '导出', '导入', '回收站'];
const VIEWER = { username: 'viewer01', password: 'Viewer@2024' };
const NOBODY = { username: 'nobody01', password: 'Nobody@2024' };

let product: Product;
let browser: Browser;
let page: Page | undefined;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  await createStaff(product.app, { ...VIEWER, permissions: ['sysQuestion:list'] });
  await createStaff(product.app, { ...NOBODY, permissions: [] });
  browser = await launchBrowser();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

async function toolbarButtons(p: Page): Promise<string[]> {
  const toolbar = p.getByTestId('list-toolbar');
  await toolbar.waitFor({ state: 'attached' });
  // text buttons only (the column picker is an icon)
  return (await toolbar.getByRole('button').allTextContents()).map((t) => t.trim()).filter(Boolean);
}

describe('feedback list without permissions', () => {
  it('admin sees every toolbar button (the reference)', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(15000);
    await signInAs(page, product, ADMIN);
    await openFromMenu(page, '问题反馈', PATH);
    await expect.poll(() => toolbarButtons(page!)).toEqual(TOOLBAR_BUTTONS);
    await page.context().close();
  });

  it('a user without the menu: not in the sidebar, and its address shows the no-permission page', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(15000);
    await signInAs(page, product, NOBODY);
    await page.waitForURL(/#\/dashboard/);
    await page.locator('.RaSidebar-fixed').getByRole('menuitem', { name: '首页' }).waitFor();
    expect(await page.locator('.RaSidebar-fixed').getByText('问题反馈').count()).toBe(0);
    expect(await page.locator('.RaSidebar-fixed').getByText('系统管理').count()).toBe(0);
    await page.evaluate(() => (window.location.hash = '/sysQuestion'));
    await page.getByText('抱歉，您无权访问该页面').waitFor();
    await shot(page, 'permissions-no-menu', { fullPage: false });
    await page.context().close();
  });

  it('a user with the menu but no button keys sees the rows but no actions', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(15000);
    await signInAs(page, product, VIEWER);
    // no default-password flag: the home page, not the personal centre
    await page.waitForURL(/#\/dashboard/);
    await openFromMenu(page, '问题反馈', PATH);
    // the same rows the API gives this user
    const viewerToken = await loginAs(product.app, VIEWER.username, VIEWER.password);
    const listed = await api(product, viewerToken, 'GET', `/${PATH}?page=0&size=1`);
    expect(listed.status).toBe(200);
    const total = listed.json<{ totalElements: number }>().totalElements;
    expect(total).toBeGreaterThan(15);
    await totalText(page, total).waitFor();
    await expect.poll(() => dataRows(page!).count()).toBe(15);
    // the permission check has settled once the columns are there
    const headers = page.getByRole('table').getByRole('columnheader');
    await expect
      .poll(async () => (await headers.allTextContents()).map((t) => t.trim()).filter(Boolean))
      .toEqual(['身份', '模块', '标题', '问题描述', '优化建议', '创建时间', '状态', '操作']);
    expect(await toolbarButtons(page)).toEqual([]);
    for (const name of TOOLBAR_BUTTONS.filter((n) => n !== '查看'))
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    // a row opens read-only (查看) and shows its history (the list key reads both); nothing edits or deletes
    const actions = await dataRows(page)
      .first()
      .getByRole('button')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(actions).toEqual(['查看', '历史记录']);
    const radios = dataRows(page).first().getByRole('radio');
    expect(await radios.count()).toBe(2);
    for (const radio of await radios.all()) expect(await radio.isDisabled()).toBe(true);
    await shot(page, 'feedback-no-permissions');
  });
});
