/**
 * The smaller things seen on the walk through the staff console, one by one (issue: point 6):
 * 定时任务's 操作 column on screen at 1280 px; list filters kept per user on a shared browser;
 * the 10-tab warning once; the 404 page no tab; nobody listed online to themselves; the
 * applicant page's heading masked as its body, and its own tab title.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createStaff, loginAs } from '../server/auth-helpers.ts';
import { ADMIN, api, launchBrowser, newPage, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;
let adminToken: string;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  adminToken = await loginAs(product.app, ADMIN.username, ADMIN.password);
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15_000);
  await signInAs(page, product, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

const tabs = () => page.getByRole('tablist', { name: '已打开的页面' }).getByRole('tab');
const tabTitles = async () => (await tabs().allInnerTexts()).map((t) => t.trim());

describe('the walk through the staff console', () => {
  it('定时任务: the 操作 column is on screen at 1280 px', async () => {
    await page.goto(`${product.url}/#/dj`);
    const header = page.getByRole('columnheader', { name: '操作' });
    await header.waitFor();
    await page.getByRole('row').nth(1).waitFor();
    const box = (await header.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    const lastButton = page.getByRole('row').nth(1).getByRole('button').last();
    const b = (await lastButton.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(1280);
    await shot(page, 'walk-dj-1280', { fullPage: false });
  });
});
