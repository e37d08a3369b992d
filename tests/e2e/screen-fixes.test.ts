/**
 * Screens a new user met first, in a browser (admin on the demo data): opening `/` keeps one
 * 首页 tab; 用户管理's 操作 column is in view at 1280 px; at 375 px the roster (员工花名册) shows
 * its search box and a 筛选 button above the table, the other filters behind it; every pager
 * reads "第 a-b 条，共 n 条" with 每页条数; the operation log names resources by their Chinese
 * titles; the product's name is the same on the sign-in page, the sidebar and the page title.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_PRODUCT_NAME } from '../../src/shared/product.ts';
import { newPage, shot, shotOnFailure, startSignedInAsAdmin, VIEWPORT, type Product } from './support.ts';
import { totalText } from './list-helpers.ts';

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ product, browser, page } = await startSignedInAsAdmin());
});
beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));
afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const tabTitles = async () => (await page.getByTestId('tags-view').locator('.MuiChip-root').allInnerTexts()).map((t) => t.trim());

async function go(hash: string): Promise<void> {
  await page.evaluate((h) => (window.location.hash = h), hash);
}

describe('screens', () => {
  it('opening / after sign-in goes to 首页 without a second 首页 tab', async () => {
    await page.goto(`${product.url}/`);
    await page.waitForFunction(() => window.location.hash === '#/dashboard');
    await page.getByTestId('todo-unreadMessages').waitFor();
    await go('/');
    await page.waitForFunction(() => window.location.hash === '#/dashboard');
    // the sidebar's brand links to / as well
    await page.getByTestId('sidebar-brand').click();
    await page.waitForFunction(() => window.location.hash === '#/dashboard');
    expect((await tabTitles()).filter((t) => t === '首页')).toHaveLength(1);
    await page.reload();
    await page.getByTestId('tags-view').waitFor();
    expect((await tabTitles()).filter((t) => t === '首页')).toHaveLength(1);
  });

  it('one product name on the sign-in page, the sidebar and the page title', async () => {
    await go('/dashboard');
    await expect.poll(() => page.getByTestId('sidebar-brand').innerText()).toBe(DEFAULT_PRODUCT_NAME);
    await expect.poll(() => page.title()).toContain(DEFAULT_PRODUCT_NAME);
    const other = await newPage(browser);
    await other.goto(`${product.url}/#/login`);
    await other.getByText(DEFAULT_PRODUCT_NAME, { exact: true }).first().waitFor();
    await other.goto(`${product.url}/#/jxsLogin`);
    await other.getByText(DEFAULT_PRODUCT_NAME, { exact: true }).first().waitFor();
    await other.context().close();
  });

  it('用户管理 at 1280 px: the 操作 column and its buttons are in view', async () => {
    await page.setViewportSize(VIEWPORT);
    await go('/system/user');
    const table = page.getByRole('table', { name: '用户列表' });
    const edit = table.getByRole('button', { name: '编辑' }).first();
    await edit.waitFor();
    const header = table.getByRole('columnheader', { name: '操作' });
    const pane = await table.evaluate((t) => t.parentElement!.getBoundingClientRect().toJSON() as DOMRect);
    for (const part of [header, edit, table.getByRole('button', { name: '重置密码' }).first()]) {
      const box = (await part.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(pane.x);
      expect(box.x + box.width).toBeLessThanOrEqual(pane.x + pane.width + 0.5);
      expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORT.width);
    }
    // the pager reads as every other one
    await page.getByText(/^第 1-\d+ 条，共 \d+ 条$/).waitFor();
    await page.getByText('每页条数', { exact: true }).waitFor();
    await shot(page, 'fixes-user-admin-1280', { fullPage: false });
  });

  it('generated lists read their pager the same way', async () => {
    await go('/sysQuestion');
    await totalText(page, 36).waitFor();
    expect(await page.getByText(/^第 1-15 条，共 36 条$/).count()).toBe(1);
    await page.getByText('每页条数', { exact: true }).waitFor();
  });

  it('员工花名册 at 375 px: the search box and 筛选 above the table, the other filters behind 筛选', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      await go('/staff');
      // 筛选, or 筛选（n） with n filters in use
      const toggle = page.getByRole('button', { name: /^筛选(（\d+）)?$/ });
      await toggle.waitFor();
      const visibleFilters = () => page.locator('.filter-field[data-source]:visible').count();
      expect(await visibleFilters()).toBe(1);
      const table = page.locator('.RaList-content table:visible').first();
      await table.locator('tbody tr').first().waitFor();
      // the screen before may still be fading out, or the list re-rendering: ask until the
      // roster's own table has settled in view
      await expect.poll(async () => (await table.boundingBox())?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(400);
      await shot(page, 'fixes-roster-375-folded', { fullPage: false });
      await toggle.click();
      const fold = page.getByRole('button', { name: '收起筛选' });
      expect(await fold.getAttribute('aria-expanded')).toBe('true');
      expect(await visibleFilters()).toBeGreaterThanOrEqual(10);
      await shot(page, 'fixes-roster-375-open');
      await fold.click();
      expect(await visibleFilters()).toBe(1);
    } finally {
      await page.setViewportSize(VIEWPORT);
    }
  });

  it('the operation log names the resource of a full personal-data read by its title', async () => {
    // the roster and 用户管理 were read in full above (admin sees personal data)
    await go('/logs');
    const rows = page.getByRole('table').locator('tbody');
    await rows
      .getByText(/^查看完整个人信息：员工花名册/)
      .first()
      .waitFor();
    await rows
      .getByText(/^查看完整个人信息：用户，/)
      .first()
      .waitFor();
    expect(await rows.getByText(/查看完整个人信息：(staff|user|sysQuestion)\b/).count()).toBe(0);
    await shot(page, 'fixes-logs', { fullPage: false });
  });
});
