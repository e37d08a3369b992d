/**
 * 首页 in a browser: the sign-in page loads no chart code; admin's 首页 shows every to-do with its
 * count (as GET /api/home/summary counts it) and the three charts, 未处理问题反馈 opens the
 * feedback list filtered to 未处理 with that many rows, 未读消息 opens the messages drawer;
 * hr01 (人事专员) sees only 新应聘人员, 未读消息 and one chart. Screenshots at 1280 and 375 px.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../src/server/modules/demo/roles.ts';
import type { Summary } from '../../src/web/staff/pages/home/summary.ts';
import { ADMIN, api, launchBrowser, newPage, shot, shotOnFailure, signInAs, startProduct, tokenOf, type Product } from './support.ts';
import { totalText } from './list-helpers.ts';

let product: Product;
let browser: Browser;
let page: Page | undefined;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  browser = await launchBrowser();
});
beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));
afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const todo = (p: Page, title: string) =>
  p.getByRole('list', { name: '待办事项' }).getByRole('link', { name: new RegExp(`^${title} \\d+ 条$`) });

async function summaryOf(p: Page): Promise<Summary> {
  const res = await api(product, await tokenOf(p), 'GET', '/api/home/summary');
  expect(res.status).toBe(200);
  return res.json<Summary>();
}

async function shotsAtBothWidths(p: Page, name: string): Promise<void> {
  await p.setViewportSize({ width: 375, height: 800 });
  await p.getByTestId('todo-unreadMessages').waitFor();
  // nothing sticks out sideways on a phone
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(p, `${name}-375px`);
  await p.setViewportSize({ width: 1280, height: 800 });
  await shot(p, name);
}

describe('首页', () => {
  it('admin: the to-dos with their counts, the charts, loaded after sign-in only', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(15000);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${product.url}/#/login`);
    await page.getByRole('button', { name: '登 录', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((s) => /HomeCharts/.test(s))).toEqual([]);

    await signInAs(page, product, ADMIN);
    // a default password lands in the personal centre first
    await page.evaluate(() => (window.location.hash = '/dashboard'));
    await page.getByTestId('todo-unreadMessages').waitFor();
    const summary = await summaryOf(page);
    expect(summary.items.map((i) => i.title)).toEqual(['待审核代步车申请', '未处理问题反馈', '新应聘人员', '待处理潜客', '未读消息']);
    for (const item of summary.items) {
      const card = page.getByTestId(`todo-${item.key}`);
      await expect.poll(() => card.innerText()).toBe(`${item.title}\n${item.count}`);
    }
    for (const chart of summary.charts)
      await page
        .getByRole('region', { name: `近30天${chart.title}` })
        .locator('svg')
        .first()
        .waitFor();
    expect(scripts.some((s) => /HomeCharts/.test(s))).toBe(true);
    await shotsAtBothWidths(page, 'home-admin');

    // 未处理问题反馈 opens the feedback list filtered to 未处理, with as many rows as counted
    const open = summary.items.find((i) => i.key === 'openFeedback')!;
    expect(open.count).toBeGreaterThan(0);
    await todo(page, '未处理问题反馈').click();
    await page.waitForFunction(() => window.location.hash.startsWith('#/sysQuestion?'));
    await totalText(page, open.count).waitFor();

    // 未读消息 opens the messages drawer
    await page.getByRole('link', { name: '首页' }).first().click();
    await page.getByTestId('todo-unreadMessages').getByRole('button').click();
    await page.getByRole('region', { name: '系统消息' }).waitFor();
    await page.context().close();
  });

  it('hr01 (人事专员): only 新应聘人员 and 未读消息, and the applicants chart', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(15000);
    await signInAs(page, product, { username: 'hr01', password: DEMO_PASSWORD });
    await page.evaluate(() => (window.location.hash = '/dashboard'));
    await page.getByTestId('todo-unreadMessages').waitFor();
    const summary = await summaryOf(page);
    expect(summary.items.map((i) => i.key)).toEqual(['newApplicants', 'unreadMessages']);
    const cards = page.getByRole('list', { name: '待办事项' }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(2);
    await page.getByRole('region', { name: '近30天应聘人员' }).locator('svg').first().waitFor();
    expect(await page.getByRole('region', { name: '近30天问题反馈' }).count()).toBe(0);
    await shotsAtBothWidths(page, 'home-hr01');
    await page.context().close();
  });
});
