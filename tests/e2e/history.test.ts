/**
 * 历史记录 and 回收站 in a real browser, on the feedback screen (问题反馈): a record created and
 * edited through the API shows its timeline from its row (newest first, who, when, the changed
 * fields under their Chinese titles, option values by label); 恢复到此版本 after a confirmation
 * brings the old title back and joins the timeline; the record dialog offers the same history.
 * Deleted, the record sits in 回收站 with who and when; 恢复 brings it back with its id, and
 * 彻底删除 removes it for good. Screenshots: history-timeline.png, history-restored.png,
 * history-from-dialog.png, recycle-bin.png, recycle-bin-empty.png.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, api, launchBrowser, newPage, shot, shotOnFailure, signInAs, startProduct, tokenOf, type Product } from './support.ts';
import { dataRows, notice, waitForList } from './list-helpers.ts';

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

async function openFeedback(): Promise<void> {
  const list = waitForList(page, 'api/sysQuestion');
  await page.evaluate(() => (window.location.hash = '/sysQuestion'));
  expect((await list).status()).toBe(200);
  await dataRows(page).first().waitFor();
}

describe('record history and recycle bin', () => {
  let id = 0;

  it('shows a row’s history newest first and restores an earlier version after a confirmation', async () => {
    const created = await api(product, token, 'POST', '/api/sysQuestion', {
      userType: '员工',
      model: '系统',
      title: '导出打不开',
      content: '导出的表格打不开',
    });
    expect(created.status, created.body).toBe(201);
    id = (JSON.parse(created.body) as { id: number }).id;
    const edited = await api(product, token, 'PUT', '/api/sysQuestion', { id, title: '导出很慢', model: '销售', status: true });
    expect(edited.status, edited.body).toBe(204);

    await openFeedback();
    const row = dataRows(page).filter({ hasText: '导出很慢' });
    await row.getByRole('button', { name: '历史记录' }).click();
    const dialog = page.getByRole('dialog', { name: /历史记录/ });
    const entries = dialog.getByTestId('history-entry');
    await entries.nth(1).waitFor();
    expect(await entries.count()).toBe(2);
    // newest first: the edit, by admin, with its time and each field under its title
    const newest = entries.first();
    await expect.poll(() => newest.textContent()).toContain('修改');
    const text = (await newest.textContent()) ?? '';
    expect(text).toContain('admin');
    expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    const cells = async (title: string) =>
      (await newest.getByRole('row').filter({ hasText: title }).getByRole('cell').allTextContents()).map((t) => t.trim());
    expect(await cells('标题')).toEqual(['标题', '导出打不开', '导出很慢']);
    expect(await cells('状态')).toEqual(['状态', '未处理', '已处理']);
    expect(await cells('模块')).toEqual(['模块', '系统', '销售']);
    expect(await entries.nth(1).textContent()).toContain('新增');
    await shot(page, 'history-timeline', { fullPage: false });

    await entries.nth(1).getByRole('button', { name: '恢复到此版本' }).click();
    const confirm = page.getByRole('dialog', { name: '恢复到此版本' });
    await confirm.getByRole('button', { name: '确定' }).click();
    await notice(page, '恢复成功').waitFor();
    await expect.poll(() => entries.count()).toBe(3);
    expect(await entries.first().textContent()).toContain('恢复');
    await shot(page, 'history-restored', { fullPage: false });
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dataRows(page).filter({ hasText: '导出打不开' }).waitFor();
  });

  it('offers the same history from the record dialog', async () => {
    const row = dataRows(page).filter({ hasText: '导出打不开' });
    await row.getByRole('button', { name: '查看' }).click();
    const recordDialog = page.getByRole('dialog').filter({ hasText: '查看' });
    await recordDialog.getByRole('button', { name: '历史记录' }).click();
    const history = page.getByRole('dialog', { name: /历史记录/ });
    await history.getByTestId('history-entry').nth(2).waitFor();
    await shot(page, 'history-from-dialog', { fullPage: false });
    await history.getByRole('button', { name: '关闭' }).click();
    await recordDialog.getByRole('button', { name: '关闭' }).click();
  });

  it('keeps a deleted record in 回收站: 恢复 brings it back with its id, 彻底删除 removes it for good', async () => {
    expect((await api(product, token, 'DELETE', '/api/sysQuestion', [id])).status).toBe(200);
    await openFeedback().catch(() => undefined);
    await page.getByRole('button', { name: '回收站' }).click();
    const bin = page.getByRole('dialog', { name: /回收站/ });
    const binRow = bin.getByTestId('bin-row').filter({ hasText: '导出打不开' });
    await binRow.waitFor();
    const rowText = (await binRow.textContent()) ?? '';
    expect(rowText).toContain(String(id));
    expect(rowText).toContain('admin');
    expect(rowText).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await shot(page, 'recycle-bin', { fullPage: false });

    await binRow.getByRole('checkbox').check();
    await bin.getByRole('button', { name: '恢复', exact: true }).click();
    await page.getByRole('dialog', { name: '恢复' }).getByRole('button', { name: '确定' }).click();
    await notice(page, '已恢复1条数据').waitFor();
    await binRow.waitFor({ state: 'detached' });
    await bin.getByRole('button', { name: '关闭' }).click();
    const back = await api(product, token, 'GET', `/api/sysQuestion?id=${id}`);
    expect(JSON.parse(back.body)).toMatchObject({ content: [{ id, title: '导出打不开' }] });
    await dataRows(page).filter({ hasText: '导出打不开' }).waitFor();

    expect((await api(product, token, 'DELETE', '/api/sysQuestion', [id])).status).toBe(200);
    await page.getByRole('button', { name: '回收站' }).click();
    await binRow.waitFor();
    await binRow.getByRole('checkbox').check();
    await bin.getByRole('button', { name: '彻底删除' }).click();
    await page.getByRole('dialog', { name: '彻底删除' }).getByRole('button', { name: '确定' }).click();
    await notice(page, '已彻底删除1条数据').waitFor();
    await bin.getByText('回收站中没有数据').waitFor();
    await shot(page, 'recycle-bin-empty', { fullPage: false });
    expect((await api(product, token, 'GET', `/api/sysQuestion/${id}/history`)).status).toBe(404);
  });
});
