import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import { loginAs } from './auth-helpers.ts';
import { addCustomer, addMember, createCompany, dealerToken, submitDemand } from './dealer-helpers.ts';

/** The text of every content stream of a PDF (deflated streams inflated). */
function streams(pdf: Buffer): string {
  const out: string[] = [];
  const text = pdf.toString('latin1');
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    const raw = pdf.subarray(start, end);
    try {
      out.push(inflateSync(raw).toString('latin1'));
    } catch {
      out.push(raw.toString('latin1'));
    }
  }
  return out.join('\n');
}

describe.each(testApps())('contracts on %s', (_name, start) => {
  let t: TestApp;
  let admin: string;
  let a: string;
  let b: string;
  let id: number;

  beforeAll(async () => {
    t = await start();
    admin = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
    await createCompany(t.app, admin, 'dealera');
    await createCompany(t.app, admin, 'dealerb');
    a = await dealerToken(t.app, 'dealera');
    b = await dealerToken(t.app, 'dealerb');
    await addMember(t.app, { mobile: '13800000001', surname: '张伟', subscribe: 1 });
    id = await submitDemand(t.app, a, await addCustomer(t.app, a, '13800000001'));
  });
  afterAll(() => t.close());

  it('has no contract before the approval', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/dbc/dbcInfo/viewContract?contract_id=${id}`, headers: bearer(admin) });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('用车申请审核通过后才有合同');
  });

  it('generates an A4 PDF with an embedded CJK font once approved, for staff and the own dealer only', async () => {
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/dbc/dbcInfo', headers: bearer(admin), payload: { id, shStatus: 2 } })).statusCode,
    ).toBe(204);
    const view = await t.app.inject({ method: 'GET', url: `/api/dbc/dbcInfo/viewContract?contract_id=${id}`, headers: bearer(admin) });
    expect(view.statusCode).toBe(200);
    expect(view.headers['content-type']).toBe('application/pdf');
    expect(String(view.headers['content-disposition'])).toMatch(/^inline; /);
    const pdf = view.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const body = pdf.toString('latin1');
    expect(body).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    expect(body).toMatch(/\/FontFile[23]? /);
    expect(body).toContain('/ToUnicode');
    // the ToUnicode map names the Chinese characters drawn: 代 (4EE3) 步 (6B65) 车 (8F66) 合 (5408) 同 (540C)
    const maps = streams(pdf).toUpperCase();
    for (const code of ['4EE3', '6B65', '8F66', '5408', '540C']) expect(maps).toContain(code);
    expect(pdf.length).toBeLessThan(400_000);

    const download = await t.app.inject({
      method: 'GET',
      url: `/api/dbc/dbcInfo/viewOrDownloadContract?contract_id=${id}&type=download`,
      headers: bearer(admin),
    });
    expect(String(download.headers['content-disposition'])).toMatch(/^attachment; /);
    expect(
      errorOf(
        await t.app.inject({
          method: 'GET',
          url: `/api/dbc/dbcInfo/viewOrDownloadContract?contract_id=${id}&type=x`,
          headers: bearer(admin),
        }),
      ).status,
    ).toBe(400);

    const own = await t.app.inject({ method: 'GET', url: `/comp/dbcCompany/downloadContract?contract_id=${id}`, headers: bearer(a) });
    expect(own.statusCode).toBe(200);
    const other = await t.app.inject({ method: 'GET', url: `/comp/dbcCompany/viewContract?contract_id=${id}`, headers: bearer(b) });
    expect(other.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/dbc/dbcInfo/viewContract?contract_id=${id}`, headers: bearer(a) })).statusCode,
    ).toBe(401);
    expect(
      errorOf(await t.app.inject({ method: 'GET', url: '/api/dbc/dbcInfo/viewContract?contract_id=abc', headers: bearer(admin) })).message,
    ).toBe('合同编号必须是正整数');
  });

  it('says the e-signature service is not configured for certificates and signing messages', async () => {
    const cert = await t.app.inject({
      method: 'GET',
      url: `/api/dbc/dbcInfo/invokeFindPersonCert?contract_id=${id}`,
      headers: bearer(admin),
    });
    expect(cert.statusCode).toBe(503);
    expect(errorOf(cert).message).toBe('未配置电子签章服务，暂不支持该操作');
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/dbc/dbcInfo/resendMessage',
      headers: bearer(admin),
      payload: { contract_id: id },
    });
    expect(resend.statusCode).toBe(503);
  });

  it('names the missing font instead of failing', async () => {
    const other = await start({ contractFontPath: '/nonexistent/font.ttf' });
    try {
      const adminToken = await loginAs(other.app, 'admin', ADMIN_PASSWORD);
      await createCompany(other.app, adminToken, 'dealerx');
      const x = await dealerToken(other.app, 'dealerx');
      await addMember(other.app, { mobile: '13800000001', surname: '张伟', subscribe: 1 });
      const rid = await submitDemand(other.app, x, await addCustomer(other.app, x, '13800000001'));
      await other.app.inject({ method: 'PUT', url: '/api/dbc/dbcInfo', headers: bearer(adminToken), payload: { id: rid, shStatus: 2 } });
      const res = await other.app.inject({
        method: 'GET',
        url: `/api/dbc/dbcInfo/viewContract?contract_id=${rid}`,
        headers: bearer(adminToken),
      });
      expect(res.statusCode).toBe(503);
      expect(errorOf(res).message).toBe('合同字体文件不存在，请设置CONTRACT_FONT_PATH');
    } finally {
      await other.close();
    }
  });
});
