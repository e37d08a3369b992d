/**
 * 部门管理 kept in step with WeCom contacts, in a real browser against a fake WeCom server (a real
 * HTTP server answering cgi-bin/gettoken, department/list|create, user/list as WeCom documents them):
 * 同步企业微信部门 asks, works, then shows what it created and linked; 同步到企业微信 creates a
 * department there; the tree shows each department's WeCom id.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, launchBrowser, newPage, openFromMenu, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;
let wecom: Server;
const departments = new Map<number, { id: number; name: string; parentid: number; order: number }>([
  [1, { id: 1, name: '某某汽车集团', parentid: 0, order: 100000000 }],
  [2, { id: 2, name: '企微销售中心', parentid: 1, order: 300 }],
  [3, { id: 3, name: '企微客服中心', parentid: 1, order: 200 }],
]);
let nextId = 50;

beforeAll(async () => {
  wecom = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      const send = (v: object) => res.end(JSON.stringify({ errcode: 0, errmsg: 'ok', ...v }));
      if (u.pathname === '/cgi-bin/gettoken') return send({ access_token: 'T', expires_in: 7200 });
      if (u.searchParams.get('access_token') !== 'T') return res.end(JSON.stringify({ errcode: 40014, errmsg: 'invalid access_token' }));
      if (u.pathname === '/cgi-bin/department/list') return send({ department: [...departments.values()] });
      if (u.pathname === '/cgi-bin/department/create') {
        const body = JSON.parse(raw) as { name: string; parentid: number; order: number };
        const id = nextId++;
        departments.set(id, { id, name: body.name, parentid: body.parentid, order: body.order });
        return send({ id });
      }
      if (u.pathname === '/cgi-bin/user/list') return send({ userlist: [] });
      res.end(JSON.stringify({ errcode: 404, errmsg: 'not found' }));
    });
  });
  await new Promise<void>((resolve) => wecom.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(wecom.address() as AddressInfo).port}`;
  product = await startProduct({
    captchaEnabled: false,
    wecomCorpId: 'ww-e2e',
    wecomAgentId: '1000009',
    wecomSecret: 's',
    wecomApiBase: base,
  });
  browser = await launchBrowser();
  page = await newPage(browser);
  page.setDefaultTimeout(15000);
  await signInAs(page, product, ADMIN);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
  wecom?.close();
});

describe('部门管理 and WeCom', () => {
  it('pulls WeCom departments after a confirmation, shows the result, then creates one in WeCom', async () => {
    await openFromMenu(page, '部门管理', 'api/dept/lazy');
    await page.getByRole('button', { name: '同步企业微信部门' }).click();
    const ask = page.getByRole('dialog', { name: '同步企业微信部门' });
    await ask.getByText('从企业微信拉取部门').waitFor();
    await ask.getByRole('button', { name: '确定' }).click();
    const done = page.getByRole('dialog', { name: '企业微信部门同步完成' });
    await done.getByText('新建（2）：企微销售中心、企微客服中心').waitFor();
    await done.getByText(/^关联（1）/).waitFor();
    // WeCom's root is the enterprise: linked to the top company, which keeps its name
    expect(await done.getByText(/^改名/).count()).toBe(0);
    await shot(page, 'dept-wecom-sync-result');
    await done.getByRole('button', { name: '知道了' }).click();

    // the root is linked to WeCom's root; expand it to see the new departments with their ids
    const root = page.getByRole('row').filter({ hasText: 'ID 1' });
    await root.getByRole('button', { name: '展开' }).click();
    await page.getByRole('row').filter({ hasText: '企微销售中心' }).getByText('ID 2').waitFor();
    const unsynced = page.getByRole('row').filter({ hasText: '未同步' }).first();
    const name = (await unsynced.locator('td').nth(0).innerText()).trim();
    await unsynced.getByRole('button', { name: '同步到企业微信' }).click();
    await page.getByRole('dialog', { name: '同步到企业微信' }).getByRole('button', { name: '确定' }).click();
    const created = page.getByRole('dialog', { name: '已同步到企业微信' });
    await created.getByText(/的企业微信部门ID：50$/).waitFor();
    expect([...departments.values()].find((d) => d.id === 50)).toMatchObject({ parentid: 1 });
    expect(name).toContain(departments.get(50)!.name);
    await created.getByRole('button', { name: '知道了' }).click();
    await shot(page, 'dept-wecom-tree');
  });
});
