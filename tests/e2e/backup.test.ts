/**
 * 备份管理 in the browser, as an administrator uses it: opened from 系统管理, 立即备份 adds a
 * row with its size and time; 恢复 asks for confirmation with the password again, shows its
 * progress and reports the restore (the pre-restore backup appears in the list); a wrong password
 * and a damaged file offered through 从文件恢复 are refused with the server's Chinese message and
 * the list stays as it was. Without BACKUP_ENCRYPTION_KEY the page says that no backup is made.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { parseBackupKey } from '../../src/server/modules/backup/crypto.ts';
import { NO_KEY } from '../../src/server/modules/backup/keys.ts';
import { ADMIN, launchBrowser, newPage, openFromMenu, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';

let product: Product;
let browser: Browser;
let page: Page | undefined;

beforeAll(async () => {
  product = await startProduct({
    captchaEnabled: false,
    seedDemo: false,
    jobsEnabled: false,
    backupKey: parseBackupKey('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'),
  });
  browser = await launchBrowser();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('备份管理 in the browser', () => {
  it('backs up now, restores a listed backup after confirming, refuses a damaged file', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(20000);
    await signInAs(page, product, ADMIN);
    await openFromMenu(page, '备份管理', 'api/backups');
    const table = page.getByRole('table', { name: '备份列表' });
    await table.waitFor();

    await page.getByRole('button', { name: '立即备份' }).click();
    await page.getByText(/^备份完成：backup-/).waitFor();
    const rows = table.locator('tbody tr').filter({ hasText: 'backup-' });
    await expect.poll(() => rows.count()).toBe(1);
    const first = rows.first();
    expect(await first.innerText()).toMatch(/手动[\s\S]*\d+(\.\d)? (KB|MB)[\s\S]*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await shot(page, 'backup-list', { fullPage: false });

    // 恢复: confirmation first, then progress, then the outcome
    await first.getByRole('button', { name: '恢复' }).click();
    const confirm = page.getByRole('dialog', { name: '确认恢复' });
    await confirm.getByText('恢复前的数据会先自动另存为一份备份', { exact: false }).waitFor();
    // the button waits for the password (step-up)
    expect(await confirm.getByRole('button', { name: '确定恢复' }).isDisabled()).toBe(true);
    await confirm.getByLabel('当前账号的密码').fill(ADMIN.password);
    await shot(page, 'backup-restore-confirm', { fullPage: false });
    // the answer is held back in the browser until the progress dialog has been seen
    let showAnswer!: () => void;
    const progressSeen = new Promise<void>((r) => (showAnswer = r));
    await page.route('**/api/backups/*/restore', async (route) => {
      const response = await route.fetch();
      await progressSeen;
      await route.fulfill({ response });
    });
    await confirm.getByRole('button', { name: '确定恢复' }).click();
    const progress = page.getByRole('dialog', { name: '正在恢复' });
    await progress.getByRole('progressbar', { name: '恢复进度' }).waitFor();
    await shot(page, 'backup-restore-progress', { fullPage: false });
    showAnswer();
    await page.getByText(/^已恢复到 .* 的备份，恢复前的数据已另存为 backup-.*-pre-restore\.tar\.gz\.enc$/).waitFor();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.first().innerText()).toContain('恢复前自动');
    await shot(page, 'backup-restored', { fullPage: false });

    // a damaged file: refused, nothing changed
    const damaged = join(product.config.dataDir, 'damaged.tar.gz.enc');
    writeFileSync(damaged, Buffer.from('this is not a backup archive'));
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: '从文件恢复' }).click();
    await (await chooser).setFiles(damaged);
    const again = page.getByRole('dialog', { name: '确认恢复' });
    await again.getByLabel('当前账号的密码').fill(ADMIN.password);
    await again.getByRole('button', { name: '确定恢复' }).click();
    await page.getByText(/^备份无法恢复，现有数据未改变：/).waitFor();
    await shot(page, 'backup-refused', { fullPage: false });
    await expect.poll(() => rows.count()).toBe(2);

    // a wrong password: refused, nothing restored
    await rows.first().getByRole('button', { name: '恢复' }).click();
    const wrong = page.getByRole('dialog', { name: '确认恢复' });
    await wrong.getByLabel('当前账号的密码').fill('not-the-password');
    await wrong.getByRole('button', { name: '确定恢复' }).click();
    await page.getByText('密码错误，未恢复').waitFor();
    await expect.poll(() => rows.count()).toBe(2);
  }, 120_000);

  it('says that no backup is made without BACKUP_ENCRYPTION_KEY', async () => {
    page = await newPage(browser);
    const key = product.config.backupKey;
    product.config.backupKey = null;
    try {
      await signInAs(page, product, ADMIN);
      await openFromMenu(page, '备份管理', 'api/backups');
      await page.getByRole('alert').filter({ hasText: NO_KEY }).waitFor();
    } finally {
      product.config.backupKey = key;
    }
  }, 60_000);
});
