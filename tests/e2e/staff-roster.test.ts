/**
 * The staff roster (员工花名册) in a real browser, signed in as admin on a product with the demo
 * data: a demo entry linked to a system account is transferred (调岗: department, job, type and
 * its account's roles), its history (调岗记录) shows the change, and it leaves (离职: date,
 * reason, confirmation), which disables the account.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { nowText } from '../../src/server/db/index.ts';
import { api, openFromMenu, shot, shotOnFailure, type Product, startSignedInAsAdmin } from './support.ts';
import { chooseOption, dataRows, notice, waitForCall } from './list-helpers.ts';
import type { Created, Page as AnswerPage } from '../support/answers.ts';

let product: Product;
let browser: Browser;
let page: Page;
let token: string;
let entryId: number;
let userId: number;
let roleId: number;

beforeAll(async () => {
  ({ product, browser, page, token } = await startSignedInAsAdmin());
  // a system account and a role for the demo entry 张伟
  const { db } = product.app.database;
  const sales = await db.selectFrom('sys_dept').select(['id', 'pid']).where('name', '=', '销售部').executeTakeFirstOrThrow();
  const now = nowText();
  const role = await db
    .insertInto('sys_role')
    .values({ name: '服务顾问岗', level: 3, data_scope: '本级', description: '售后服务顾问', create_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  roleId = Number(role.id);
  const user = await db
    .insertInto('sys_user')
    .values({
      username: 'zhangwei',
      nick_name: '张伟',
      password: 'x',
      sex: 1,
      dept_id: Number(sales.id),
      org_id: Number(sales.pid),
      enabled: 1,
      lock_time: 0,
      is_def_password: 0,
      create_time: now,
      update_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  userId = Number(user.id);
  const list = (await api(product, token, 'GET', `/api/staff?name=${encodeURIComponent('张伟')}`)).json<AnswerPage<Created>>().content;
  expect(list).toHaveLength(1);
  entryId = list[0].id;
  const linked = await api(product, token, 'PUT', '/api/staff', { ...list[0], userId });
  expect(linked.status, linked.body).toBe(204);
}, 60_000);

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const row = () => dataRows(page).filter({ hasText: '张伟' });

describe('staff roster (员工花名册)', () => {
  it('lists the demo roster with its company and row buttons', async () => {
    await openFromMenu(page, '员工花名册', 'api/staff');
    await row().waitFor();
    expect(await dataRows(page).count()).toBe(10);
    const headers = (await page.getByRole('table').getByRole('columnheader').allTextContents()).map((t) => t.trim()).filter(Boolean);
    expect(headers).toEqual(expect.arrayContaining(['姓名', '手机号码', '所属公司', '所属部门', '岗位', '在职状态', '企业微信账号']));
    await row().getByText('总公司').waitFor();
    for (const name of ['调岗', '离职', '企业微信', '调岗记录']) await row().getByRole('button', { name, exact: true }).waitFor();
    await shot(page, 'staff-roster-list');
  });

  it('调岗 moves the entry and its account; 调岗记录 shows the change', async () => {
    await row().getByRole('button', { name: '调岗', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '调岗：张伟' });
    await dialog.waitFor();
    await dialog.getByRole('combobox', { name: '所属部门' }).click();
    const listbox = page.getByRole('listbox');
    // only the company's departments are offered
    await expect(listbox.getByRole('option').filter({ hasText: '售后服务部' }).count()).resolves.toBe(1);
    await listbox.getByRole('option').filter({ hasText: '售后服务部' }).click();
    await listbox.waitFor({ state: 'detached' });
    await dialog.getByRole('textbox', { name: '岗位' }).fill('服务顾问');
    await chooseOption(page, dialog.getByRole('combobox', { name: '岗位类型' }), '服务顾问');
    await dialog.getByRole('combobox', { name: '岗位权限' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '服务顾问岗' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await dialog.getByRole('textbox', { name: '调岗说明' }).fill('售后扩编');
    await dialog.getByRole('heading', { name: '调岗：张伟' }).click();
    await shot(page, 'staff-transfer-dialog', { fullPage: false });

    const edit = waitForCall(page, 'PUT', 'api/staff/editJob');
    await dialog.getByRole('button', { name: '确定' }).click();
    const answer = await edit;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toMatchObject({ id: entryId, job: '服务顾问', roleIds: [roleId], remark: '售后扩编' });
    await notice(page, '调岗成功').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await row().getByText('售后服务部').waitFor();
    const { db } = product.app.database;
    const account = await db.selectFrom('sys_user').select(['dept_id']).where('id', '=', userId).executeTakeFirstOrThrow();
    const service = await db.selectFrom('sys_dept').select('id').where('name', '=', '售后服务部').executeTakeFirstOrThrow();
    expect(Number(account.dept_id)).toBe(Number(service.id));
    const roles = await db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', userId).execute();
    expect(roles.map((r) => Number(r.role_id))).toEqual([roleId]);
    await shot(page, 'staff-after-transfer');

    await row().getByRole('button', { name: '调岗记录' }).click();
    const history = page.getByRole('dialog', { name: '调岗记录：张伟' });
    await history.getByRole('table', { name: '调岗记录' }).waitFor();
    await history
      .getByText('部门 销售部 → 售后服务部；岗位 销售顾问 → 服务顾问；岗位类型 销售顾问 → 服务顾问；岗位权限 服务顾问岗')
      .waitFor();
    await history.getByText('售后扩编').waitFor();
    await shot(page, 'staff-history-dialog', { fullPage: false });
    await history.getByRole('button', { name: '关闭' }).click();
  });

  it('离职 asks for the date and a confirmation, then the entry has left and the account is disabled', async () => {
    await row().getByRole('button', { name: '离职', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '离职：张伟' });
    await dialog.waitFor();
    const date = dialog.getByRole('textbox', { name: '离职日期' });
    await date.fill('2000-01-01');
    await dialog.getByRole('textbox', { name: '离职原因' }).fill('个人发展');
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText(/离职日期不能早于入职日期/).waitFor();
    await date.fill('2026-11-30');
    await dialog.getByText('办理后将禁用该员工关联的系统账号并使其立即退出登录').waitFor();
    // the refusal goes once the date is changed
    await expect(dialog.getByText(/离职日期不能早于入职日期/).count()).resolves.toBe(0);
    await shot(page, 'staff-leave-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: '确定' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: '确定为「张伟」办理离职吗？' });
    await confirm.waitFor();
    await shot(page, 'staff-leave-confirm', { fullPage: false });
    const leave = waitForCall(page, 'PUT', 'api/staff/staffLeave');
    await confirm.getByRole('button', { name: '确定' }).click();
    const answer = await leave;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({ id: entryId, leaveDate: '2026-11-30', cause: '个人发展' });
    await notice(page, '离职办理成功').waitFor();
    await row().getByText('离职', { exact: true }).waitFor();
    await row().getByText('2026-11-30').waitFor();
    // a former employee has no 调岗 / 离职 any more
    await expect(row().getByRole('button', { name: '调岗', exact: true }).count()).resolves.toBe(0);
    const account = await product.app.database.db
      .selectFrom('sys_user')
      .select('enabled')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(Boolean(account.enabled)).toBe(false);
    await shot(page, 'staff-after-leave');
  });

  it('企业微信 without WeCom configured says what to set', async () => {
    await dataRows(page).filter({ hasText: '王芳' }).getByRole('button', { name: '企业微信' }).click();
    await page.getByRole('menuitem', { name: '创建成员' }).click();
    const dialog = page.getByRole('dialog', { name: '创建企业微信成员：王芳' });
    await expect(dialog.getByRole('textbox', { name: '企业微信账号' }).inputValue()).resolves.toBe('13838000002');
    const create = waitForCall(page, 'POST', 'api/staff/qywx');
    await dialog.getByRole('button', { name: '确定' }).click();
    expect((await create).status()).toBe(400);
    await page
      .getByText(/企业微信未配置/)
      .first()
      .waitFor();
    await shot(page, 'staff-wecom-not-configured', { fullPage: false });
    await dialog.getByRole('button', { name: '取消' }).click();
  });
});
