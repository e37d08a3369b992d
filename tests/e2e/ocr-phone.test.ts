/**
 * Recognised pictures and phone locations in a real browser: the dealer's 用车需求 form fills
 * 车牌号 and 底盘号 from pictures sent to a local fake of Baidu's OCR API (configured only through
 * BAIDU_OCR_*), and shows the service's refusal; 问题反馈 shows where each caller's mobile was
 * issued beside it in the record's dialog; the roster's 新增 dialog fills 工资卡号 and 开户银行 from a
 * bank-card picture (the schema's x-ocr).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN,
  api,
  launchBrowser,
  newPage,
  openFromMenu,
  pending,
  shot,
  shotOnFailure,
  signInAs,
  startProduct,
  tokenOf,
  type Product,
} from './support.ts';
import { dataRows } from './list-helpers.ts';
import { latestOutbox } from '../../src/server/providers/outbox.ts';
import { FAKE_API_KEY, FAKE_SECRET_KEY, fakeImage, startFakeBaiduOcr, type FakeBaiduOcr } from '../support/fake-baidu-ocr.ts';

let fake: FakeBaiduOcr;
let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fake = await startFakeBaiduOcr();
  product = await startProduct({
    captchaEnabled: false,
    baiduOcrApiKey: FAKE_API_KEY,
    baiduOcrSecretKey: FAKE_SECRET_KEY,
    baiduOcrApiBase: fake.url,
  });
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15000);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
  await fake?.close();
});

const picture = (text: string, name = 'photo.jpg') => ({ name, mimeType: 'image/jpeg', buffer: fakeImage(text) });

describe('recognised pictures fill the dealer demand form', () => {
  it('fills 车牌号 from a plate, both fields from a vehicle licence, and shows a refusal', async () => {
    await page.goto(`${product.url}/#/jxsLogin`);
    await page.getByLabel('账号').fill('jxs001');
    await page.getByLabel('密码', { exact: true }).fill('Jxs@123456');
    await page.getByRole('button', { name: '登 录' }).click();
    await page.getByTestId('customer-list').waitFor();
    // a customer to submit a demand for
    await page.getByRole('button', { name: '新增' }).click();
    const add = page.getByRole('dialog');
    await add.getByLabel('手机号').fill('13800000001');
    await add.getByRole('button', { name: '发送验证码' }).click();
    await add.getByRole('button', { name: /^\d+s后重新发送$/ }).waitFor();
    await product.app.verificationCodes.settled();
    const sms = await latestOutbox(product.app.database.db, '13800000001');
    await add.getByLabel('验证码').fill(/(\d{6})/.exec(sms?.content ?? '')?.[1] ?? '');
    await add.getByRole('button', { name: '确定' }).click();
    await expect.poll(() => add.getByLabel('姓名').inputValue()).toBe('张伟');
    await add.getByRole('button', { name: '关闭' }).click();
    await page.getByRole('cell', { name: '张伟' }).waitFor();

    await page.getByRole('button', { name: '提交用车需求' }).first().click();
    const dialog = page.getByRole('dialog');
    const plate = dialog.locator('[data-field="userCph"]');
    const vin = dialog.locator('[data-field="userVin"]');
    await dialog.getByRole('button', { name: '识别车牌' }).waitFor();

    const cph = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/public/getCph'));
    await dialog.locator('input[data-ocr-input="getCph"]').setInputFiles(picture('plate:豫A·12345', '车牌.jpg'));
    expect((await cph).status()).toBe(200);
    await expect.poll(() => plate.inputValue()).toBe('豫A12345');
    expect(await vin.inputValue()).toBe('');

    await dialog
      .locator('input[data-ocr-input="getXsz"]')
      .setInputFiles(picture('plate:豫B67890\nvin:LSVAU218XN2183294\nowner:张伟', '行驶证.jpg'));
    await expect.poll(() => vin.inputValue()).toBe('LSVAU218XN2183294');
    expect(await plate.inputValue()).toBe('豫B67890');
    await shot(page, 'ocr-01-demand-filled', { fullPage: false });

    await dialog.locator('input[data-ocr-input="getVin"]').setInputFiles(picture('nothing', '模糊.jpg'));
    await page.getByTestId('dealer-notice').filter({ hasText: '未识别到车架号，请重新拍摄清晰的照片' }).waitFor();
    // the fields keep what was read before
    expect(await vin.inputValue()).toBe('LSVAU218XN2183294');
    await shot(page, 'ocr-02-demand-not-recognised', { fullPage: false });
    expect(fake.calls.filter((c) => c.startsWith('/rest/'))).toEqual([
      '/rest/2.0/ocr/v1/license_plate',
      '/rest/2.0/ocr/v1/vehicle_license',
      '/rest/2.0/ocr/v1/vin_code',
    ]);
  });
});

describe("问题反馈 shows where a caller's mobile was issued", () => {
  it('tags the mobile in the record dialog', async () => {
    const staff = await newPage(browser);
    staff.setDefaultTimeout(15000);
    try {
      await signInAs(staff, product, ADMIN);
      await openFromMenu(staff, '问题反馈', 'api/sysQuestion');
      // a feedback left with a name and mobile (实名), on the first page
      const token = await tokenOf(staff);
      const page0 = (await api(product, token, 'GET', '/api/sysQuestion?page=0&size=10&sort=id,desc')).json<{
        content: Array<{ id: number; title: string; mobile: string | null }>;
      }>();
      const named = page0.content.find((r) => r.mobile);
      expect(named, 'a demo feedback with a mobile').toBeTruthy();
      const known = (await api(product, token, 'GET', `/api/kf/phoneToAddress?phone=${named!.mobile}`)).json<{
        location: string;
        carrier: string;
      }>();
      expect(known.location).not.toBe('');
      const row = dataRows(staff).filter({ hasText: named!.title }).first();
      await row.getByRole('button', { name: '查看' }).click();
      const dialog = staff.getByRole('dialog');
      const tag = dialog.getByTestId('phone-location');
      await tag.waitFor();
      expect(await tag.innerText()).toBe(`${known.location} ${known.carrier}`);
      await shot(staff, 'ocr-03-feedback-dialog-phone-location', { fullPage: false });
    } finally {
      await staff.context().close();
    }
  });
});

describe('the roster fills 工资卡号 from a bank card picture (x-ocr)', () => {
  it('shows 识别银行卡 beside 工资卡号 in the 新增 dialog and fills the card and its bank', async () => {
    const staff = await newPage(browser);
    staff.setDefaultTimeout(15000);
    try {
      await signInAs(staff, product, ADMIN);
      await openFromMenu(staff, '员工花名册', 'api/staff');
      await staff.getByRole('button', { name: '新增' }).first().click();
      const dialog = staff.getByRole('dialog');
      await dialog.getByRole('button', { name: '识别银行卡' }).waitFor();
      const yhk = pending(staff.waitForResponse((r) => new URL(r.url()).pathname === '/api/public/getYhk'));
      await dialog
        .locator('input[data-ocr-input="getYhk"]')
        .setInputFiles(picture('card:6222 0212 3456 7890 123\nbank:中国工商银行', '工资卡.jpg'));
      expect((await yhk).status()).toBe(200);
      await expect.poll(() => dialog.getByLabel('工资卡号').inputValue()).toBe('6222021234567890123');
      expect(await dialog.getByLabel('开户银行').inputValue()).toBe('中国工商银行');
      await dialog.getByLabel('工资卡号').scrollIntoViewIfNeeded();
      await shot(staff, 'ocr-04-roster-bank-card', { fullPage: false });
    } finally {
      await staff.context().close();
    }
  });
});
