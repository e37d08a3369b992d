import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { percentEncode, signedAliyunQuery } from '../../src/server/providers/sms.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { bearer, errorOf, testApps, type TestApp } from './helpers.ts';

const SECRET = 'aliyun-secret';

/** A stand-in for the Aliyun SMS API: checks the signature, answers OK or a refusal per phone. */
async function fakeAliyun() {
  const received: Array<Record<string, string>> = [];
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const params = Object.fromEntries(u.searchParams);
    const { Signature, ...rest } = params;
    const expected = signedAliyunQuery(rest, SECRET).split('&')[0].slice('Signature='.length);
    res.setHeader('content-type', 'application/json');
    if (percentEncode(Signature ?? '') !== expected) {
      res.end(JSON.stringify({ Code: 'SignatureDoesNotMatch', Message: 'bad signature' }));
      return;
    }
    received.push(params);
    res.end(
      JSON.stringify(
        params.PhoneNumbers === '13800000099'
          ? { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控' }
          : { Code: 'OK', Message: 'OK', BizId: '1' },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server, received };
}

describe('provider configuration', () => {
  it('each outside service is either fully configured or not at all', () => {
    expect(() => loadConfig({ SMS_API_URL: 'https://dysmsapi.aliyuncs.com' })).toThrow(/SMS_ACCESS_KEY_ID/);
    expect(() => loadConfig({ SMS_API_URL: 'ftp://x' })).toThrow(/SMS_API_URL/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com:25' })).toThrow(/MAIL_FROM/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail', MAIL_FROM: 'a@b.c' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ WECOM_CORP_ID: 'ww1' })).toThrow(/WECOM_AGENT_ID/);
    expect(() => loadConfig({ LOG_RETENTION_DAYS: '0' })).toThrow(/LOG_RETENTION_DAYS/);
    const c = loadConfig({});
    expect([c.smsApiUrl, c.smtpUrl, c.wecomCorpId, c.logRetentionDays]).toEqual(['', '', '', 180]);
  });

  it('signs Aliyun calls the RPC way (HMAC-SHA1 of the sorted, encoded query)', () => {
    const q = signedAliyunQuery({ B: 'x y', A: '1*' }, 'k');
    const canonical = 'A=1%2A&B=x%20y';
    const sign = createHmac('sha1', 'k&')
      .update(`GET&%2F&${percentEncode(canonical)}`)
      .digest('base64');
    expect(q).toBe(`Signature=${percentEncode(sign)}&${canonical}`);
  });
});

describe.each(testApps())('Aliyun SMS provider on %s', (_name, start) => {
  let t: TestApp;
  let aliyun: Awaited<ReturnType<typeof fakeAliyun>>;
  let auth: Record<string, string>;

  beforeAll(async () => {
    aliyun = await fakeAliyun();
    t = await start({
      smsApiUrl: aliyun.url,
      smsAccessKeyId: 'AK1',
      smsAccessKeySecret: SECRET,
      smsSignName: '车商集团',
      smsTemplateCode: 'SMS_123',
    });
    await createStaff(t.app, { username: 'sun', password: 'Sun@20240', permissions: [] });
    auth = bearer(await loginAs(t.app, 'sun', 'Sun@20240'));
  });
  afterAll(async () => {
    await t?.close();
    aliyun?.server.close();
  });

  it('sends the code through the configured API, not the outbox', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/code/resetPhone', headers: auth, payload: { value: '13800000088' } });
    expect(res.statusCode).toBe(200);
    expect(aliyun.received).toHaveLength(1);
    const call = aliyun.received[0];
    expect(call).toMatchObject({
      Action: 'SendSms',
      PhoneNumbers: '13800000088',
      SignName: '车商集团',
      TemplateCode: 'SMS_123',
      AccessKeyId: 'AK1',
      Version: '2017-05-25',
    });
    expect((JSON.parse(call.TemplateParam) as { code: string }).code).toMatch(/^\d{6}$/);
    const outbox = await t.app.database.db.selectFrom('sys_outbox').selectAll().execute();
    expect(outbox).toHaveLength(0);
  });

  it('a refusal is 验证码发送失败 and the user may ask again at once', async () => {
    const first = await t.app.inject({ method: 'POST', url: '/api/code/resetPhone', headers: auth, payload: { value: '13800000099' } });
    expect(errorOf(first)).toMatchObject({ status: 502, message: '验证码发送失败，请稍后再试' });
    const again = await t.app.inject({ method: 'POST', url: '/api/code/resetPhone', headers: auth, payload: { value: '13800000099' } });
    expect(again.statusCode).toBe(502); // not 429: the failed send did not count
  });

  it('忘记密码 answers alike for a number on file whose SMS fails and for a number not on file', async () => {
    // the provider refuses 13800000099; an account holds that number
    await t.app.database.db.updateTable('sys_user').set({ phone: '13800000099' }).where('username', '=', 'sun').execute();
    const before = aliyun.received.length;
    const answers: Array<{ status: number; body: unknown }> = [];
    for (const phone of ['13800000099', '13800000098']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/sendMsg?phone=${phone}`, remoteAddress: `10.9.9.${answers.length + 1}` });
      answers.push({ status: res.statusCode, body: res.json<Record<string, unknown>>().message });
    }
    expect(answers[0]).toEqual({ status: 200, body: '发送成功，验证码有效期5分钟' });
    expect(answers[1]).toEqual(answers[0]);
    await t.app.verificationCodes.settled();
    // only the number on file reached the provider, after the answer; its failed send freed the slot
    expect(aliyun.received.slice(before).map((p) => p.PhoneNumbers)).toEqual(['13800000099']);
    const again = await t.app.inject({ method: 'GET', url: '/api/sendMsg?phone=13800000099', remoteAddress: '10.9.9.3' });
    expect(again.statusCode).toBe(200);
    await t.app.verificationCodes.settled();
  });
});

/** A minimal SMTP server (no TLS, no auth) that keeps each message it receives. */
async function fakeSmtp() {
  const messages: Array<{ from: string; to: string[]; data: string }> = [];
  const server = createTcpServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          messages.push(current);
          current = { from: '', to: [], data: '' };
          inData = false;
          socket.write('250 OK queued\r\n');
          continue;
        }
        const at = buffer.indexOf('\r\n');
        if (at < 0) return;
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          current.from = line;
          socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') {
          current.to.push(line);
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`, server, messages };
}

describe.each(testApps())('SMTP e-mail provider on %s', (_name, start) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof fakeSmtp>>;

  beforeAll(async () => {
    smtp = await fakeSmtp();
    t = await start({ smtpUrl: smtp.url, mailFrom: 'console@example.com' });
    await createStaff(t.app, { username: 'zhou', password: 'Zhou@2024', permissions: [] });
  });
  afterAll(async () => {
    await t?.close();
    smtp?.server.close();
  });

  it('mails the code through the SMTP server, not the outbox', async () => {
    const auth = bearer(await loginAs(t.app, 'zhou', 'Zhou@2024'));
    const res = await t.app.inject({ method: 'POST', url: '/api/code/resetEmail', headers: auth, payload: { value: 'zhou@example.com' } });
    expect(res.statusCode).toBe(200);
    expect(smtp.messages).toHaveLength(1);
    const [m] = smtp.messages;
    expect(m.from).toContain('console@example.com');
    expect(m.to.join()).toContain('zhou@example.com');
    const split = m.data.indexOf('\r\n\r\n');
    const headers = m.data.slice(0, split);
    const raw = m.data.slice(split + 4);
    const body = /Content-Transfer-Encoding: base64/i.test(headers)
      ? Buffer.from(raw.replace(/\s+/g, ''), 'base64').toString('utf8')
      : /quoted-printable/i.test(headers)
        ? Buffer.from(
            raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8')
        : raw;
    expect(body).toMatch(/您的验证码为：\d{6}，有效期5分钟/);
    expect(await t.app.database.db.selectFrom('sys_outbox').selectAll().execute()).toHaveLength(0);
  });
});
