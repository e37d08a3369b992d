/**
 * 企业微信审批 in the 用车需求 processing dialog, in a real browser against a fake WeCom server
 * (cgi-bin/gettoken and cgi-bin/oa/getapprovaldetail as WeCom documents them): the approval number
 * is synced, the demand is audited as WeCom decided, and the open dialog shows the demand as stored now.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, launchBrowser, newPage, openFromMenu, shot, shotOnFailure, signInAs, startProduct, type Product } from './support.ts';
import { ADMIN_PASSWORD } from '../server/helpers.ts';
import { loginAs } from '../server/auth-helpers.ts';
import { addCustomer, addMember, createCompany, dealerToken, submitDemand } from '../server/dealer-helpers.ts';
import { dataRows } from './list-helpers.ts';

let product: Product;
let browser: Browser;
let page: Page;
let wecom: Server;
let demandId = 0;

beforeAll(async () => {
  wecom = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (u.pathname === '/cgi-bin/gettoken') return res.end(JSON.stringify({ errcode: 0, access_token: 'APP', expires_in: 7200 }));
      if (u.pathname === '/cgi-bin/oa/getapprovaldetail' && u.searchParams.get('access_token') === 'APP') {
        const { sp_no } = JSON.parse(raw) as { sp_no: string };
        if (sp_no !== '202611250001') return res.end(JSON.stringify({ errcode: 301025, errmsg: 'sp_no not exist' }));
        return res.end(
          JSON.stringify({
            errcode: 0,
            errmsg: 'ok',
            info: {
              sp_no,
              sp_name: '代步车用车审批',
              sp_status: 2,
              apply_time: 1764000000,
              applyer: { userid: 'wangjl', partyid: '2' },
              sp_record: [
                {
                  sp_status: 2,
                  approverattr: 1,
                  details: [{ approver: { userid: 'zhaozong' }, speech: '同意', sp_status: 2, sptime: 1764000100 }],
                },
              ],
              apply_data: { contents: [] },
              comments: [],
            },
          }),
        );
      }
      res.end(JSON.stringify({ errcode: 404, errmsg: 'not found' }));
    });
  });
  await new Promise<void>((resolve) => wecom.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(wecom.address() as AddressInfo).port}`;
  product = await startProduct({
    captchaEnabled: false,
    seedDemo: false,
    wecomCorpId: 'ww-e2e',
    wecomAgentId: '1000009',
    wecomSecret: 's',
    wecomApiBase: base,
  });
  const admin = await loginAs(product.app, 'admin', ADMIN_PASSWORD);
  await createCompany(product.app, admin, 'wxdealer');
  const dealer = await dealerToken(product.app, 'wxdealer');
  await addMember(product.app, { mobile: '13800000021', surname: '周杰', subscribe: 1 });
  demandId = await submitDemand(product.app, dealer, await addCustomer(product.app, dealer, '13800000021'));
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

describe('企业微信审批 of a car-use demand', () => {
  it('syncs an approval number from the demand dialog and shows the result there', async () => {
    await openFromMenu(page, '用车需求', 'api/dbc/dbcInfo');
    const row = dataRows(page).filter({ hasText: '用车申请审核中' });
    await row.getByRole('checkbox').check();
    const edit = page.getByTestId('list-toolbar').getByRole('button', { name: '修改' });
    await expect.poll(() => edit.isEnabled()).toBe(true);
    await edit.click();
    const dialog = page.getByRole('dialog');
    const panel = dialog.getByTestId('wecom-approval');
    await panel.waitFor();
    await panel.getByRole('textbox', { name: '审批单号' }).fill('202611250001');
    await panel.getByRole('button', { name: '同步审批结果' }).click();
    await panel.getByText(/审批单 202611250001（代步车用车审批）：已通过。已按企业微信审批结果审核通过/).waitFor();
    await panel.getByText(/当前状态：用车申请已通过。用车需求已按审批结果更新$/).waitFor();
    // the open dialog shows the demand as stored now: its status, its audit state, the contract of an approved demand, no audit choice
    const summary = dialog.getByTestId('dbc-summary');
    await summary.getByText('用车申请已通过').waitFor();
    await summary.getByText('用车申请审核中').waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: '查看合同' }).waitFor();
    expect(await dialog.getByText('审核结果').count()).toBe(0);
    await shot(page, 'dbc-wecom-approval', { fullPage: false });
    const row2 = await product.app.database.db
      .selectFrom('dbc_info')
      .select(['status', 'sh_status'])
      .where('id', '=', demandId)
      .executeTakeFirstOrThrow();
    expect([Number(row2.status), Number(row2.sh_status)]).toEqual([2, 2]);
    // closed, the list shows the new status
    await dialog.getByRole('button', { name: '取消' }).click();
    await dataRows(page).filter({ hasText: '用车申请已通过' }).first().waitFor();
  });
});
