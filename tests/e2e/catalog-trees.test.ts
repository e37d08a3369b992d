/**
 * Brand tree, model cascader, scheduled jobs and help pages in a real browser, signed in as
 * admin on a product with the demo data: a series added, edited and deleted through the
 * per-level dialogs (a node with children is refused), the cascader's level rule, a job run
 * now (执行成功) with its log, paused, and the help page of the jobs screen.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, openFromMenu, pending, shot, shotOnFailure, type Product, startSignedInAsAdmin } from './support.ts';
import { chooseOption, dataRows, notice, waitForCall } from './list-helpers.ts';
import type { Page as AnswerPage, Row } from '../support/answers.ts';

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

const nodeRow = (name: string) => page.locator('[data-testid^="node-"]').filter({ has: page.getByText(name, { exact: true }) });

/** Goes to a console route in the open page (a hash change, as a menu click does). */
async function go(route: string): Promise<void> {
  await page.evaluate((r) => {
    window.location.hash = r;
  }, route);
}

async function openBrandTree(): Promise<void> {
  if (!page.url().endsWith('#/brandTree')) {
    const loaded = waitForCall(page, 'GET', 'api/brandTree/getTreeByPid', (q) => q.get('pid') === '0');
    await go('/brandTree');
    expect((await loaded).status()).toBe(200);
  }
  await nodeRow('大众').waitFor();
}

describe('brand tree (品牌车型)', () => {
  it('shows the demo brands and loads children lazily', async () => {
    await openBrandTree();
    for (const brand of ['大众', '丰田', '比亚迪', '宝马']) await expect(nodeRow(brand).isVisible()).resolves.toBe(true);
    await expect(nodeRow('大众').getByText('合资 · 中端合资 · 德国').isVisible()).resolves.toBe(true);
    expect(await page.getByText('朗逸', { exact: true }).count()).toBe(0);
    const children = waitForCall(page, 'GET', 'api/brandTree/getTreeByPid', (q) => q.get('pid') !== '0');
    await page.getByRole('button', { name: '展开大众' }).click();
    await children;
    await nodeRow('朗逸').waitFor();
    await page.getByRole('button', { name: '展开朗逸' }).click();
    await nodeRow('2024款 1.5L').waitFor();
    await page.getByRole('button', { name: '展开2024款 1.5L' }).click();
    await nodeRow('1.5L 自动新逸版').waitFor();
    await page.getByRole('button', { name: '展开1.5L 自动新逸版' }).click();
    await nodeRow('舒适包').waitFor();
    await shot(page, 'brand-tree-expanded');
  });

  it('the brand dialog offers the brand enumerations and the company', async () => {
    await page.getByRole('button', { name: '新增品牌' }).click();
    const dialog = page.getByRole('dialog', { name: '新增品牌' });
    await dialog.waitFor();
    for (const label of ['品牌名称', '所属公司', '品牌性质', '品牌档次', '品牌国别']) await dialog.getByLabel(label).first().waitFor();
    await dialog.getByLabel('所属公司').click();
    await page.getByRole('option', { name: '总公司' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.getByLabel('品牌性质').click();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['未设置', '自主', '合资', '进口', '独资']);
    await page.keyboard.press('Escape');
    await shot(page, 'brand-tree-brand-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('adds a series through its level dialog, edits it, and deletes it; a node with children is refused', async () => {
    await nodeRow('比亚迪').getByRole('button', { name: '新增车系' }).click();
    const dialog = page.getByRole('dialog', { name: '新增车系' });
    await dialog.waitFor();
    // the series dialog offers the series enumerations only
    await expect(dialog.getByLabel('燃油类型').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: '确定' }).click();
    await expect(dialog.getByText('名称不能为空').first().isVisible()).resolves.toBe(true);
    await dialog.getByLabel('车系名称').fill('海豹');
    await chooseOption(page, dialog.getByLabel('车身类型'), '轿车');
    await chooseOption(page, dialog.getByLabel('车辆级别'), 'B');
    await shot(page, 'brand-tree-series-dialog', { fullPage: false });
    const created = waitForCall(page, 'POST', 'api/brandTree/createTrain');
    await dialog.getByRole('button', { name: '确定' }).click();
    expect((await created).status()).toBe(201);
    await notice(page, '新增成功').waitFor();
    await nodeRow('海豹').waitFor();
    await expect(nodeRow('海豹').getByText('轿车 · B').isVisible()).resolves.toBe(true);
    const found = (await api(product, token, 'GET', `/api/brandTree/findTree?name=${encodeURIComponent('海豹')}`)).json<Row[]>();
    expect(found[0]).toMatchObject({ path: ['比亚迪', '海豹'], kind: 'series', bodyType: '轿车', carClass: 'B', level: 2 });

    await page.getByRole('button', { name: '编辑海豹' }).click();
    const edit = page.getByRole('dialog', { name: '编辑车系' });
    await edit.getByLabel('车系名称').fill('海豹06');
    const updated = waitForCall(page, 'PUT', 'api/brandTree/updateTrain');
    await edit.getByRole('button', { name: '确定' }).click();
    expect((await updated).status()).toBe(204);
    await notice(page, '编辑成功').waitFor();
    await nodeRow('海豹06').waitFor();

    // 大众 has series: refused with the server's message, the confirm stays
    await page.getByRole('button', { name: '删除大众' }).click();
    await page.getByText('确定删除本条数据吗？').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await page.getByText('「大众」下存在子节点，不能删除，请先删除其子节点').waitFor();
    await shot(page, 'brand-tree-delete-refused', { fullPage: false });
    await page.getByRole('dialog').getByRole('button', { name: '取消' }).click();

    await page.getByRole('button', { name: '删除海豹06' }).click();
    const deleted = waitForCall(page, 'DELETE', 'api/brandTree');
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    expect((await deleted).status()).toBe(200);
    await notice(page, '删除成功').waitFor();
    await nodeRow('海豹06').waitFor({ state: 'detached' });
    expect((await api(product, token, 'GET', `/api/brandTree/findTree?name=${encodeURIComponent('海豹')}`)).json()).toEqual([]);
  });
});

describe('model cascader', () => {
  it('clears a pick above the configuration level with the message, and keeps a configuration', async () => {
    await openBrandTree();
    const field = page.getByLabel('车型', { exact: true });
    await field.click();
    await page.getByRole('option', { name: '大众' }).click();
    await page.getByRole('option', { name: '朗逸' }).click();
    await page.getByRole('option', { name: '2024款 1.5L' }).click();
    await page.getByRole('listbox', { name: '第4级' }).waitFor();
    await shot(page, 'cascader-open', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.getByText('请选择到车型配置（第4级）').waitFor();
    expect(await field.inputValue()).toBe('');
    await shot(page, 'cascader-level-required');

    await field.click();
    await page.getByRole('option', { name: '比亚迪' }).click();
    await page.getByRole('option', { name: '汉' }).click();
    await page.getByRole('option', { name: '2024款 EV' }).click();
    await page.getByRole('option', { name: 'EV 荣耀版 506KM 尊贵型' }).click();
    await page.getByTestId('cascader-result').getByText('userCarType：比亚迪/汉/2024款 EV').waitFor();
    expect(await field.inputValue()).toBe('比亚迪 / 汉 / 2024款 EV / EV 荣耀版 506KM 尊贵型');
    expect(await page.getByText('请选择到车型配置（第4级）').count()).toBe(0);
    await shot(page, 'cascader-picked');
  });
});

describe('scheduled jobs (定时任务)', () => {
  it('runs a job now (执行成功), shows its log, pauses it; the help button opens the screen help', async () => {
    await openFromMenu(page, '定时任务', 'api/dj');
    const row = dataRows(page).filter({ hasText: '清理过期验证码' });
    await row.waitFor();
    const headers = (await page.getByRole('table').getByRole('columnheader').allTextContents()).map((t) => t.trim()).filter(Boolean);
    expect(headers).toEqual(expect.arrayContaining(['任务名称', 'Bean名称', '执行方法', '参数', 'Cron表达式', '状态', '描述']));
    await shot(page, 'jobs-list');

    const exec = waitForCall(page, 'PUT', 'api/jobs/exec/' + (await jobId('purgeExpiredCaptchas')));
    await row.getByRole('button', { name: '执行' }).click();
    expect((await exec).status()).toBe(200);
    await notice(page, '执行成功').waitFor();

    await row.getByRole('button', { name: '日志' }).click();
    const log = page.getByRole('dialog', { name: /执行日志/ });
    await log.getByRole('table', { name: '执行日志' }).waitFor();
    await expect(log.getByText('手动执行').first().isVisible()).resolves.toBe(true);
    await expect(log.getByText('成功', { exact: true }).first().isVisible()).resolves.toBe(true);
    await expect(
      log
        .getByText(/删除过期验证码 \d+ 条/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    await shot(page, 'jobs-log-dialog', { fullPage: false });
    await log.getByRole('button', { name: '关闭' }).click();

    await row.getByRole('button', { name: '暂停' }).click();
    const pause = waitForCall(page, 'PUT', `api/jobs/${await jobId('purgeExpiredCaptchas')}`);
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    expect((await pause).status()).toBe(200);
    await notice(page, '暂停成功').waitFor();
    await row.getByText('已暂停').waitFor();
    await row.getByRole('button', { name: '恢复' }).waitFor();
    await shot(page, 'jobs-paused');

    const help = pending(page.waitForResponse((r) => new URL(r.url()).pathname === '/api/menuPage' && r.request().method() === 'GET'));
    // the app bar hides while the page is scrolled down
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: '页面帮助' }).click();
    expect((await help).status()).toBe(200);
    await page.getByText('定时任务使用说明').waitFor();
    await expect(page.getByText('Cron 表达式').first().isVisible()).resolves.toBe(true);
    await shot(page, 'help-page-jobs');
  });

  it('adds a job by picking a registered function; a bad cron expression is refused by name', async () => {
    const list = waitForCall(page, 'GET', 'api/dj');
    await go('/dj');
    await list;
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('list-toolbar').getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('选择已注册的任务方法').waitFor();
    await chooseOption(page, dialog.getByLabel('选择已注册的任务方法'), '清理任务日志（jobMaintenance.purgeJobLogs）');
    expect(await dialog.getByLabel('Bean名称').inputValue()).toBe('jobMaintenance');
    expect(await dialog.getByLabel('执行方法').inputValue()).toBe('purgeJobLogs');
    await dialog.getByLabel('任务名称').fill('清理一周前日志');
    await dialog.getByLabel('参数').fill('7');
    await dialog.getByLabel('Cron表达式').fill('0 0 25 * * ?');
    const refused = waitForCall(page, 'POST', 'api/dj');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await refused).status()).toBe(400);
    await page.getByText('Cron表达式不正确：0 0 25 * * ?').waitFor();
    await shot(page, 'jobs-bad-cron', { fullPage: false });
    await dialog.getByLabel('Cron表达式').fill('0 0 4 * * ?');
    const created = waitForCall(page, 'POST', 'api/dj');
    await dialog.getByRole('button', { name: '确认' }).click();
    expect((await created).status()).toBe(201);
    await notice(page, '新增成功').waitFor();
    await dataRows(page).filter({ hasText: '清理一周前日志' }).waitFor();
    const rows = (await api(product, token, 'GET', '/api/dj?page=0&size=50')).json<AnswerPage>().content;
    expect(rows.find((r) => r.money === '清理一周前日志')).toMatchObject({
      project: 'jobMaintenance',
      methodName: 'purgeJobLogs',
      params: '7',
      cronExpression: '0 0 4 * * ?',
      isPause: false,
    });
  });

  it("the job description page shows the sanitised description of the user's position", async () => {
    await go('/jobDescription');
    await page.getByText('系统管理员').waitFor();
    await expect(page.getByText('我的岗位').isVisible()).resolves.toBe(true);
    await shot(page, 'job-description');
  });
});

async function jobId(method: string): Promise<number> {
  const rows = (await api(product, token, 'GET', '/api/dj?page=0&size=50')).json<AnswerPage<{ id: number; methodName: string }>>().content;
  return rows.find((r) => r.methodName === method)!.id;
}
