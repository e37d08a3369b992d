/**
 * The dealer portal in a real browser, on the demo data (dealer jxs001 with its customer 李娜 and
 * her approved demand, members 13800000001...): the portal refuses a visit without a dealer
 * session, signs in, adds a customer with the SMS code the customer received (an unknown mobile
 * warns, a wrong code is refused, ID number and birthday show masked), submits a demand (the
 * form's own messages first), sees it in 用车需求; a staff member approves it; the dealer sees
 * 用车申请已通过 and opens the watermarked view;
 * the personal centre sends SMS codes (read from the development outbox) and changes the phone.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  ADMIN,
  launchBrowser,
  newPage,
  openFromMenu,
  pending,
  shot,
  shotOnFailure,
  signInAs,
  startProduct,
  type Product,
} from './support.ts';
import { dataRows, waitForCall } from './list-helpers.ts';
import { latestOutbox } from '../../src/server/providers/outbox.ts';

let product: Product;
let browser: Browser;
let page: Page;

const VIN = 'LSVAU218XN2183294';

async function codeFor(target: string): Promise<string> {
  await product.app.verificationCodes.settled();
  const msg = await latestOutbox(product.app.database.db, target);
  const m = msg && /(\d{6})/.exec(msg.content);
  if (!m) throw new Error(`no code for ${target}`);
  return m[1];
}

const noticeText = () => page.getByTestId('dealer-notice').last().innerText();
/** the row of the demand this test submits (the demo data has an approved demand of its own) */
const ours = (scope: Page | Locator) => scope.getByRole('row').filter({ hasText: '大众/朗逸/2024款 1.5L' });

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15000);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('dealer portal', () => {
  it('sends a visit without a dealer session to /jxsLogin and signs in', async () => {
    await page.goto(`${product.url}/#/comp/jxs_comp`);
    await page.waitForURL((u) => u.hash === '#/jxsLogin');
    await expect(page.getByText('经销商登录').isVisible()).resolves.toBe(true);
    await page.getByLabel('账号').fill('jxs001');
    // the password field reads 密码, not 确认密码 (docs/decisions.md)
    expect(await page.getByLabel('确认密码').count()).toBe(0);
    await page.getByLabel('密码', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: '登 录' }).click();
    await page.getByText('账号或密码错误').waitFor();
    await shot(page, 'dealer-01-login-error');
    await page.getByLabel('密码', { exact: true }).fill('Jxs@123456');
    const login = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/auth/login'));
    await page.getByRole('button', { name: '登 录' }).click();
    expect((await login).status()).toBe(200);
    await page.waitForURL((u) => u.hash === '#/comp/jxs_comp');
    await page.getByTestId('customer-list').waitFor();
    expect(await page.getByTestId('dealer-label').innerText()).toBe('[示例经销商一]');
    const stored = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem('authorization') ?? 'null') as { user: { username: string }; token: unknown },
    );
    expect(stored.user.username).toBe('jxs001');
    expect(typeof stored.token).toBe('string');
    const sidebar = await page.getByTestId('dealer-sidebar').boundingBox();
    expect(Math.round(sidebar!.width)).toBe(205);
    // the demo customer of jxs001
    await page.getByRole('cell', { name: '李娜' }).waitFor();
    await shot(page, 'dealer-02-customers');
  });

  it('adds a customer with the consent code the customer received, and shows the member data masked', async () => {
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('手机号').fill('13800000077');
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('请输入客户收到的验证码').waitFor();
    await dialog.getByRole('button', { name: '发送验证码' }).click();
    await dialog.getByRole('button', { name: /^\d+s后重新发送$/ }).waitFor();
    await dialog.getByLabel('验证码').fill(await codeFor('13800000077'));
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('您好您还未注册公众号账户请注册后再来').waitFor();
    expect(await dialog.getByLabel('姓名').inputValue()).toBe('');
    await dialog.getByLabel('手机号').fill('13800000001');
    await dialog.getByRole('button', { name: '发送验证码' }).click();
    await dialog.getByRole('button', { name: /^\d+s后重新发送$/ }).waitFor();
    const code = await codeFor('13800000001');
    await dialog.getByLabel('验证码').fill(code === '000000' ? '111111' : '000000');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('验证码错误或已过期').waitFor();
    await dialog.getByLabel('验证码').fill(code);
    await shot(page, 'dealer-03-consent-code', { fullPage: false });
    const saved = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/submitDbcUserInfo'));
    await dialog.getByRole('button', { name: '确定' }).click();
    expect((await saved).status()).toBe(201);
    await expect.poll(() => dialog.getByLabel('姓名').inputValue()).toBe('张伟');
    expect(await dialog.getByLabel('性别').inputValue()).toBe('男');
    expect(await dialog.getByLabel('会员ID').inputValue()).toBe('M0001');
    expect(await dialog.getByLabel('状态').inputValue()).toBe('客户');
    // the dealer sees the ID number and birthday masked only
    expect(await dialog.getByLabel('身份证号').inputValue()).toMatch(/^\d{4}\*+\d+$/);
    expect(await dialog.getByLabel('身份证号').inputValue()).not.toBe('410102199003071230');
    expect(await dialog.getByLabel('生日').inputValue()).not.toBe('1990-03-07');
    await shot(page, 'dealer-03-member-added', { fullPage: false });
    await dialog.getByRole('button', { name: '关闭' }).click();
    await page.getByRole('cell', { name: '张伟' }).waitFor();
    const added = page.getByRole('row', { name: /张伟/ });
    await expect(added.getByRole('cell', { name: '138****0001' }).isVisible()).resolves.toBe(true);
    await expect(added.getByRole('cell', { name: '已关注' }).isVisible()).resolves.toBe(true);
    await shot(page, 'dealer-04-customer-added');
  });

  it('搜索 asks again even when the text has not changed', async () => {
    const asks: string[] = [];
    const onRequest = (r: { url(): string }) => {
      const url = new URL(r.url());
      if (url.pathname === '/comp/dbcCompany/getDbcUserInfos') asks.push(url.searchParams.get('mobile') ?? '');
    };
    page.on('request', onRequest);
    await page.getByLabel('手机号搜索').fill('13800000001');
    await page.getByRole('button', { name: '搜索' }).click();
    await expect.poll(() => asks.length).toBe(1);
    await page.getByRole('button', { name: '搜索' }).click();
    await expect.poll(() => asks.length).toBe(2);
    await page.getByLabel('手机号搜索').press('Enter');
    await expect.poll(() => asks.length).toBe(3);
    expect(asks).toEqual(['13800000001', '13800000001', '13800000001']);
    page.off('request', onRequest);
    await page.getByLabel('手机号搜索').fill('');
    await page.getByRole('button', { name: '搜索' }).click();
    await page.getByRole('cell', { name: '张伟' }).waitFor();
  });

  it('finds a customer by name in pinyin (zw, zhangw) and says when no name matches', async () => {
    const asks: string[] = [];
    const onRequest = (r: { url(): string }) => {
      const url = new URL(r.url());
      if (url.pathname === '/comp/dbcCompany/getDbcUserInfos') asks.push(url.searchParams.get('surname') ?? '');
    };
    page.on('request', onRequest);
    for (const q of ['zw', 'zhangw', 'ZHANG wei']) {
      await page.getByLabel('姓名搜索').fill(q);
      await page.getByLabel('姓名搜索').press('Enter');
      await expect.poll(() => asks.at(-1)).toBe(q);
      await page.getByRole('cell', { name: '张伟' }).waitFor();
    }
    await page.getByLabel('姓名搜索').fill('qqq');
    await page.getByRole('button', { name: '搜索' }).click();
    await page.getByText('没有该姓名的用车客户，可修改姓名或拼音后再搜索').waitFor();
    await shot(page, 'dealer-customer-name-search');
    page.off('request', onRequest);
    await page.getByLabel('姓名搜索').fill('');
    await page.getByRole('button', { name: '搜索' }).click();
    await page.getByRole('cell', { name: '张伟' }).waitFor();
  });

  it('submits a demand after the form has shown its messages', async () => {
    await page.getByRole('row', { name: /张伟/ }).getByRole('button', { name: '提交用车需求' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('demand-submit').click();
    await dialog.getByText('车型不能为空').waitFor();
    await dialog.locator('[data-field="userCph"]').fill('AB123');
    await dialog.locator('[data-field="userVin"]').fill('LSVAU2180N2183294');
    await dialog.getByTestId('demand-submit').click();
    await dialog.getByText('请输入正确的车牌号').waitFor();
    await dialog.getByText('请输入正确的底盘号').waitFor();
    await shot(page, 'dealer-05-demand-errors', { fullPage: false });
    // the car type: the brand-tree cascader, down to the configuration (stopping at the model clears it)
    const carType = dialog.getByLabel(/^车型/);
    await carType.click();
    await page.getByRole('option', { name: '大众' }).click();
    await page.getByRole('option', { name: '朗逸' }).click();
    await page.getByRole('option', { name: '2024款 1.5L' }).click();
    await page.getByRole('listbox', { name: '第4级' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.getByText('请选择到车型配置（第4级）').waitFor();
    expect(await carType.inputValue()).toBe('');
    await carType.click();
    await page.getByRole('option', { name: '大众' }).click();
    await page.getByRole('option', { name: '朗逸' }).click();
    await page.getByRole('option', { name: '2024款 1.5L' }).click();
    await shot(page, 'dealer-05b-car-type-cascader', { fullPage: false });
    await page.getByRole('option', { name: '1.5L 自动满逸版' }).click();
    expect(await carType.inputValue()).toBe('大众 / 朗逸 / 2024款 1.5L / 1.5L 自动满逸版');
    await dialog.locator('[data-field="userCph"]').fill('豫A12345');
    await dialog.locator('[data-field="userVin"]').fill(VIN);
    await dialog.locator('[data-field="bah"]').fill('BA20260001');
    await dialog.locator('[data-field="wxgsf"]').fill('1500');
    await dialog.locator('[data-field="wxts"]').fill('7');
    await dialog.locator('[data-field="startTime"]').fill('2026-11-01 09:00:00');
    await dialog.locator('[data-field="endTime"]').fill('2026-11-08 09:00:00');
    await dialog.locator('[data-field="mfts"]').fill('5');
    await dialog.locator('[data-field="zfts"]').fill('2');
    await dialog.locator('[data-field="createUser"]').fill('王经理');
    await dialog.getByLabel('4000').check();
    const sent = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/submitDbcInfo'));
    await dialog.getByTestId('demand-submit').click();
    const response = await sent;
    expect(response.status()).toBe(201);
    const created: unknown = await response.json();
    expect((JSON.parse(response.request().postData() ?? '{}') as { carTypeIds?: unknown[] }).carTypeIds).toHaveLength(4);
    expect(created).toMatchObject({
      userCarType: '大众/朗逸/2024款 1.5L',
      startTime: '2026-11-01 09:00:00',
      endTime: '2026-11-08 09:00:00',
      foregiftPrice: 4000,
      countPrice: 2 * 200 + 4000,
      status: 1,
    });
    expect(await noticeText()).toBe('提交成功');
  });

  it('shows the demand in 用车需求, approved by staff, then the new status', async () => {
    await page.locator('[data-index="3"]').click();
    await page.getByTestId('request-list').waitFor();
    await page.getByRole('cell', { name: '用车申请审核中' }).waitFor();
    await expect(page.getByRole('cell', { name: '大众/朗逸/2024款 1.5L' }).isVisible()).resolves.toBe(true);
    await shot(page, 'dealer-06-request-pending');
    expect(await page.evaluate(() => sessionStorage.getItem('jxsActiveIndex'))).toBe('3');

    // a staff member approves it in the console
    const staffPage = await newPage(browser);
    staffPage.setDefaultTimeout(15000);
    await signInAs(staffPage, product, ADMIN);
    await openFromMenu(staffPage, '用车需求', 'api/dbc/dbcInfo');
    const row = dataRows(staffPage).filter({ hasText: '大众/朗逸/2024款 1.5L' });
    await row.getByRole('checkbox').check();
    const edit = staffPage.getByTestId('list-toolbar').getByRole('button', { name: '修改' });
    await expect.poll(() => edit.isEnabled()).toBe(true);
    await edit.click();
    const dialog = staffPage.getByRole('dialog');
    await dialog.getByTestId('dbc-summary').waitFor();
    // the VIN look-ups: no other demand with this VIN
    await dialog.getByTestId('vin-lookups').getByText('暂无其他记录').waitFor();
    await dialog.getByRole('button', { name: '确认' }).click();
    await dialog.getByText('请选择审核结果').waitFor();
    await dialog.getByRole('radio', { name: '不通过' }).check();
    await dialog.getByRole('button', { name: '确认' }).click();
    await dialog.getByText('请填写审核意见').first().waitFor();
    await dialog.getByRole('radio', { name: '通过', exact: true }).check();
    await dialog.getByRole('textbox', { name: '审核意见' }).fill('资料齐全，同意');
    await shot(staffPage, 'dealer-07a-staff-audit', { fullPage: false });
    const audited = waitForCall(staffPage, 'PUT', 'api/dbc/dbcInfo');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await audited).status()).toBe(204);
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('用车申请已通过').waitFor();
    await shot(staffPage, 'dealer-07b-staff-list');
    // the wide list scrolls inside its card at 1280 px: the page itself does not widen
    expect(await staffPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    // staff submit for a customer from 用车客户 with the same cascader, on the staff brand tree
    await staffPage.evaluate(() => {
      location.hash = '#/dbcUserInfo';
    });
    await shot(staffPage, 'dealer-07c-staff-customers');
    await dataRows(staffPage).filter({ hasText: '张伟' }).first().getByRole('button', { name: '代客提交用车需求' }).click();
    const staffForm = staffPage.getByRole('dialog');
    await staffForm.getByRole('heading', { name: '代客提交用车需求' }).waitFor();
    await staffForm.getByLabel(/^车型/).click();
    for (const name of ['丰田', '凯美瑞', '2024款 2.0L']) await staffPage.getByRole('option', { name }).click();
    await staffPage.getByRole('listbox', { name: '第4级' }).getByRole('option').first().click();
    expect(await staffForm.getByLabel(/^车型/).inputValue()).toMatch(/^丰田 \/ 凯美瑞 \/ 2024款 2\.0L \/ .+/);
    await shot(staffPage, 'dealer-07c-staff-submit-form', { fullPage: false });
    await staffForm.getByRole('button', { name: '取消' }).click();
    await staffForm.waitFor({ state: 'detached' });
    await staffPage.context().close();

    // a reload keeps the chosen view (session storage) and shows the new status
    await page.reload();
    await page.getByTestId('request-list').waitFor();
    await ours(page).getByRole('cell', { name: '用车申请已通过' }).waitFor();
    const editButton = ours(page).getByRole('button', { name: '编辑' });
    expect(await editButton.isDisabled()).toBe(true);
    await shot(page, 'dealer-07-request-approved');
    await ours(page).getByRole('cell', { name: '用车申请已通过' }).dblclick();
    const view = page.getByTestId('request-view');
    await view.waitFor();
    await page.getByRole('dialog').getByText('资料齐全，同意').first().waitFor();
    await expect(page.getByTestId('watermark').isVisible()).resolves.toBe(true);
    const box = await page.getByRole('dialog').boundingBox();
    expect(Math.round(box!.width)).toBe(1000);
    await shot(page, 'dealer-08-request-view', { fullPage: false });
    // the approved demand's contract: an A4 PDF made by the product
    const download = pending(page.waitForEvent('download'));
    await page.getByRole('button', { name: '下载合同' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^代步车借用合同-DBC\d{8}\.pdf$/);
    const path = await file.path();
    expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-');
    await page.getByRole('button', { name: '关闭' }).click();
  });

  it('shows 代步车用车信息 filtered by audit and order status', async () => {
    await page.goto(`${product.url}/#/comp/jxs_dbc`);
    const usage = page.getByTestId('usage-list');
    await ours(usage).getByRole('cell', { name: '用车申请已通过' }).waitFor();
    await usage.getByRole('combobox', { name: '审核状态' }).click();
    const filtered = pending(
      page.waitForResponse(
        (r) =>
          new URL(r.url()).pathname === '/comp/dbcCompany/getDbcInfos' &&
          (r.request().postDataJSON() as { shStatus?: string } | null)?.shStatus === '3',
      ),
    );
    await page.getByRole('option', { name: '未通过' }).click();
    expect((await filtered).status()).toBe(200);
    await usage.getByText('暂无数据').waitFor();
    await usage.getByRole('combobox', { name: '审核状态' }).click();
    await page.getByRole('option', { name: '已通过' }).click();
    await usage.getByRole('combobox', { name: '订单状态' }).click();
    await page.getByRole('option', { name: '未开始' }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.locator('.MuiPopover-root').waitFor({ state: 'detached' });
    await ours(usage).getByRole('cell', { name: '用车申请已通过' }).waitFor();
    await shot(page, 'dealer-08b-usage-info');
    await page.goto(`${product.url}/#/comp/jxs_comp`);
    await page.getByTestId('request-list').waitFor();
  });

  it('opens the password and phone dialogs of the personal centre', async () => {
    await page.getByRole('button', { name: '个人中心' }).click();
    await page.getByRole('menuitem', { name: '修改手机号（13900000001）' }).waitFor();
    await page.getByRole('menuitem', { name: '修改密码' }).click();
    const dialog = page.getByRole('dialog');
    expect(Math.round((await dialog.boundingBox())!.width)).toBe(500);
    expect(await dialog.getByLabel('手机号').inputValue()).toBe('13900000001');
    await dialog.getByRole('button', { name: '确认' }).click();
    await dialog.getByText('请输入验证码').first().waitFor();
    await dialog.getByText('两次输入的密码不一致').waitFor({ state: 'detached' });
    await dialog.getByLabel('新密码').fill('abc');
    await dialog.getByRole('button', { name: '确认' }).click();
    await dialog.getByText('长度在 6 到 20 个字符').waitFor();
    // the code goes to the bound phone (the development outbox here); the button counts down 60 s
    await dialog.getByRole('button', { name: '发送验证码' }).click();
    await page.getByText('发送成功，验证码有效期5分钟').first().waitFor();
    const countdown = dialog.getByRole('button', { name: /^\d+s后重新发送$/ });
    await countdown.waitFor();
    expect(await countdown.isDisabled()).toBe(true);
    expect(Number((await countdown.innerText()).replace(/\D/g, ''))).toBeGreaterThan(55);
    expect(await codeFor('13900000001')).toMatch(/^\d{6}$/);
    await shot(page, 'dealer-09-password-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '个人中心' }).click();
    await page.getByRole('menuitem', { name: '修改手机号（13900000001）' }).click();
    const phone = page.getByRole('dialog');
    await phone.getByRole('heading', { name: '修改手机号' }).waitFor();
    expect(Math.round((await phone.boundingBox())!.width)).toBe(475);
    expect(await phone.getByLabel('原手机号').inputValue()).toBe('13900000001');
    await phone.getByRole('button', { name: '确认' }).click();
    await phone.getByText('请输入电话号码').waitFor();
    await shot(page, 'dealer-10-phone-dialog', { fullPage: false });
    await phone.getByRole('button', { name: '取消' }).click();
    await phone.waitFor({ state: 'detached' });
  });

  it('changes the phone with the SMS code from the outbox', async () => {
    await page.getByRole('button', { name: '个人中心' }).click();
    await page.getByRole('menuitem', { name: '修改手机号（13900000001）' }).click();
    const phone = page.getByRole('dialog');
    await phone.getByRole('heading', { name: '修改手机号' }).waitFor();
    await phone.getByLabel('新手机号').fill('13900000077');
    const sent = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/sendMessage'));
    await phone.getByRole('button', { name: '发送验证码' }).click();
    expect(await (await sent).json()).toEqual({ Code: 'OK' });
    await phone.getByRole('button', { name: /^\d+s后重新发送$/ }).waitFor();
    // a wrong code first: the server's message, the phone unchanged
    const code = await codeFor('13900000077');
    await phone.getByLabel('验证码').fill(code === '000000' ? '111111' : '000000');
    await phone.getByRole('button', { name: '确认' }).click();
    await page.getByText('验证码错误或已过期').first().waitFor();
    await phone.getByLabel('验证码').fill(code);
    await shot(page, 'dealer-10b-phone-code', { fullPage: false });
    await phone.getByRole('button', { name: '确认' }).click();
    await phone.waitFor({ state: 'detached' });
    await page.getByText('修改成功').first().waitFor();
    const row = await product.app.database.db
      .selectFrom('dbc_company')
      .select('mobile')
      .where('username', '=', 'jxs001')
      .executeTakeFirstOrThrow();
    expect(row.mobile).toBe('13900000077');
    await page.getByRole('button', { name: '个人中心' }).click();
    await page.getByRole('menuitem', { name: '修改手机号（13900000077）' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('signs out on the server and locally', async () => {
    await page.getByRole('button', { name: '个人中心' }).click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.getByText('确定注销并退出系统吗？').waitFor();
    const out = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/comp/dbcCompany/auth/logout'));
    await page.getByRole('button', { name: '确定' }).click();
    expect((await out).status()).toBe(200);
    await page.waitForURL((u) => u.hash === '#/jxsLogin');
    expect(await page.evaluate(() => sessionStorage.getItem('authorization'))).toBeNull();
  });
});
