/**
 * The smaller things seen on the walk through the staff console, one by one (issue: point 6):
 * 定时任务's 操作 column on screen at 1280 px; list filters kept per user on a shared browser;
 * the 10-tab warning once; the 404 page no tab; nobody listed online to themselves; the
 * applicant page's heading masked as its body, and its own tab title.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createStaff, loginAs } from '../server/auth-helpers.ts';
import { ADMIN, api, launchBrowser, newPage, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';
import type { Created } from '../support/answers.ts';
import { elapse } from '../support/wait.ts';

let product: Product;
let browser: Browser;
let page: Page;
let adminToken: string;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  adminToken = await loginAs(product.app, ADMIN.username, ADMIN.password);
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15_000);
  await signInAs(page, product, ADMIN);
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

const tabs = () => page.getByTestId('tags-view').locator('.MuiChip-root');
const tabTitles = async () => (await tabs().allInnerTexts()).map((t) => t.trim());

describe('the walk through the staff console', () => {
  it('定时任务: the 操作 column is on screen at 1280 px', async () => {
    await page.goto(`${product.url}/#/dj`);
    const header = page.getByRole('columnheader', { name: '操作' });
    await header.waitFor();
    await page.getByRole('row').nth(1).waitFor();
    const box = (await header.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    const lastButton = page.getByRole('row').nth(1).getByRole('button').last();
    const b = (await lastButton.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(1280);
    await shot(page, 'walk-dj-1280', { fullPage: false });
    // on a phone the table scrolls sideways and the 操作 column stays at the right edge
    await page.setViewportSize({ width: 375, height: 812 });
    await expect
      .poll(async () => {
        const small = (await page.getByRole('row').nth(1).getByRole('button').last().boundingBox())!;
        return small.x + small.width <= 375;
      })
      .toBe(true);
    await shot(page, 'walk-dj-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('list filters are kept per user: the next user signing in on the same browser starts clean, the first finds theirs again', async () => {
    await createStaff(product.app, { username: 'clerk', password: 'Clerk@2024', permissions: ['sysQuestion:list'] });
    const listCall = () => page.waitForResponse((r) => new URL(r.url()).pathname === '/api/sysQuestion' && r.request().method() === 'GET');
    await page.goto(`${product.url}/#/sysQuestion`);
    const search = page.getByPlaceholder('请输入搜索内容');
    await search.waitFor();
    const filtered = listCall();
    await search.fill('刹车异响');
    expect(new URL((await filtered).url()).searchParams.get('blurry')).toBe('刹车异响');
    // the next user on this browser
    await page.context().clearCookies();
    await signInAs(page, product, { username: 'clerk', password: 'Clerk@2024' });
    const clerkList = listCall();
    await page.goto(`${product.url}/#/sysQuestion`);
    expect(new URL((await clerkList).url()).searchParams.get('blurry')).toBeNull();
    await expect.poll(() => page.getByPlaceholder('请输入搜索内容').inputValue()).toBe('');
    await shot(page, 'walk-filters-next-user-1280', { fullPage: false });
    // back to the first user: their filter is still there
    await page.context().clearCookies();
    await signInAs(page, product, ADMIN);
    const adminList = listCall();
    await page.goto(`${product.url}/#/sysQuestion`);
    expect(new URL((await adminList).url()).searchParams.get('blurry')).toBe('刹车异响');
    await expect.poll(() => page.getByPlaceholder('请输入搜索内容').inputValue()).toBe('刹车异响');
  });

  it('an address with no screen shows the 404 page and opens no tab', async () => {
    await page.goto(`${product.url}/#/noSuchScreen`);
    await page.getByText('您访问的页面不存在').waitFor();
    await page.goto(`${product.url}/#/sysQuestion`);
    await expect.poll(tabTitles).toContain('问题反馈');
    expect(await tabTitles()).not.toContain('页面不存在');
  });

  it('after the 10-tab limit, 最多支持10个菜单项! shows once, not on every navigation', async () => {
    await page.evaluate(() => {
      const w = window as unknown as { __warnings: number };
      w.__warnings = 0;
      new MutationObserver((changes) => {
        for (const change of changes) {
          for (const node of change.addedNodes) {
            if (
              node instanceof HTMLElement &&
              node.querySelector('[role="alert"], .MuiSnackbarContent-message') &&
              node.textContent?.includes('最多支持10个菜单项!')
            )
              w.__warnings += 1;
          }
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    const warnings = () => page.evaluate(() => (window as unknown as { __warnings: number }).__warnings);
    const screens = [
      'jpType',
      'osType',
      'tmsWareType',
      'kfRemindType',
      'sysCarBrand',
      'expense',
      'xsZjs',
      'qywxMenu',
      'menuPage',
      'staffunZp',
      'xsLrSjmx',
    ];
    for (const name of screens) {
      await page.goto(`${product.url}/#/${name}`);
      await page.getByRole('table').first().waitFor();
    }
    expect(await tabs().count()).toBe(10);
    await expect.poll(warnings).toBeGreaterThan(0);
    const once = await warnings();
    // the refused screen's own query changes, and moves between the open tabs, say nothing more
    await page.getByPlaceholder('请输入搜索内容').fill('利润');
    await elapse(800); // past the search box's debounce: the query has changed, and nothing may be said
    await tabs().filter({ hasText: '问题反馈' }).locator('.MuiChip-label').click();
    await page.getByRole('table').first().waitFor();
    await elapse(800); // a quiet spell after the move between tabs: nothing more may be said
    expect(await warnings()).toBe(once);
    await shot(page, 'walk-tabs-limit-1280', { fullPage: false });
  });

  it('nobody is listed online to themselves; the others are', async () => {
    await createStaff(product.app, { username: 'clerk2', password: 'Clerk@2024', permissions: ['sysQuestion:list'] });
    const open = async (username: string) => {
      const p = await newPage(browser);
      p.setDefaultTimeout(15_000);
      await signInAs(p, product, { username, password: 'Clerk@2024' });
      return p;
    };
    const first = await open('clerk');
    const second = await open('clerk2');
    await first.getByRole('button', { name: '在线用户' }).click();
    const list = first.getByRole('list', { name: '在线用户列表' });
    await expect.poll(() => list.innerText(), { timeout: 10_000 }).toContain('clerk2');
    expect((await list.innerText()).split('\n').map((x) => x.trim())).not.toContain('clerk');
    await expect.poll(() => first.getByRole('heading', { name: /在线用户/ }).innerText()).toBe('在线用户（1）');
    await shot(first, 'walk-online-1280', { fullPage: false });
    await second.getByRole('button', { name: '在线用户' }).click();
    const theirs = second.getByRole('list', { name: '在线用户列表' });
    await expect.poll(() => theirs.innerText(), { timeout: 10_000 }).toContain('clerk');
    expect((await theirs.innerText()).split('\n').map((x) => x.trim())).not.toContain('clerk2');
    await first.context().close();
    await second.context().close();
  });

  it("the applicant page shows the masked name in its heading as in its body, and its tab is not the list's", async () => {
    const posting = await api(product, adminToken, 'POST', '/api/staffunZp', {
      deptId: 1,
      job: '销售顾问',
      money: '面议',
      address: '郑州',
      jobNum: 1,
      jobZz: '接待',
      jobYq: '大专',
      enabled: true,
    });
    const created = await product.app.inject({
      method: 'POST',
      url: '/api/staffun',
      payload: {
        staffunZpId: posting.json<Created>().id,
        ypqd: '招聘网站',
        ypmx: '智联',
        name: '欧阳明月',
        mobile: '13800138123',
        sex: 1,
        card: '110105194912310038',
        birthday: '1949-12-31',
        hyzk: 0,
        email: 'oy@example.com',
        cardProvince: '110000',
        cardCity: '110100',
        cardCounty: '110105',
        cardAddress: '朝阳区1号',
        nowProvince: '410000',
        nowCity: '410100',
        nowCounty: '410105',
        nowAddress: '金水区2号',
        edu: 3,
        work: 3,
        syMoney: 6000,
        zsMoney: 8000.5,
        yjdg: '2026-12-01',
        outWork: 1,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Created>().id;
    // room for the tabs again (the test before filled all ten)
    await page.evaluate(() => sessionStorage.removeItem('shell.tags'));
    await page.goto(`${product.url}/#/applicant`);
    await page.reload();
    await page.getByRole('table').first().waitFor();
    await page.goto(`${product.url}/#/applicant/${id}/show`);
    const heading = page.getByRole('heading', { level: 2 });
    await heading.waitFor();
    expect(await heading.innerText()).toBe('欧***');
    await expect.poll(() => page.locator('dd').first().innerText()).not.toBe('');
    expect(await page.locator('body').innerText()).not.toContain('欧阳明月');
    const titles = await tabTitles();
    expect(titles).toContain('应聘人员信息');
    expect(titles).toContain('应聘人员信息详情');
    expect(new Set(titles).size).toBe(titles.length);
    await shot(page, 'walk-applicant-detail-1280', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 812 });
    await expect.poll(() => heading.innerText()).toBe('欧***');
    await shot(page, 'walk-applicant-detail-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('money: 费用支出 keeps two decimals while typing; a signed amount with three decimals is marked 最多只能输入两位小数 before sending', async () => {
    await page.goto(`${product.url}/#/expense`);
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    const money = dialog.getByRole('textbox', { name: '金额(元)' });
    await money.pressSequentially('12.345');
    await expect.poll(() => money.inputValue()).toBe('12.34');
    await shot(page, 'walk-money-expense-1280', { fullPage: false });
    await dialog.getByRole('button', { name: '取消' }).click();
    // 单车毛利 may be negative, so typing is free: the form check says it before any request
    await page.goto(`${product.url}/#/xsLrSjmx`);
    await page.getByRole('button', { name: '新增' }).click();
    const form = page.getByRole('dialog');
    const profit = form.getByLabel('单车毛利(元)');
    await profit.fill('-12.345');
    await profit.blur();
    let posted = false;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/xs/xsLrSjmx') posted = true;
    });
    await form.getByRole('button', { name: '确认' }).click();
    await form.getByText('最多只能输入两位小数').first().waitFor();
    expect(posted).toBe(false);
    await shot(page, 'walk-money-profit-1280', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 812 });
    await shot(page, 'walk-money-profit-375', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });
    await form.getByRole('button', { name: '取消' }).click();
  });
});
