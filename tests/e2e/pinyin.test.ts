/**
 * Pinyin search in the browser: the 查找菜单 box and a reference picker of a generated form find
 * Chinese names by initials, full pinyin and mixed forms, with the matched characters marked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { shot, shotOnFailure, startSignedInAsAdmin, type Product } from './support.ts';

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

const marked = (option: ReturnType<Page['getByRole']>) => option.getByTestId('match').allTextContents();

describe('pinyin search', () => {
  it('查找菜单 finds 用户管理 by yhgl, yonghu and yhguanli, the matched characters marked', async () => {
    await page.getByRole('button', { name: '查找菜单' }).click();
    const box = page.getByRole('combobox', { name: '查找菜单' });
    for (const [query, mark] of [
      ['yonghu', '用户'],
      ['yhguanli', '用户管理'],
      ['YHGL', '用户管理'],
    ] as const) {
      await box.fill(query);
      const option = page.getByRole('option').filter({ hasText: /^用户管理$/ });
      await option.waitFor();
      await expect.poll(() => marked(option)).toEqual([mark]);
    }
    await box.fill('rszp');
    await page
      .getByRole('option')
      .filter({ hasText: /^人事招聘信息$/ })
      .waitFor();
    await shot(page, 'pinyin-menu-search', { fullPage: false });
    await box.press('Enter');
    await page.waitForFunction(() => window.location.hash === '#/staffunZp');
  });

  it('a reference picker finds 销售部 by xsb and xiaoshou, 售后服务部 by shfw', async () => {
    if (!(await page.evaluate(() => window.location.hash === '#/staffunZp'))) {
      await page.evaluate(() => (window.location.hash = '/staffunZp'));
    }
    await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '新增人事招聘信息' }).waitFor();
    const picker = dialog.getByRole('combobox', { name: /^所属部门/ });
    await picker.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option').first().waitFor();
    const all = await listbox.getByRole('option').count();
    expect(all).toBeGreaterThan(2);

    await picker.fill('shfw');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['售后服务部']);
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['售后服务']);
    await picker.fill('xiaoshou');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toContain('销售部');
    await picker.fill('xsb');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['销售部']);
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['销售部']);
    await shot(page, 'pinyin-picker', { fullPage: false });
    await listbox
      .getByRole('option')
      .filter({ hasText: /^销售部$/ })
      .click();
    expect(await picker.inputValue()).toBe('销售部');
    // the chosen value in the box lists every department again, as a select does
    await picker.click();
    await expect.poll(() => listbox.getByRole('option').count()).toBe(all);
    await page.keyboard.press('Escape');
  });
});
