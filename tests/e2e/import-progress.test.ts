/**
 * A large import in the console, watched in Chromium: a file of several megabytes is sent over
 * a throttled upload link, the dialog's bar climbs through intermediate percentages with the
 * number beside it, 取消 stops an upload half-way (nothing is stored), and an upload left to
 * finish imports every row. The upload goes through the console's axios client (its
 * XMLHttpRequest adapter), the only way a browser reports upload progress.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { ADMIN, api, launchBrowser, newPage, shot, shotOnFailure, signInAs, startProduct, tokenOf, type Product } from './support.ts';
import type { Page as AnswerPage } from '../support/answers.ts';

const ROWS = 3000;

/** An xlsx of feedback rows whose long random Chinese content barely compresses: several MB. */
async function largeFeedbackFile(path: string): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet('问题反馈');
  sheet.addRow(['身份', '模块', '标题', '问题描述']).commit();
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < ROWS; i++) {
    let content = '';
    for (let c = 0; c < 900; c++) content += String.fromCharCode(0x4e00 + Math.floor(random() * 20000));
    sheet.addRow(['员工', '系统', `大文件导入${i + 1}`, content]).commit();
  }
  sheet.commit();
  await workbook.commit();
}

/** Samples the upload bar's percentage until the dialog says how the import ended. */
async function watchBar(page: Page, until: () => Promise<boolean>): Promise<number[]> {
  const seen: number[] = [];
  const bar = page.getByRole('progressbar', { name: '上传进度' });
  for (let i = 0; i < 600 && !(await until()); i++) {
    const now = await bar.getAttribute('aria-valuenow', { timeout: 200 }).catch(() => null);
    if (now !== null && seen.at(-1) !== Number(now)) seen.push(Number(now));
    await page.waitForTimeout(100);
  }
  return seen;
}

describe('importing a large file', () => {
  let product: Product;
  let browser: Browser;
  let page: Page | undefined;
  let dir: string;
  let file: string;
  let cdp: CDPSession;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'import-progress-'));
    file = join(dir, '问题反馈-大文件.xlsx');
    await largeFeedbackFile(file);
    product = await startProduct({ captchaEnabled: false, importAsyncThreshold: 100_000 });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the upload climbing with its percentage, cancels, then imports every row', async (ctx) => {
    try {
      const size = statSync(file).size;
      expect(size).toBeGreaterThan(3 * 1024 * 1024);
      expect(size).toBeLessThan(10 * 1024 * 1024);
      page = await newPage(browser);
      page.setDefaultTimeout(20_000);
      await signInAs(page, product, ADMIN);
      const token = await tokenOf(page);
      const before = (await api(product, token, 'GET', '/api/sysQuestion?size=1')).json<AnswerPage>().totalElements;

      await page.goto(`${product.url}/#/sysQuestion`);
      await page.getByRole('button', { name: '导入', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: '导入问题反馈' });
      await dialog.waitFor();

      // a slow uplink (about 1.5 MB/s): the upload takes seconds, as over a branch office's line
      cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: 1.5 * 1024 * 1024,
      });

      // 1. cancel half-way: nothing is stored, the dialog is ready for another file
      await page.locator('[data-testid="import-file"]').setInputFiles(file);
      const percent = dialog.getByTestId('transfer-percent');
      await expect
        .poll(async () => Number((await percent.innerText()).replace('%', '') || 0), { timeout: 20_000, interval: 100 })
        .toBeGreaterThan(10);
      await shot(page, 'import-progress-uploading', { fullPage: false });
      await dialog.getByRole('button', { name: '取消' }).click();
      await page.getByText('已取消').first().waitFor();
      await expect(dialog.getByRole('progressbar', { name: '上传进度' }).count()).resolves.toBe(0);
      expect((await api(product, token, 'GET', '/api/sysQuestion?size=1')).json<AnswerPage>().totalElements).toBe(before);

      // 2. the whole upload: the bar goes through intermediate values up to 100, then every row is in
      await page.locator('[data-testid="import-file"]').setInputFiles(file);
      const done = dialog.getByText(/导入成功|导入失败|第\d+行/);
      const seen = await watchBar(page, async () => (await done.count()) > 0);
      await done.first().waitFor({ timeout: 120_000 });
      await shot(page, 'import-progress-done', { fullPage: false });
      expect(await dialog.innerText()).toContain(`导入成功，共${ROWS}条`);
      const intermediate = seen.filter((p) => p > 0 && p < 100);
      expect(intermediate.length, `bar values seen: ${seen.join(',')}`).toBeGreaterThanOrEqual(3);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
      expect(seen.at(-1)).toBe(100);
      expect((await api(product, token, 'GET', '/api/sysQuestion?size=1')).json<AnswerPage>().totalElements).toBe(before + ROWS);
    } catch (err) {
      await shotOnFailure(page, ctx.task.name);
      throw err;
    }
  }, 240_000);
});
