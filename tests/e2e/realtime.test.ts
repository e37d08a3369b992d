/**
 * Realtime in two browsers (two contexts, two signed-in staff members): chat with the unread
 * counter and the 46% drawer; a system message published by one raises the other's badge,
 * shows in the marquee, and opening it marks it read; a socket error shows the persistent notice.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createStaff } from '../server/auth-helpers.ts';
import { resourceByName } from '../../src/generated/resources.ts';
import { insertAll } from '../../src/server/crud/index.ts';
import { launchBrowser, newPage, pending, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';
import { notice } from './list-helpers.ts';
import { elapse } from '../support/wait.ts';

const PASSWORD = 'Passw0rd!x';
const ZHANG = { username: 'zhangsan', password: PASSWORD };
const LI = { username: 'lisi', password: PASSWORD };

let product: Product;
let browser: Browser;
let a: Page;
let b: Page;

// by CSS: while a drawer is open the header is hidden from the accessibility tree
const chatBadge = (page: Page) => page.locator('button[aria-label^="在线用户"] .MuiBadge-badge');
const noticeBadge = (page: Page) => page.locator('button[aria-label^="系统消息"] .MuiBadge-badge');
const badgeText = async (page: Page, which: typeof chatBadge) => {
  const badge = which(page);
  // the badge is drawn only while there is a count
  if (!(await badge.count()) || (await badge.evaluate((el) => el.classList.contains('MuiBadge-invisible')))) return '';
  return (await badge.textContent())?.trim() ?? '';
};

beforeAll(async () => {
  product = await startProduct({ captchaEnabled: false, seedDemo: false, exportAsyncThreshold: 50 });
  await createStaff(product.app, {
    username: ZHANG.username,
    password: PASSWORD,
    permissions: ['sysSocket:list', 'sysSocket:add', 'sysSocket:edit', 'sysSocket:del', 'sysQuestion:list', 'sysQuestion:download'],
  });
  const rows = Array.from({ length: 120 }, (_, i) => ({
    userType: '员工',
    model: '系统',
    title: `反馈${i}`,
    content: `问题描述${i}`,
    status: false,
  }));
  await insertAll(product.app.database, resourceByName.sysQuestion, rows);
  await createStaff(product.app, { username: LI.username, password: PASSWORD, permissions: [] });
  await product.app.database.db.updateTable('sys_user').set({ nick_name: '张三' }).where('username', '=', 'zhangsan').execute();
  await product.app.database.db.updateTable('sys_user').set({ nick_name: '李四' }).where('username', '=', 'lisi').execute();
  browser = await launchBrowser();
  a = await newPage(browser);
  b = await newPage(browser);
  a.setDefaultTimeout(15000);
  b.setDefaultTimeout(15000);
  await signInAs(a, product, ZHANG);
  await signInAs(b, product, LI);
});

beforeEach(({ task, onTestFailed }) =>
  onTestFailed(async () => {
    await shotOnFailure(a, `${task.name}-A`);
    await shotOnFailure(b, `${task.name}-B`);
  }),
);

afterAll(async () => {
  await browser?.close();
  await product?.close();
});

describe('staff chat', () => {
  it("a message from one user raises the other one's counter; opening loads history and clears it; replies append live", async () => {
    await a.getByRole('button', { name: '在线用户' }).click();
    const drawerA = a.getByRole('region', { name: '在线聊天' });
    await drawerA.waitFor();
    const width = await a.evaluate(() => {
      const paper = document.querySelector('[aria-label="在线聊天"]')?.closest('.MuiDrawer-paper') as HTMLElement | null;
      return paper ? paper.getBoundingClientRect().width / window.innerWidth : 0;
    });
    expect(width).toBeGreaterThan(0.45);
    expect(width).toBeLessThan(0.47);
    await drawerA.getByRole('list', { name: '在线用户列表' }).getByText('李四').waitFor();
    // the online staff are found by name or pinyin, the matched characters marked
    const findOnline = drawerA.getByRole('textbox', { name: '查找在线用户' });
    await findOnline.fill('lis');
    await expect.poll(() => drawerA.getByRole('list', { name: '在线用户列表' }).getByTestId('match').allTextContents()).toEqual(['李四']);
    await shot(a, 'realtime-chat-find-online', { fullPage: false });
    await findOnline.fill('qq');
    await drawerA.getByText('没有匹配的用户').waitFor();
    await findOnline.fill('');
    await drawerA.getByRole('list', { name: '在线用户列表' }).getByText('李四').waitFor();
    await drawerA.getByText('暂无聊天记录，发一条消息打个招呼吧').waitFor();

    await drawerA.getByRole('textbox', { name: '消息内容' }).fill('李四你好，今天的周报记得提交');
    const sent = pending(a.waitForResponse((r) => new URL(r.url()).pathname === '/api/sysSocketChat' && r.request().method() === 'POST'));
    await drawerA.getByRole('button', { name: '发送' }).click();
    expect((await sent).status()).toBe(201);
    await drawerA.getByTestId('chat-message').filter({ hasText: '李四你好，今天的周报记得提交' }).waitFor();
    await expect.poll(() => drawerA.getByRole('textbox', { name: '消息内容' }).inputValue()).toBe('');

    // B has the drawer closed: the counter rises
    await expect.poll(() => badgeText(b, chatBadge)).toBe('1');
    await shot(b, 'realtime-chat-unread', { fullPage: false });
    await b.getByRole('button', { name: '在线用户' }).click();
    const drawerB = b.getByRole('region', { name: '在线聊天' });
    await drawerB.getByTestId('chat-message').filter({ hasText: '李四你好，今天的周报记得提交' }).waitFor();
    await expect.poll(() => badgeText(b, chatBadge)).toBe('');
    await drawerB.getByRole('list', { name: '在线用户列表' }).getByText('张三').waitFor();

    // B replies with Enter; A's open drawer appends it without a counter
    await drawerB.getByRole('textbox', { name: '消息内容' }).fill('收到，下午五点前提交');
    await drawerB.getByRole('textbox', { name: '消息内容' }).press('Enter');
    await drawerA.getByTestId('chat-message').filter({ hasText: '收到，下午五点前提交' }).waitFor();
    expect(await badgeText(a, chatBadge)).toBe('');
    await shot(a, 'realtime-chat-drawer', { fullPage: false });
    await shot(b, 'realtime-chat-drawer-other', { fullPage: false });
    await a.getByRole('region', { name: '在线聊天' }).getByRole('button', { name: '关闭' }).click();
    await b.getByRole('region', { name: '在线聊天' }).getByRole('button', { name: '关闭' }).click();
    await drawerB.waitFor({ state: 'detached' });
  });
});

describe('system messages', () => {
  it("a notice published on the 系统消息推送 screen raises the other user's badge and marquee; opening it marks it read", async () => {
    expect(await badgeText(b, noticeBadge)).toBe('');
    await a.evaluate(() => (window.location.hash = '/sysSocket'));
    const toolbar = a.getByTestId('list-toolbar');
    await toolbar.getByRole('button', { name: '新增' }).click();
    const dialog = a.getByRole('dialog');
    await dialog.getByRole('heading', { name: '新增系统消息推送' }).waitFor();
    await dialog.getByRole('textbox', { name: /^标题/ }).fill('周末系统升级通知');
    await dialog
      .getByRole('textbox', { name: /^消息内容/ })
      .fill('本周六22:00至24:00系统升级，<b>期间暂停使用</b><script>alert(1)</script>');
    await shot(a, 'realtime-notice-dialog', { fullPage: false });
    const created = pending(a.waitForResponse((r) => new URL(r.url()).pathname === '/api/sysSocket' && r.request().method() === 'POST'));
    await dialog.getByRole('button', { name: '确认' }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    expect(((await response.json()) as { msg: string }).msg).not.toContain('script');
    await notice(a, '新增成功').waitFor();
    await a.getByRole('table').getByText('周末系统升级通知').waitFor();
    await shot(a, 'realtime-notice-admin-list');

    // B: the badge rises by one and the marquee shows the message
    await expect.poll(() => badgeText(b, noticeBadge)).toBe('1');
    const marquee = b.getByRole('status', { name: '最新消息' });
    await marquee.getByText('周末系统升级通知').waitFor();
    expect(await marquee.textContent()).toContain('期间暂停使用');
    await shot(b, 'realtime-notice-badge', { fullPage: false });

    await b.getByRole('button', { name: '系统消息' }).click();
    const drawer = b.getByRole('region', { name: '系统消息' });
    const item = drawer.getByRole('button', { name: /周末系统升级通知/ });
    await item.waitFor();
    expect(await item.getAttribute('data-status')).toBe('0');
    const weight = await item
      .locator('p')
      .first()
      .evaluate((el) => getComputedStyle(el).fontWeight);
    expect(Number(weight)).toBeGreaterThanOrEqual(700);
    await shot(b, 'realtime-notice-drawer-unread', { fullPage: false });
    const read = pending(b.waitForResponse((r) => new URL(r.url()).pathname === '/api/sysSocket/read'));
    await item.click();
    expect((await read).status()).toBe(200);
    await drawer.getByText('期间暂停使用').waitFor();
    await expect.poll(() => badgeText(b, noticeBadge)).toBe('');
    expect(await item.getAttribute('data-status')).toBe('1');
    expect(
      Number(
        await item
          .locator('p')
          .first()
          .evaluate((el) => getComputedStyle(el).fontWeight),
      ),
    ).toBeLessThan(700);
    await shot(b, 'realtime-notice-drawer-read', { fullPage: false });
    await drawer.getByRole('button', { name: '关闭' }).click();

    // the marquee closes and stays closed for that message
    await marquee.getByRole('button', { name: '关闭通知' }).click();
    await marquee.waitFor({ state: 'detached' });
    // A still has it unread: read state is per user
    await expect.poll(() => badgeText(a, noticeBadge)).toBe('1');
  });

  it('an export above the threshold runs in the background: the progress dialog shows the EXCEL messages and the file downloads', async () => {
    await a.evaluate(() => (window.location.hash = '/sysQuestion'));
    await a.getByRole('table').getByText('反馈119').waitFor();
    const download = pending(a.waitForEvent('download', { timeout: 20_000 }));
    const answer = pending(a.waitForResponse((r) => new URL(r.url()).pathname === '/api/sysQuestion/download'));
    await a.getByTestId('list-toolbar').getByRole('button', { name: '导出' }).click();
    expect((await answer).status()).toBe(299);
    const dialog = a.getByRole('dialog', { name: '导入导出进度' });
    await dialog.getByText('问题反馈数据开始导出，共120条').waitFor();
    await dialog.getByText('问题反馈数据导出完成，共120条，正在下载').waitFor();
    const file = await download;
    expect(file.suggestedFilename()).toBe('问题反馈数据.xlsx');
    await dialog.getByRole('button', { name: '重新下载' }).waitFor();
    await shot(a, 'realtime-export-progress', { fullPage: false });
    await dialog.getByRole('button', { name: '关闭' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('a socket that cannot reach the server shows the persistent notice WebSocket连接发生错误', async () => {
    // the connections drop without a close handshake, and the sessions are gone: every retry is refused
    await product.app.database.db.deleteFrom('sys_session').execute();
    for (const client of product.app.websocketServer.clients) client.terminate();
    await notice(b, 'WebSocket连接发生错误').waitFor({ timeout: 20_000 });
    await elapse(3000); // a spell in which the notice must not close by itself
    expect(await notice(b, 'WebSocket连接发生错误').isVisible()).toBe(true);
    await shot(b, 'realtime-socket-error', { fullPage: false });
  });
});
