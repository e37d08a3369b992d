/**
 * Every path into the mobile layout leaves the page clickable: the sidebar remembered open at
 * 1280 px must not leave the mobile drawer's invisible backdrop over the page (it swallowed every
 * click until a reload). New tab at 800 px, reload, rotation (viewport change) and resizing both
 * ways; each time 新增 opens its dialog and the menu button opens the drawer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { shot, startSignedInAsAdmin, type AdminSession } from './support.ts';
import { CLICK_GUARD_MS } from '../../src/web/staff/shell/clickGuard.ts';
import { elapse } from '../support/wait.ts';

let s: AdminSession;
let context: BrowserContext;

beforeAll(async () => {
  s = await startSignedInAsAdmin();
  context = s.page.context();
  // the desktop choice: sidebar open, remembered
  await s.page.goto(`${s.product.url}/#/jpType`);
  await s.page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).waitFor();
});
afterAll(async () => {
  await s?.browser.close();
  await s?.product.close();
});

/** The page takes clicks: 新增 opens its dialog (closed again), the menu button opens the drawer. */
async function clickable(page: Page, label: string): Promise<void> {
  const add = page.getByTestId('list-toolbar').getByRole('button', { name: '新增' });
  await add.waitFor();
  // the toolbar ignores a second click within CLICK_GUARD_MS of the one before
  await elapse(CLICK_GUARD_MS + 100); // the guard's window runs out
  await add.click({ timeout: 5000 });
  const dialog = page.getByRole('dialog');
  try {
    await dialog.waitFor({ timeout: 5000 });
  } catch (e) {
    const box = await add.boundingBox();
    const at = box
      ? await page.evaluate(
          ([x, y]) => {
            const el = document.elementFromPoint(x, y);
            return el ? `${el.tagName}.${el.className}` : 'none';
          },
          [box.x + box.width / 2, box.y + box.height / 2],
        )
      : 'no box';
    await shot(page, `mobile-entry-${label}-failed`, { fullPage: false });
    throw new Error(`${label}: no dialog after clicking 新增 (${JSON.stringify(box)}; element there: ${at})`, { cause: e });
  }
  await shot(page, `mobile-entry-${label}`, { fullPage: false });
  await dialog.getByRole('button', { name: '取消' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(
    await page.locator('.RaSidebar-modal, .MuiModal-root:not(.MuiModal-hidden)').count(),
    `${label}: a modal layer is left over the page`,
  ).toBe(0);
}

describe('the mobile layout from every path', () => {
  it('a new tab 800 px wide, with the sidebar remembered open', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto(`${s.product.url}/#/jpType`);
    await clickable(page, 'new-tab');
    await page.reload();
    await clickable(page, 'reload');
    // rotate: a phone turned sideways and back
    await page.setViewportSize({ width: 900, height: 400 });
    await clickable(page, 'rotated');
    await page.setViewportSize({ width: 400, height: 900 });
    await clickable(page, 'portrait');
    // wider than 992 and back
    await page.setViewportSize({ width: 1280, height: 800 });
    await clickable(page, 'desktop');
    await page.setViewportSize({ width: 800, height: 900 });
    await clickable(page, 'narrowed');
    await page.close();
  });
});
