/**
 * A designer's walk through the three apps at 1280x800 and at 375x740 (a phone): the staff
 * console (every screen of admin's menu, each list's 新增 dialog), the dealer portal (用车客户,
 * 用车需求 and their 新增 dialogs) and the public applicant form. Every screen is saved as
 * test-results/screenshots/design-<app>-<screen>-<width>.png, and what can be measured is checked:
 * - the page never scrolls sideways (a table may scroll inside its own container);
 * - a dialog's paper lies inside the window, its title and buttons in view (its content scrolls);
 * - no button label, tab title, dialog title or column header is clipped, no button label wraps;
 * - an empty list says so (暂无数据) and what to do next.
 * At 1280 px every screen and dialog walked is also audited: no English UI text outside the
 * allow-list of codes, units and names (latin-text.ts: visible text and title, aria-label,
 * placeholder, alt), and axe-core finds no critical or serious WCAG 2.1 AA violation (axe.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { screenRoutes, type MenuNode } from '../../src/web/staff/shell/menus.ts';
import { axeViolations } from './axe.ts';
import { latinOnPage } from './latin-text.ts';
import { ADMIN, api, launchBrowser, pending, shot, signInAs, startProduct, tokenOf, type Product } from './support.ts';

let product: Product;
let browser: Browser;

const SIZES = [
  { label: '1280', viewport: { width: 1280, height: 800 } },
  { label: '375', viewport: { width: 375, height: 740 } },
] as const;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

async function newContext(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  trackRequests(page);
  return { context, page };
}

/** What the generic layout checks found wrong on the page as it is now (empty when all is well). */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const W = window.innerWidth;
    const H = window.innerHeight;
    const describe = (el: Element) => {
      const cls =
        typeof el.className === 'string'
          ? el.className
              .split(/\s+/)
              .filter((c) => c && !/^css-/.test(c))
              .slice(0, 3)
              .join('.')
          : '';
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
      return `<${el.tagName.toLowerCase()}${cls ? '.' + cls : ''}>「${text}」`;
    };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      const s = getComputedStyle(el);
      return s.visibility !== 'hidden' && s.display !== 'none';
    };
    /** inside an ancestor that clips or scrolls sideways (then it cannot widen the page) */
    const contained = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const ox = getComputedStyle(p).overflowX;
        if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') return true;
      }
      return false;
    };

    // 1. the page does not scroll sideways
    const pageWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (pageWidth > W + 1) {
      const culprits: string[] = [];
      for (const el of Array.from(document.body.querySelectorAll('*'))) {
        if (culprits.length >= 4) break;
        const r = el.getBoundingClientRect();
        if (r.right > W + 1 && visible(el) && !contained(el)) culprits.push(`${describe(el)} right=${Math.round(r.right)}`);
      }
      problems.push(`page scrolls sideways: ${pageWidth} px in a ${W} px window; ${culprits.join(', ')}`);
    }

    // 2. dialogs lie inside the window
    for (const paper of Array.from(document.querySelectorAll('.MuiDialog-paper'))) {
      if (!visible(paper)) continue;
      const r = paper.getBoundingClientRect();
      if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) {
        problems.push(
          `dialog outside the window: ${describe(paper)} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${W}x${H}`,
        );
      }
    }

    // 3. no clipped label on buttons, tabs, dialog titles and column headers
    const labelled = document.querySelectorAll('button, [role="tab"], .MuiDialogTitle-root, th, .MuiChip-label');
    for (const el of Array.from(labelled)) {
      if (!visible(el) || !(el as HTMLElement).innerText?.trim()) continue;
      // a count badge overhangs its icon button by design (drawn outside it, nothing cut)
      if (el.querySelector('.MuiBadge-badge')) continue;
      if (el.scrollWidth > el.clientWidth + 1)
        problems.push(`clipped text: ${describe(el)} needs ${el.scrollWidth} px, has ${el.clientWidth}`);
    }

    // 3b. a button's label stays on one line (a squeezed button breaks it character by character)
    for (const button of Array.from(document.querySelectorAll('button'))) {
      if (!visible(button) || !button.innerText?.trim()) continue;
      const tops: number[] = [];
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of Array.from(range.getClientRects())) if (r.width > 0 && r.height > 0) tops.push(r.top);
      }
      tops.sort((a, b) => a - b);
      const lines = tops.filter((t, i) => i === 0 || t - tops[i - 1] > 6).length;
      if (lines > 1) problems.push(`button label on ${lines} lines: ${describe(button)}`);
    }

    // 4. an empty list says so, where it can be read (not off to the side of a table wider than the window)
    for (const table of Array.from(document.querySelectorAll('table'))) {
      if (!visible(table) || table.closest('[aria-hidden="true"]')) continue;
      const body = table.tBodies[0];
      const text = body ? body.innerText.trim() : '';
      if (!text) problems.push(`empty list without a message: ${describe(table.closest('[class]') ?? table)}`);
    }
    for (const message of Array.from(document.querySelectorAll('[data-testid="empty-state"]'))) {
      if (!visible(message) || message.closest('[aria-hidden="true"]')) continue;
      const r = message.getBoundingClientRect();
      if (r.left < -1 || r.right > W + 1)
        problems.push(`empty-state message out of sight: ${describe(message)} at ${Math.round(r.left)}–${Math.round(r.right)} in ${W}`);
    }
    return problems;
  });
}

const inflight = new WeakMap<Page, Set<unknown>>();

/** Counts the page's open requests (the screens load their lists after a hash change, not on a page load). */
function trackRequests(page: Page): void {
  const open = new Set<unknown>();
  inflight.set(page, open);
  page.on('request', (r) => open.add(r));
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/** Waits until no request has been open for 250 ms and no spinner or skeleton shows (at most 8 s). */
async function settled(page: Page): Promise<void> {
  const open = inflight.get(page)!;
  const until = Date.now() + 8000;
  let quietSince = Date.now();
  while (Date.now() < until) {
    await page.waitForTimeout(50);
    if (open.size) quietSince = Date.now();
    else if (Date.now() - quietSince >= 250) break;
  }
  await page
    .waitForFunction(() => !document.querySelector('.MuiCircularProgress-root, .MuiSkeleton-root, .MuiLinearProgress-root'), undefined, {
      timeout: 5000,
    })
    .catch(() => undefined);
}

/** Screenshot, then the checks; problems are collected (all screens are shot before the test fails). */
async function look(page: Page, name: string, problems: string[], { dialog = false } = {}): Promise<void> {
  await shot(page, `design-${name}`, { fullPage: false });
  for (const p of await layoutProblems(page)) problems.push(`${name}: ${p}`);
  if (name.includes('-1280')) {
    for (const p of await latinOnPage(page)) problems.push(`${name}: English text ${p}`);
    for (const p of await axeViolations(page)) problems.push(`${name}: axe ${p}`);
  }
  if (dialog) {
    const paper = page.locator('.MuiDialog-paper').last();
    // the dialog's content scrolls inside it; its title and buttons stay in view (only the content scrolls)
    const outcome = await paper.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const out: string[] = [];
      if (el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY === 'visible')
        out.push("the dialog's content spills out of it");
      for (const part of Array.from(el.querySelectorAll('.MuiDialogTitle-root, .MuiDialogActions-root'))) {
        const r = part.getBoundingClientRect();
        if (r.top < box.top - 1 || r.bottom > box.bottom + 1)
          out.push(
            `${part.className.includes('Title') ? 'title' : 'buttons'} scrolled out of the dialog (${Math.round(r.top)}–${Math.round(r.bottom)} in ${Math.round(box.top)}–${Math.round(box.bottom)})`,
          );
      }
      return out;
    });
    for (const p of outcome) problems.push(`${name}: ${p}`);
  }
}

/** Opens the list's 新增 dialog when it has one, looks at it and closes it. */
async function lookAtAddDialog(page: Page, name: string, problems: string[]): Promise<boolean> {
  const add = page.locator('#main-content, main').first().getByRole('button', { name: '新增', exact: true });
  if (!(await add.count()) || !(await add.first().isVisible()) || !(await add.first().isEnabled())) return false;
  await add.first().click();
  const dialog = page.getByRole('dialog').last();
  await dialog.waitFor();
  await settled(page);
  await look(page, `${name}-add`, problems, { dialog: true });
  await page.keyboard.press('Escape');
  const cancel = dialog.getByRole('button', { name: /取\s*消|关闭/ });
  if (await dialog.isVisible().catch(() => false)) {
    // Escape may already be closing it: the button can leave while the click waits for it
    if (await cancel.count())
      await cancel
        .first()
        .click({ timeout: 3000 })
        .catch(() => undefined);
  }
  await dialog.waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
  return true;
}

const slug = (route: string) => route.replace(/^\//, '').replace(/[^A-Za-z0-9]+/g, '_') || 'home';

describe('design walk', () => {
  let routes: [string, string][] = [];

  it.each(SIZES)(
    'staff console at $label px: every menu screen and 新增 dialog',
    async ({ label, viewport }) => {
      const { context, page } = await newContext(viewport);
      const problems: string[] = [];
      try {
        await signInAs(page, product, ADMIN);
        if (!routes.length) {
          const tree = (await api(product, await tokenOf(page), 'GET', '/api/menus/build')).json<MenuNode[]>();
          routes = [...screenRoutes(tree)].filter(([route]) => !/[:?]/.test(route));
          expect(routes.length).toBeGreaterThan(10);
        }
        await look(page, `staff-dashboard-${label}`, problems);
        let dialogs = 0;
        for (const [route] of routes) {
          await page.evaluate((p) => (window.location.hash = p), route);
          await page.waitForFunction((p) => decodeURIComponent(window.location.hash).startsWith(`#${p}`), route);
          await settled(page);
          // a phone closes the menu drawer after a navigation; if one stays open it is looked at as it is
          const name = `staff-${slug(route)}-${label}`;
          await look(page, name, problems);
          if (await lookAtAddDialog(page, name, problems)) dialogs++;
        }
        expect(dialogs).toBeGreaterThan(5);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
      // every screen of the menu, and at 1280 px the text and axe audits of each
    },
    900_000,
  );

  it.each(SIZES)('dealer portal at $label px: 用车客户, 用车需求 and their 新增 dialogs', async ({ label, viewport }) => {
    const { context, page } = await newContext(viewport);
    const problems: string[] = [];
    try {
      await page.goto(`${product.url}/#/jxsLogin`);
      await page.getByLabel('账号').waitFor();
      await look(page, `dealer-login-${label}`, problems);
      await page.getByLabel('账号').fill('jxs001');
      await page.getByLabel('密码', { exact: true }).fill('Jxs@123456');
      const login = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/auth/login'));
      await page.getByRole('button', { name: '登 录' }).click();
      expect((await login).status()).toBe(200);
      await page.getByTestId('customer-list').waitFor();
      await settled(page);
      await look(page, `dealer-customers-${label}`, problems);
      await lookAtAddDialog(page, `dealer-customers-${label}`, problems);
      await page.getByTestId('dealer-sidebar').locator('[data-index="3"]').click();
      await settled(page);
      await look(page, `dealer-requests-${label}`, problems);
      await page.getByRole('button', { name: '个人中心' }).click();
      await page.getByRole('menuitem', { name: '修改密码' }).click();
      await page.getByRole('dialog').waitFor();
      await look(page, `dealer-password-${label}`, problems, { dialog: true });
      await page.keyboard.press('Escape');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.each(SIZES)('applicant form at $label px', async ({ label, viewport }) => {
    const { context, page } = await newContext(viewport);
    const problems: string[] = [];
    try {
      await page.goto(`${product.url}/#/staffun`);
      await page.getByRole('button').first().waitFor();
      await settled(page);
      await look(page, `applicant-register-${label}`, problems);
      await shot(page, `design-applicant-register-${label}-full`);
      await page.goto(`${product.url}/#/staffun/list`);
      await settled(page);
      await look(page, `applicant-postings-${label}`, problems);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
