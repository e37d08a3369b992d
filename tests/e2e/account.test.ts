/**
 * Account flows in a real browser (captcha off): the default-password admin lands in the
 * personal centre with the password dialog open, changes the password, is signed out after
 * 1 s and signs in with the new one; the 90-day confirm on sign-in (去修改 / 暂不修改); the
 * phone change with the SMS code from the outbox; forgot password; the log and outbox screens.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { nowText } from '../../src/server/db/index.ts';
import { latestOutbox } from '../../src/server/providers/outbox.ts';
import { createStaff } from '../server/auth-helpers.ts';
import { ADMIN, launchBrowser, newPage, pending, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;
const NEW_ADMIN_PASSWORD = 'Admin.2026x';

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  browser = await launchBrowser();
});

beforeEach(async ({ task, onTestFailed }) => {
  page = await newPage(browser);
  onTestFailed(() => shotOnFailure(page, task.name));
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

async function codeFor(target: string): Promise<string> {
  await product.app.verificationCodes.settled();
  const msg = await latestOutbox(product.app.database.db, target);
  const m = msg && /(\d{6})/.exec(msg.content);
  if (!m) throw new Error(`no code for ${target}`);
  return m[1];
}

async function passwordRow(username: string) {
  return product.app.database.db
    .selectFrom('sys_user')
    .select(['is_def_password', 'pwd_reset_time'])
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
}

describe('change password', () => {
  it('default password: lands in the personal centre with the dialog, changes it, is signed out, signs in with the new one', async () => {
    await signInAs(page, product, ADMIN, { keepPasswordDialog: true });
    await page.waitForURL(/#\/user\/center/);
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await dialog.waitFor();
    await shot(page, 'user-center-password-dialog', { fullPage: false });

    // the rules first
    await dialog.getByRole('button', { name: '确认' }).click();
    for (const text of ['请输入旧密码', '请输入新密码', '请再次输入密码']) await dialog.getByText(text).waitFor();
    await dialog.getByLabel('旧密码').fill(ADMIN.password);
    await dialog.getByLabel('新密码').fill('1badstart');
    await dialog.getByLabel('确认密码').fill('1badstart');
    await dialog.getByRole('button', { name: '确认' }).click();
    await dialog.getByText('只能输入6-20个以字母开头、可带数字的字串').waitFor();
    // the server refuses the same password
    await dialog.getByLabel('新密码').fill(ADMIN.password);
    await dialog.getByLabel('确认密码').fill(ADMIN.password);
    await dialog.getByRole('button', { name: '确认' }).click();
    await dialog.getByText('新密码不能与旧密码相同').waitFor();
    await shot(page, 'user-center-password-refused', { fullPage: false });

    await dialog.getByLabel('新密码').fill(NEW_ADMIN_PASSWORD);
    await dialog.getByLabel('确认密码').fill(NEW_ADMIN_PASSWORD);
    const changed = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/users/updatePass/'));
    // the page reports when the notice shows, and the browser when the sign-in page opens: the
    // notice is up for about 1 s, which a busy machine's polling could miss
    let noticeAt: number | undefined;
    let loginAt: number | undefined;
    await page.exposeFunction('reportPasswordNotice', () => (noticeAt ??= Date.now()));
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && new URL(frame.url()).hash.startsWith('#/login')) loginAt ??= Date.now();
    });
    await page.evaluate(() => {
      const report = (window as unknown as { reportPasswordNotice: () => void }).reportPasswordNotice;
      const watch = new MutationObserver(() => {
        if (document.body.textContent?.includes('密码修改成功，请重新登录')) {
          watch.disconnect();
          report();
        }
      });
      watch.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await changed).status()).toBe(200);
    await page.waitForURL(/#\/login/, { timeout: 10_000 });
    expect(noticeAt).toBeDefined();
    expect(loginAt).toBeDefined();
    // signed out about 1 s after the notice, not at once
    expect(loginAt! - noticeAt!).toBeGreaterThan(500);
    const row = await passwordRow('admin');
    expect(Boolean(row.is_def_password)).toBe(false);
    expect(String(row.pwd_reset_time) >= nowText(new Date(Date.now() - 120_000))).toBe(true);

    // the old password no longer works; the new one signs in straight to the dashboard
    await expect(signInAs(page, product, ADMIN)).rejects.toThrow(/400/);
    await signInAs(page, product, { username: 'admin', password: NEW_ADMIN_PASSWORD });
    await page.waitForURL(/#\/dashboard/);
    await shot(page, 'signed-in-with-new-password');
  });
});

describe('password 90 days old', () => {
  it('asks to change it: 去修改 opens the personal centre, 暂不修改 continues', async () => {
    await createStaff(product.app, { username: 'laowang', password: 'Laowang@2024', permissions: [] });
    await product.app.database.db
      .updateTable('sys_user')
      .set({ pwd_reset_time: nowText(new Date(Date.now() - 95 * 86_400_000)) })
      .where('username', '=', 'laowang')
      .execute();
    await page.goto(`${product.url}/#/login`);
    await page.getByRole('textbox', { name: '账号' }).fill('laowang');
    await page.getByLabel('密码', { exact: true }).fill('Laowang@2024');
    await page.getByRole('button', { name: '登 录', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: '系统提示' });
    await confirm.getByText('您的密码已经90天未修改，请修改密码，超过100天未修改将被禁用！').waitFor();
    await shot(page, 'password-90-days-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: '去修改' }).click();
    await page.waitForURL(/#\/user\/center/);
    await page.getByRole('dialog', { name: '修改密码' }).waitFor();

    const second = await newPage(browser);
    await second.goto(`${product.url}/#/login`);
    await second.getByRole('textbox', { name: '账号' }).fill('laowang');
    await second.getByLabel('密码', { exact: true }).fill('Laowang@2024');
    await second.getByRole('button', { name: '登 录', exact: true }).click();
    await second.getByRole('dialog', { name: '系统提示' }).getByRole('button', { name: '暂不修改' }).click();
    await second.waitForURL(/#\/dashboard/);
    await second.close();
  });
});

describe('personal centre, forgot password and the log screens', () => {
  it('changes the phone with the SMS code from the outbox', async () => {
    await signInAs(page, product, { username: 'admin', password: NEW_ADMIN_PASSWORD });
    await page.goto(`${product.url}/#/user/center?type=phone`);
    const dialog = page.getByRole('dialog', { name: '修改手机号' });
    await dialog.getByLabel('新手机号').fill('13866667777');
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText('发送成功，验证码有效期5分钟').first().waitFor();
    await dialog.getByRole('button', { name: /秒后重新获取/ }).waitFor();
    await dialog.getByLabel('验证码').fill(await codeFor('13866667777'));
    await shot(page, 'user-center-phone-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: '确认' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('138****7777').waitFor();
    await page.getByRole('tab', { name: '操作日志' }).click();
    await page.getByRole('table', { name: '操作日志' }).getByText('修改手机号').first().waitFor();
    await shot(page, 'user-center-log-tab');
  });

  it('forgot password by SMS code, then signs in with the reset password', async () => {
    await page.goto(`${product.url}/#/forgetpass`);
    await page.getByLabel('手机号').fill('13866667777');
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText('发送成功，验证码有效期5分钟').waitFor();
    // the account is named only for the right code
    expect(await page.getByText(/账号：/).count()).toBe(0);
    await page.getByLabel('验证码').fill(await codeFor('13866667777'));
    await page.getByText('账号：a****').waitFor();
    await page.getByLabel('新密码').fill('Admin#2027');
    await page.getByLabel('确认密码').fill('Admin#2027');
    await page.getByRole('button', { name: '重置密码' }).click();
    await page.getByText('密码重置成功，请重新登录').waitFor();
    await shot(page, 'forget-password-done');
    await page.waitForURL(/#\/login$/, { timeout: 10_000 });
    await signInAs(page, product, { username: 'admin', password: 'Admin#2027' });
  });

  it('admin reads the operation log and the outbox in 系统管理; the QR tab says it is not configured', async () => {
    await signInAs(page, product, { username: 'admin', password: 'Admin#2027' });
    await page.goto(`${product.url}/#/logs`);
    const table = page.getByRole('table', { name: '操作日志' });
    await table.getByText('找回密码').first().waitFor();
    // the reset is logged under the account it reset
    const reset = table.getByRole('row').filter({ hasText: '找回密码' }).first();
    expect(await reset.getByRole('cell').first().textContent()).toBe('admin');
    await shot(page, 'operation-logs');
    await table.getByText('用户登录').first().click();
    await page.getByRole('dialog').getByText('"password":"******"').waitFor();
    await shot(page, 'operation-log-detail', { fullPage: false });
    await page.getByRole('button', { name: '关闭' }).click();
    await page.getByRole('menuitem', { name: '发件箱' }).click();
    await page.getByRole('table', { name: '发件箱' }).getByText('13866667777').first().waitFor();
    await shot(page, 'outbox');

    const anon = await newPage(browser);
    await anon.goto(`${product.url}/#/login`);
    await anon.getByRole('tab', { name: '扫码登录' }).click();
    await anon.getByText(/扫码登录尚未配置/).waitFor();
    await shot(anon, 'login-qr-not-configured');
    await anon.close();
  });
});
