/**
 * Dates in Chinese format whatever the browser's language: with Chromium set to en-US and to
 * zh-CN, the date fields of the three apps show 'yyyy-MM-dd' (and 'yyyy-MM-dd HH:mm:ss'), typing
 * digits fills them in that format, and the calendar opens with Chinese labels: the staff
 * console's generated form (费用支出 支出日期), the dealer portal's demand (开始时间) and the
 * applicant's registration (出生日期). Screenshots of each picker open at 1280 px and 375 px.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { loginAs } from '../server/auth-helpers.ts';
import { ADMIN, api, launchBrowser, pending, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';
import type { Created } from '../support/answers.ts';
import { latestOutbox } from '../../src/server/providers/outbox.ts';

let product: Product;
let browser: Browser;
let postingId: number;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  const token = await loginAs(product.app, ADMIN.username, ADMIN.password);
  const created = await api(product, token, 'POST', '/api/staffunZp', {
    deptId: 1,
    job: '销售顾问',
    money: '6000-9000元/月',
    address: '郑州市金水区',
    jobNum: 3,
    jobZz: '接待到店客户',
    jobYq: '大专以上学历',
    enabled: true,
  });
  expect(created.status).toBe(201);
  postingId = created.json<Created>().id;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

/** The calendar: a popper on a desktop, a full dialog below 600 px. */
const calendar = (page: Page) =>
  page.locator('.MuiPickersPopper-root, .MuiPickersModalDialog-root, [role="dialog"]:has(.MuiDateCalendar-root)').last();

/** Opens the picker at 1280 px and at 375 px, screenshots both, and picks day 20 at 1280 px. */
async function openAndPick(page: Page, box: Locator, label: string, name: string, kind: 'date' | 'datetime') {
  const opener = page.getByRole('button', { name: `选择${label}` });
  await opener.click();
  const cal = calendar(page);
  await cal.locator('.MuiDateCalendar-root').waitFor();
  // Chinese month and weekdays whatever the browser's language
  await expect.poll(() => cal.innerText()).toMatch(/[一二三四五六日]/);
  expect(await cal.innerText()).not.toMatch(
    /January|February|March|April|May|June|July|August|September|October|November|December|Mo|Tu|We|Th|Fr|Sa|Su/,
  );
  await shot(page, `${name}-1280px`, { fullPage: false });
  await cal.getByRole('gridcell', { name: '20', exact: true }).click();
  if (kind === 'datetime' || (await cal.getByRole('button', { name: '确认' }).count())) {
    // the time views follow the day: 确认 takes the time shown
    const ok = page.getByRole('button', { name: '确认' });
    if (await ok.count()) await ok.click();
    else await page.keyboard.press('Escape');
  }
  await cal.waitFor({ state: 'hidden' });
  await expect.poll(() => box.inputValue()).toMatch(kind === 'date' ? /^\d{4}-\d{2}-20$/ : /^\d{4}-\d{2}-20 \d{2}:\d{2}:\d{2}$/);

  await page.setViewportSize({ width: 375, height: 800 });
  await opener.click();
  const phone = calendar(page);
  await phone.locator('.MuiDateCalendar-root').waitFor();
  const width = (await phone.locator('.MuiDateCalendar-root').boundingBox())!.width;
  expect(width).toBeLessThanOrEqual(375);
  // days big enough for a thumb
  const day = (await phone.getByRole('gridcell', { name: '15', exact: true }).boundingBox())!;
  expect(day.width).toBeGreaterThanOrEqual(36);
  await shot(page, `${name}-375px`, { fullPage: false });
  const cancel = page.getByRole('button', { name: '取消' }).last();
  if (await cancel.isVisible()) await cancel.click();
  else await page.keyboard.press('Escape');
  await phone.waitFor({ state: 'hidden' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.each(['en-US', 'zh-CN'])('date pickers with the browser in %s', (locale) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(15000);
  });
  afterAll(() => context?.close());
  beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, `${locale}-${task.name}`)));

  it('the browser reports its language', async () => {
    await page.goto(`${product.url}/#/login`);
    expect(await page.evaluate(() => navigator.language)).toBe(locale);
  });

  it('staff console: 费用支出 支出日期 is yyyy-MM-dd, typed and picked', async () => {
    await signInAs(page, product, ADMIN);
    const list = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/expense' && r.request().method() === 'GET'));
    await page.evaluate(() => (window.location.hash = '/expense'));
    await list;
    await page.locator('#main-content').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    const box = dialog.getByRole('textbox', { name: /支出日期/ });
    await box.waitFor();
    await expect.poll(() => box.isEditable()).toBe(true);
    await box.click();
    await page.keyboard.type('20261215');
    await expect.poll(() => box.inputValue()).toBe('2026-12-15');
    await box.fill('');
    await box.fill('2026-11-03');
    await expect.poll(() => box.inputValue()).toBe('2026-11-03');
    await openAndPick(page, box, '支出日期', `pickers-staff-${locale}`, 'date');
    // a list filter: 创建时间 range
    await dialog.getByRole('button', { name: '取消' }).click();
  });

  it('dealer portal: 开始时间 is yyyy-MM-dd HH:mm:ss', async () => {
    await page.goto(`${product.url}/#/comp/jxs_comp`);
    await page.waitForURL((u) => u.hash === '#/jxsLogin');
    await page.getByLabel('账号').fill('jxs001');
    await page.getByLabel('密码', { exact: true }).fill('Jxs@123456');
    await page.getByRole('button', { name: '登 录' }).click();
    // the list has loaded once it shows a customer's row or its empty message (the other locale's run may have added 张伟)
    const demandButtons = page.getByRole('button', { name: '提交用车需求' });
    await demandButtons.first().or(page.getByTestId('customer-list').getByTestId('empty-state')).waitFor();
    if (!(await demandButtons.count())) {
      await page.getByRole('button', { name: '新增' }).click();
      const add = page.getByRole('dialog');
      await add.getByLabel('手机号').fill('13800000001');
      await add.getByRole('button', { name: '发送验证码' }).click();
      await add.getByRole('button', { name: /^\d+s后重新发送$/ }).waitFor();
      await product.app.verificationCodes.settled();
      const msg = await latestOutbox(product.app.database.db, '13800000001');
      await add.getByLabel('验证码').fill(/(\d{6})/.exec(msg?.content ?? '')?.[1] ?? '');
      await add.getByRole('button', { name: '确定' }).click();
      await expect.poll(() => add.getByLabel('姓名').inputValue()).toBe('张伟');
      await add.getByRole('button', { name: '关闭' }).click();
      await page.getByRole('cell', { name: '张伟' }).waitFor();
    }
    await page.getByRole('button', { name: '提交用车需求' }).first().click();
    const dialog = page.getByRole('dialog');
    const box = dialog.getByRole('textbox', { name: /开始时间/ });
    await box.waitFor();
    await expect.poll(() => box.isEditable()).toBe(true);
    await box.click();
    await page.keyboard.type('20261101090005');
    await expect.poll(() => box.inputValue()).toBe('2026-11-01 09:00:05');
    const end = dialog.getByRole('textbox', { name: /结束时间/ });
    await end.fill('2026-11-08 18:30:00');
    await expect.poll(() => end.inputValue()).toBe('2026-11-08 18:30:00');
    await openAndPick(page, box, '开始时间', `pickers-dealer-${locale}`, 'datetime');
  });

  it('applicant registration: 出生日期 is yyyy-MM-dd', async () => {
    await page.goto(`${product.url}/#/staffun?zpId=${postingId}`);
    await page.getByRole('heading', { name: '应聘人员信息登记表' }).waitFor();
    const box = page.getByRole('textbox', { name: /出生日期/ });
    await expect.poll(() => box.isEditable()).toBe(true);
    await box.click();
    await page.keyboard.type('19960815');
    await expect.poll(() => box.inputValue()).toBe('1996-08-15');
    const arrival = page.getByRole('textbox', { name: /预计到岗日期/ });
    await arrival.fill('2026-12-15');
    await expect.poll(() => arrival.inputValue()).toBe('2026-12-15');
    await openAndPick(page, box, '出生日期', `pickers-applicant-${locale}`, 'date');
  });
});
