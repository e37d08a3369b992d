/**
 * Sign-in page in a real browser with the captcha on (the default): captcha image, the three
 * required messages, a wrong password (server message, 5-second block, new captcha), then a
 * real sign-in with the captcha's answer read from the database, and the filing number.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { ADMIN, launchBrowser, newPage, pending, shot, shotOnFailure, startProduct, type Product } from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
  page = await newPage(browser);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

function isCaptcha(response: Response): boolean {
  return new URL(response.url()).pathname === '/api/code';
}

async function captchaOf(response: Response): Promise<{ uuid: string; img: string }> {
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { uuid: string; img: string };
  expect(body.uuid).toMatch(/^[0-9a-f]{32}$/);
  expect(body.img).toMatch(/^data:image\/svg\+xml;base64,/);
  return body;
}

/** The answer of a captcha as the server keeps it (table sys_captcha). */
async function answerOf(uuid: string): Promise<string> {
  const row = await product.app.database.db.selectFrom('sys_captcha').select('answer').where('uuid', '=', uuid).executeTakeFirst();
  if (!row) throw new Error(`no captcha ${uuid} in sys_captcha`);
  return String(row.answer);
}

describe('staff sign-in page (captcha on)', () => {
  it('validates, blocks a failed sign-in for 5 seconds with a new captcha, then signs in', async () => {
    expect(product.config.captchaEnabled).toBe(true);
    const firstCaptcha = pending(page.waitForResponse(isCaptcha));
    await page.goto(`${product.url}/`);
    await page.waitForURL(/#\/login/);
    const first = await captchaOf(await firstCaptcha);

    const image = page.getByRole('img', { name: '验证码' });
    await image.waitFor();
    await expect.poll(() => image.getAttribute('src')).toBe(first.img);
    // the browser could decode and draw it
    await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    // footer: filing number from the public settings
    await page.getByText('豫ICP备00000000号').waitFor();
    expect(await page.getByTestId('record-number').textContent()).toContain('豫ICP备00000000号');
    await shot(page, 'login-page');

    const button = page.getByRole('button', { name: '登 录', exact: true });
    const account = page.getByRole('textbox', { name: '账号' });
    const password = page.getByLabel('密码', { exact: true });
    const code = page.getByRole('textbox', { name: '验证码' });

    // empty submit: the three required messages, and no call to the server
    let loginCalls = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/login') loginCalls++;
    });
    await button.click();
    for (const text of ['用户名/手机号不能为空', '密码不能为空', '验证码不能为空']) {
      await page.getByText(text, { exact: true }).waitFor();
    }
    expect(loginCalls).toBe(0);
    await shot(page, 'login-required');

    // a wrong password (with the right captcha): the server's message, 5-second block, new captcha
    await account.fill('admin');
    await password.fill('Wrong@123456');
    await code.fill(await answerOf(first.uuid));
    const failed = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/login'));
    const nextCaptcha = pending(page.waitForResponse(isCaptcha));
    await button.click();
    const failure = await failed;
    expect(failure.status()).toBe(400);
    expect(((await failure.json()) as { message: string }).message).toBe('用户名或密码错误');
    const failedAt = Date.now();
    const second = await captchaOf(await nextCaptcha);
    expect(second.uuid).not.toBe(first.uuid);

    await page.getByRole('alert').filter({ hasText: '用户名或密码错误' }).waitFor();
    const blocked = page.getByRole('button', { name: /秒后可重新登录/ });
    await blocked.waitFor();
    expect(await blocked.isDisabled()).toBe(true);
    expect(await blocked.textContent()).toMatch(/^[345] 秒后可重新登录$/);
    await expect.poll(() => image.getAttribute('src')).toBe(second.img);
    expect(second.img).not.toBe(first.img);
    expect(await code.inputValue()).toBe('');
    await shot(page, 'login-error');

    // the countdown runs down and the button comes back after about 5 seconds
    await page.getByRole('button', { name: '1 秒后可重新登录' }).waitFor({ timeout: 7000 });
    await button.waitFor({ timeout: 3000 });
    expect(await button.isEnabled()).toBe(true);
    const blockedFor = Date.now() - failedAt;
    expect(blockedFor).toBeGreaterThanOrEqual(4000);
    expect(blockedFor).toBeLessThan(8000);

    // the real sign-in with the answer of the captcha the page now shows
    await password.fill(ADMIN.password);
    await code.fill(await answerOf(second.uuid));
    const signedIn = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/login'));
    await button.click();
    const ok = await signedIn;
    expect(ok.status()).toBe(200);
    expect(((await ok.json()) as { token?: string }).token).toBeTruthy();
    // admin still has the default password: the personal centre
    await page.waitForURL(/#\/user\/center/);
    // which opens the password dialog (no type query)
    await page.getByRole('dialog', { name: '修改密码' }).waitFor();
  });
});
