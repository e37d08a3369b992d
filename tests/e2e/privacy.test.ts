/**
 * 个人信息保护 in the browser, as an administrator answers a person's request: opened from
 * 系统管理, a mobile typed in full with its reason, 查询 lists the records holding it (a feedback
 * record and a lead here) and the look-up appears in 请求记录; 删除个人信息 asks first, then shows
 * what was done where. The tab 保留期限 runs the dry run and lists the runs (none yet: the empty
 * message); 处理活动记录 lists every entity with personal fields and the roles reading them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN,
  api,
  launchBrowser,
  newPage,
  openFromMenu,
  shot,
  shotOnFailure,
  signInAs,
  startProduct,
  tokenOf,
  type Product,
} from './support.ts';

const MOBILE = '13766554433';

let product: Product;
let browser: Browser;
let page: Page | undefined;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: false, jobsEnabled: false });
  browser = await launchBrowser();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('个人信息保护 in the browser', () => {
  it('finds a person by mobile with a reason, lists the request, erases after confirming', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(20000);
    await signInAs(page, product, ADMIN);
    const token = await tokenOf(page);
    const made = await api(product, token, 'POST', '/api/sysQuestion', {
      userType: '客户',
      model: '系统',
      content: '导出打不开',
      username: '欧阳明月',
      mobile: MOBILE,
    });
    expect(made.status, made.body).toBe(201);

    await openFromMenu(page, '个人信息保护', 'api/privacy/requests');
    await page.getByLabel('手机号').fill(MOBILE);
    const searchButton = page.getByRole('button', { name: '查询', exact: true });
    expect(await searchButton.isDisabled()).toBe(true); // no reason yet
    await page.getByLabel('事由').fill('本人申请查阅');
    await searchButton.click();
    const results = page.getByRole('table', { name: '查询结果' });
    await results.getByRole('cell', { name: '问题反馈' }).waitFor();
    await page.getByText(/^查询结果：共 \d+ 条/).waitFor();
    const requests = page.getByRole('table', { name: '请求记录' });
    await requests.getByRole('cell', { name: '本人申请查阅' }).waitFor();
    expect(await requests.innerText()).toContain('137****4433');
    await shot(page, 'privacy-search', { fullPage: true });

    await page.getByRole('button', { name: '删除个人信息' }).click();
    await page.getByRole('dialog').getByText('不能恢复', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    const report = page.getByRole('table', { name: '删除报告' });
    await report.getByRole('cell', { name: '匿名化' }).first().waitFor();
    await shot(page, 'privacy-erased', { fullPage: true });
    const after = await api(product, token, 'POST', '/api/privacy/search', { mobile: MOBILE, reason: '核对' });
    expect(after.json<{ count: number }>().count).toBe(0);
  }, 120_000);

  it('shows the retention dry run and the records of processing in their tabs', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(20000);
    await signInAs(page, product, ADMIN);
    await openFromMenu(page, '个人信息保护', 'api/privacy/requests');
    await page.getByRole('tab', { name: '保留期限' }).click();
    const runs = page.getByRole('table', { name: '执行记录' });
    await runs.getByText('暂无数据').waitFor();
    await page.getByRole('button', { name: '试运行', exact: true }).click();
    await page.getByText(/^试运行（.+）：到期 \d+ 条，未做修改/).waitFor();
    const aged = page.getByRole('table', { name: '到期记录' });
    await aged.getByRole('cell', { name: '问题反馈', exact: true }).waitFor();
    await shot(page, 'privacy-retention', { fullPage: true });

    await page.getByRole('tab', { name: '处理活动记录' }).click();
    const records = page.getByRole('table', { name: '个人信息处理活动记录' });
    await records
      .getByRole('cell', { name: /^员工花名册|^问题反馈/ })
      .first()
      .waitFor();
    expect(await records.innerText()).toContain('身份证号');
    await shot(page, 'privacy-processing', { fullPage: true });
  }, 120_000);
});
