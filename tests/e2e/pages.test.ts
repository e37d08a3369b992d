/**
 * Notice pages and landing pages in a real browser: 404, 401, 403, the placeholder, the usage
 * guide, and the data decision centre (admin barred to /403; a holder of DecisionCenter:list
 * gets their signed SSO link opened in a new tab once per visit). The notice pages are checked at
 * 1280 px and in the mobile layout at 800 px.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createStaff } from '../server/auth-helpers.ts';
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
  VIEWPORT,
  WIDTHS,
  type Product,
} from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;

async function go(path: string): Promise<void> {
  await page.evaluate((p) => (window.location.hash = p), path);
}

beforeAll(async () => {
  product = await startProduct({
    captchaEnabled: false,
    ssoLinkUrl: 'https://bi.example.com/sso',
    ssoSecret: 'decision-secret-0123456789',
  });
  await createStaff(product.app, { username: 'analyst', password: 'Analyst@2024', permissions: ['DecisionCenter:list'] });
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15000);
  await signInAs(page, product, ADMIN);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe.each(WIDTHS)('at $label', ({ viewport, suffix }) => {
  beforeAll(() => page.setViewportSize(viewport));
  afterAll(() => page.setViewportSize(VIEWPORT));

  describe('notice pages', () => {
    it('404 for an unknown path: ERROR!, 返回首页, 问题反馈', async () => {
      await go('/no/such/screen');
      await page.getByText('ERROR!').waitFor();
      await page.locator('#main-content').getByRole('link', { name: '返回首页' }).waitFor();
      await page.locator('#main-content').getByRole('link', { name: '问题反馈' }).waitFor();
      // a mistyped address opens no tab, and the raw address is shown nowhere
      expect(await page.getByTestId('tags-view').getByText('页面不存在').count()).toBe(0);
      expect(await page.getByText('no/such/screen').count()).toBe(0);
      await shot(page, `page-404${suffix}`, { fullPage: false });
    });

    it('401: no access, contact the leader, 返回 and 返回首页', async () => {
      await go('/401');
      await page.getByText('抱歉，您无权访问该页面').waitFor();
      await page.getByText(/联系您的领导/).waitFor();
      await page.getByRole('button', { name: '返回', exact: true }).waitFor();
      await page.locator('#main-content').getByRole('link', { name: '返回首页' }).click();
      await page.waitForFunction(() => window.location.hash === '#/dashboard');
    });

    it('content page: server HTML shown sanitised, with 导出PDF', async () => {
      const token = await tokenOf(page);
      const created = await api(product, token, 'POST', '/api/sysQuestion', {
        userType: '员工',
        model: '系统',
        title: '内容页',
        status: false,
        content: '<h3>处理说明</h3><p><b>加粗</b>正文<img src="x" onerror="window.__hit=1"></p><script>window.__hit=2</script>',
      });
      expect(created.status).toBe(201);
      const src = encodeURIComponent('api/sysQuestion?page=0&size=1&sort=id,desc');
      await go(`/content?src=${src}&field=content&title=${encodeURIComponent('处理说明')}`);
      const body = page.getByTestId('content-html');
      await body.getByRole('heading', { name: '处理说明' }).waitFor();
      expect(await body.locator('b').textContent()).toBe('加粗');
      expect(await body.locator('img').getAttribute('onerror')).toBeNull();
      expect(await body.locator('script').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __hit?: number }).__hit)).toBeUndefined();
      await page.getByRole('button', { name: '导出PDF' }).waitFor();
      await shot(page, `page-content${suffix}`, { fullPage: false });
      // a source outside the API is refused
      await go(`/content?src=${encodeURIComponent('https://evil.example/x')}`);
      await page.getByText('页面地址不正确：缺少内容来源').waitFor();
    });

    it('the placeholder says 页面正在开发建设中......', async () => {
      await go('/developing');
      await page.getByText('页面正在开发建设中......').waitFor();
    });

    it('操作文档 in the header opens /UserCzwd', async () => {
      await go('/dashboard');
      await page.getByRole('link', { name: '操作文档' }).click();
      await page.waitForFunction(() => window.location.hash === '#/UserCzwd');
      // the operation documents screen: with no documents yet it keeps its header row over 暂无数据
      await page.getByRole('columnheader', { name: '文档标题' }).waitFor();
      await page.getByRole('cell', { name: '暂无数据' }).waitFor();
      await shot(page, `page-operation-docs-empty${suffix}`, { fullPage: false });
    });

    it('usage guide: 人力行政 describes positions; 客服 is empty', async () => {
      await go('/usage');
      await page.getByText(/一个人可以同时担任多个岗位/).waitFor();
      await shot(page, `page-usage${suffix}`, { fullPage: false });
      await page.getByRole('tab', { name: '客服' }).click();
      await page.getByText('暂无内容').waitFor();
    });
  });
});

describe('data decision centre', () => {
  it('admin is sent to /403', async () => {
    await go('/DecisionCenter/index');
    await page.waitForFunction(() => window.location.hash === '#/403');
    await page.getByText('抱歉，您的账号不能访问该页面').waitFor();
    await shot(page, 'page-403', { fullPage: false });
  });

  it('a holder of the key gets the signed link in a new tab, once per visit', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const analyst = await ctx.newPage();
    // the SSO site itself is outside: answer it here
    await ctx.route('https://bi.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>BI</h1>' }));
    await signInAs(analyst, product, { username: 'analyst', password: 'Analyst@2024' });
    const popup = analyst.waitForEvent('popup');
    await analyst.evaluate(() => (window.location.hash = '/DecisionCenter/index'));
    const opened = await popup;
    const href = new URL(opened.url());
    expect(href.origin + href.pathname).toBe('https://bi.example.com/sso');
    expect(href.searchParams.get('user')).toBe('analyst');
    expect(href.searchParams.get('sign')).toMatch(/^[0-9a-f]{64}$/);
    await analyst.getByText('正在进入数据决策中心...').waitFor();
    await analyst.bringToFront();
    await expect.poll(() => analyst.getByRole('button', { name: '进入数据中心' }).isEnabled()).toBe(true);
    await shot(analyst, 'page-decision-centre', { fullPage: false });
    expect(await analyst.evaluate(() => document.cookie.includes('popped=yes'))).toBe(true);
    await ctx.close();
  });

  it('a holder of DecisionCenter:sso also sees 登录记录, the sign-in links issued', async () => {
    await createStaff(product.app, {
      username: 'auditor',
      password: 'Auditor@2024',
      permissions: ['DecisionCenter:list', 'DecisionCenter:sso'],
    });
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    const auditor = await ctx.newPage();
    await ctx.route('https://bi.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>BI</h1>' }));
    await signInAs(auditor, product, { username: 'auditor', password: 'Auditor@2024' });
    const popup = auditor.waitForEvent('popup');
    await auditor.evaluate(() => (window.location.hash = '/DecisionCenter/index'));
    await popup;
    await auditor.bringToFront();
    const records = auditor.getByTestId('sso-records');
    await records.getByRole('cell', { name: 'analyst', exact: true }).first().waitFor();
    await records.getByRole('cell', { name: 'auditor', exact: true }).first().waitFor();
    await shot(auditor, 'page-decision-sso-records');
    await ctx.close();
  });
});
