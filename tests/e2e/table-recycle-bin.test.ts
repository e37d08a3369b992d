/**
 * 回收站 on a hand-written administration screen in a real browser (用户管理): two users
 * deleted through the API are listed with their names, department, 删除人 and 删除时间; one is
 * brought back with 恢复 after a confirmation and shows in the user list again; the other, whose
 * user name was taken since, is refused with the server's Chinese message and stays in the bin.
 * Screenshot: table-recycle-bin-user.png.
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
import { notice } from './list-helpers.ts';

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

const created = (body: string) => (JSON.parse(body) as { id: number }).id;

describe('回收站 of a hand-written administration screen', () => {
  it('用户管理: deleted users listed with who and when; 恢复 brings one back; a user name taken since is refused', async () => {
    const root = (JSON.parse((await api(product, token, 'GET', '/api/dept/lazy?pid=0')).body) as Array<{ id: number }>)[0].id;
    const dept = created((await api(product, token, 'POST', '/api/dept', { name: '回收测试部', pid: root, sort: 1, enabled: true })).body);
    const role = created(
      (await api(product, token, 'POST', '/api/roles', { name: '回收测试岗', level: 3, dataScope: '本级', description: '' })).body,
    );
    const user = (username: string, nickName: string) => ({
      username,
      nickName,
      phone: '',
      sex: 1,
      enabled: true,
      deptId: dept,
      orgId: root,
      roles: [{ id: role }],
    });
    const back = created((await api(product, token, 'POST', '/api/users', user('bin_back', '回来的人'))).body);
    const clash = created((await api(product, token, 'POST', '/api/users', user('bin_clash', '重名的人'))).body);
    const removed = await api(product, token, 'DELETE', '/api/users', [back, clash]);
    expect(removed.status, removed.body).toBe(200);
    const again = await api(product, token, 'POST', '/api/users', user('bin_clash', '新来的人'));
    expect(again.status, again.body).toBe(201);

    await openFromMenu(page, '用户管理', 'api/users');
    await page.getByRole('button', { name: '回收站' }).click();
    const dialog = page.getByRole('dialog', { name: '用户回收站' });
    const rows = dialog.getByTestId('bin-row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    const backRow = rows.filter({ hasText: 'bin_back' });
    const text = (await backRow.textContent()) ?? '';
    expect(text).toContain('回来的人');
    expect(text).toContain(`回收测试部（ID ${dept}）`);
    expect(text).toContain('admin');
    expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await shot(page, 'table-recycle-bin-user', { fullPage: false });

    // the name taken since: refused with the server's message, still in the bin
    await dialog.getByRole('checkbox', { name: `选择 ${clash}` }).check();
    await dialog.getByRole('button', { name: '恢复', exact: true }).click();
    await page.getByRole('dialog', { name: '恢复' }).getByRole('button', { name: '确定' }).click();
    await notice(page, `无法恢复（ID ${clash}）：用户名已存在`).waitFor();
    expect(await rows.count()).toBe(2);
    await dialog.getByRole('checkbox', { name: `选择 ${clash}` }).uncheck();

    await dialog.getByRole('checkbox', { name: `选择 ${back}` }).check();
    await dialog.getByRole('button', { name: '恢复', exact: true }).click();
    await page.getByRole('dialog', { name: '恢复' }).getByRole('button', { name: '确定' }).click();
    await notice(page, '已恢复1条数据').waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    await dialog.getByRole('button', { name: '关闭' }).click();
    await page.getByRole('row').filter({ hasText: 'bin_back' }).waitFor();
    const stored = JSON.parse((await api(product, token, 'GET', '/api/users?blurry=bin_back')).body) as {
      content: Array<{ id: number; roles: Array<{ id: number }> }>;
    };
    expect(stored.content[0]).toMatchObject({ id: back, roles: [{ id: role }] });
  });
});
