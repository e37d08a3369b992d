/**
 * WeCom QR sign-in in a real browser against a fake WeCom: the QR tab embeds the (fake) WeCom
 * login page built from appid, agentid, state and the console's address; "scanning" there sends
 * the browser back with code and state; the console exchanges them and opens as the bound user.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createStaff } from '../server/auth-helpers.ts';
import { launchBrowser, newPage, shot, shotOnFailure, startProduct, type Product } from './support.ts';

let product: Product;
let browser: Browser;
let page: Page;
let wecom: Server;
let base = '';
const seen: Array<Record<string, string>> = [];

beforeAll(async () => {
  wecom = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/wwlogin') {
      seen.push(Object.fromEntries(u.searchParams));
      const back = new URL(u.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', 'CODE-E2E');
      back.searchParams.set('state', u.searchParams.get('state') ?? '');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><meta charset="utf-8"><body style="font-family:sans-serif;text-align:center"><p>企业微信（模拟）</p><a id="scan" href="${back.toString().replace(/&/g, '&amp;')}" target="_self">模拟扫码确认</a></body>`,
      );
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (u.pathname === '/cgi-bin/gettoken') res.end(JSON.stringify({ errcode: 0, access_token: 'T', expires_in: 7200 }));
    else if (u.pathname === '/cgi-bin/auth/getuserinfo')
      res.end(JSON.stringify(u.searchParams.get('code') === 'CODE-E2E' ? { errcode: 0, userid: 'LiuYang' } : { errcode: 40029 }));
    else res.end('{}');
  });
  await new Promise<void>((resolve) => wecom.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(wecom.address() as AddressInfo).port}`;
  product = await startProduct({
    captchaEnabled: false,
    wecomCorpId: 'ww-e2e',
    wecomAgentId: '1000009',
    wecomSecret: 's',
    wecomApiBase: base,
    wecomLoginUrl: `${base}/wwlogin`,
  });
  const id = await createStaff(product.app, { username: 'liuyang', password: 'Liuyang@2024', permissions: [] });
  await product.app.database.db.updateTable('sys_user').set({ wecom_user_id: 'LiuYang', nick_name: '刘洋' }).where('id', '=', id).execute();
  browser = await launchBrowser();
  page = await newPage(browser);
});

beforeEach(({ task, onTestFailed }) => onTestFailed(() => shotOnFailure(page, task.name)));

afterAll(async () => {
  await browser?.close();
  await product?.close();
  wecom?.close();
});

describe('WeCom QR sign-in', () => {
  it('scanning in the QR panel signs the bound staff member in', async () => {
    await page.goto(`${product.url}/#/login`);
    await page.getByRole('tab', { name: '扫码登录' }).click();
    const frame = page.frameLocator('iframe[title="企业微信扫码登录"]');
    await frame.getByText('企业微信（模拟）').waitFor();
    expect(seen[0]).toMatchObject({ login_type: 'CorpApp', appid: 'ww-e2e', agentid: '1000009', redirect_uri: `${product.url}/` });
    expect(seen[0].state).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    await shot(page, 'login-qr-panel');
    await frame.getByRole('link', { name: '模拟扫码确认' }).click();
    await page.waitForURL(/#\/dashboard/, { timeout: 20_000 });
    expect(new URL(page.url()).search).toBe('');
    await page.getByText('刘洋').first().waitFor();
    await shot(page, 'login-qr-signed-in');
    const row = await product.app.database.db
      .selectFrom('sys_log')
      .selectAll()
      .where('method', '=', 'GET /api/qywxLogin')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: 'liuyang', description: '企业微信扫码登录', log_type: 'INFO' });
  });

  it('a used state cannot sign in again', async () => {
    const other = await newPage(browser);
    const state = seen[0].state;
    await other.goto(`${product.url}/?code=CODE-E2E&state=${state}#/login`);
    await other.getByText('扫码登录已失效，请重新扫码').waitFor();
    expect(new URL(other.url()).search).toBe('');
    await shot(other, 'login-qr-used-state');
    await other.close();
  });
});
