/**
 * Pinyin search walked through in the browser with names the other tests do not use: surnames
 * read their surname way (单 shan, 解 xie, 仇 qiu, 区 ou, 朴 piao, 曾 zeng) and polyphonic places
 * (长沙 cs/zs, 乐清 yq/lq, 蚌埠 bb, 六安 la/luan), by initials, full pinyin, mixed forms, upper
 * case and spaces, in the roster's search, the generated forms' and filters' department pickers,
 * and the hand-built selects of 部门管理, 用户管理 and the brand tree, with the matched characters
 * marked; 用户管理's own user search on the server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, openFromMenu, pending, shot, shotOnFailure, startSignedInAsAdmin, type Product } from './support.ts';
import type { Created } from '../support/answers.ts';
import { dataRows } from './list-helpers.ts';

let product: Product;
let browser: Browser;
let page: Page;
let token: string;

const DEPTS = ['长沙办事处', '乐清分公司', '蚌埠门店', '六安门店'];
const PEOPLE = ['单雄信', '解缙', '仇英', '区寄', '朴槿', '曾国藩'];

beforeAll(async () => {
  ({ product, browser, page, token } = await startSignedInAsAdmin());
  const ids: number[] = [];
  for (const name of DEPTS) {
    const res = await api(product, token, 'POST', '/api/dept', { name, pid: 1, sort: 9, enabled: true });
    expect(res.status).toBe(201);
    ids.push(res.json<Created>().id);
  }
  let n = 0;
  for (const name of PEOPLE) {
    const res = await api(product, token, 'POST', '/api/staff', {
      name,
      mobile: `1330013${String(1000 + n++)}`,
      sex: 1,
      orgId: 1,
      deptId: ids[0],
      job: '顾问',
      entryDate: '2026-01-05',
      status: 1,
    });
    expect(res.status).toBe(201);
  }
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const marked = (option: ReturnType<Page['getByRole']>) => option.getByTestId('match').allTextContents();

/** the names of a list answer for `blurry` */
async function rosterNames(query: string): Promise<string[]> {
  const res = await api(product, token, 'GET', `/api/staff?page=0&size=50&blurry=${encodeURIComponent(query)}`);
  expect(res.status).toBe(200);
  return res.json<{ content: Array<{ name: string }> }>().content.map((r) => r.name);
}

describe('pinyin walk-through', () => {
  it('the roster finds people by the surname reading: initials, full, mixed, upper case, spaces', async () => {
    for (const [query, name] of [
      ['sxx', '单雄信'],
      ['shanxiongxin', '单雄信'],
      ['shanxx', '单雄信'],
      ['sxiongx', '单雄信'],
      ['SHAN xx', '单雄信'],
      ['xiej', '解缙'],
      ['xj', '解缙'],
      ['qiuying', '仇英'],
      ['ouji', '区寄'],
      ['piaoj', '朴槿'],
      ['zgf', '曾国藩'],
      ['zengguofan', '曾国藩'],
      ['单雄', '单雄信'],
    ] as const) {
      expect(await rosterNames(query), query).toContain(name);
    }
    await page.evaluate(() => (window.location.hash = '/staff'));
    const search = page.getByPlaceholder('请输入搜索内容');
    await search.fill('sxiongx');
    await page.getByRole('cell', { name: '单雄信' }).waitFor();
    await expect.poll(() => page.getByRole('cell', { name: '仇英' }).count()).toBe(0);
    await search.fill('Zeng GF');
    await page.getByRole('cell', { name: '曾国藩' }).waitFor();
    await shot(page, 'pinyin-walk-roster', { fullPage: false });
    await search.fill('');
  });

  it("the roster's department filter finds 长沙 by cs and zs, 蚌埠 by bengbu, 六安 by la and luan", async () => {
    const dept = page.getByRole('combobox', { name: '所属部门' });
    await dept.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: '全部' }).waitFor();
    for (const [query, name, mark] of [
      ['csbsc', '长沙办事处', '长沙办事处'],
      ['zhangsha', '长沙办事处', '长沙'],
      ['bengbu', '蚌埠门店', '蚌埠'],
      ['lamd', '六安门店', '六安门店'],
      ['luanm', '六安门店', '六安门'],
      ['yueqing', '乐清分公司', '乐清'],
      ['LQ fgs', '乐清分公司', '乐清分公司'],
    ] as const) {
      await dept.fill(query);
      await expect.poll(() => listbox.getByRole('option').allTextContents(), { message: query }).toEqual([name]);
      await expect.poll(() => marked(listbox.getByRole('option').first()), { message: query }).toEqual([mark]);
    }
    await shot(page, 'pinyin-walk-roster-dept', { fullPage: false });
    await page.keyboard.press('Escape');
  });

  it("调岗's 所属部门 and 岗位类型 take pinyin: 六安门店 by lamd, 服务顾问 by fwgw", async () => {
    const search = page.getByPlaceholder('请输入搜索内容');
    await search.fill('sxx');
    await dataRows(page).filter({ hasText: '单雄信' }).getByRole('button', { name: '调岗', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '调岗：单雄信' });
    const dept = dialog.getByRole('combobox', { name: '所属部门' });
    await dept.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option').first().waitFor();
    await dept.fill('lamd');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['六安门店']);
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['六安门店']);
    await shot(page, 'pinyin-walk-transfer-dept', { fullPage: false });
    await listbox.getByRole('option', { name: '六安门店' }).click();
    const type = dialog.getByRole('combobox', { name: '岗位类型' });
    await type.click();
    await type.fill('fwgw');
    await expect.poll(() => page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['服务顾问']);
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: '取消' }).click();
    await search.fill('');
  });

  it("部门管理's 上级部门 finds 乐清 by yq and lq, the match marked", async () => {
    await openFromMenu(page, '部门管理', 'api/dept/lazy');
    await page.getByRole('table', { name: '部门列表' }).getByText('总公司').waitFor();
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    const parent = dialog.getByRole('combobox', { name: '上级部门' });
    await parent.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: '顶级部门' }).waitFor();
    for (const query of ['yqfgs', 'lqf', 'leqingfengongsi']) {
      await parent.fill(query);
      await expect.poll(() => listbox.getByRole('option').allTextContents(), { message: query }).toEqual(['乐清分公司']);
    }
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['乐清分公司']);
    await shot(page, 'pinyin-walk-dept-parent', { fullPage: false });
    await listbox.getByRole('option', { name: '乐清分公司' }).click();
    expect(await parent.inputValue()).toBe('乐清分公司');
    await dialog.getByRole('button', { name: '取消' }).click();
  });

  it("用户管理's 搜索 finds a nickname by pinyin: 管理员 by gly and guanliyuan", async () => {
    await openFromMenu(page, '用户管理', 'api/users');
    const search = page.getByRole('textbox', { name: '搜索' });
    for (const query of ['gly', 'guanliyuan', 'GL yuan']) {
      await search.fill(query);
      const answer = pending(
        page.waitForResponse((r) => new URL(r.url()).pathname === '/api/users' && new URL(r.url()).searchParams.get('blurry') === query),
      );
      await page.getByRole('button', { name: '搜索', exact: true }).click();
      await answer;
      await expect.poll(() => page.getByRole('row').filter({ hasText: '管理员' }).count(), { message: query }).toBe(1);
    }
    await shot(page, 'pinyin-walk-user-search', { fullPage: false });
    await search.fill('wxyz');
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: '管理员' }).count()).toBe(0);
    await search.fill('');
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    // leave the screen, so that the next test opens it afresh from the menu
    await page.evaluate(() => (window.location.hash = '#/dashboard'));
    await page.waitForFunction(() => window.location.hash === '#/dashboard');
  });

  it("用户管理's 部门 finds 蚌埠门店 by bbmd and bengbum", async () => {
    await openFromMenu(page, '用户管理', 'api/users');
    // the department list beside the users is found by pinyin too
    const side = page.getByRole('region', { name: '部门' }).or(page.locator('[aria-label="部门"]'));
    await side.getByRole('button', { name: '六安门店' }).waitFor();
    for (const [query, mark] of [
      ['la', '六安'],
      ['luanmd', '六安门店'],
      ['LIU an', '六安'],
    ] as const) {
      await page.getByRole('textbox', { name: '查找部门' }).fill(query);
      await expect
        .poll(() => side.getByRole('button', { name: '六安门店' }).getByTestId('match').allTextContents(), { message: query })
        .toEqual([mark]);
      await expect.poll(() => side.getByRole('button', { name: '蚌埠门店' }).count(), { message: query }).toBe(0);
    }
    await shot(page, 'pinyin-walk-user-side-depts', { fullPage: false });
    const filtered = pending(
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/users' && new URL(r.url()).searchParams.has('deptId')),
    );
    await side.getByRole('button', { name: '六安门店' }).click();
    await filtered;
    await page.getByRole('textbox', { name: '查找部门' }).fill('');
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    const dept = dialog.getByRole('combobox', { name: '部门' });
    await dept.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option').first().waitFor();
    for (const query of ['bbmd', 'bengbum', 'BBMenDian']) {
      await dept.fill(query);
      await expect.poll(() => listbox.getByRole('option').allTextContents(), { message: query }).toEqual(['蚌埠门店']);
    }
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['蚌埠门店']);
    await shot(page, 'pinyin-walk-user-dept', { fullPage: false });
    await listbox.getByRole('option', { name: '蚌埠门店' }).click();
    expect(await dept.inputValue()).toBe('蚌埠门店');
    const org = dialog.getByRole('combobox', { name: '公司' });
    await org.click();
    await org.fill('zgs');
    await expect.poll(() => page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['总公司']);
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: '取消' }).click();
  });

  it("角色管理's 自定义 data scope finds its departments by pinyin", async () => {
    await openFromMenu(page, '角色管理', 'api/roles');
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: '数据范围' }).click();
    await page.getByRole('option', { name: /^自定义$/ }).click();
    const scope = dialog.locator('[aria-label="数据权限"]');
    await scope.getByText('长沙办事处').waitFor();
    await dialog.getByRole('textbox', { name: '查找部门' }).fill('zsbsc');
    await expect.poll(() => scope.getByTestId('match').allTextContents()).toEqual(['长沙办事处']);
    await expect.poll(() => scope.getByRole('checkbox').count()).toBe(1);
    await scope.getByRole('checkbox', { name: '长沙办事处' }).check();
    await shot(page, 'pinyin-walk-role-depts', { fullPage: false });
    await dialog.getByRole('button', { name: '取消' }).click();
  });

  it("the brand tree's 所属公司 finds 总公司 by zgs and zonggongsi", async () => {
    await page.evaluate(() => (window.location.hash = '/brandTree'));
    await page.getByRole('button', { name: '新增品牌' }).click();
    const dialog = page.getByRole('dialog', { name: '新增品牌' });
    const company = dialog.getByRole('combobox', { name: '所属公司' });
    await company.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: '集团通用' }).waitFor();
    for (const query of ['zgs', 'zonggongsi', 'zongg']) {
      await company.fill(query);
      await expect.poll(() => listbox.getByRole('option').allTextContents(), { message: query }).toEqual(['总公司']);
    }
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['总公']);
    await shot(page, 'pinyin-walk-brand-company', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: '取消' }).click();
  });
});
