/**
 * The spec's screens that were missing, in Chromium:
 * - 系统设置: the administrator uploads a favicon, logo and home image and sets the company name
 *   and filing number; the sidebar, the dashboard, the footer, /favicon.ico and (signed out) the
 *   sign-in page show them; no page load asks for a favicon that is not there;
 * - /explain opens the usage guide;
 * - the import dialog's 下载模板 saves a template that, uploaded as it is, imports;
 * - the dealer's 锁屏时间: chosen in the personal-centre menu, then the idle warning, the lock
 *   and unlocking with the password (a virtual clock).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN,
  api,
  launchBrowser,
  newPage,
  openFromMenu,
  pending,
  shot,
  shotOnFailure,
  signInAs,
  startProduct,
  tokenOf,
  type Product,
} from './support.ts';
import { encodePng } from '../../src/server/modules/system/settings.ts';

let product: Product;
let browser: Browser;
let page: Page;
const dir = mkdtempSync(join(tmpdir(), 'spec-screens-'));

/** A PNG of the given size, each pixel coloured by `paint`. */
function picture(name: string, width: number, height: number, paint: (x: number, y: number) => [number, number, number]): string {
  const px = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) px.set([...paint(x, y), 255], (y * width + x) * 4);
  const file = join(dir, name);
  writeFileSync(file, encodePng(width, height, px));
  return file;
}

const FAVICON = picture('favicon.png', 32, 32, (x, y) => (((x >> 3) + (y >> 3)) % 2 ? [220, 30, 60] : [255, 200, 0]));
const LOGO = picture('logo.png', 96, 32, (x) => (x < 48 ? [0, 150, 80] : [20, 90, 200]));
const HOME = picture('home.png', 640, 200, (x, y) => [Math.round((x / 640) * 255), 120, Math.round((y / 200) * 255)]);

const missingFavicons: string[] = [];

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15000);
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/favicon.ico' && r.status() !== 200) missingFavicons.push(`${r.status()} ${r.url()}`);
  });
  await signInAs(page, product, ADMIN);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('系统设置', () => {
  it('serves a default favicon and links it from the page before anything is set', async () => {
    const res = await page.request.get(`${product.url}/favicon.ico`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('image/png');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.ico');
  });

  it('the administrator sets the favicon, logo, home image, company name and filing number', async () => {
    await page.evaluate(() => (window.location.hash = '/dashboard'));
    const load = pending(
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/system/sysConfig' && r.request().method() === 'GET'),
    );
    const item = page.getByRole('menuitem', { name: '系统设置' });
    await page.locator('.RaSidebar-fixed').getByRole('menuitem', { name: '首页' }).waitFor();
    if (!(await item.isVisible())) await page.locator('.RaSidebar-fixed').getByText('系统管理', { exact: true }).click();
    await item.click();
    expect((await load).status()).toBe(200);
    const form = page.getByRole('form', { name: '系统设置' });
    await form.waitFor();
    await form.getByLabel('公司名称').fill('顺达汽车集团');
    await form.getByLabel('系统名称').fill('顺达车商管理系统');
    await form.getByLabel('备案号').fill('沪ICP备12345678号-1');
    for (const [label, file] of [
      ['网站图标', FAVICON],
      ['系统Logo', LOGO],
      ['首页图片', HOME],
    ] as const) {
      const up = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/pictures'));
      await form.getByLabel(`上传${label}`).setInputFiles(file);
      expect((await up).status()).toBe(201);
      await form.getByRole('img', { name: label }).waitFor();
    }
    await shot(page, 'settings-01-form');
    const save = pending(
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/system/sysConfig' && r.request().method() === 'PUT'),
    );
    await form.getByRole('button', { name: '保存' }).click();
    expect((await save).status()).toBe(204);
    await page.getByText('保存成功').waitFor();

    // the sidebar shows the new logo and the product's name at once, the footer the company and filing number
    const brand = page.getByTestId('sidebar-brand');
    await expect.poll(() => brand.innerText()).toBe('顺达车商管理系统');
    await expect.poll(() => brand.getByRole('img', { name: 'Logo' }).getAttribute('src')).toMatch(/^\/api\/files\/[0-9a-f]{32}$/);
    await expect.poll(() => page.getByTestId('record-number').innerText()).toContain('沪ICP备12345678号-1');
    // the page's icon is /favicon.ico, versioned by the upload, and it serves the uploaded picture
    await expect.poll(() => page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^\/favicon\.ico\?v=[0-9a-f]{12}$/);
    const icon = await page.request.get(`${product.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(Buffer.from(await icon.body()).equals(readFileSync(FAVICON))).toBe(true);
    await shot(page, 'settings-02-saved-sidebar', { fullPage: false });
  });

  it('the dashboard shows the home image; a reload keeps everything', async () => {
    await page.reload();
    await page.evaluate(() => (window.location.hash = '/dashboard'));
    const home = page.getByRole('img', { name: '首页' });
    await home.waitFor();
    await expect.poll(() => home.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
    expect(await page.getByTestId('sidebar-brand').innerText()).toBe('顺达车商管理系统');
    expect(await page.getByTestId('record-number').innerText()).toContain('沪ICP备12345678号-1');
    await shot(page, 'settings-03-dashboard');
  });

  it('the sign-in page shows the company and filing number; its favicon is the uploaded one', async () => {
    const other = await newPage(browser);
    other.on('response', (r) => {
      if (new URL(r.url()).pathname === '/favicon.ico' && r.status() !== 200) missingFavicons.push(`${r.status()} ${r.url()}`);
    });
    await other.goto(`${product.url}/#/login`);
    const footer = other.getByTestId('record-number');
    await footer.waitFor();
    expect(await footer.innerText()).toBe('版权所有 © 顺达汽车集团 | 沪ICP备12345678号-1');
    // the same product name as the sidebar, the page title and the API document
    await other.getByText('顺达车商管理系统', { exact: true }).first().waitFor();
    const doc = await other.request.get(`${product.url}/api/docs/openapi.json`);
    expect(((await doc.json()) as { info: { title: string } }).info.title).toBe('顺达车商管理系统 API');
    await expect.poll(() => other.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^\/favicon\.ico\?v=[0-9a-f]{12}$/);
    const href = await other.locator('link[rel="icon"]').getAttribute('href');
    const icon = await other.request.get(`${product.url}${href}`);
    expect(Buffer.from(await icon.body()).equals(readFileSync(FAVICON))).toBe(true);
    await shot(other, 'settings-04-login');
    // the dealer sign-in and the applicant form carry the filing number too
    await other.goto(`${product.url}/#/jxsLogin`);
    await other.getByTestId('record-number').waitFor();
    expect(await other.getByTestId('record-number').innerText()).toContain('沪ICP备12345678号-1');
    await other.context().close();
  });

  it('no page load met a missing favicon', () => {
    expect(missingFavicons).toEqual([]);
  });
});

describe('/explain', () => {
  it('opens the usage guide', async () => {
    await page.evaluate(() => (window.location.hash = '/explain'));
    await page.getByRole('tab', { name: '人力行政' }).waitFor();
    expect(await page.getByText('页面不存在').count()).toBe(0);
    await page.getByRole('link', { name: '操作文档' }).first().waitFor();
    await shot(page, 'explain-01-usage-guide');
  });
});

describe('import template', () => {
  it('下载模板 saves a template that imports as downloaded', async () => {
    await openFromMenu(page, '问题反馈', 'api/sysQuestion');
    await page.getByRole('button', { name: '导入' }).click();
    const dialog = page.getByRole('dialog', { name: '导入问题反馈' });
    await dialog.waitFor();
    await shot(page, 'template-01-import-dialog', { fullPage: false });
    const download = pending(page.waitForEvent('download'));
    await dialog.getByRole('button', { name: '下载模板' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('问题反馈导入模板.xlsx');
    const saved = join(dir, file.suggestedFilename());
    await file.saveAs(saved);
    const imported = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/sysQuestion/import'));
    await dialog.getByTestId('import-file').setInputFiles(saved);
    expect((await imported).status()).toBe(200);
    await dialog.getByText('导入成功').first().waitFor();
    await shot(page, 'template-02-imported', { fullPage: false });
  });
});

describe('dealer 锁屏时间', () => {
  let dealer: Page;

  beforeAll(async () => {
    dealer = await newPage(browser);
    dealer.setDefaultTimeout(15000);
    await dealer.clock.install();
    await dealer.goto(`${product.url}/#/jxsLogin`);
    await dealer.getByLabel('账号').fill('jxs001');
    await dealer.getByLabel('密码', { exact: true }).fill('Jxs@123456');
    await dealer.getByRole('button', { name: '登 录' }).click();
    await dealer.getByTestId('customer-list').waitFor();
  });

  it('the personal-centre menu sets the lock time with the staff choices', async () => {
    await dealer.getByRole('button', { name: '个人中心' }).click();
    await dealer.getByRole('menuitem', { name: '锁屏时间（永不）' }).click();
    const dialog = dealer.getByRole('dialog', { name: '锁屏时间' });
    await dialog.waitFor();
    for (const label of ['10分钟', '90分钟', '永不', '其他']) await dialog.getByRole('radio', { name: label }).waitFor();
    await dialog.getByRole('radio', { name: '其他' }).check();
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('时长不能为空').waitFor();
    await dialog.getByLabel('时长（分钟）').fill('1');
    await shot(dealer, 'dealer-lock-01-dialog', { fullPage: false });
    const put = pending(dealer.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/lockTime'));
    await dialog.getByRole('button', { name: '确定' }).click();
    expect((await put).status()).toBe(200);
    await dialog.waitFor({ state: 'hidden' });
    await dealer.getByRole('button', { name: '个人中心' }).click();
    await dealer.getByRole('menuitem', { name: '锁屏时间（1分钟）' }).waitFor();
    await dealer.keyboard.press('Escape');
  });

  it('warns, locks (the server session ends) and unlocks with the password', async () => {
    const token = await dealer.evaluate(() => (JSON.parse(sessionStorage.getItem('authorization') ?? '{}') as { token: string }).token);
    await dealer.clock.runFor(31_000);
    const warning = dealer.getByRole('dialog', { name: '系统提示' });
    await warning.waitFor();
    await shot(dealer, 'dealer-lock-02-warning', { fullPage: false });
    await dealer.clock.runFor(31_000);
    const lock = dealer.getByRole('dialog', { name: '系统已锁定' });
    await lock.waitFor();
    await expect
      .poll(
        async () =>
          (await product.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/info', headers: { authorization: `Bearer ${token}` } }))
            .statusCode,
      )
      .toBe(401);
    await shot(dealer, 'dealer-lock-03-locked', { fullPage: false });
    await lock.getByLabel('密码', { exact: false }).fill('wrong-password');
    await lock.getByRole('button', { name: '解 锁' }).click();
    await lock.getByText('账号或密码错误').waitFor();
    await lock.getByLabel('密码', { exact: false }).fill('Jxs@123456');
    await lock.getByRole('button', { name: '解 锁' }).click();
    await lock.waitFor({ state: 'hidden' });
    expect(await dealer.evaluate(() => window.location.hash)).toBe('#/comp/jxs_comp');
    const fresh = await dealer.evaluate(() => (JSON.parse(sessionStorage.getItem('authorization') ?? '{}') as { token: string }).token);
    expect(fresh).not.toBe(token);
    expect(
      (await product.app.inject({ method: 'GET', url: '/comp/dbcCompany/auth/info', headers: { authorization: `Bearer ${fresh}` } })).json<{
        lockTime: number;
      }>().lockTime,
    ).toBe(1);
  });
});

// the admin's token is still the page's own (no test above signed it out)
it('the console session stays live', async () => {
  expect((await api(product, await tokenOf(page), 'GET', '/api/info')).status).toBe(200);
});
