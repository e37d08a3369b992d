/**
 * Every generated screen in a real browser: one record per schema (built from the schema),
 * then the screen at #/<name> shows its title in the breadcrumb, its column headers and the
 * record; the 新增 dialog opens with the schema's form (resources without a generic create show no 新增). Screenshots of both per schema
 * (schema-<name>.png, schema-<name>-dialog.png). A new schema is covered without editing this file.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { resources } from '../../src/generated/resources.ts';
import { listFields } from '../../src/shared/resource-spec.ts';
import { sampleBody } from '../server/sample-records.ts';
import { createRecord } from '../../src/server/crud/repository.ts';
import {
  ADMIN,
  api,
  launchBrowser,
  newPage,
  pending,
  shot,
  shotOnFailure,
  signInAs,
  startProduct,
  tokenOf,
  type Product,
} from './support.ts';
import { dataRows } from './list-helpers.ts';

let product: Product;
let browser: Browser;
let page: Page;
let token: string;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: false });
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15000);
  await signInAs(page, product, ADMIN);
  token = await tokenOf(page);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('every generated screen', () => {
  it.each(resources.map((spec) => [spec.name, spec] as const))('%s: list with a record, then its dialog', async (name, spec) => {
    const body = await sampleBody(product.app, token, resources, spec, 0);
    const canAdd = spec.actions.includes('add');
    if (canAdd) {
      const created = await api(product, token, 'POST', `/${spec.path}`, body);
      expect(created.status, created.body).toBe(201);
    } else {
      // records its own flow makes (a dealer's customer, an applicant's registration): stored directly
      await createRecord(product.app.database, spec, body, { username: 'admin' });
    }

    const list = pending(page.waitForResponse((r) => new URL(r.url()).pathname === `/${spec.path}` && r.request().method() === 'GET'));
    await page.evaluate((hash) => (window.location.hash = hash), `/${name}`);
    expect((await list).status()).toBe(200);
    const main = page.locator('#main-content');
    // the screen itself, not the previous one still on the page (other parts of the console may call the same path)
    await page.getByRole('navigation', { name: '面包屑' }).locator('[aria-current="page"]', { hasText: spec.title }).waitFor();
    await dataRows(page).first().waitFor();
    const headers = (await page.getByRole('table').getByRole('columnheader').allTextContents()).map((t) => t.trim());
    for (const field of listFields(spec)) expect(headers, `${name} columns`).toContain(field.title);
    expect(await dataRows(page).count()).toBeGreaterThanOrEqual(1);
    if (spec.total) await main.getByRole('status', { name: '合计' }).filter({ hasText: '合计（共' }).waitFor();
    await shot(page, `schema-${name}`, { fullPage: false });

    if (!canAdd) {
      expect(await main.getByRole('button', { name: '新增' }).count()).toBe(0);
      return;
    }
    await main.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const firstInput = spec.fields.find((f) => f.form);
    if (firstInput) await dialog.getByText(firstInput.title).first().waitFor();
    await shot(page, `schema-${name}-dialog`, { fullPage: false });
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
