/**
 * Browser-test support: starts the whole product (API + built web app) on a free port with a
 * fresh SQLite data directory, and a headless Chromium through playwright-core.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SHOTS = resolve('test-results/screenshots');

export interface Product {
  app: FastifyInstance;
  url: string;
  config: Config;
  close(): Promise<void>;
}

export async function startProduct(overrides: Partial<Config> = {}): Promise<Product> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dealer-console-e2e-'));
  // the walks over every screen read far more than a person does; the read limits have a server test of their own
  const config = loadConfig(
    {},
    {
      dataDir,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'warn',
      readLimitPerMinute: 1_000_000_000,
      exportLimitPerMinute: 1_000_000_000,
      ...overrides,
    },
  );
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    config,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // every new window (each browser context) otherwise starts the omnibox popup's WebUI in a
      // renderer of its own, which a headless browser never shows: about 0.7 s of CPU that ran
      // beside each page load, on a machine with two cores
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ],
  });
}

/** Screenshot into test-results/screenshots; the whole page unless `fullPage: false` (use it while a dialog is open). */
export async function shot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await animationsDone(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

/**
 * Waits for the page's finite animations and transitions (a dialog's fade-in, a label's float, a
 * notice's slide-in) to end, with a deadline of 5 s; endless ones (a spinner) are left running.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(a.effect?.getComputedTiming().iterations ?? Infinity))
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((r) => setTimeout(r, 5000)), // a deadline
    ]),
  );
}

/**
 * A wait started before the action that triggers it: marked handled at once, so a failing
 * action before the await leaves no unhandled rejection behind (awaiting it still throws).
 */
export function pending<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Screenshot of a failed test, named after it (never throws: the page may be gone). */
export async function shotOnFailure(page: Page | undefined, testName: string): Promise<void> {
  if (!page || page.isClosed()) return;
  const name = `failed-${testName.replace(/[^\p{L}\p{N}]+/gu, '-')}`;
  await shot(page, name).catch(() => undefined);
}

export const VIEWPORT = { width: 1280, height: 800 };

/**
 * The widths the shell is checked at: desktop, and the mobile layout (below 992 px). Screenshots
 * taken at the second carry its suffix.
 */
export const WIDTHS = [
  { label: '1280 px', viewport: VIEWPORT, suffix: '' },
  { label: '800 px', viewport: { width: 800, height: 900 }, suffix: '-800px' },
];
export const ADMIN = { username: 'admin', password: 'Admin@123456' };

/** A fresh browser context (own cookies and storage) at 1280x800, Chinese locale, downloads allowed. */
export async function newPage(browser: Browser): Promise<Page> {
  // reduced motion: the consoles show each state at once (no sidebar folding or dialog animation to wait out)
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN', acceptDownloads: true, reducedMotion: 'reduce' });
  return context.newPage();
}

/**
 * Signs in through the sign-in page of a product whose captcha is off; resolves once the console shows.
 * A default-password user lands in the personal centre, which opens the password dialog: it is
 * closed (取消) unless `keepPasswordDialog` is set.
 */
export async function signInAs(
  page: Page,
  product: Product,
  user: { username: string; password: string },
  { keepPasswordDialog = false }: { keepPasswordDialog?: boolean } = {},
): Promise<void> {
  await page.goto(`${product.url}/#/login`);
  await page.getByRole('textbox', { name: '账号' }).fill(user.username);
  await page.getByLabel('密码', { exact: true }).fill(user.password);
  const login = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/login' && r.request().method() === 'POST'));
  await page.getByRole('button', { name: '登 录', exact: true }).click();
  const response = await login;
  if (response.status() !== 200) throw new Error(`sign-in of ${user.username} failed: ${response.status()} ${await response.text()}`);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  const body = (await response.json()) as { user?: { defPassword?: boolean } };
  if (body.user?.defPassword && !keepPasswordDialog) {
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
}

/** The bearer token the page holds (cookie Admin-Token). */
export async function tokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'Admin-Token');
  if (!cookie?.value) throw new Error('the page holds no token');
  return decodeURIComponent(cookie.value);
}

/** Opens a resource screen from the sidebar and waits for its first list answer. */
export async function openFromMenu(page: Page, title: string, path: string): Promise<void> {
  const list = pending(page.waitForResponse((r) => new URL(r.url()).pathname === `/${path}` && r.request().method() === 'GET'));
  const item = page.getByRole('menuitem', { name: title });
  await page.locator('.RaSidebar-fixed').getByRole('menuitem', { name: '首页' }).waitFor();
  // the screen may sit in a folded directory of the sidebar: open directories until it shows
  // (with one directory open at a time, each folded directory is tried once, in order)
  const tried = new Set<string>();
  for (let tries = 0; tries < 10 && !(await item.isVisible()); tries++) {
    const folded = page.locator('.RaSidebar-fixed [aria-expanded="false"]');
    let next = -1;
    for (let i = 0; i < (await folded.count()); i++) {
      const text = (await folded.nth(i).innerText()).trim();
      if (!tried.has(text)) {
        tried.add(text);
        next = i;
        break;
      }
    }
    if (next < 0) break;
    await folded.nth(next).click();
  }
  await item.click();
  const response = await list;
  if (response.status() !== 200) throw new Error(`GET /${path} answered ${response.status()}`);
}

/** A 32-digit submit id, as the console sends on writes. */
export function submitId(): string {
  let id = '';
  while (id.length < 32) id += Math.floor(Math.random() * 10);
  return id;
}

/** A call to the product's API, bypassing the browser (for checks). */
export async function api(product: Product, token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const res = await product.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(method === 'GET' ? {} : { submit_id: submitId() }) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.body, json: <T = unknown>() => res.json<T>() };
}

export interface AdminSession {
  product: Product;
  browser: Browser;
  page: Page;
  /** the admin's bearer token, for API calls beside the page */
  token: string;
}

/** A product without captcha, a browser and one page signed in as admin (15 s default timeout). */
export async function startSignedInAsAdmin(): Promise<AdminSession> {
  const product = await startProduct({ captchaEnabled: false });
  const browser = await launchBrowser();
  const page = await newPage(browser);
  page.setDefaultTimeout(15000);
  await signInAs(page, product, ADMIN);
  return { product, browser, page, token: await tokenOf(page) };
}
