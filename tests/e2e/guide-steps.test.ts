/**
 * The user guide's staff pages (docs/用户手册: 管理员, 人事, 客服, 销售) followed step by step: for
 * each action a page tells its reader to take, the test takes it in the browser as the page's demo
 * account, the way the page words it, and checks the outcome the page promises (a notice and what
 * it names, a saved or restored row, a download, a session that ends, a colleague who sees a
 * message, a code in the 发件箱). guide.test.ts checks that the screens and labels exist; this file
 * checks that doing what the page says gives what the page says.
 *
 * Each step first reads the page: the sentences it relies on must still be there (a changed guide
 * fails the step until the step follows it again), and the values a reader would use (the initial
 * password, the directory a menu moves to, the applicant page's address) are taken from the page.
 * Each step makes the rows it works on, through the API as an administrator would have, so the
 * steps do not depend on one another.
 *
 * Where the product did not do what a page said, the product or the page was changed (a
 * department with roster entries is kept, 系统消息推送 lists a message's readers, 系统设置 says
 * when colleagues see the change); no step is expected to fail.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { DEPT_HAS_CHILDREN, DEPT_HAS_USERS } from '../../src/server/modules/access/departments.ts';
import { loginAs } from '../server/auth-helpers.ts';
import { demoAccounts, guideText, sidebarTitles } from './guide-reader.ts';
import { chooseOption, dataRows, notice, waitForCall } from './list-helpers.ts';
import { api, launchBrowser, newPage, openFromMenu, pending, shotOnFailure, startProduct, tokenOf, type Product } from './support.ts';
import {
  confirm,
  confirmNamed,
  saveSystemName,
  userRow,
  deptIdOf,
  guideSays,
  guideValue,
  makeStaffEntry,
  makeUser,
  ownPassword,
  pick,
  sessionAccepted,
  signedIn,
  WAIT,
} from './guide-steps-helpers.ts';

const ADMIN_PAGE = '管理员.md';
const HR_PAGE = '人事.md';
const SERVICE_PAGE = '客服.md';
const SALES_PAGE = '销售.md';
/** the password the steps give an account that has left its initial one */
const OWN_PASSWORD = 'Own@2026pass';

let product: Product;
let browser: Browser;
let adminToken: string;
/** the windows a step opened: shot when it fails, closed after it */
const windows: Page[] = [];

/** The page's demo account, as the page names it. */
function accountOf(file: string): { username: string; password: string } {
  const account = demoAccounts(guideText(file));
  if (!account) throw new Error(`${file} names no demo account`);
  return { username: account.usernames[0], password: account.password };
}

/** A window signed in as the page's demo account (or another account), kept for the step's end. */
async function windowOf(user: { username: string; password: string }, options?: { keepPasswordDialog?: boolean }): Promise<Page> {
  const page = await signedIn(browser, product, user, options);
  windows.push(page);
  return page;
}

/** The initial password the admin page names for new and reset accounts. */
const initialPassword = () => guideValue(ADMIN_PAGE, /新增的账号和「重置密码」后的账号使用初始密码 (\S+?)，/);

interface UserAnswer {
  content: Array<{ id: number; username: string; nickName: string; enabled: boolean; dept?: { name?: string } }>;
}

async function storedUser(username: string) {
  const found = (await api(product, adminToken, 'GET', `/api/users?blurry=${username}`)).json<UserAnswer>().content;
  return found.find((u) => u.username === username);
}

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: true });
  browser = await launchBrowser();
  const admin = accountOf(ADMIN_PAGE);
  adminToken = await loginAs(product.app, admin.username, admin.password);
});

afterEach(async (ctx) => {
  const failed = ctx.task.result?.state === 'fail';
  for (const [i, page] of windows.splice(0).entries()) {
    if (failed) await shotOnFailure(page, `guide-steps-${ctx.task.name}-${i + 1}`);
    await page
      .context()
      .close()
      .catch(() => undefined);
  }
});

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe(`${ADMIN_PAGE}, its steps taken as its demo account`, () => {
  it('用户管理 新增: 部门 is required; the notice names the initial password; the account signs in with it and must change it', async () => {
    guideSays(
      ADMIN_PAGE,
      '「系统管理 → 用户管理」',
      '新增时「部门」必填',
      '保存成功的提示里也会写明',
      '员工首次登录时会被要求修改',
      '左侧部门树用于按部门筛选',
    );
    const initial = initialPassword();
    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '用户管理', 'api/users');
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('用户名').fill('guide_new');
    await dialog.getByLabel('昵称').fill('手册新人');
    await pick(page, dialog.getByRole('combobox', { name: '公司' }), '总公司');
    await pick(page, dialog.getByRole('combobox', { name: '岗位' }), /^客服/);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    // 部门 left empty: refused with its message
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.getByText('请选择部门').first().waitFor();
    expect(await storedUser('guide_new')).toBeUndefined();
    await pick(page, dialog.getByRole('combobox', { name: '部门' }), '售后服务部');
    const created = waitForCall(page, 'POST', 'api/users');
    await dialog.getByRole('button', { name: '确定' }).click();
    expect((await created).status()).toBe(201);
    await notice(page, `初始密码为 ${initial}`).waitFor();
    await userRow(page, 'guide_new').waitFor();

    // the department tree narrows the list to the department
    await page
      .locator('[aria-label="部门"]')
      .getByRole('button', { name: /售后服务部/ })
      .click();
    await expect
      .poll(async () => [
        ...new Set(await page.getByRole('table', { name: '用户列表' }).locator('tbody tr td:nth-child(5)').allInnerTexts()),
      ])
      .toEqual(['售后服务部']);
    await userRow(page, 'guide_new').waitFor();

    // the new account signs in with the initial password and is asked to change it
    const staff = await windowOf({ username: 'guide_new', password: initial }, { keepPasswordDialog: true });
    await staff.getByRole('dialog', { name: '修改密码' }).waitFor();
  });

  it('用户管理 重置密码: the notice names the initial password; the account signs in with it and must change it', async () => {
    guideSays(ADMIN_PAGE, '新增的账号和「重置密码」后的账号使用初始密码');
    const initial = initialPassword();
    const id = await makeUser(product, adminToken, { username: 'guide_reset', nickName: '手册重置', dept: '销售部', role: '销售顾问' });
    await ownPassword(product, id, OWN_PASSWORD);
    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '用户管理', 'api/users');
    await userRow(page, 'guide_reset').getByRole('button', { name: '重置密码' }).click();
    await confirm(page, initial);
    await notice(page, `密码已重置为初始密码 ${initial}`).waitFor();
    const staff = await windowOf({ username: 'guide_reset', password: initial }, { keepPasswordDialog: true });
    await staff.getByRole('dialog', { name: '修改密码' }).waitFor();
  });

  it('用户管理 状态 switched off: the account’s open session is refused at once', async () => {
    guideSays(ADMIN_PAGE, '「状态」开关启用或禁用账号', '禁用账号后，该员工的登录会立即失效');
    const id = await makeUser(product, adminToken, { username: 'guide_off', nickName: '手册停用', dept: '销售部', role: '销售顾问' });
    await ownPassword(product, id, OWN_PASSWORD);
    const staff = await windowOf({ username: 'guide_off', password: OWN_PASSWORD });
    const staffToken = await tokenOf(staff);
    expect(await sessionAccepted(product, staffToken)).toBe(true);

    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '用户管理', 'api/users');
    await page.getByLabel('guide_off状态').click();
    await confirm(page, '此操作将禁用');
    await notice(page, '禁用成功').waitFor();
    expect(await sessionAccepted(product, staffToken)).toBe(false);
    // the staff member's open console: its next request is refused and it goes to the sign-in page
    await staff.reload();
    await staff.waitForURL((url) => url.hash.startsWith('#/login'));
    await expect(loginAs(product.app, 'guide_off', OWN_PASSWORD)).rejects.toThrow();
  });

  it('角色管理 菜单分配: a page ticked and saved belongs to the role; its holder has it at the next opening', async () => {
    guideSays(
      ADMIN_PAGE,
      '「系统管理 → 角色管理」',
      '在左侧列表点选角色，右侧勾选该角色可打开的页面',
      '点击「保存」',
      '用户下次打开页面时生效',
    );
    const role = await api(product, adminToken, 'POST', '/api/roles', { name: '手册角色', level: 3, dataScope: '本级', description: '' });
    expect(role.status, role.body).toBe(201);
    const id = await makeUser(product, adminToken, { username: 'guide_role', nickName: '手册角色人', dept: '销售部', role: '手册角色' });
    await ownPassword(product, id, OWN_PASSWORD);
    const holder = await windowOf({ username: 'guide_role', password: OWN_PASSWORD });
    const holderToken = await tokenOf(holder);
    expect((await sidebarTitles(product, holderToken)).has('提醒类型')).toBe(false);

    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '角色管理', 'api/roles');
    await page.getByRole('table', { name: '角色列表' }).getByRole('cell', { name: '手册角色', exact: true }).click();
    const tree = page.getByRole('tree', { name: '菜单分配' });
    await tree.getByRole('checkbox', { name: '提醒类型', exact: true }).check();
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await notice(page, '保存成功').waitFor();

    expect((await sidebarTitles(product, holderToken)).has('提醒类型')).toBe(true);
    await holder.reload();
    await openFromMenu(holder, '提醒类型', 'api/kf/kfRemindType');
  });

  it('用户管理 编辑: a second 岗位 gives the account the pages of both roles', async () => {
    guideSays(ADMIN_PAGE, '一个员工可以有多个角色，权限取并集');
    const id = await makeUser(product, adminToken, { username: 'guide_two', nickName: '手册兼岗', dept: '销售部', role: '客服' });
    await ownPassword(product, id, OWN_PASSWORD);
    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '用户管理', 'api/users');
    await userRow(page, 'guide_two').getByRole('button', { name: '编辑' }).click();
    const dialog = page.getByRole('dialog');
    await pick(page, dialog.getByRole('combobox', { name: '岗位' }), /^销售顾问/);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: '确定' }).click();
    await notice(page, '编辑成功').waitFor();
    await userRow(page, 'guide_two')
      .getByText(/客服、销售顾问|销售顾问、客服/)
      .waitFor();

    const staff = await windowOf({ username: 'guide_two', password: OWN_PASSWORD });
    await openFromMenu(staff, '问题反馈', 'api/sysQuestion');
    await openFromMenu(staff, '潜客档案', 'api/xs/xsSubmersibleFile');
  });

  it('角色管理 菜单分配 by a manager who is not admin: a menu they hold is granted, one they do not hold is refused', async () => {
    guideSays(ADMIN_PAGE, '非 admin 的管理者只能授予自己拥有的菜单');
    const { db } = product.app.database;
    // the manager's role: 角色管理 (list, edit) and 提醒类型 with all its buttons, and the directories above them
    const all = await db.selectFrom('sys_menu').select(['id', 'pid', 'permission']).execute();
    const byKey = (key: string) => all.find((m) => m.permission === key)!;
    const remind = Number(byKey('kfRemindType:list').id);
    const held = new Set<number>();
    for (const m of [byKey('roles:list'), byKey('roles:edit'), ...all.filter((x) => Number(x.id) === remind || Number(x.pid) === remind)])
      for (let at: (typeof all)[number] | undefined = m; at;) {
        held.add(Number(at.id));
        const parent: unknown = at.pid;
        at = all.find((x) => Number(x.id) === Number(parent));
      }
    const role = async (name: string, level: number) => {
      const res = await api(product, adminToken, 'POST', '/api/roles', { name, level, dataScope: '全部', description: '' });
      expect(res.status, res.body).toBe(201);
      return res.json<{ id: number }>().id;
    };
    const manager = await role('手册主管', 3);
    const granted = await api(product, adminToken, 'PUT', '/api/roles/menu', { id: manager, menus: [...held].map((id) => ({ id })) });
    expect(granted.status, granted.body).toBe(204);
    const member = await role('手册组员', 4);
    const id = await makeUser(product, adminToken, {
      username: 'guide_lead',
      nickName: '手册主管人',
      dept: '售后服务部',
      role: '手册主管',
    });
    await ownPassword(product, id, OWN_PASSWORD);
    const menusOf = async (roleId: number) =>
      (
        await db
          .selectFrom('sys_roles_menus')
          .innerJoin('sys_menu', 'sys_menu.id', 'sys_roles_menus.menu_id')
          .select('sys_menu.title')
          .where('sys_roles_menus.role_id', '=', roleId)
          .execute()
      ).map((m) => String(m.title));

    const page = await windowOf({ username: 'guide_lead', password: OWN_PASSWORD });
    await openFromMenu(page, '角色管理', 'api/roles');
    await page.getByRole('table', { name: '角色列表' }).getByRole('cell', { name: '手册组员', exact: true }).click();
    const tree = page.getByRole('tree', { name: '菜单分配' });
    await tree.getByRole('checkbox', { name: '提醒类型', exact: true }).check();
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await notice(page, '保存成功').waitFor();
    expect(await menusOf(member)).toContain('提醒类型');

    // a menu the manager does not hold: refused (the console then shows its no-permission page,
    // not the server's message 只能分配你自己拥有的菜单), and the role stays as it was
    await tree.getByRole('checkbox', { name: '问题反馈', exact: true }).check();
    const refused = waitForCall(page, 'PUT', 'api/roles/menu');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    expect((await refused).status()).toBe(403);
    expect(await menusOf(member)).not.toContain('问题反馈');
    expect(await menusOf(member)).toContain('提醒类型');
  });

  it('菜单管理 编辑: 上级类目 moves the menu into the directory; its page keeps its address', async () => {
    guideSays(ADMIN_PAGE, '「系统管理 → 菜单管理」', '「菜单排序」调整位置后「确定」', '移动菜单不改变页面地址');
    const directory = guideValue(ADMIN_PAGE, /在「上级类目」选择目录（如「([^」]+)」）/);
    const page = await windowOf(accountOf(ADMIN_PAGE));
    const sidebar = page.locator('.RaSidebar-fixed');
    // a page at the menu's outermost level, as a newly released page is
    await sidebar.getByRole('menuitem', { name: '数据决策中心', exact: true }).click();
    await page.waitForURL((url) => url.hash !== '#/' && !url.hash.startsWith('#/dashboard'));
    const address = new URL(page.url()).hash;

    await openFromMenu(page, '菜单管理', 'api/menus/getMenusByPid');
    const menus = page.getByRole('table', { name: '菜单列表' });
    await menus.getByRole('row').filter({ hasText: '数据决策中心' }).getByRole('button', { name: '编辑' }).click();
    const dialog = page.getByRole('dialog');
    await pick(page, dialog.getByRole('combobox', { name: '上级类目' }), directory);
    await dialog.getByLabel('菜单排序').fill('1');
    const saved = waitForCall(page, 'PUT', 'api/menus');
    await dialog.getByRole('button', { name: '确定' }).click();
    expect((await saved).status()).toBeLessThan(300);
    await notice(page, '编辑成功').waitFor();

    // the sidebar, read again: the page is the first one inside the directory, at the same address
    const build = (await api(product, adminToken, 'GET', '/api/menus/build')).json<
      Array<{ meta?: { title?: string }; children?: Array<{ meta?: { title?: string } }> }>
    >();
    const inside = build.find((m) => m.meta?.title === directory)?.children?.map((c) => c.meta?.title);
    expect(inside?.[0]).toBe('数据决策中心');
    expect(build.some((m) => m.meta?.title === '数据决策中心')).toBe(false);
    await page.reload();
    await sidebar.getByRole('menuitem', { name: '首页' }).waitFor();
    const item = sidebar.getByRole('menuitem', { name: '数据决策中心', exact: true });
    const folder = sidebar.getByRole('menuitem', { name: directory, exact: true });
    if ((await folder.getAttribute('aria-expanded')) === 'false') await folder.click();
    await item.click();
    await page.waitForURL((url) => url.hash === address);
  });

  it('部门管理: a department that still has staff or sub-departments is not deleted', async () => {
    guideSays(ADMIN_PAGE, '「系统管理 → 部门管理」', '部门下还有员工或子部门时不能删除');
    const root = (await api(product, adminToken, 'GET', '/api/dept/lazy?pid=0')).json<Array<{ id: number }>>()[0].id;
    const dept = async (name: string, pid = root) => {
      const res = await api(product, adminToken, 'POST', '/api/dept', { name, pid, sort: 99, enabled: true });
      expect(res.status, res.body).toBe(201);
    };
    await dept('手册有账号部');
    await makeUser(product, adminToken, { username: 'guide_dept', nickName: '手册部门人', dept: '手册有账号部', role: '销售顾问' });
    await dept('手册有下级部');
    await dept('手册下级部', await deptIdOf(product, '手册有下级部'));

    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '部门管理', 'api/dept/lazy');
    const table = page.getByRole('table', { name: '部门列表' });
    await table.getByRole('row').filter({ hasText: '总公司' }).getByRole('button', { name: '展开' }).click();
    const problems: string[] = [];
    for (const [name, refusal] of [
      ['手册有账号部', DEPT_HAS_USERS],
      ['手册有下级部', DEPT_HAS_CHILDREN],
    ] as const) {
      const row = table.getByRole('row').filter({ hasText: name });
      await row.getByRole('button', { name: '删除' }).click();
      const answer = waitForCall(page, 'DELETE', 'api/dept');
      await confirm(page);
      const status = (await answer).status();
      if (status < 300) problems.push(`「${name}」 was deleted (${status}) although it still has staff`);
      else await notice(page, refusal).waitFor();
    }
    expect(problems).toEqual([]);
  });

  // a department is kept while any record of a schema points at it (a roster entry, a posting, a lead)
  it('部门管理: a department whose staff are roster entries only (员工花名册, no account) is not deleted', async () => {
    guideSays(ADMIN_PAGE, '部门下还有员工或子部门时不能删除');
    const root = (await api(product, adminToken, 'GET', '/api/dept/lazy?pid=0')).json<Array<{ id: number }>>()[0].id;
    const made = await api(product, adminToken, 'POST', '/api/dept', { name: '手册有花名册部', pid: root, sort: 99, enabled: true });
    expect(made.status, made.body).toBe(201);
    await makeStaffEntry(product, adminToken, { name: '手册在册', mobile: '13700000031', dept: '手册有花名册部', job: '库管' });

    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '部门管理', 'api/dept/lazy');
    const table = page.getByRole('table', { name: '部门列表' });
    await table.getByRole('row').filter({ hasText: '总公司' }).getByRole('button', { name: '展开' }).click();
    await table.getByRole('row').filter({ hasText: '手册有花名册部' }).getByRole('button', { name: '删除' }).click();
    const answer = waitForCall(page, 'DELETE', 'api/dept');
    await confirm(page);
    expect((await answer).status(), 'the department was deleted although its roster has staff').toBe(400);
    await page.getByText('所选部门存在员工花名册关联，请解除关联后再试').first().waitFor();
  });

  it('定时任务: 暂停, then 恢复; 执行 runs the job once', async () => {
    guideSays(ADMIN_PAGE, '「暂停」（之后可「恢复」），或点击「执行」立即运行一次');
    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '定时任务', 'api/dj');
    const row = dataRows(page).filter({ hasText: '清理过期验证码' });
    const job = (await api(product, adminToken, 'GET', '/api/dj?page=0&size=50'))
      .json<{ content: Array<{ id: number; money: string }> }>()
      .content.find((j) => j.money === '清理过期验证码');
    const paused = async () =>
      (await api(product, adminToken, 'GET', `/api/dj?page=0&size=50`))
        .json<{ content: Array<{ id: number; isPause: boolean | number }> }>()
        .content.find((j) => j.id === job?.id)?.isPause;

    await row.getByRole('button', { name: '暂停' }).click();
    await confirm(page, '暂停后不再按时执行');
    await notice(page, '暂停成功').waitFor();
    await row.getByRole('button', { name: '恢复' }).waitFor();
    expect(Boolean(await paused())).toBe(true);

    await row.getByRole('button', { name: '恢复' }).click();
    await confirm(page, '确定恢复任务');
    await notice(page, '恢复成功').waitFor();
    await row.getByRole('button', { name: '暂停' }).waitFor();
    expect(Boolean(await paused())).toBe(false);

    const runs = async () =>
      (await api(product, adminToken, 'GET', `/api/jobs/logs?jobId=${job?.id}&page=0&size=1`)).json<{ totalElements: number }>()
        .totalElements;
    const before = await runs();
    await row.getByRole('button', { name: '执行' }).click();
    await notice(page, '执行成功').waitFor();
    await expect.poll(runs).toBe(before + 1);
    await row.getByRole('button', { name: '日志' }).click();
    await page
      .getByRole('dialog', { name: /执行日志/ })
      .getByText('手动执行')
      .first()
      .waitFor();
  });

  it('备份管理: 立即备份 adds a backup; 下载 gives its file; 恢复 brings the data back and keeps the data before it', async () => {
    guideSays(ADMIN_PAGE, '可「立即备份」、「下载」，或选择一份备份「恢复」', '恢复前的数据会先另存为一份备份');
    const admin = accountOf(ADMIN_PAGE);
    const page = await windowOf(admin);
    page.setDefaultTimeout(60_000);
    await openFromMenu(page, '备份管理', 'api/backups');
    const rows = page.getByRole('table', { name: '备份列表' }).locator('tbody tr').filter({ hasText: 'backup-' });
    const before = await rows.count();
    await page.getByRole('button', { name: '立即备份' }).click();
    await page.getByText(/^备份完成：backup-/).waitFor();
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(before + 1);

    const download = pending(page.waitForEvent('download'));
    await rows.first().getByRole('button', { name: '下载' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^backup-.+/);
    expect(statSync(await file.path()).size).toBeGreaterThan(0);

    // a row made after the backup is gone after restoring it
    const made = await api(product, adminToken, 'POST', '/api/kf/kfRemindType', {
      name: '手册备份后',
      remindDays: 1,
      sort: 1,
      enabled: true,
    });
    expect(made.status, made.body).toBe(201);
    await rows.first().getByRole('button', { name: '恢复' }).click();
    const ask = page.getByRole('dialog', { name: '确认恢复' });
    await ask.getByLabel('当前账号的密码').fill(admin.password);
    await ask.getByRole('button', { name: '确定恢复' }).click();
    await page.getByText(/^已恢复到 .* 的备份，恢复前的数据已另存为 backup-/).waitFor();
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(before + 2);
    expect(await rows.first().innerText()).toContain('恢复前自动');
    const types = (await api(product, adminToken, 'GET', '/api/kf/kfRemindType?page=0&size=100')).json<{
      content: Array<{ name: string }>;
    }>();
    expect(types.content.map((t) => t.name)).not.toContain('手册备份后');
  });

  it('历史记录: a row’s earlier version is restored', async () => {
    guideSays(ADMIN_PAGE, '列表每行的「历史记录」按钮列出这条数据的每次修改', '可以恢复到其中任一版本');
    const id = await makeUser(product, adminToken, { username: 'guide_hist', nickName: '手册旧名', dept: '销售部', role: '销售顾问' });
    const user = (await api(product, adminToken, 'GET', '/api/users?blurry=guide_hist')).json<{ content: Array<Record<string, unknown>> }>()
      .content[0];
    const edited = await api(product, adminToken, 'PUT', '/api/users', { ...user, id, nickName: '手册新名' });
    expect(edited.status, edited.body).toBe(204);

    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '用户管理', 'api/users');
    await userRow(page, 'guide_hist').getByText('手册新名').waitFor();
    await userRow(page, 'guide_hist').getByRole('button', { name: '历史记录' }).click();
    const dialog = page.getByRole('dialog', { name: /历史记录/ });
    const entries = dialog.getByTestId('history-entry');
    await entries.nth(1).waitFor();
    await entries.last().getByRole('button', { name: '恢复到此版本' }).click();
    await confirmNamed(page, '恢复到此版本');
    await notice(page, '恢复成功').waitFor();
    await dialog.getByRole('button', { name: '关闭' }).click();
    await userRow(page, 'guide_hist').getByText('手册旧名').waitFor();
    expect((await storedUser('guide_hist'))?.nickName).toBe('手册旧名');
  });

  it('回收站: a deleted row is restored as it was', async () => {
    guideSays(ADMIN_PAGE, '在列表上方打开「回收站」，看到被删除的数据、删除人和时间，勾选后「恢复」即可原样找回');
    const id = await makeUser(product, adminToken, { username: 'guide_bin', nickName: '手册回收', dept: '销售部', role: '销售顾问' });
    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '用户管理', 'api/users');
    await userRow(page, 'guide_bin').getByRole('button', { name: '删除' }).click();
    await confirm(page);
    await notice(page, '删除成功').waitFor();
    await userRow(page, 'guide_bin').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: '回收站' }).click();
    const bin = page.getByRole('dialog', { name: '用户回收站' });
    const row = bin.getByTestId('bin-row').filter({ hasText: 'guide_bin' });
    await row.waitFor();
    expect(await row.innerText()).toContain('admin');
    await bin.getByRole('checkbox', { name: `选择 ${id}` }).check();
    await bin.getByRole('button', { name: '恢复', exact: true }).click();
    await confirmNamed(page, '恢复');
    await notice(page, '已恢复1条数据').waitFor();
    await bin.getByRole('button', { name: '关闭' }).click();
    await userRow(page, 'guide_bin').waitFor();
    expect(await storedUser('guide_bin')).toMatchObject({ id, nickName: '手册回收', dept: { name: '销售部' } });
  });

  it('系统设置 保存: the new system name shows at once in the console, and to a colleague on their next page', async () => {
    guideSays(
      ADMIN_PAGE,
      '系统设置：系统名称、公司名称、备案号、网站图标、系统 Logo 和首页图片，保存后立即生效，其他同事打开或刷新页面即可看到',
    );
    const colleague = await windowOf(accountOf(SERVICE_PAGE));
    const page = await windowOf(accountOf(ADMIN_PAGE));
    const old = await saveSystemName(page, '手册车商系统');
    try {
      await expect.poll(() => page.getByTestId('sidebar-brand').innerText()).toBe('手册车商系统');
      await colleague.reload();
      await expect.poll(() => colleague.getByTestId('sidebar-brand').innerText()).toBe('手册车商系统');
    } finally {
      await saveSystemName(page, old);
    }
  });

  it('发件箱: the code 忘记密码 sends is there, and it resets the password', async () => {
    guideSays(ADMIN_PAGE, '发件箱：未配置短信、邮件服务时，验证码等消息会放在这里');
    guideSays('README.md', '忘记密码时点击「忘记密码」，用账号绑定的手机号接收短信验证码重置');
    const mobile = '13900007001';
    await makeUser(product, adminToken, { username: 'guide_sms', nickName: '手册短信', dept: '销售部', role: '销售顾问', phone: mobile });
    // the staff member, not signed in
    const forgot = await newPage(browser);
    windows.push(forgot);
    forgot.setDefaultTimeout(WAIT);
    await forgot.goto(`${product.url}/#/login`);
    await forgot.getByRole('link', { name: '忘记密码' }).click();
    await forgot.getByLabel('手机号').fill(mobile);
    await forgot.getByRole('button', { name: '获取验证码' }).click();
    await forgot.getByText('发送成功，验证码有效期5分钟').waitFor();

    const page = await windowOf(accountOf(ADMIN_PAGE));
    await openFromMenu(page, '发件箱', 'api/outbox');
    const row = page
      .getByRole('table', { name: '发件箱' })
      .getByRole('row')
      .filter({ hasText: mobile.slice(-4) })
      .first();
    await row.waitFor();
    const code = /验证码为：(\d{6})/.exec(await row.innerText())?.[1];
    expect(code).toBeDefined();

    await forgot.getByLabel('验证码').fill(code!);
    await forgot.getByLabel('新密码').fill('Sms@2026pass');
    await forgot.getByLabel('确认密码').fill('Sms@2026pass');
    await forgot.getByRole('button', { name: '重置密码' }).click();
    await forgot.getByText('密码重置成功，请重新登录').waitFor();
    expect(await loginAs(product.app, 'guide_sms', 'Sms@2026pass')).toBeTruthy();
  });
});

describe(`${HR_PAGE}, its steps taken as its demo account`, () => {
  /** A roster row found through the list's search box. */
  async function rosterRow(page: Page, name: string) {
    await openFromMenu(page, '员工花名册', 'api/staff');
    const list = waitForCall(page, 'GET', 'api/staff', (q) => JSON.stringify([...q.values()]).includes(name));
    await page.getByPlaceholder('请输入搜索内容').fill(name);
    await list;
    const row = dataRows(page).filter({ hasText: name });
    await row.waitFor();
    return row;
  }

  it('员工花名册 调岗: 调岗记录 lists it and the linked account’s department follows', async () => {
    guideSays(HR_PAGE, '「人事管理 → 员工花名册」', '调岗：选择新部门、岗位，系统记录调岗历史；员工有系统账号时账号也随之调整部门');
    const userId = await makeUser(product, adminToken, { username: 'guide_move', nickName: '手册调岗', dept: '销售部', role: '销售顾问' });
    await makeStaffEntry(product, adminToken, { name: '手册调岗', mobile: '13700000011', dept: '销售部', job: '销售顾问', userId });
    const page = await windowOf(accountOf(HR_PAGE));
    const row = await rosterRow(page, '手册调岗');
    await row.getByRole('button', { name: '调岗', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '调岗：手册调岗' });
    await pick(page, dialog.getByRole('combobox', { name: '所属部门' }), '售后服务部');
    await dialog.getByRole('textbox', { name: '岗位' }).fill('服务顾问');
    await dialog.getByRole('textbox', { name: '调岗说明' }).fill('售后扩编');
    await dialog.getByRole('button', { name: '确定' }).click();
    await notice(page, '调岗成功').waitFor();
    await row.getByText('售后服务部').waitFor();

    await row.getByRole('button', { name: '调岗记录' }).click();
    const history = page.getByRole('dialog', { name: '调岗记录：手册调岗' });
    await history.getByText(/部门 销售部 → 售后服务部/).waitFor();
    await history.getByText('售后扩编').waitFor();
    expect((await storedUser('guide_move'))?.dept?.name).toBe('售后服务部');
  });

  it('员工花名册 离职: the linked account is disabled and its open session ends at once', async () => {
    guideSays(
      HR_PAGE,
      '离职：填写离职日期和原因；员工的系统账号会被停用，已登录的会话立即失效',
      '调岗记录：查看该员工的全部调岗和离职记录',
    );
    const userId = await makeUser(product, adminToken, { username: 'guide_leave', nickName: '手册离职', dept: '销售部', role: '销售顾问' });
    await ownPassword(product, userId, OWN_PASSWORD);
    await makeStaffEntry(product, adminToken, { name: '手册离职', mobile: '13700000012', dept: '销售部', job: '销售顾问', userId });
    const staff = await windowOf({ username: 'guide_leave', password: OWN_PASSWORD });
    const staffToken = await tokenOf(staff);

    const page = await windowOf(accountOf(HR_PAGE));
    const row = await rosterRow(page, '手册离职');
    await row.getByRole('button', { name: '离职', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '离职：手册离职' });
    await dialog.getByRole('textbox', { name: '离职日期' }).fill('2024-06-30');
    await dialog.getByRole('textbox', { name: '离职原因' }).fill('个人发展');
    await dialog.getByRole('button', { name: '确定' }).click();
    await confirm(page, '确定为「手册离职」办理离职吗？');
    await notice(page, '离职办理成功').waitFor();
    await row.getByText('2024-06-30').waitFor();

    expect((await storedUser('guide_leave'))?.enabled).toBe(false);
    expect(await sessionAccepted(product, staffToken)).toBe(false);
    await staff.reload();
    await staff.waitForURL((url) => url.hash.startsWith('#/login'));

    await row.getByRole('button', { name: '调岗记录' }).click();
    await page.getByRole('dialog', { name: '调岗记录：手册离职' }).getByText('个人发展').waitFor();
  });

  it('员工花名册 编辑 saves the entry; 导出 downloads the current result', async () => {
    guideSays(HR_PAGE, '「导出」当前结果', '编辑：修改员工档案');
    await makeStaffEntry(product, adminToken, { name: '手册导出', mobile: '13700000013', dept: '售后服务部', job: '机修技师' });
    const page = await windowOf(accountOf(HR_PAGE));
    const row = await rosterRow(page, '手册导出');
    await row.getByRole('button', { name: '编辑', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '编辑员工花名册' }).waitFor();
    await dialog.getByRole('textbox', { name: /^备注/ }).fill('手册：持高级技师证');
    const saved = waitForCall(page, 'PUT', 'api/staff');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await saved).status()).toBe(204);
    await notice(page, '编辑成功').waitFor();
    const stored = (await api(product, adminToken, 'GET', `/api/staff?name=${encodeURIComponent('手册导出')}`)).json<{
      content: Array<{ remark: string | null }>;
    }>();
    expect(stored.content[0].remark).toBe('手册：持高级技师证');

    // the list holds the one entry searched for: so does the file
    const download = pending(page.waitForEvent('download'));
    await page.getByTestId('list-toolbar').getByRole('button', { name: '导出' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await file.path());
    const sheet = book.worksheets[0];
    expect(sheet.actualRowCount).toBe(2);
    expect((sheet.getRow(2).values as unknown[]).map(String)).toContain('手册导出');
  });

  it('人事招聘信息 新增: the posting shows on the applicants’ phone page', async () => {
    guideSays(HR_PAGE, '「人事管理 → 人事招聘信息」', '启用的岗位会出现在应聘者手机页面的招聘列表里');
    const address = guideValue(HR_PAGE, /把手机页面地址 (\S+)（/);
    const job = '手册试驾专员';
    const page = await windowOf(accountOf(HR_PAGE));
    await openFromMenu(page, '人事招聘信息', 'api/staffunZp');
    await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '新增人事招聘信息' }).waitFor();
    await chooseOption(page, dialog.getByRole('combobox', { name: /^所属部门/ }), '销售部');
    await dialog.getByRole('textbox', { name: /^招聘岗位/ }).fill(job);
    await dialog.getByRole('textbox', { name: /^薪资待遇/ }).fill('6000-9000元/月');
    await dialog.getByRole('textbox', { name: /^工作区域/ }).fill('郑州市金水区');
    await dialog.getByRole('textbox', { name: /^招聘人数/ }).fill('2');
    await dialog.getByRole('textbox', { name: /^岗位职责/ }).fill('陪同客户试驾，讲解车辆性能。');
    await dialog.getByRole('textbox', { name: /^任职要求/ }).fill('持C1驾照，驾龄三年以上。');
    const created = waitForCall(page, 'POST', 'api/staffunZp');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await created).status()).toBe(201);
    await notice(page, '新增成功').waitFor();
    await dataRows(page).filter({ hasText: job }).waitFor();

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
    const applicant = await phone.newPage();
    windows.push(applicant);
    applicant.setDefaultTimeout(WAIT);
    await applicant.goto(`${product.url}/${address}`);
    await applicant.getByText(job).first().waitFor();
  });
});

describe(`${SERVICE_PAGE}, its steps taken as its demo account`, () => {
  it('问题反馈 新增 adds a row; 状态 已处理 is saved at once; the eye shows the whole content', async () => {
    guideSays(SERVICE_PAGE, '「系统管理 → 问题反馈」', '在该行「状态」一栏直接点选「已处理」即可保存', '点击眼睛图标查看完整内容');
    const content = '手册反馈：保养提醒短信没有收到，请核查发送记录。';
    const page = await windowOf(accountOf(SERVICE_PAGE));
    await openFromMenu(page, '问题反馈', 'api/sysQuestion');
    await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '新增问题反馈' }).waitFor();
    await chooseOption(page, dialog.getByRole('combobox', { name: /^模块/ }), '系统');
    await dialog.getByRole('textbox', { name: /^问题描述/ }).fill(content);
    await dialog.getByRole('textbox', { name: /^优化建议/ }).fill('短信失败时在系统内提醒。');
    const created = waitForCall(page, 'POST', 'api/sysQuestion');
    await dialog.getByRole('button', { name: '确认' }).click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    const id = ((await answer.json()) as { id: number }).id;
    await notice(page, '新增成功').waitFor();
    const row = dataRows(page).filter({ hasText: content.slice(0, 12) });
    await row.waitFor();

    const saved = waitForCall(page, 'PUT', 'api/sysQuestion');
    await row.getByRole('radio', { name: '已处理' }).click();
    expect((await saved).status()).toBe(204);
    await notice(page, '状态修改成功').waitFor();
    await expect.poll(() => row.getByRole('radio', { name: '已处理' }).isChecked()).toBe(true);
    const stored = (await api(product, adminToken, 'GET', `/api/sysQuestion?page=0&size=1&id=${id}`)).json<{
      content: Array<{ status: boolean }>;
    }>();
    expect(stored.content[0].status).toBe(true);

    await row.getByRole('button', { name: '查看' }).click();
    const view = page.getByRole('dialog');
    await view.getByRole('heading', { name: '查看问题反馈' }).waitFor();
    expect(await view.getByRole('textbox', { name: /^问题描述/ }).inputValue()).toBe(content);
  });

  it('系统消息推送 新增: a signed-in colleague sees it in the header notice at once; one signing in later sees it too', async () => {
    guideSays(SERVICE_PAGE, '「系统管理 → 系统消息推送」', '在线的同事会立即在右上角的通知中看到，未在线的下次登录时看到');
    const title = '手册通知：本周六系统升级';
    const online = await windowOf(accountOf(HR_PAGE));
    const page = await windowOf(accountOf(SERVICE_PAGE));
    await openFromMenu(page, '系统消息推送', 'api/sysSocket');
    await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '新增系统消息推送' }).waitFor();
    await dialog.getByRole('textbox', { name: /^标题/ }).fill(title);
    await dialog.getByRole('textbox', { name: /^消息内容/ }).fill('周六22:00至24:00暂停使用。');
    const created = waitForCall(page, 'POST', 'api/sysSocket');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await created).status()).toBe(201);
    await notice(page, '新增成功').waitFor();

    // the colleague online: the header's marquee shows it and the notice drawer lists it
    await online.getByRole('status', { name: '最新消息' }).getByText(title).waitFor();
    await online.getByRole('button', { name: /^系统消息/ }).click();
    await online
      .getByRole('region', { name: '系统消息' })
      .getByRole('button', { name: new RegExp(title) })
      .waitFor();

    // a colleague who signs in afterwards
    const later = await windowOf(accountOf(SALES_PAGE));
    await later.getByRole('button', { name: /^系统消息/ }).click();
    await later
      .getByRole('region', { name: '系统消息' })
      .getByRole('button', { name: new RegExp(title) })
      .waitFor();
  });

  it('系统消息推送 编辑 and 删除: the list and the colleagues’ notices follow', async () => {
    guideSays(SERVICE_PAGE, '也可编辑或删除已发布的消息');
    const made = await api(product, adminToken, 'POST', '/api/sysSocket', {
      title: '手册通知：旧标题',
      msg: '内容',
      type: 1,
      enabled: true,
    });
    expect(made.status, made.body).toBe(201);
    const colleagueToken = await loginAs(product.app, accountOf(HR_PAGE).username, accountOf(HR_PAGE).password);
    const noticesOfColleague = async () =>
      JSON.stringify((await api(product, colleagueToken, 'GET', '/api/sysSocket/getSocket?page=0&size=50')).json());
    const page = await windowOf(accountOf(SERVICE_PAGE));
    await openFromMenu(page, '系统消息推送', 'api/sysSocket');
    await dataRows(page).filter({ hasText: '手册通知：旧标题' }).getByRole('button', { name: '编辑' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '编辑系统消息推送' }).waitFor();
    await dialog.getByRole('textbox', { name: /^标题/ }).fill('手册通知：新标题');
    const saved = waitForCall(page, 'PUT', 'api/sysSocket');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await saved).status()).toBe(204);
    await notice(page, '编辑成功').waitFor();
    const row = dataRows(page).filter({ hasText: '手册通知：新标题' });
    await row.waitFor();
    expect(await noticesOfColleague()).toContain('手册通知：新标题');

    await row.getByRole('button', { name: '删除' }).click();
    const removed = waitForCall(page, 'DELETE', 'api/sysSocket');
    await confirm(page);
    expect((await removed).status()).toBeLessThan(300);
    await row.waitFor({ state: 'detached' });
    expect(await noticesOfColleague()).not.toContain('手册通知：新标题');
  });

  it('系统消息推送: who has read a message is listed from its row (已读人员)', async () => {
    guideSays(SERVICE_PAGE, '可查看每条消息谁已读');
    const made = await api(product, adminToken, 'POST', '/api/sysSocket', {
      title: '手册通知：谁已读',
      msg: '内容',
      type: 1,
      enabled: true,
    });
    expect(made.status, made.body).toBe(201);
    const reader = accountOf(HR_PAGE);
    const readerToken = await loginAs(product.app, reader.username, reader.password);
    const read = await api(product, readerToken, 'PUT', '/api/sysSocket/read', { id: made.json<{ id: number }>().id });
    expect(read.status, read.body).toBe(200);

    const page = await windowOf(accountOf(SERVICE_PAGE));
    await openFromMenu(page, '系统消息推送', 'api/sysSocket');
    const row = dataRows(page).filter({ hasText: '手册通知：谁已读' });
    await row.getByRole('button', { name: '已读人员' }).click();
    const dialog = page.getByRole('dialog', { name: '已读人员：手册通知：谁已读' });
    await dialog.getByRole('table', { name: '已读人员' }).waitFor();
    expect(await dialog.innerText(), 'the readers of the message').toContain(reader.username);
  });

  it('提醒类型 新增 adds a type; 编辑 changes its 提前提醒天数', async () => {
    guideSays(SERVICE_PAGE, '「客服管理 → 提醒类型」', '可「新增」类型，或编辑提前提醒天数、提醒内容模板和状态');
    const name = '手册年检到期提醒';
    const page = await windowOf(accountOf(SERVICE_PAGE));
    await openFromMenu(page, '提醒类型', 'api/kf/kfRemindType');
    await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '新增提醒类型' }).waitFor();
    await dialog.getByRole('textbox', { name: /^类型名称/ }).fill(name);
    await dialog.getByRole('textbox', { name: /^提前提醒天数/ }).fill('3');
    const created = waitForCall(page, 'POST', 'api/kf/kfRemindType');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await created).status()).toBe(201);
    await notice(page, '新增成功').waitFor();
    const row = dataRows(page).filter({ hasText: name });
    await row.waitFor();

    await row.getByRole('button', { name: '编辑' }).click();
    await dialog.getByRole('heading', { name: '编辑提醒类型' }).waitFor();
    await dialog.getByRole('textbox', { name: /^提前提醒天数/ }).fill('7');
    const saved = waitForCall(page, 'PUT', 'api/kf/kfRemindType');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await saved).status()).toBe(204);
    await notice(page, '编辑成功').waitFor();
    await expect.poll(async () => (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim())).toContain('7');
  });
});

describe(`${SALES_PAGE}, its steps taken as its demo account`, () => {
  it('潜客档案 新增 twice with one mobile: the second is a 次线索 (主线索 否)', async () => {
    guideSays(SALES_PAGE, '「销售管理 → 潜客档案」', '就保存为次线索（列表「主线索」一栏显示「否」）');
    const mobile = '13600007001';
    const page = await windowOf(accountOf(SALES_PAGE));
    await openFromMenu(page, '潜客档案', 'api/xs/xsSubmersibleFile');
    // names and mobiles show masked to a consultant: the two leads are told apart by their 意向车型
    const leads = [
      { name: '手册潜客甲', model: '手册车型甲' },
      { name: '手册潜客乙', model: '手册车型乙' },
    ];
    for (const lead of leads) {
      await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: '新增潜客档案' }).waitFor();
      await dialog.getByRole('textbox', { name: /^客户姓名/ }).fill(lead.name);
      await dialog.getByRole('textbox', { name: /^手机号/ }).fill(mobile);
      // the consultant's 本级: their own department is the one offered
      await chooseOption(page, dialog.getByRole('combobox', { name: /^所属公司/ }), '销售部');
      await dialog.getByRole('textbox', { name: /^意向车型/ }).fill(lead.model);
      const created = waitForCall(page, 'POST', 'api/xs/xsSubmersibleFile');
      await dialog.getByRole('button', { name: '确认' }).click();
      expect((await created).status()).toBe(201);
      await notice(page, '新增成功').waitFor();
      await dialog.waitFor({ state: 'detached' });
      await dataRows(page).filter({ hasText: lead.model }).waitFor();
    }
    const headers = (await page.getByRole('table').getByRole('columnheader').allInnerTexts()).map((t) => t.trim());
    const column = headers.indexOf('主线索');
    expect(column, headers.join('|')).toBeGreaterThanOrEqual(0);
    const mainOf = async (model: string) =>
      (await dataRows(page).filter({ hasText: model }).getByRole('cell').nth(column).innerText()).trim();
    expect(await mainOf(leads[0].model)).toBe('是');
    expect(await mainOf(leads[1].model)).toBe('否');
  });

  it('利润数据明细 and 整车结算 导出: each downloads an Excel file of the department’s rows', async () => {
    guideSays(SALES_PAGE, '「销售管理 → 利润数据明细」和「整车结算」', '查询本部门的销售利润和结算数据', '可「导出」Excel');
    // a row of another department on each screen: it must not reach the consultant's file
    const other = await deptIdOf(product, '售后服务部');
    const sales = await deptIdOf(product, '销售部');
    for (const [path, row] of [
      [
        '/api/xs/xsLrSjmx',
        { orgId: other, saleDate: '2026-11-01', brand: '手册品牌', cx: '手册他部车型', salePrice: 100000, costPrice: 90000 },
      ],
      [
        '/api/xsZjs',
        { orgId: other, settleDate: '2026-11-01', customerName: '手册他部', brand: '手册品牌', cx: '手册他部车型', amount: 100000 },
      ],
    ] as const) {
      const res = await api(product, adminToken, 'POST', path, row);
      expect(res.status, res.body).toBe(201);
    }
    const page = await windowOf(accountOf(SALES_PAGE));
    for (const [title, path] of [
      ['利润数据明细', 'api/xs/xsLrSjmx'],
      ['整车结算', 'api/xsZjs'],
    ] as const) {
      await openFromMenu(page, title, path);
      await dataRows(page).first().waitFor();
      const download = pending(page.waitForEvent('download'));
      await page.getByTestId('list-toolbar').getByRole('button', { name: '导出' }).click();
      const file = await download;
      expect(file.suggestedFilename(), title).toMatch(/\.xlsx$/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(await file.path());
      const sheet = book.worksheets[0];
      expect(sheet.rowCount, `${title}: rows of the export`).toBeGreaterThan(1);
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      expect(header.join('|'), title).toContain('车型');
      const company = header.indexOf('所属公司');
      expect(company, `${title}: 所属公司 in ${header.join('|')}`).toBeGreaterThan(0);
      const companies = new Set<string>();
      sheet.eachRow((r, n) => {
        if (n > 1) companies.add(r.getCell(company).text);
      });
      // the file holds the company as its id (the list shows its name)
      expect(
        [...companies].filter((c) => c !== '销售部' && c !== String(sales)),
        title,
      ).toEqual([]);
    }
  });
});
