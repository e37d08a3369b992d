/**
 * Feedback (问题反馈) in a real browser, signed in as admin: the list with the demo rows and
 * the spec's columns, the 700 px dialog with its required messages and the 匿名/实名 choice,
 * filters, the per-row status radio, the read-only view, export and delete — each checked
 * on screen and, where it changes data, through the API as well.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { api, openFromMenu, pending, shot, shotOnFailure, type Product, startSignedInAsAdmin } from './support.ts';
import { chooseOption, dataRows, notice, totalText, waitForCall, waitForList } from './list-helpers.ts';

const PATH = 'api/sysQuestion';
const TITLE = '浏览器测试反馈：报表导出乱码';

let product: Product;
let browser: Browser;
let page: Page;
let token: string;
/** id of the record created through the dialog */
let createdId: number;

interface Feedback {
  id: number;
  title: string | null;
  model: string;
  userType: string;
  username: string | null;
  mobile: string | null;
  status: boolean;
}

async function apiList(query: string): Promise<{ content: Feedback[]; totalElements: number }> {
  const res = await api(product, token, 'GET', `/${PATH}?${query}`);
  expect(res.status).toBe(200);
  return res.json<{ content: Feedback[]; totalElements: number }>();
}

beforeAll(async () => {
  ({ product, browser, page, token } = await startSignedInAsAdmin());
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('feedback (问题反馈)', () => {
  it('lists the demo rows with the spec columns', async () => {
    const demo = await apiList('page=0&size=1');
    expect(demo.totalElements).toBeGreaterThan(15);
    await openFromMenu(page, '问题反馈', PATH);
    const headers = page.getByRole('table').getByRole('columnheader');
    await expect
      .poll(() => headers.allTextContents())
      .toEqual(expect.arrayContaining(['身份', '模块', '标题', '问题描述', '优化建议', '创建时间', '状态', '操作']));
    // in the order of the spec
    const names = (await headers.allTextContents()).map((t) => t.trim()).filter(Boolean);
    expect(names).toEqual(['身份', '模块', '标题', '问题描述', '优化建议', '创建时间', '状态', '操作']);
    await expect.poll(() => dataRows(page).count()).toBe(15);
    await totalText(page, demo.totalElements).waitFor();
    // the newest demo record is the first row
    const newest = (await apiList('page=0&size=1&sort=id,desc')).content[0];
    expect(await dataRows(page).first().textContent()).toContain(newest.title);
    await shot(page, 'feedback-list');
  });

  it('creates a record through the 700 px dialog', async () => {
    const before = (await apiList('page=0&size=1')).totalElements;
    await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '新增问题反馈' }).waitFor();
    expect(await dialog.evaluate((el) => el.classList.contains('MuiPaper-root'))).toBe(true);
    expect((await dialog.boundingBox())?.width).toBe(700);

    // empty submit: required messages, the first one in a notice, nothing sent
    let posts = 0;
    const countPosts = (r: { url(): string; method(): string }) => {
      if (new URL(r.url()).pathname === `/${PATH}` && r.method() === 'POST') posts++;
    };
    page.on('request', countPosts);
    await dialog.getByRole('button', { name: '确认' }).click();
    await notice(page, '模块不能为空').waitFor();
    const moduleSelect = dialog.getByRole('combobox', { name: /^模块/ });
    await expect.poll(() => moduleSelect.evaluate((el) => el === document.activeElement)).toBe(true);
    await dialog.getByText('模块不能为空').waitFor();
    await dialog.getByText('问题描述不能为空').waitFor();
    expect(posts).toBe(0);
    await shot(page, 'feedback-dialog-errors', { fullPage: false });

    // anonymous by default: no contact fields; named shows them
    expect(await dialog.getByRole('radio', { name: '匿名' }).isChecked()).toBe(true);
    expect(await dialog.getByRole('textbox', { name: /^联系人/ }).count()).toBe(0);
    expect(await dialog.getByRole('textbox', { name: /^联系电话/ }).count()).toBe(0);
    await chooseOption(page, moduleSelect, '系统');
    await dialog.getByRole('textbox', { name: /^标题/ }).fill(TITLE);
    await dialog.getByRole('textbox', { name: /^问题描述/ }).fill('导出的销售明细在Excel中打开后中文显示为乱码。');
    await dialog.getByRole('textbox', { name: /^优化建议/ }).fill('导出文件使用UTF-8编码。');
    await dialog.getByRole('radio', { name: '实名' }).check();
    const contact = dialog.getByRole('textbox', { name: /^联系人/ });
    const phone = dialog.getByRole('textbox', { name: /^联系电话/ });
    await contact.waitFor();
    await phone.waitFor();
    await contact.fill('赵测试');
    await phone.fill('13912345678');
    await shot(page, 'feedback-dialog-named', { fullPage: false });

    const created = waitForCall(page, 'POST', PATH);
    const reloaded = waitForList(page, PATH);
    await dialog.getByRole('button', { name: '确认' }).click();
    const response = await created;
    page.off('request', countPosts);
    expect(response.status()).toBe(201);
    const body = (await response.json()) as Feedback;
    createdId = body.id;
    expect(body).toMatchObject({ title: TITLE, model: '系统', userType: '员工', username: '赵测试', mobile: '13912345678', status: false });
    await notice(page, '新增成功').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await reloaded;
    await totalText(page, before + 1).waitFor();
    const row = dataRows(page).filter({ hasText: TITLE });
    await row.waitFor();
    expect(await dataRows(page).first().textContent()).toContain(TITLE);
    expect(await row.getByRole('radio', { name: '未处理' }).isChecked()).toBe(true);
  });

  it('narrows the list by module, status and the search box', async () => {
    const all = (await apiList('page=0&size=1')).totalElements;

    // module
    const byModule = (await apiList('page=0&size=100&model=系统')).content;
    expect(byModule.length).toBeGreaterThan(1);
    expect(byModule.length).toBeLessThan(all);
    let reload = waitForList(page, PATH, (q) => q.get('model') === '系统');
    await chooseOption(page, page.getByRole('combobox', { name: '模块' }), '系统');
    await reload;
    await totalText(page, byModule.length).waitFor();
    await expect.poll(() => dataRows(page).count()).toBe(byModule.length);
    for (const text of await dataRows(page).allTextContents()) expect(text).toContain('系统');
    expect(await dataRows(page).filter({ hasText: TITLE }).count()).toBe(1);

    // status (module back to all)
    reload = waitForList(page, PATH, (q) => !q.has('model'));
    await chooseOption(page, page.getByRole('combobox', { name: '模块' }), '全部');
    await reload;
    await totalText(page, all).waitFor();
    const handled = (await apiList('page=0&size=100&status=true')).content;
    expect(handled.length).toBeGreaterThan(0);
    expect(handled.length).toBeLessThan(all);
    reload = waitForList(page, PATH, (q) => q.get('status') === 'true');
    await chooseOption(page, page.getByRole('combobox', { name: '状态' }), '已处理');
    await reload;
    await totalText(page, handled.length).waitFor();
    await expect.poll(() => dataRows(page).count()).toBe(Math.min(handled.length, 15));
    for (const row of await dataRows(page).all()) {
      expect(await row.getByRole('radio', { name: '已处理' }).isChecked()).toBe(true);
    }
    expect(await dataRows(page).filter({ hasText: TITLE }).count()).toBe(0);

    // search box (blurry: id, identity or module)
    reload = waitForList(page, PATH, (q) => !q.has('status'));
    await chooseOption(page, page.getByRole('combobox', { name: '状态' }), '全部');
    await reload;
    await totalText(page, all).waitFor();
    const customers = await apiList('page=0&size=100&blurry=客户');
    expect(customers.totalElements).toBeGreaterThan(0);
    expect(customers.totalElements).toBeLessThan(all);
    for (const r of customers.content) expect(r.userType === '客户' || r.model === '客户').toBe(true);
    reload = waitForList(page, PATH, (q) => q.get('blurry') === '客户');
    await page.getByPlaceholder('请输入搜索内容').fill('客户');
    await reload;
    await totalText(page, customers.totalElements).waitFor();
    await expect.poll(() => dataRows(page).count()).toBe(Math.min(customers.totalElements, 15));
    for (const text of await dataRows(page).allTextContents()) expect(text).toContain('客户');

    reload = waitForList(page, PATH, (q) => !q.has('blurry'));
    await page.getByPlaceholder('请输入搜索内容').fill('');
    await reload;
    await totalText(page, all).waitFor();
  });

  it('saves the status radio at once (状态修改成功)', async () => {
    const row = dataRows(page).filter({ hasText: TITLE });
    const saved = waitForCall(page, 'PUT', PATH);
    // the radio is bound to the stored record: it moves once the save has been reloaded
    await row.getByRole('radio', { name: '已处理' }).click();
    expect((await saved).status()).toBe(204);
    await notice(page, '状态修改成功').waitFor();
    await expect.poll(() => row.getByRole('radio', { name: '已处理' }).isChecked()).toBe(true);
    const stored = (await apiList(`page=0&size=10&id=${createdId}`)).content;
    expect(stored).toHaveLength(1);
    expect(stored[0].status).toBe(true);
    // the rest of the record is untouched
    expect(stored[0]).toMatchObject({ title: TITLE, model: '系统', username: '赵测试', mobile: '13912345678' });
  });

  it('opens an existing record read-only', async () => {
    // the second row is the newest demo record
    const record = (await apiList('page=0&size=2&sort=id,desc')).content[1];
    expect(record.username).toBeTruthy();
    await dataRows(page).nth(1).getByRole('button', { name: '查看' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '查看问题反馈' }).waitFor();
    expect(await dialog.getByRole('textbox', { name: /^标题/ }).inputValue()).toBe(record.title);
    // a record with a contact person is named
    expect(await dialog.getByRole('radio', { name: '实名' }).isChecked()).toBe(true);
    expect(await dialog.getByRole('textbox', { name: /^联系人/ }).inputValue()).toBe(record.username);
    const fields = dialog.locator('input:not([type=hidden]), textarea:not([aria-hidden=true])');
    expect(await fields.count()).toBeGreaterThanOrEqual(6);
    for (const field of await fields.all()) expect(await field.isEditable()).toBe(false);
    expect(await dialog.getByRole('button', { name: '确认' }).count()).toBe(0);
    await shot(page, 'feedback-view', { fullPage: false });
    // 导出PDF: the view on A4 pages
    const downloaded = pending(page.waitForEvent('download'));
    await dialog.getByRole('button', { name: '导出PDF' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe(`问题反馈${record.id}.pdf`);
    const pdf = readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.2\d* 841\.8\d*\]/);
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('exports 问题反馈数据.xlsx', async () => {
    const total = (await apiList('page=0&size=1')).totalElements;
    const downloaded = pending(page.waitForEvent('download'));
    await page.getByTestId('list-toolbar').getByRole('button', { name: '导出' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe('问题反馈数据.xlsx');
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    const sheet = book.worksheets[0];
    expect(sheet.actualRowCount).toBe(total + 1);
    const cells: string[] = [];
    sheet.eachRow((r) => r.eachCell((c) => cells.push(c.text)));
    expect(cells).toContain(TITLE);
  });

  it('deletes the selected row after the confirm', async () => {
    const before = (await apiList('page=0&size=1')).totalElements;
    const row = dataRows(page).filter({ hasText: TITLE });
    await row.getByRole('checkbox').check();
    await page.getByTestId('list-toolbar').getByRole('button', { name: '删除' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: '确认删除选中的1条数据?' });
    await confirm.waitFor();
    await shot(page, 'feedback-delete-confirm', { fullPage: false });
    const deleted = waitForCall(page, 'DELETE', PATH);
    await confirm.getByRole('button', { name: '确定' }).click();
    const response = await deleted;
    expect(response.status()).toBe(200);
    expect(JSON.parse(response.request().postData() ?? 'null')).toEqual([createdId]);
    await notice(page, '删除成功').waitFor();
    await confirm.waitFor({ state: 'detached' });
    await totalText(page, before - 1).waitFor();
    await expect.poll(() => dataRows(page).filter({ hasText: TITLE }).count()).toBe(0);
    // gone: a read by id answers 404 as for any missing record
    expect((await api(product, token, 'GET', `/${PATH}?page=0&size=10&id=${createdId}`)).status).toBe(404);
    await shot(page, 'feedback-after-delete');
  });
});
