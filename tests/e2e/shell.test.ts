/**
 * The console shell in a real browser: the tags view (11 screens opened: the 11th is refused
 * with 最多支持10个菜单项!, right-click 刷新 / 关闭 / 关闭其他 / 关闭全部, the pinned 首页),
 * the breadcrumb, the layout settings remembered after a reload, the fullscreen control; each
 * at 1280 px and in the mobile layout at 800 px (WIDTHS), and the sidebar at both.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { resourceByName } from '../../src/generated/resources.ts';
import { titleOf } from '../../src/web/staff/shell/titles.ts';
import { shot, shotOnFailure, startSignedInAsAdmin, VIEWPORT, WIDTHS, type Product } from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;

const modules = (resourceByName.sysQuestion.fields.find((f) => f.name === 'model')!.options ?? []).map((o) => String(o.value));
const tabs = () => page.getByTestId('tags-view').locator('.MuiChip-root');
const tabTitles = async () => (await tabs().allInnerTexts()).map((t) => t.trim());

/** Navigates and waits for the screen's tab to be the active one (unless the tab is refused). */
async function go(path: string, { tagged = true }: { tagged?: boolean } = {}): Promise<void> {
  await page.evaluate((p) => (window.location.hash = p), path);
  await page.waitForFunction((p) => decodeURIComponent(window.location.hash) === `#${p}`, path);
  if (tagged)
    await page
      .getByTestId('tags-view')
      .locator('[aria-current="page"]', { hasText: titleOf(path) })
      .waitFor();
}

const userMenu = () => page.getByRole('button', { name: '个人中心' }).first();

beforeAll(async () => {
  ({ product, browser, page } = await startSignedInAsAdmin());
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe.each(WIDTHS)('at $label', ({ viewport, suffix }) => {
  beforeAll(() => page.setViewportSize(viewport));
  afterAll(() => page.setViewportSize(VIEWPORT));

  describe('tags view', () => {
    it('keeps at most 10 tabs with 首页 pinned first', async () => {
      const paths = ['/dashboard', '/sysQuestion', '/staffunZp', '/user/center', ...modules.map((m) => `/sysQuestion:${m}`)];
      expect(paths.length).toBeGreaterThanOrEqual(11);
      for (const p of paths.slice(0, 10)) await go(p);
      await expect.poll(tabTitles).toHaveLength(10);
      expect((await tabTitles())[0]).toBe('首页');
      await go(paths[10], { tagged: false });
      await page.getByText('最多支持10个菜单项!').waitFor();
      expect(await tabTitles()).toHaveLength(10);
      await shot(page, `shell-tags-full${suffix}`, { fullPage: false });
    });

    it('right-click: 关闭其他 keeps 首页 and the chosen tab; 关闭 goes to the last tab; 关闭全部 goes home', async () => {
      await go('/sysQuestion');
      await page.getByTestId('tags-view').getByText('问题反馈', { exact: true }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: '刷新' }).waitFor();
      await shot(page, `shell-tags-menu${suffix}`, { fullPage: false });
      await page.getByRole('menuitem', { name: '关闭其他' }).click();
      await expect.poll(tabTitles).toEqual(['首页', '问题反馈']);
      await go('/staffunZp');
      await expect.poll(tabTitles).toEqual(['首页', '问题反馈', '人事招聘信息']);
      // 首页 has no close control
      expect(await tabs().first().locator('.MuiChip-deleteIcon').count()).toBe(0);
      await tabs().nth(2).locator('.MuiChip-deleteIcon').click();
      await page.waitForFunction(() => window.location.hash === '#/sysQuestion');
      await page.getByTestId('tags-view').getByText('问题反馈', { exact: true }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: '关闭全部' }).click();
      await page.waitForFunction(() => window.location.hash === '#/dashboard');
      expect(await tabTitles()).toEqual(['首页']);
    });

    // (this test found the tags view losing a screen's tab when 关闭全部's way home was
    // superseded by the next visit; tests/web/tags-view.test.tsx holds that case now)
    it('刷新 reloads the screen and keeps the query', { retry: 2 }, async () => {
      await go('/sysQuestion');
      await page.getByRole('table').waitFor();
      const lists: string[] = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname === '/api/sysQuestion') lists.push(url.search);
      });
      await page.getByTestId('tags-view').getByText('问题反馈', { exact: true }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: '刷新' }).click();
      await expect.poll(() => lists.length).toBeGreaterThan(0);
      await page.waitForFunction(() => window.location.hash.startsWith('#/sysQuestion'));
      await page.getByRole('table').waitFor();
    });
  });

  describe('navigation the browser makes', () => {
    const crumbs = () => page.getByRole('navigation', { name: '面包屑' });
    it('an address typed in the address bar, 后退 and 前进 move the console', async () => {
      await go('/dashboard');
      // page.goto to the same page with another hash is what the address bar does: a fragment
      // navigation made by the browser, not by the page
      await page.goto(`${product.url}/#/sysQuestion`);
      await expect.poll(() => crumbs().innerText()).toMatch(/首页\s*\/\s*问题反馈/);
      await page.getByRole('table').waitFor();
      await page.goto(`${product.url}/#/staffunZp`);
      await expect.poll(() => crumbs().innerText()).toMatch(/人事招聘信息/);
      await page.goBack();
      await expect.poll(() => crumbs().innerText()).toMatch(/问题反馈/);
      await page.goForward();
      await expect.poll(() => crumbs().innerText()).toMatch(/人事招聘信息/);
    });
  });

  describe('header', () => {
    it('shows the breadcrumb 首页 / screen', async () => {
      await go('/staffunZp');
      const crumbs = page.getByRole('navigation', { name: '面包屑' });
      await expect.poll(() => crumbs.innerText()).toMatch(/首页\s*\/\s*人事招聘信息/);
      await shot(page, `shell-breadcrumb${suffix}`, { fullPage: false });
    });

    it('layout settings are remembered after a reload', async () => {
      await userMenu().click();
      await page.getByRole('menuitem', { name: '布局设置' }).click();
      const drawer = page.locator('.MuiDrawer-paper').filter({ hasText: '系统布局设置' });
      await drawer.waitFor();
      await drawer.getByRole('radio', { name: '#1f6fc5' }).click();
      await drawer.getByLabel('开启 Tags-Views').click();
      await shot(page, `shell-settings${suffix}`, { fullPage: false });
      await expect.poll(() => page.getByTestId('tags-view').count()).toBe(0);
      await page.keyboard.press('Escape');
      await page.reload();
      await page.getByRole('navigation', { name: '面包屑' }).waitFor();
      expect(await page.getByTestId('tags-view').count()).toBe(0);
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('shell.preferences') || '{}') as Record<string, unknown>);
      expect(stored).toMatchObject({ theme: '#1f6fc5', tagsView: false });
      // the primary colour follows the theme
      const color = await page
        .locator('header')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(color).toBeTruthy();
      await userMenu().click();
      await page.getByRole('menuitem', { name: '布局设置' }).click();
      await page.locator('.MuiDrawer-paper').getByRole('button', { name: '恢复默认' }).click();
      await expect.poll(() => page.getByTestId('tags-view').count()).toBe(1);
      await page.keyboard.press('Escape');
    });

    it('查找菜单 finds a screen by part of its name and opens it', async () => {
      await go('/dashboard');
      await page.getByRole('button', { name: '查找菜单' }).click();
      const box = page.getByRole('combobox', { name: '查找菜单' });
      await box.fill('招聘');
      await page.getByRole('option', { name: '人事招聘信息' }).waitFor();
      await shot(page, `shell-menu-search${suffix}`, { fullPage: false });
      await box.press('Enter');
      await page.waitForFunction(() => window.location.hash === '#/staffunZp');
    });
  });
});

describe('sidebar and fullscreen', () => {
  it('sidebar: 205 px open, 50 px closed, remembered after a reload', async () => {
    const drawer = page.locator('.RaSidebar-fixed').first();
    await expect.poll(async () => Math.round((await drawer.boundingBox())!.width)).toBe(205);
    await page
      .getByRole('button', { name: /关闭菜单|Close menu|打开菜单|Open menu/ })
      .first()
      .click();
    await expect.poll(async () => Math.round((await drawer.boundingBox())!.width)).toBe(50);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('sidebarStatus'))).toBe('0');
    // folded, each directory is one icon row: its title does not wrap into a tall gap
    const heights = await page
      .locator('.RaSidebar-fixed [aria-expanded]')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThanOrEqual(7);
    for (const h of heights) expect(h).toBeLessThan(60);
    await page.reload();
    await page.getByRole('navigation', { name: '面包屑' }).waitFor();
    await expect.poll(async () => Math.round((await page.locator('.RaSidebar-fixed').first().boundingBox())!.width)).toBe(50);
    await page
      .getByRole('button', { name: /关闭菜单|Close menu|打开菜单|Open menu/ })
      .first()
      .click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('sidebarStatus'))).toBe('1');
  });

  it('below 992 px the layout turns mobile: the sidebar leaves for a drawer the menu button opens; back above it is docked again', async () => {
    await go('/dashboard');
    const desktopChoice = await page.evaluate(() => localStorage.getItem('sidebarStatus'));
    await page.setViewportSize({ width: 800, height: 900 });
    // no docked sidebar: the screen starts at the left edge
    await expect.poll(() => page.locator('.RaSidebar-fixed').count()).toBe(0);
    await expect.poll(async () => Math.round((await page.getByTestId('tags-view').boundingBox())!.x)).toBeLessThan(30);
    await shot(page, 'shell-800px', { fullPage: false });
    // the desktop choice is untouched
    expect(await page.evaluate(() => localStorage.getItem('sidebarStatus'))).toBe(desktopChoice);
    await page
      .getByRole('button', { name: /打开菜单|关闭菜单/ })
      .first()
      .click();
    const drawer = page.locator('.MuiDrawer-modal');
    await drawer.getByRole('menuitem', { name: '首页' }).waitFor();
    await shot(page, 'shell-800px-menu', { fullPage: false });
    // a pick opens the screen and closes the drawer
    const item = drawer.getByRole('menuitem', { name: '人事招聘信息' });
    if (!(await item.isVisible())) await drawer.locator('[aria-expanded="false"]', { hasText: '人事管理' }).click();
    await item.click();
    await page.waitForFunction(() => window.location.hash === '#/staffunZp');
    await expect.poll(() => drawer.count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => Math.round((await page.locator('.RaSidebar-fixed').first().boundingBox())!.width)).toBe(205);
  });

  it('a phone-wide window: the list toolbar wraps inside it, and columns keep their width while the table scrolls sideways', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    try {
      await go('/sysQuestion');
      await page.locator('table tbody tr.RaDatagrid-row').first().waitFor();
      const buttons = await page
        .getByTestId('list-toolbar')
        .getByRole('button')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
      expect(buttons.length).toBeGreaterThanOrEqual(4);
      for (const [left, right] of buttons) {
        expect(left).toBeGreaterThanOrEqual(0);
        expect(right).toBeLessThanOrEqual(375);
      }
      // text cells: at least 8em (13 px type) rather than one character a line
      const widths = await page
        .locator('tbody tr.RaDatagrid-row')
        .first()
        .locator('td.RaDatagrid-rowCell')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
      expect(Math.min(...widths)).toBeGreaterThanOrEqual(100);
      const content = page.locator('.RaList-content').first();
      expect(await content.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await shot(page, 'shell-375px-list', { fullPage: false });
    } finally {
      await page.setViewportSize(VIEWPORT);
    }
  });

  it('reduced motion (the browser setting) drops the animations; otherwise the sidebar animates', async () => {
    const transition = (p: Page) =>
      p
        .locator('.MuiDrawer-docked .MuiDrawer-paper')
        .first()
        .evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(await transition(page)).toBe('0s');
    const animated = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const other = await animated.newPage();
    await other.goto(product.url);
    await other.context().addCookies(await page.context().cookies());
    await other.goto(`${product.url}/#/dashboard`);
    await other.locator('.RaSidebar-fixed').first().waitFor();
    expect(await transition(other)).not.toBe('0s');
    await animated.close();
  });

  it('offers a fullscreen toggle', async () => {
    await page.getByRole('button', { name: '全屏' }).click();
    await expect
      .poll(() => page.evaluate(() => !!document.fullscreenElement || document.body.innerText.includes('you browser can not work')))
      .toBe(true);
  });
});
