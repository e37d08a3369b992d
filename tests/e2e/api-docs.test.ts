/**
 * The interactive API page at /api/docs in Chromium: it loads its files from the product itself
 * (no CDN), renders the generated document under the server's Content-Security-Policy with no
 * violation, shows an entity's list call with its filters, and "Try it out" calls the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, shot, shotOnFailure, startProduct, type Product } from './support.ts';
import { DEFAULT_PRODUCT_NAME } from '../../src/shared/product.ts';

describe('API documentation page', () => {
  let product: Product;
  let browser: Browser;
  let page: Page | undefined;

  beforeAll(async () => {
    product = await startProduct({ captchaEnabled: false, serveWeb: false, seedDemo: false });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  it('renders the generated document from this origin, with no CSP violation, and calls the API', async (ctx) => {
    const violations: string[] = [];
    const foreign: string[] = [];
    try {
      page = await newPage(browser);
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          (window as unknown as { __csp: string[] }).__csp ??= [];
          (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
        });
      });
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text().slice(0, 200));
      });
      page.on('request', (r) => {
        if (!r.url().startsWith(product.url) && !r.url().startsWith('data:')) foreign.push(r.url());
      });
      const res = await page.goto(`${product.url}/api/docs`);
      expect(res?.status()).toBe(200);
      // Swagger UI reads and renders the whole document (every route) before the first tag shows:
      // beside a full run (load 12-16) that took over 20 s in two runs of two. A bound, not a wait.
      await page.locator('.opblock-tag').first().waitFor({ timeout: 60_000 });
      expect(await page.locator('.info .title').innerText()).toContain(`${DEFAULT_PRODUCT_NAME} API`);

      // an entity's list: paging, sort and its x-filter parameters, the staff token with its key
      const tag = page.locator('.opblock-tag', { hasText: '问题反馈 (api/sysQuestion)' });
      await tag.click();
      const list = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path', { hasText: /^\/api\/sysQuestion$/ }) });
      await list.locator('.opblock-summary-control').click();
      const params = list.locator('.parameters');
      await params.waitFor();
      for (const name of ['page', 'size', 'sort', 'blurry', 'userType']) {
        await expect(params.locator('.parameter__name', { hasText: new RegExp(`^${name}`) }).count()).resolves.toBeGreaterThan(0);
      }
      await expect(list.innerText()).resolves.toContain('sysQuestion:list');
      await shot(page, 'api-docs-list', { fullPage: false });

      // try it out on a public call: the page reaches the API under connect-src 'self'
      await page.locator('.opblock-tag', { hasText: 'api/health' }).click();
      const health = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path', { hasText: /^\/api\/health$/ }) });
      await health.locator('.opblock-summary-control').click();
      await health.locator('button.try-out__btn').click();
      await health.locator('button.execute').click();
      await health.locator('.live-responses-table tbody .response-col_status').first().waitFor();
      expect((await health.locator('.live-responses-table tbody .response-col_status').first().innerText()).trim()).toBe('200');
      await shot(page, 'api-docs-try-it-out', { fullPage: false });

      violations.push(...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])));
      expect(violations).toEqual([]);
      expect(foreign).toEqual([]);
    } catch (err) {
      await shotOnFailure(page, ctx.task.name);
      throw err;
    }
  }, 90_000);
});
