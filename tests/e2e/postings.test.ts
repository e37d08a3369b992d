/**
 * Recruitment postings (人事招聘信息) in a real browser, signed in as admin: required
 * messages, a posting created with every field (department chosen from the departments),
 * shown in the list, then edited through the toolbar's 修改 — checked on screen and by API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, openFromMenu, shot, shotOnFailure, type Product, startSignedInAsAdmin } from './support.ts';
import { chooseOption, dataRows, notice, totalText, waitForCall } from './list-helpers.ts';

const PATH = 'api/staffunZp';
const JOB = '二手车评估师';

let product: Product;
let browser: Browser;
let page: Page;
let token: string;
let createdId: number;

interface Posting {
  id: number;
  deptId: number;
  job: string;
  money: string;
  address: string;
  jobNum: number;
  jobZz: string;
  jobYq: string;
  enabled: boolean;
  remark: string | null;
}

async function apiGet<T>(url: string): Promise<T> {
  const res = await api(product, token, 'GET', url);
  expect(res.status).toBe(200);
  return res.json<T>();
}

beforeAll(async () => {
  ({ product, browser, page, token } = await startSignedInAsAdmin());
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('recruitment postings (人事招聘信息)', () => {
  it('creates a posting with every field', async () => {
    const before = (await apiGet<{ totalElements: number }>(`/${PATH}?page=0&size=1`)).totalElements;
    expect(before).toBeGreaterThan(0);
    const depts = (await apiGet<{ content: Array<{ id: number; name: string }> }>('/api/dept?page=0&size=99999')).content;
    const dept = depts.find((d) => d.name === '销售部');
    expect(dept).toBeDefined();

    await openFromMenu(page, '人事招聘信息', PATH);
    const headers = (await page.getByRole('table').getByRole('columnheader').allTextContents()).map((t) => t.trim()).filter(Boolean);
    expect(headers).toEqual(expect.arrayContaining(['招聘岗位', '薪资待遇', '工作区域', '招聘人数']));
    await totalText(page, before).waitFor();

    await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '新增人事招聘信息' }).waitFor();
    expect((await dialog.boundingBox())?.width).toBe(700);

    // empty submit: the first required message in a notice, its field focused
    await dialog.getByRole('button', { name: '确认' }).click();
    await notice(page, '所属部门不能为空').waitFor();
    const deptSelect = dialog.getByRole('combobox', { name: /^所属部门/ });
    await expect.poll(() => deptSelect.evaluate((el) => el === document.activeElement)).toBe(true);
    for (const text of [
      '招聘岗位不能为空',
      '薪资待遇不能为空',
      '工作区域不能为空',
      '招聘人数不能为空',
      '岗位职责不能为空',
      '任职要求不能为空',
    ]) {
      await dialog.getByText(text, { exact: true }).waitFor();
    }

    // the department choices are the departments
    await deptSelect.click();
    const options = (await page.getByRole('listbox').getByRole('option').allTextContents()).map((t) => t.trim()).filter(Boolean);
    expect(options).toEqual(depts.map((d) => d.name));
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await chooseOption(page, deptSelect, '销售部');
    await dialog.getByRole('textbox', { name: /^招聘岗位/ }).fill(JOB);
    await dialog.getByRole('textbox', { name: /^薪资待遇/ }).fill('8000-15000元');
    await dialog.getByRole('textbox', { name: /^工作区域/ }).fill('郑州市惠济区');
    await dialog.getByRole('textbox', { name: /^招聘人数/ }).fill('3');
    await dialog.getByRole('textbox', { name: /^岗位职责/ }).fill('负责收购车辆的检测与评估，出具评估报告。');
    await dialog.getByRole('textbox', { name: /^任职要求/ }).fill('持二手车鉴定评估师证书，三年以上评估经验。');
    expect(await dialog.getByRole('radio', { name: '是' }).isChecked()).toBe(true);
    await dialog.getByRole('radio', { name: '否' }).check();
    await dialog.getByRole('textbox', { name: /^备注/ }).fill('周末双休');

    const created = waitForCall(page, 'POST', PATH);
    await dialog.getByRole('button', { name: '确认' }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    const body = (await response.json()) as Posting;
    createdId = body.id;
    expect(body).toMatchObject({
      deptId: dept!.id,
      job: JOB,
      money: '8000-15000元',
      address: '郑州市惠济区',
      jobNum: 3,
      jobZz: '负责收购车辆的检测与评估，出具评估报告。',
      jobYq: '持二手车鉴定评估师证书，三年以上评估经验。',
      enabled: false,
      remark: '周末双休',
    });
    await notice(page, '新增成功').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await totalText(page, before + 1).waitFor();
    const row = dataRows(page).filter({ hasText: JOB });
    await row.waitFor();
    const cells = (await row.getByRole('cell').allTextContents()).map((t) => t.trim());
    expect(cells).toEqual(expect.arrayContaining([JOB, '8000-15000元', '郑州市惠济区', '3']));
    await shot(page, 'postings-created');
  });

  it('edits the selected posting (修改)', async () => {
    const toolbar = page.getByTestId('list-toolbar');
    const edit = toolbar.getByRole('button', { name: '修改' });
    expect(await edit.isDisabled()).toBe(true);
    const row = dataRows(page).filter({ hasText: JOB });
    await row.getByRole('checkbox').check();
    await expect.poll(() => edit.isEnabled()).toBe(true);
    await edit.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '编辑人事招聘信息' }).waitFor();
    expect(await dialog.getByRole('textbox', { name: /^招聘岗位/ }).inputValue()).toBe(JOB);
    expect(await dialog.getByRole('combobox', { name: /^所属部门/ }).inputValue()).toBe('销售部');
    await dialog.getByRole('textbox', { name: /^薪资待遇/ }).fill('9000-16000元');
    await dialog.getByRole('textbox', { name: /^招聘人数/ }).fill('5');
    await shot(page, 'postings-edit', { fullPage: false });

    const saved = waitForCall(page, 'PUT', PATH);
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await saved).status()).toBe(204);
    await notice(page, '编辑成功').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await row.getByRole('cell').allTextContents()).map((t) => t.trim()))
      .toEqual(expect.arrayContaining([JOB, '9000-16000元', '郑州市惠济区', '5']));
    const stored = (await apiGet<{ content: Posting[] }>(`/${PATH}?page=0&size=10&id=${createdId}`)).content;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ job: JOB, money: '9000-16000元', jobNum: 5, enabled: false, remark: '周末双休' });
    await shot(page, 'postings-edited');
  });
});
