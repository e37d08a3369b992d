/**
 * The edge of the server against hostile clients:
 * - every import route answers empty, broken, encrypted and bomb files 400 in Chinese, quickly;
 * - the client address is the socket's unless a proxy is trusted (TRUST_PROXY);
 * - security headers on pages and API answers;
 * - prototype keys as sort keys are a 400 on hand-written lists;
 * - a handler that outlives REQUEST_TIMEOUT_SECONDS is answered 503.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRequestDeadline, REQUEST_TIMED_OUT } from '../../src/server/request-deadline.ts';
import { routeCatalogue } from '../../src/server/auth/index.ts';
import { encryptPassword, loginAs, publicKeyOf } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { ErrorBody } from '../support/answers.ts';
import { multipartFile, XLSX_TYPE } from './multipart.ts';
import { hostileImportFiles } from './zip-fixtures.ts';
import { elapse } from '../support/wait.ts';

const UNPACK_LIMIT = 4 * 1024 * 1024;

describe.each(testApps())('hostile input at the edge on %s', (_name, start) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await start({ importMaxUnpackedBytes: UNPACK_LIMIT });
    token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('every import route answers empty, truncated, non-zip, encrypted and bomb files 400 in Chinese within 2 s', async () => {
    const imports = routeCatalogue(t.app).filter((r) => r.method === 'POST' && r.url.endsWith('/import'));
    expect(imports.length).toBeGreaterThan(10);
    const files = hostileImportFiles(64 * 1024 * 1024);
    expect(files.bomb.length).toBeLessThan(200 * 1024);
    const wrong: string[] = [];
    for (const r of imports) {
      for (const [name, content] of Object.entries(files)) {
        const began = Date.now();
        const body = multipartFile(`${name}.xlsx`, content, XLSX_TYPE);
        const res = await t.app.inject({
          method: 'POST',
          url: r.url,
          headers: { ...bearer(token), ...body.headers },
          payload: body.payload,
        });
        const ms = Date.now() - began;
        if (res.statusCode !== 400 || !/[\u4e00-\u9fff]/.test(res.json<ErrorBody>().message) || ms > 2000)
          wrong.push(`${r.url} ${name} -> ${res.statusCode} in ${ms} ms ${res.body.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('names the cause: empty, encrypted, too large when unpacked', async () => {
    const files = hostileImportFiles(64 * 1024 * 1024);
    const msg = async (name: string) => {
      const body = multipartFile(`${name}.xlsx`, files[name], XLSX_TYPE);
      return (
        await t.app.inject({
          method: 'POST',
          url: '/api/sysQuestion/import',
          headers: { ...bearer(token), ...body.headers },
          payload: body.payload,
        })
      ).json<ErrorBody>().message;
    };
    expect(await msg('empty')).toBe('上传的文件是空的');
    expect(await msg('password-protected')).toBe('文件已加密，请取消密码后再上传');
    expect(await msg('encrypted-entries')).toBe('文件已加密，请取消密码后再上传');
    expect(await msg('bomb')).toBe('文件解压后超过 4MB，请拆分后再导入');
    expect(await t.app.database.db.selectFrom('sys_question').select('id').execute()).toEqual([]);
  });

  it('hand-written lists refuse prototype keys as sort keys with 400', async () => {
    const wrong: string[] = [];
    const lists = routeCatalogue(t.app).filter((r) => r.method === 'GET' && !r.url.includes(':') && !r.url.includes('*') && !r.identity);
    for (const r of lists) {
      for (const q of ['sort=__proto__', 'sort=constructor', 'sort=__proto__,desc', 'sort=toString,asc', 'sort=hasOwnProperty']) {
        const res = await t.app.inject({ method: 'GET', url: `${r.url}?${q}`, headers: bearer(token) });
        if (res.statusCode >= 500) wrong.push(`${r.url}?${q} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    for (const url of ['/api/users', '/api/roles', '/api/dict']) {
      const res = await t.app.inject({ method: 'GET', url: `${url}?sort=__proto__`, headers: bearer(token) });
      expect(res.statusCode, url).toBe(400);
    }
  }, 120_000);

  it('security headers on API answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/code' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("'unsafe-inline' 'unsafe-eval'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // only the WeCom sign-in answer may be framed, and only by this origin's own QR frame
    const callback = await t.app.inject({ method: 'GET', url: '/?code=C&state=S' });
    expect(String(callback.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    expect(callback.headers['x-frame-options']).toBe('SAMEORIGIN');
    const page = await t.app.inject({ method: 'GET', url: '/?code=C' });
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('the same fixed security headers on every answer: 200, 401, 403, 404 and refused input alike', async () => {
    const expected: Record<string, unknown> = {
      'content-security-policy': expect.stringContaining("default-src 'self'") as unknown,
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const first = await t.app.inject({ method: 'GET', url: '/api/code' });
    for (const url of ['/api/code', '/api/sysQuestion', '/api/no-such-route', '/api/users?sort=__proto__']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers, url).toMatchObject(expected);
      expect(res.headers['content-security-policy'], url).toBe(first.headers['content-security-policy']);
    }
  });
});

describe.each(testApps())('the client address on %s', (_name, start) => {
  const badLogin = async (app: TestApp['app'], forwardedFor?: string) => {
    const key = await publicKeyOf(app);
    return app.inject({
      method: 'POST',
      url: '/api/login',
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      payload: { username: 'nobody', password: encryptPassword(key, 'wrong'), code: '', uuid: '' },
    });
  };

  it('without TRUST_PROXY, X-Forwarded-For does not lift the sign-in limit', async () => {
    const t = await start();
    try {
      let res = await badLogin(t.app, '10.0.0.0');
      for (let i = 1; i < 61; i++) res = await badLogin(t.app, `10.0.0.${i}`);
      expect(res.statusCode).toBe(429);
      expect((await badLogin(t.app, '9.9.9.9')).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('with the proxy trusted, each forwarded client is counted on its own', async () => {
    const t = await start({ trustProxy: ['127.0.0.1'] });
    try {
      let res = await badLogin(t.app, '10.0.0.1');
      for (let i = 1; i < 61; i++) res = await badLogin(t.app, '10.0.0.1');
      expect(res.statusCode).toBe(429);
      expect((await badLogin(t.app, '9.9.9.9')).statusCode).not.toBe(429);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('with a hop count, the address the nearest proxy saw is the client, never what the client claims before it', async () => {
    // one trusted hop: the last X-Forwarded-For entry (written by the proxy) is the client; the
    // entries before it are the client's own claims. Taking one hop too many would count each
    // spoofed first entry apart and never reach the limit.
    const t = await start({ trustProxy: 1 });
    try {
      let res = await badLogin(t.app, '1.1.1.0, 10.0.0.9');
      for (let i = 1; i < 61; i++) res = await badLogin(t.app, `1.1.1.${i}, 10.0.0.9`);
      expect(res.statusCode).toBe(429);
      expect((await badLogin(t.app, '1.1.1.1, 10.0.0.10')).statusCode).not.toBe(429);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('HSTS only when configured', async () => {
    const t = await start({ hstsMaxAge: 31536000 });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/code' });
      expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('the request deadline', () => {
  it('answers a handler still busy at the deadline 503 in Chinese, and leaves started downloads alone', async () => {
    const app = Fastify();
    registerRequestDeadline(app, 200);
    // the slow handler ends only when the test lets it: an answer before that came from the deadline
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let slowEnded!: () => void;
    const slowDone = new Promise<void>((r) => (slowEnded = r));
    app.get('/slow', async () => {
      await released;
      slowEnded();
      return { late: true };
    });
    app.get('/stream', async (_req, reply) => {
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      reply.raw.write('a');
      await elapse(500); // a download still being written when the deadline passes
      reply.raw.end('b');
      return reply;
    });
    const res = await app.inject({ method: 'GET', url: '/slow' });
    expect(res.statusCode).toBe(503);
    expect(res.json<ErrorBody>().message).toBe(REQUEST_TIMED_OUT);
    const stream = await app.inject({ method: 'GET', url: '/stream' });
    expect(stream.statusCode).toBe(200);
    expect(stream.body).toBe('ab');
    release();
    await slowDone;
    await app.close();
  });
});
