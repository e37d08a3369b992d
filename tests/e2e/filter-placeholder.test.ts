/**
 * The console's first list shows its filter bar's placeholder until its first rows are painted
 * (schema/FilterBarSkeleton.tsx), then its filters: every filter's place, the toolbar and the
 * table stay where they were, at 1280, 800 and 375 px, on lists with each kind of filter. A list
 * opened later, or one with a filter value in its address, has its filters at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cookie } from 'playwright-core';
import { shot, startSignedInAsAdmin, type AdminSession } from './support.ts';

let s: AdminSession;
let cookies: Cookie[];

beforeAll(async () => {
  s = await startSignedInAsAdmin();
  cookies = await s.page.context().cookies();
});
afterAll(async () => {
  await s?.browser.close();
  await s?.product.close();
});

/** Page code (a string: the test's bundler helpers do not exist there): where the filters, the toolbar and the table are. */
const PLACES = `(() => {
  const at = (el) => { const b = el.getBoundingClientRect(); return [Math.round(b.x * 2) / 2, Math.round(b.y * 2) / 2, Math.round(b.width * 2) / 2, Math.round(b.height * 2) / 2]; };
  const fields = Array.from(document.querySelectorAll('.filter-field')).map((f) => [f.dataset.source, ...at(f)]);
  const buttons = Array.from(document.querySelectorAll('[data-testid="list-toolbar"] button')).map((b) => [b.textContent, ...at(b)]);
  const head = document.querySelector('table thead');
  // where the table starts (its width follows the rows, which come in two steps)
  return { fields, buttons, head: head ? at(head).slice(0, 2) : null, placeholder: !!document.querySelector('.filter-bar-skeleton') };
})()`;

/** Init script: the places when the first data row enters the page (the frame the rows are first painted in). */
const AT_FIRST_ROWS = `(() => {
  const rows = new MutationObserver(() => {
    if (!document.querySelector('table tbody tr.RaDatagrid-row')) return;
    rows.disconnect();
    window.__atFirstRows = ${PLACES};
  });
  document.addEventListener('DOMContentLoaded', () => rows.observe(document.body, { childList: true, subtree: true }));
})()`;

interface Places {
  fields: Array<[string, number, number, number, number]>;
  buttons: Array<[string, number, number, number, number]>;
  head: number[] | null;
  placeholder: boolean;
}

async function firstVisit(path: string, width: number) {
  const context = await s.browser.newContext({ viewport: { width, height: 800 }, locale: 'zh-CN', reducedMotion: 'reduce' });
  await context.addCookies(cookies);
  await context.addInitScript({ content: AT_FIRST_ROWS });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(`${s.product.url}/#/${path}`);
  await page.waitForFunction(() => (window as unknown as { __atFirstRows?: unknown }).__atFirstRows !== undefined);
  const first = (await page.evaluate(() => (window as unknown as { __atFirstRows: unknown }).__atFirstRows)) as Places;
  // the filters in place of their placeholder
  await page.locator('form .filter-field').first().waitFor({ state: 'attached' });
  await page.locator('.filter-bar-skeleton').waitFor({ state: 'detached' });
  const after = await page.evaluate<Places>(PLACES);
  return { page, context, first, after };
}

const LISTS = [
  // search, selects, a dictionary picker, a date range
  'sysQuestion',
  // text boxes, reference pickers, two date ranges (14 filters: folded at 375 px)
  'staff',
  // text boxes, two selects and a date range
  'jpType',
];

describe('the first list: filter placeholder, then the filters, nothing moving', () => {
  for (const path of LISTS) {
    for (const width of [1280, 800, 375]) {
      it(`${path} at ${width} px`, async () => {
        const { page, context, first, after } = await firstVisit(path, width);
        try {
          expect(first.placeholder, 'the placeholder shows with the first rows').toBe(true);
          expect(after.placeholder).toBe(false);
          expect(first.fields.length).toBeGreaterThan(0);
          expect(first.fields).toEqual(after.fields);
          expect(first.buttons).toEqual(after.buttons);
          expect(first.head).toEqual(after.head);
          if (width !== 800) await shot(page, `filter-placeholder-${path}-${width}`, { fullPage: false });
        } finally {
          await context.close();
        }
      });
    }
  }

  it('a list opened after the first one, and a first list with a filter in its address, have their filters at once', async () => {
    const { page, context } = await firstVisit('sysQuestion', 1280);
    try {
      await page.evaluate(`(() => {
        window.__placeholderSeen = false;
        new MutationObserver(() => { if (document.querySelector('.filter-bar-skeleton')) window.__placeholderSeen = true; })
          .observe(document.body, { childList: true, subtree: true });
        window.location.hash = '#/staff';
      })()`);
      await page.locator('form .filter-field[data-source="name"] input').waitFor();
      await page.locator('table tbody tr.RaDatagrid-row').first().waitFor();
      expect(await page.evaluate(() => (window as unknown as { __placeholderSeen: boolean }).__placeholderSeen)).toBe(false);
    } finally {
      await context.close();
    }
    const filtered = await s.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
    try {
      await filtered.addCookies(cookies);
      await filtered.addInitScript({
        content: `document.addEventListener('DOMContentLoaded', () => {
          window.__placeholderSeen = false;
          new MutationObserver(() => { if (document.querySelector('.filter-bar-skeleton')) window.__placeholderSeen = true; })
            .observe(document.body, { childList: true, subtree: true });
        })`,
      });
      const page2 = await filtered.newPage();
      page2.setDefaultTimeout(15000);
      await page2.goto(`${s.product.url}/#/sysQuestion?filter=${encodeURIComponent(JSON.stringify({ userType: 1 }))}`);
      await page2.locator('form .filter-field[data-source="userType"]').waitFor();
      expect(await page2.evaluate(() => (window as unknown as { __placeholderSeen: boolean }).__placeholderSeen)).toBe(false);
    } finally {
      await filtered.close();
    }
  });
});
