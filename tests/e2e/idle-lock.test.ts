/**
 * Idle lock in a real browser with a virtual clock: a user with lockTime 1 minute gets the
 * 30-second warning (cancellable), then the lock dialog; the server session ends at the lock;
 * signing in again in the dialog restores the page where it was. Both at 1280 px and in the
 * mobile layout at 800 px.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN,
  api,
  launchBrowser,
  newPage,
  shot,
  shotOnFailure,
  signInAs,
  startProduct,
  tokenOf,
  WIDTHS,
  type Product,
} from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  await product.app.database.db.updateTable('sys_user').set({ lock_time: 1 }).where('username', '=', ADMIN.username).execute();
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15000);
  await page.clock.install();
  await signInAs(page, product, ADMIN);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe.each(WIDTHS)('at $label', ({ viewport, suffix }) => {
  beforeAll(() => page.setViewportSize(viewport));

  describe('idle lock', () => {
    it('warns 30 s before the lock; 取消 restarts the clock', async () => {
      await page.evaluate(() => (window.location.hash = '/sysQuestion'));
      await page.getByRole('table').waitFor();
      await page.clock.runFor(31_000);
      const warning = page.getByRole('dialog', { name: '系统提示' });
      await warning.waitFor();
      expect(Number(await page.getByTestId('idle-countdown').innerText())).toBeLessThanOrEqual(30);
      await shot(page, `idle-warning${suffix}`, { fullPage: false });
      await warning.getByRole('button', { name: '取消' }).click();
      await warning.waitFor({ state: 'hidden' });
      await page.clock.runFor(20_000);
      expect(await page.getByRole('dialog', { name: '系统提示' }).count()).toBe(0);
    });

    it('locks at lockTime, ends the server session, and unlocks with the password', async () => {
      const token = await tokenOf(page);
      await page.clock.runFor(61_000);
      const lock = page.getByRole('dialog', { name: '系统已锁定' });
      await lock.waitFor();
      await expect.poll(async () => (await api(product, token, 'GET', '/api/info')).status).toBe(401);
      await lock.getByRole('button', { name: '解 锁' }).click();
      await lock.getByText('密码不能为空').waitFor();
      await shot(page, `idle-locked${suffix}`, { fullPage: false });
      await lock.getByLabel('密码', { exact: false }).fill('wrong-password-1');
      await lock.getByRole('button', { name: '解 锁' }).click();
      await lock.getByRole('alert').filter({ hasNotText: '密码不能为空' }).waitFor();
      await lock.getByLabel('密码', { exact: false }).fill(ADMIN.password);
      await lock.getByRole('button', { name: '解 锁' }).click();
      await lock.waitFor({ state: 'hidden' });
      // the page is where it was, with a live session
      expect(await page.evaluate(() => window.location.hash)).toBe('#/sysQuestion');
      const fresh = await tokenOf(page);
      expect(fresh).not.toBe(token);
      expect((await api(product, fresh, 'GET', '/api/info')).status).toBe(200);
    });
  });
});
