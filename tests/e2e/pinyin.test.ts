/**
 * Pinyin search in the browser: the 查找菜单 box, a reference picker of a generated form, the
 * model cascader, a dictionary select of a list's filters and the applicant's area picker find
 * Chinese names by initials, full pinyin and mixed forms (polyphonic characters by every
 * reading), with the matched characters marked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, openFromMenu, shot, shotOnFailure, startSignedInAsAdmin, type Product } from './support.ts';
import { pushTree } from '../../src/server/modules/trees/writes.ts';
import type { Created } from '../support/answers.ts';

let product: Product;
let browser: Browser;
let page: Page;
let token: string;

beforeAll(async () => {
  ({ product, browser, page, token } = await startSignedInAsAdmin());
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

const marked = (option: ReturnType<Page['getByRole']>) => option.getByTestId('match').allTextContents();

describe('pinyin search', () => {
  it('查找菜单 finds 用户管理 by yhgl, yonghu and yhguanli, the matched characters marked', async () => {
    await page.getByRole('button', { name: '查找菜单' }).click();
    const box = page.getByRole('combobox', { name: '查找菜单' });
    for (const [query, mark] of [
      ['yonghu', '用户'],
      ['yhguanli', '用户管理'],
      ['YHGL', '用户管理'],
    ] as const) {
      await box.fill(query);
      const option = page.getByRole('option').filter({ hasText: /^用户管理$/ });
      await option.waitFor();
      await expect.poll(() => marked(option)).toEqual([mark]);
    }
    await box.fill('rszp');
    await page
      .getByRole('option')
      .filter({ hasText: /^人事招聘信息$/ })
      .waitFor();
    await shot(page, 'pinyin-menu-search', { fullPage: false });
    await box.press('Enter');
    await page.waitForFunction(() => window.location.hash === '#/staffunZp');
  });

  it('a reference picker finds 销售部 by xsb and xiaoshou, 售后服务部 by shfw', async () => {
    if (!(await page.evaluate(() => window.location.hash === '#/staffunZp'))) {
      await page.evaluate(() => (window.location.hash = '/staffunZp'));
    }
    await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: '新增人事招聘信息' }).waitFor();
    const picker = dialog.getByRole('combobox', { name: /^所属部门/ });
    await picker.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option').first().waitFor();
    const all = await listbox.getByRole('option').count();
    expect(all).toBeGreaterThan(2);

    await picker.fill('shfw');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['售后服务部']);
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['售后服务']);
    await picker.fill('xiaoshou');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toContain('销售部');
    await picker.fill('xsb');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['销售部']);
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['销售部']);
    await shot(page, 'pinyin-picker', { fullPage: false });
    await listbox
      .getByRole('option')
      .filter({ hasText: /^销售部$/ })
      .click();
    expect(await picker.inputValue()).toBe('销售部');
    // the chosen value in the box lists every department again, as a select does
    await picker.click();
    await expect.poll(() => listbox.getByRole('option').count()).toBe(all);
    await page.keyboard.press('Escape');
  });

  it('the model cascader narrows each column by pinyin: 长城 by cc and zc, 一汽解放 by yqjf and yqxf', async () => {
    await pushTree(product.app.database, {
      pid: 0,
      nodes: [
        { name: '长城', children: [{ name: '哈弗H6', children: [{ name: '2025款', children: [{ name: '1.5T 两驱' }] }] }] },
        { name: '重汽', children: [{ name: '豪沃', children: [{ name: '2024款', children: [{ name: '牵引车' }] }] }] },
        { name: '一汽解放', children: [{ name: '解放J6', children: [{ name: '2024款', children: [{ name: '标准版' }] }] }] },
        { name: '红旗', children: [{ name: 'H9', children: [{ name: '2025款', children: [{ name: '旗韵版' }] }] }] },
      ],
    });
    await page.evaluate(() => (window.location.hash = '/brandTree'));
    await page.getByText('车型选择预览').waitFor();
    await page.getByRole('combobox', { name: '车型', exact: true }).click();
    const brands = page.getByRole('listbox', { name: '第1级' });
    await brands.getByRole('option', { name: '长城' }).waitFor();
    const find = page.getByRole('textbox', { name: '查找第1级' });
    for (const [query, names, marks] of [
      ['zc', ['长城'], ['长城']],
      ['changc', ['长城'], ['长城']],
      ['cq', ['重汽'], ['重汽']],
      ['zhongq', ['重汽'], ['重汽']],
      ['yqxf', ['一汽解放'], ['一汽解放']],
      ['yiqijief', ['一汽解放'], ['一汽解放']],
      ['hq', ['红旗'], ['红旗']],
    ] as const) {
      await find.fill(query);
      await expect.poll(() => brands.getByRole('option').allTextContents(), { message: query }).toEqual(names);
      await expect.poll(() => marked(brands.getByRole('option').first())).toEqual(marks);
    }
    await find.fill('yqj');
    await expect.poll(() => marked(brands.getByRole('option').first())).toEqual(['一汽解']);
    await shot(page, 'pinyin-model-cascader', { fullPage: false });
    await find.press('Enter');
    const series = page.getByRole('listbox', { name: '第2级' });
    await series.getByRole('option', { name: '解放J6' }).waitFor();
    await page.getByRole('textbox', { name: '查找第2级' }).fill('jfj');
    await expect.poll(() => marked(series.getByRole('option').first())).toEqual(['解放J']);
    await page.keyboard.press('Escape');
  });

  it('a dictionary select of the filters finds 行政 by hz and xingz, 售后 and 市场 by sh', async () => {
    await openFromMenu(page, '问题反馈', 'api/sysQuestion');
    const module = page.getByRole('combobox', { name: '模块' });
    await module.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: '全部' }).waitFor();
    await module.fill('sh');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['售后', '市场']);
    await module.fill('xingz');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['行政']);
    await module.fill('hz');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['行政']);
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['行政']);
    await shot(page, 'pinyin-dictionary-filter', { fullPage: false });
    const reload = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/sysQuestion' && new URL(r.url()).searchParams.get('model') === '行政',
    );
    await listbox.getByRole('option', { name: '行政' }).click();
    await reload;
    expect(await module.inputValue()).toBe('行政');
  });

  it('a reference filter of a list finds 销售部 by xsb and filters the roster by it', async () => {
    await page.keyboard.press('Escape');
    await page.evaluate(() => (window.location.hash = '/staff'));
    const dept = page.getByRole('combobox', { name: '所属部门' });
    await dept.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: '全部' }).waitFor();
    await dept.fill('xsb');
    await expect.poll(() => listbox.getByRole('option').allTextContents()).toEqual(['销售部']);
    await expect.poll(() => marked(listbox.getByRole('option').first())).toEqual(['销售部']);
    await shot(page, 'pinyin-reference-filter', { fullPage: false });
    const reload = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/staff' && new URL(r.url()).searchParams.has('deptId'));
    await listbox.getByRole('option', { name: '销售部' }).click();
    await reload;
    expect(await dept.inputValue()).toBe('销售部');
  });

  it('the area picker finds 重庆 by cq and zq, 厦门 by xm and sm, and turns the wheels to the choice', async () => {
    const created = await api(product, token, 'POST', '/api/staffunZp', {
      deptId: 1,
      job: '拼音岗位',
      money: '6000元/月',
      address: '郑州市',
      jobNum: 1,
      jobZz: '测试',
      jobYq: '测试',
      enabled: true,
    });
    expect(created.status).toBe(201);
    await page.goto(`${product.url}/#/staffun/view?id=${created.json<Created>().id}`);
    await page.getByRole('link', { name: '我要应聘' }).click();
    await page.getByRole('heading', { name: '应聘人员信息登记表' }).waitFor();
    await page.getByRole('textbox', { name: '现居住地', exact: true }).click();
    const picker = page.getByRole('dialog', { name: '现居住地' });
    const find = picker.getByRole('textbox', { name: '查找地区' });
    const results = picker.getByRole('listbox', { name: '查找结果' });
    for (const [query, first, marks] of [
      ['cq', '重庆市', '重庆'],
      ['zq', '重庆市', '重庆'],
      ['zhongqings', '重庆市', '重庆市'],
      ['xiamen', '福建省 / 厦门市', '厦门'],
      ['smen', '福建省 / 厦门市', '厦门'],
    ] as const) {
      await find.fill(query);
      await results.getByRole('option', { name: first, exact: true }).waitFor();
      await expect
        .poll(() => results.getByRole('option', { name: first, exact: true }).getByTestId('match').allTextContents(), { message: query })
        .toEqual([marks]);
    }
    await find.fill('simingq');
    await results.getByRole('option', { name: '福建省 / 厦门市 / 思明区' }).waitFor();
    await shot(page, 'pinyin-area-picker', { fullPage: false });
    await results.getByRole('option', { name: '福建省 / 厦门市 / 思明区' }).click();
    await picker.getByRole('button', { name: '完成' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: '现居住地', exact: true }).inputValue()).toBe('福建省/厦门市/思明区');
  });
});
