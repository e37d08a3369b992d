/**
 * The console, the dealer portal and the applicant form run under the server's
 * Content-Security-Policy with no violation: each page reports the violations the browser
 * raises (securitypolicyviolation events and console errors naming the policy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, launchBrowser, newPage, shot, signInAs, startProduct, type Product } from './support.ts';

async function watchedPage(browser: Browser, violations: string[]): Promise<Page> {
  const page = await newPage(browser);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __csp: string[] }).__csp ??= [];
      (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text().slice(0, 200));
  });
  return page;
}

const reported = (page: Page) => page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);

describe('Content-Security-Policy in the browser', () => {
  let product: Product;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct({ captchaEnabled: false });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  it('the console signs in and opens screens with no violation', async () => {
    const violations: string[] = [];
    const page = await watchedPage(browser, violations);
    const res = await page.goto(`${product.url}/#/login`);
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await signInAs(page, product, ADMIN);
    for (const path of ['/sysQuestion', '/jpType', '/system/user', '/']) {
      await page.goto(`${product.url}/#${path}`);
      await page.waitForLoadState('networkidle');
    }
    // a reload runs the build's early-start script with a signed-in cookie
    await page.reload();
    await page.waitForLoadState('networkidle');
    await shot(page, 'csp-console');
    violations.push(...(await reported(page)));
    expect(violations).toEqual([]);
  });

  it('the dealer portal and the applicant form load with no violation', async () => {
    const violations: string[] = [];
    const page = await watchedPage(browser, violations);
    await page.goto(`${product.url}/#/jxsLogin`);
    await page.waitForLoadState('networkidle');
    await shot(page, 'csp-dealer-login');
    violations.push(...(await reported(page)));
    await page.goto(`${product.url}/#/staffun`);
    await page.waitForLoadState('networkidle');
    await shot(page, 'csp-applicant');
    violations.push(...(await reported(page)));
    expect(violations).toEqual([]);
  });
});
