/**
 * axe-core (WCAG 2.1 A and AA, colour contrast included) over the screens people meet: both
 * sign-in pages (the captcha on), the console shell, every generated list with its 新增 dialog
 * (iterating the generated resource specs, so a new schema is covered without editing this
 * file), every screen of 系统管理 in the admin's menu, the dealer portal with its dialogs and each
 * step of the applicant pages. Each must show 0 critical and 0 serious violations. One browser;
 * one page per group.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { resources } from '../../src/generated/resources.ts';
import { createRecord } from '../../src/server/crud/repository.ts';
import { sampleBody } from '../server/sample-records.ts';
import { idCardCheckDigit } from '../../src/shared/validators.ts';
import type { MenuNode } from '../../src/web/staff/shell/menus.ts';
import type { Created } from '../support/answers.ts';
import { axeViolations } from './axe.ts';
import { dataRows } from './list-helpers.ts';
import { ADMIN, api, launchBrowser, newPage, pending, shot, shotOnFailure, startProduct, tokenOf, type Product } from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;
let adminToken: string;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

async function freshPage(viewport?: { width: number; height: number }): Promise<Page> {
  if (page) await page.context().close();
  page = await newPage(browser);
  if (viewport) await page.setViewportSize(viewport);
  page.setDefaultTimeout(15_000);
  return page;
}

/** The answer the server keeps for a captcha (table sys_captcha). */
async function captchaAnswer(uuid: string): Promise<string> {
  const row = await product.app.database.db.selectFrom('sys_captcha').select('answer').where('uuid', '=', uuid).executeTakeFirstOrThrow();
  return String(row.answer);
}

/** Signs the admin in on the staff sign-in page, typing the captcha's answer. */
async function signInWithCaptcha(p: Page): Promise<void> {
  const captcha = pending(p.waitForResponse((r) => new URL(r.url()).pathname === '/api/code'));
  await p.goto(`${product.url}/#/login`);
  const { uuid } = (await (await captcha).json()) as { uuid: string };
  await p.getByRole('textbox', { name: '账号' }).fill(ADMIN.username);
  await p.getByLabel('密码', { exact: true }).fill(ADMIN.password);
  await p.getByRole('textbox', { name: '验证码' }).fill(await captchaAnswer(uuid));
  await p.getByRole('button', { name: '登 录', exact: true }).click();
  await p.waitForURL((url) => !url.hash.startsWith('#/login'));
  const dialog = p.getByRole('dialog', { name: '修改密码' });
  // the admin's default password opens the password dialog once the console shows
  await p.locator('#main-content').waitFor();
  if (await dialog.isVisible()) {
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
}

async function expectClean(name: string, include?: string): Promise<void> {
  expect(await axeViolations(page, include), name).toEqual([]);
}

/** Opens a console route by hash and waits for its first answer on `path` when given. */
async function openRoute(route: string, path?: string): Promise<void> {
  const answer = path
    ? pending(page.waitForResponse((r) => new URL(r.url()).pathname === `/${path}` && r.request().method() === 'GET'))
    : null;
  await page.evaluate((hash) => (window.location.hash = hash), route);
  if (answer) expect((await answer).status()).toBe(200);
}

describe('sign-in pages', () => {
  it('staff sign-in (#/login, captcha on)', async () => {
    await freshPage();
    await page.goto(`${product.url}/#/login`);
    await page.getByRole('img', { name: '验证码' }).waitFor();
    await shot(page, 'a11y-login');
    await expectClean('staff sign-in');
  });

  it('dealer sign-in (#/jxsLogin)', async () => {
    await page.goto(`${product.url}/#/jxsLogin`);
    await page.getByTestId('dealer-login').waitFor();
    await shot(page, 'a11y-dealer-login');
    await expectClean('dealer sign-in');
  });
});

describe('staff console', () => {
  beforeAll(async () => {
    await freshPage();
    await signInWithCaptcha(page);
    adminToken = await tokenOf(page);
  });

  it('the shell (sidebar, header, tags view, home)', async () => {
    await openRoute('/dashboard');
    await page.locator('.RaSidebar-fixed').getByRole('menuitem', { name: '首页' }).waitFor();
    await expectClean('shell');
  });

  it.each(resources.map((spec) => [spec.name, spec] as const))('generated list %s and its 新增 dialog', async (name, spec) => {
    const body = await sampleBody(product.app, adminToken, resources, spec, 0);
    if (spec.actions.includes('add')) {
      const created = await api(product, adminToken, 'POST', `/${spec.path}`, body);
      expect(created.status, created.body).toBe(201);
    } else {
      await createRecord(product.app.database, spec, body, { username: 'admin' });
    }
    await openRoute(`/${name}`, spec.path);
    await page.getByRole('navigation', { name: '面包屑' }).locator('[aria-current="page"]', { hasText: spec.title }).waitFor();
    await dataRows(page).first().waitFor();
    await expectClean(`${name} list`, '#main-content');
    const add = page.locator('#main-content').getByRole('button', { name: '新增' });
    if (!spec.actions.includes('add') || (await add.count()) === 0) return;
    await add.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expectClean(`${name} 新增 dialog`, '[role="dialog"]');
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('every screen of 系统管理', async () => {
    const built = await api(product, adminToken, 'GET', '/api/menus/build');
    const tree = built.json<MenuNode[]>();
    const system = tree.find((n) => n.meta?.title === '系统管理');
    expect(system?.children?.length).toBeGreaterThan(0);
    const screens = (system!.children ?? []).filter((n) => !n.hidden && n.meta && !/^https?:/.test(n.path));
    const failures: string[] = [];
    for (const screen of screens) {
      const route = `/${screen.path.replace(/^\/+/, '')}`;
      await page.evaluate((hash) => (window.location.hash = hash), route);
      await page.getByRole('navigation', { name: '面包屑' }).locator('[aria-current="page"]', { hasText: screen.meta!.title }).waitFor();
      // the screen's first answers
      await page.waitForLoadState('networkidle');
      failures.push(...(await axeViolations(page, '#main-content')).map((line) => `${screen.meta!.title} ${route}: ${line}`));
    }
    expect(failures).toEqual([]);
  });
});

describe('dealer portal', () => {
  beforeAll(async () => {
    await freshPage();
    await page.goto(`${product.url}/#/jxsLogin`);
    await page.getByRole('textbox', { name: '账号' }).fill('jxs001');
    await page.getByLabel(/密码/).fill('Jxs@123456');
    await page.getByRole('button', { name: '登 录' }).click();
    await page.getByTestId('customer-list').waitFor();
  });

  it('用车客户 and its 新增 dialog', async () => {
    await expectClean('dealer customers');
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expectClean('dealer 新增 customer dialog', '[role="dialog"]');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('用车需求', async () => {
    await page.getByTestId('dealer-sidebar').getByRole('button', { name: '用车需求' }).click();
    await page.waitForLoadState('networkidle');
    await expectClean('dealer requests');
  });

  it('代步车用车信息 (#/comp/jxs_dbc)', async () => {
    await page.evaluate(() => (window.location.hash = '/comp/jxs_dbc'));
    await page.waitForLoadState('networkidle');
    await expectClean('dealer car information');
  });
});

describe('applicant steps (#/staffun)', () => {
  const first17 = '41010519960815224';
  const CARD = first17 + idCardCheckDigit(first17);
  let postingId: number;

  beforeAll(async () => {
    const created = await api(product, adminToken, 'POST', '/api/staffunZp', {
      deptId: 1,
      job: '销售顾问',
      money: '6000-9000元/月',
      address: '郑州市金水区',
      jobNum: 3,
      jobZz: '接待到店客户',
      jobYq: '大专以上学历',
      enabled: true,
    });
    expect(created.status).toBe(201);
    postingId = created.json<Created>().id;
    await freshPage({ width: 390, height: 844 });
  });

  it('recruitment information: the list and one posting', async () => {
    await page.goto(`${product.url}/#/staffun/list`);
    await page.getByText('销售顾问').first().waitFor();
    await expectClean('posting list');
    await page.goto(`${product.url}/#/staffun/view?id=${postingId}`);
    await page.getByRole('heading', { name: '销售顾问' }).waitFor();
    await expectClean('posting');
  });

  it('step 1: registration, with its messages and the area picker', async () => {
    await page.goto(`${product.url}/#/staffun?zpId=${postingId}`);
    await page.getByRole('heading', { name: '应聘人员信息登记表' }).waitFor();
    await expectClean('registration');
    await page.getByRole('button', { name: '下一步' }).click();
    await page.getByText('姓名不能为空').first().waitFor();
    await expectClean('registration with messages');
    await page.getByRole('textbox', { name: '现居住地', exact: true }).click();
    const picker = page.getByRole('dialog', { name: '现居住地' });
    await picker.waitFor();
    await expectClean('area picker', '[role="dialog"]');
    await picker.getByRole('button', { name: '完成' }).click();
  });

  it('step 2: education, training and work', async () => {
    const choose = async (label: string, option: string) => {
      await page.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option, exact: true }).click();
    };
    await choose('应聘渠道', '内部推荐');
    await page.getByRole('textbox', { name: '渠道明细' }).fill('同事推荐');
    await page.getByRole('textbox', { name: '姓名' }).fill('周明');
    await page.getByRole('textbox', { name: '手机号码' }).fill('13912345678');
    await page.getByRole('textbox', { name: '身份证号码' }).fill(CARD);
    await expect.poll(() => page.getByRole('textbox', { name: '户籍所在地', exact: true }).inputValue()).toBe('河南省/郑州市/金水区');
    await choose('婚姻状况', '未婚');
    await page.getByRole('textbox', { name: '电子邮箱' }).fill('zhouming@example.com');
    await page.getByRole('textbox', { name: '身份证地址' }).fill('金水区纬五路12号');
    await page.getByRole('textbox', { name: '现居住地址' }).fill('二七区大学路8号');
    await choose('最高学历', '本科');
    await page.getByRole('textbox', { name: '工作年限（年）' }).fill('3');
    await page.getByRole('textbox', { name: '试用期期望薪资（元/月）' }).fill('6000');
    await page.getByRole('textbox', { name: '转正期望薪资（元/月）' }).fill('8000');
    await page.getByRole('textbox', { name: '预计到岗日期' }).fill('2026-12-15');
    await page.getByRole('radio', { name: '是' }).check();
    await page.getByRole('button', { name: '下一步' }).click();
    await page.waitForURL((u) => u.hash.startsWith('#/staffun/education'));
    await page.getByRole('button', { name: '确认填写完毕' }).waitFor();
    await expectClean('education step');
  });

  it('继续填写 and the success page', async () => {
    await page.goto(`${product.url}/#/staffun/resume`);
    await page.getByRole('button', { name: '获取验证码' }).waitFor();
    await expectClean('resume');
    await page.goto(`${product.url}/#/staffun/success`);
    await page.waitForLoadState('networkidle');
    await expectClean('success');
  });
});
