/**
 * The access administration as a new administrator uses it: admin creates a department, a
 * role with 本级 scope and a few keys (用户管理 with only 用户新增), and a user in that
 * department holding the role; that user then signs in and sees only its menus and buttons,
 * only the users of its own department, and the no-permission page on another screen.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createStaff, loginAs } from '../server/auth-helpers.ts';
import { ADMIN, api, launchBrowser, newPage, openFromMenu, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';
import { DEFAULT_USER_PASSWORD } from '../../src/server/modules/access/index.ts';

let product: Product;
let browser: Browser;
let page: Page | undefined;

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false });
  browser = await launchBrowser();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const sidebar = (p: Page) => p.locator('.RaSidebar-fixed');

async function choose(p: Page, label: string, option: RegExp) {
  await p.getByRole('dialog').getByRole('combobox', { name: label }).click();
  await p.getByRole('option', { name: option }).click();
}

describe('access administration in the browser', () => {
  it('admin creates a department, a 本级 role with a few keys and a user in it', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(15000);
    await signInAs(page, product, ADMIN);

    // 部门管理: a new department under the root company
    await openFromMenu(page, '部门管理', 'api/dept/lazy');
    await page.getByRole('table', { name: '部门列表' }).getByText('总公司').waitFor();
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('部门名称').fill('华北公司');
    await choose(page, '上级部门', /总公司/);
    await shot(page, 'access-dept-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('新增成功').waitFor();
    await page.getByRole('table', { name: '部门列表' }).getByRole('button', { name: '展开' }).first().click();
    await page.getByRole('table', { name: '部门列表' }).getByText('华北公司').waitFor();
    await shot(page, 'access-dept-tree', { fullPage: false });

    // 角色管理: a 本级 role, then its menus: 用户管理 with only the 用户新增 button
    await openFromMenu(page, '角色管理', 'api/roles');
    await page.getByRole('button', { name: '新增' }).click();
    await dialog.getByLabel('角色名称').fill('华北顾问');
    await choose(page, '数据范围', /^本级$/);
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('新增成功').waitFor();
    await page.getByRole('table', { name: '角色列表' }).getByRole('cell', { name: '华北顾问' }).click();
    const tree = page.getByRole('tree', { name: '菜单分配' });
    await tree.getByRole('checkbox', { name: '用户管理' }).check();
    await tree.getByRole('checkbox', { name: '用户编辑' }).uncheck();
    await tree.getByRole('checkbox', { name: '用户删除' }).uncheck();
    expect(await tree.getByRole('checkbox', { name: '用户新增' }).isChecked()).toBe(true);
    await shot(page, 'access-role-menus', { fullPage: false });
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('保存成功').waitFor();

    // 用户管理: a user in the new department holding the role
    await openFromMenu(page, '用户管理', 'api/users');
    await page.getByRole('button', { name: '新增' }).click();
    await dialog.getByLabel('用户名').fill('huabei01');
    await dialog.getByLabel('昵称').fill('华北一号');
    await dialog.getByLabel('电话').fill('13912345678');
    // 公司 lists the companies (api/system/deptRemark/getOrg), not the departments inside them
    await dialog.getByRole('combobox', { name: '公司' }).click();
    expect((await page.getByRole('option').allTextContents()).map((t) => t.trim())).toEqual(['总公司']);
    await page.getByRole('option', { name: '总公司' }).click();
    await choose(page, '部门', /华北公司/);
    await dialog.getByRole('combobox', { name: '岗位' }).click();
    await page.getByRole('option', { name: /华北顾问/ }).click();
    await page.keyboard.press('Escape');
    await shot(page, 'access-user-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('新增成功').waitFor();
    await page.getByRole('table', { name: '用户列表' }).getByRole('cell', { name: 'huabei01', exact: true }).waitFor();
    await shot(page, 'access-user-list', { fullPage: false });
    // at 1280 px the wide user table scrolls inside its card: the page itself does not widen
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await page.getByRole('button', { name: '新增' }).evaluate((b) => b.getBoundingClientRect().right)).toBeLessThanOrEqual(1280);

    // enable/disable asks first, with the spec's words
    await page.getByLabel('huabei01状态').click();
    await page.getByText('此操作将禁用 是否继续？').waitFor();
    await shot(page, 'access-user-disable-confirm', { fullPage: false });
    await page.getByRole('button', { name: '确定' }).click();
    await page.getByText('禁用成功').waitFor();
    await page.getByLabel('huabei01状态').click();
    await page.getByText('此操作将启用 是否继续？').waitFor();
    await page.getByRole('button', { name: '确定' }).click();
    await page.getByText('启用成功').waitFor();
    await page.context().close();

    const token = await loginAs(product.app, ADMIN.username, ADMIN.password);
    const created = (await api(product, token, 'GET', '/api/users?blurry=huabei01')).json<{
      content: Array<{ dept: { name: string }; roles: Array<{ name: string; dataScope: string }>; enabled: boolean }>;
    }>();
    expect(created.content[0]).toMatchObject({
      dept: { name: '华北公司' },
      roles: [{ name: '华北顾问', dataScope: '本级' }],
      enabled: true,
    });
  });

  it('the new user sees only its menus, its buttons and its own department', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(15000);
    await signInAs(page, product, { username: 'huabei01', password: DEFAULT_USER_PASSWORD });
    // the default password sends the user to the personal centre first
    await page.waitForURL(/#\/user\/center/);
    await openFromMenu(page, '用户管理', 'api/users');
    await page.getByRole('table', { name: '用户列表' }).getByRole('cell', { name: 'huabei01', exact: true }).waitFor();
    const sideTexts = (await sidebar(page).getByRole('menuitem').allTextContents()).map((t) => t.trim()).filter(Boolean);
    expect(sideTexts).toEqual(expect.arrayContaining(['首页', '用户管理']));
    expect(await sidebar(page).getByText('系统管理').count()).toBe(1);
    for (const other of ['角色管理', '菜单管理', '部门管理', '字典管理', '问题反馈', '人事招聘信息'])
      expect(sideTexts).not.toContain(other);
    // 本级: only the users of its own department
    const cells = await page.getByRole('table', { name: '用户列表' }).locator('tbody tr td:first-child').allTextContents();
    expect(cells).toEqual(['huabei01']);
    // buttons: 新增 only
    expect(await page.getByRole('button', { name: '新增' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: '编辑' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: '删除' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: '重置密码' }).count()).toBe(0);
    // the organisation is fixed to its own
    await page.getByRole('button', { name: '新增' }).click();
    expect(await page.getByRole('dialog').getByRole('combobox', { name: '公司' }).isDisabled()).toBe(true);
    expect(await page.getByRole('dialog').getByRole('combobox', { name: '公司' }).inputValue()).toBe('总公司');
    await shot(page, 'access-limited-user-dialog', { fullPage: false });
    await page.getByRole('dialog').getByRole('button', { name: '取消' }).click();
    await shot(page, 'access-limited-user', { fullPage: false });
    // another screen of 系统管理 is refused
    await page.evaluate(() => (window.location.hash = '/system/role'));
    await page.getByText('抱歉，您无权访问该页面').waitFor();
    await shot(page, 'access-limited-user-no-permission', { fullPage: false });
    await page.context().close();
  });

  it('without 用户查看完整个人信息 the user dialog shows the phone masked and read-only, and an edit keeps it', async () => {
    await createStaff(product.app, {
      username: 'useredit01',
      password: 'UserEdit@2024',
      permissions: ['user:list', 'user:edit'],
      dataScope: '全部',
    });
    page = await newPage(browser);
    page.setDefaultTimeout(15000);
    await signInAs(page, product, { username: 'useredit01', password: 'UserEdit@2024' });
    await openFromMenu(page, '用户管理', 'api/users');
    const row = page.getByRole('table', { name: '用户列表' }).locator('tr', { hasText: 'huabei01' });
    await row.getByText('139****5678').waitFor();
    await row.getByRole('button', { name: '编辑' }).click();
    const dialog = page.getByRole('dialog');
    const phone = dialog.getByLabel('电话');
    expect(await phone.inputValue()).toBe('139****5678');
    expect(await phone.isDisabled()).toBe(true);
    await dialog.getByText('已脱敏显示，无权查看或修改完整信息').first().waitFor();
    await dialog.getByLabel('昵称').fill('华北一号改');
    await shot(page, 'access-user-dialog-masked', { fullPage: false });
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('编辑成功').waitFor();
    await page.context().close();
    const token = await loginAs(product.app, ADMIN.username, ADMIN.password);
    const stored = (await api(product, token, 'GET', '/api/users?blurry=huabei01')).json<{
      content: Array<{ phone: string; nickName: string }>;
    }>();
    expect(stored.content[0]).toMatchObject({ phone: '13912345678', nickName: '华北一号改' });
  });

  it('admin: the menu tree table, the dictionaries and the business dictionary with the insurers', async () => {
    page = await newPage(browser);
    page.setDefaultTimeout(15000);
    await signInAs(page, product, ADMIN);
    await openFromMenu(page, '菜单管理', 'api/menus/getMenusByPid');
    const menus = page.getByRole('table', { name: '菜单列表' });
    await menus.locator('tr', { hasText: '系统管理' }).waitFor();
    await menus.locator('tr', { hasText: '系统管理' }).getByRole('button', { name: '展开' }).click();
    await menus.getByRole('cell', { name: 'user:list' }).waitFor();
    await menus.locator('tr', { hasText: 'user:list' }).getByRole('button', { name: '展开' }).click();
    await menus.getByRole('cell', { name: 'user:add' }).waitFor();
    await shot(page, 'access-menu-tree', { fullPage: false });
    await menus.locator('tr', { hasText: 'user:add' }).getByRole('button', { name: '编辑' }).click();
    await page.getByRole('dialog').getByLabel('权限标识').waitFor();
    await shot(page, 'access-menu-dialog', { fullPage: false });
    await page.getByRole('dialog').getByRole('button', { name: '取消' }).click();

    // a 自定义 role chooses its departments
    await openFromMenu(page, '角色管理', 'api/roles');
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('角色名称').fill('区域经理');
    await choose(page, '数据范围', /^自定义$/);
    await dialog.getByRole('checkbox', { name: /销售部/ }).check();
    await dialog.getByRole('checkbox', { name: /华北公司/ }).check();
    await shot(page, 'access-role-custom-scope', { fullPage: false });
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByText('新增成功').waitFor();
    await page.getByRole('table', { name: '角色列表' }).getByText('自定义（销售部、华北公司）').waitFor();

    await openFromMenu(page, '字典管理', 'api/dict');
    await page.getByRole('table', { name: '字典列表' }).getByRole('cell', { name: 'question_model' }).click();
    await page.getByRole('table', { name: '字典详情' }).getByRole('cell', { name: '售后' }).first().waitFor();
    await shot(page, 'access-dict', { fullPage: false });

    await openFromMenu(page, '业务字典', 'api/busidict/list/0');
    const busi = page.getByRole('table', { name: '业务字典' });
    await busi.locator('tr', { hasText: '承保公司' }).getByRole('button', { name: '展开' }).click();
    await busi.getByRole('cell', { name: '中华联合' }).first().waitFor();
    // the twelve insurers, in the seeded order, each with its code
    const codes = await busi.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(
      codes.filter((c) =>
        ['人保', '平安', '人寿', '太平洋', '大地', '阳光', '太平', '中华联合', '天安', '渤海', '大家', '永安'].includes(c),
      ),
    ).toEqual(['人保', '平安', '人寿', '太平洋', '大地', '阳光', '太平', '中华联合', '天安', '渤海', '大家', '永安']);
    await shot(page, 'access-busidict', { fullPage: false });
    await page.context().close();
  });
});
