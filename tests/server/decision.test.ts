import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/server/config.ts';
import { signSsoLink } from '../../src/server/modules/decision/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';
import type { ErrorBody } from '../support/answers.ts';

const URL_ = '/api/decision/getDecision';
const SECRET = 'decision-secret-0123456789';

describe('SSO link', () => {
  it('carries the user and time, signed with HMAC-SHA256 over user + newline + time', () => {
    const link = new URL(signSsoLink('https://bi.example.com/sso?from=console', SECRET, '张三', 1700000000000));
    expect(link.origin + link.pathname).toBe('https://bi.example.com/sso');
    expect(link.searchParams.get('from')).toBe('console');
    expect(link.searchParams.get('user')).toBe('张三');
    expect(link.searchParams.get('ts')).toBe('1700000000000');
    expect(link.searchParams.get('sign')).toBe(createHmac('sha256', SECRET).update('张三\n1700000000000').digest('hex'));
  });

  it('a configured link needs a 16-character secret and an http(s) address', () => {
    expect(() => loadConfig({ SSO_LINK_URL: 'https://bi.example.com/sso', SSO_SECRET: 'short' })).toThrow(/SSO_SECRET/);
    expect(() => loadConfig({ SSO_LINK_URL: 'ftp://bi', SSO_SECRET: SECRET })).toThrow(/SSO_LINK_URL/);
    expect(loadConfig({}).ssoLinkUrl).toBe('');
  });
});

describe.each(testApps())('decision centre on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  let analyst: Record<string, string>;
  let clerk: Record<string, string>;

  beforeAll(async () => {
    t = await start({ ssoLinkUrl: 'https://bi.example.com/sso', ssoSecret: SECRET });
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
    await createStaff(app, { username: 'analyst', password: 'Analyst@2024', permissions: ['DecisionCenter:list'] });
    await createStaff(app, { username: 'clerk', password: 'Clerk@2024', permissions: [] });
    analyst = bearer(await loginAs(app, 'analyst', 'Analyst@2024'));
    clerk = bearer(await loginAs(app, 'clerk', 'Clerk@2024'));
  });
  afterAll(async () => t?.close());

  it('the menu and its key exist after the first start', async () => {
    const menu = await app.database.db
      .selectFrom('sys_menu')
      .select(['title', 'path'])
      .where('permission', '=', 'DecisionCenter:list')
      .execute();
    expect(menu).toEqual([{ title: '数据决策中心', path: 'DecisionCenter/index' }]);
  });

  it('a holder of DecisionCenter:list gets a signed link for themselves', async () => {
    const res = await app.inject({ method: 'GET', url: URL_, headers: analyst });
    expect(res.statusCode).toBe(200);
    const href = new URL(res.json<{ ssoHref: string }>().ssoHref);
    expect(href.searchParams.get('user')).toBe('analyst');
    const ts = Number(href.searchParams.get('ts'));
    expect(Math.abs(Date.now() - ts)).toBeLessThan(60_000);
    expect(href.searchParams.get('sign')).toBe(createHmac('sha256', SECRET).update(`analyst\n${ts}`).digest('hex'));
  });

  it('admin is barred (403); no key is 403; no token is 401', async () => {
    const a = await app.inject({ method: 'GET', url: URL_, headers: admin });
    expect(a.statusCode).toBe(403);
    expect(a.json<ErrorBody>().message).toBe('管理员账号不能进入数据决策中心');
    expect((await app.inject({ method: 'GET', url: URL_, headers: clerk })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: URL_ })).statusCode).toBe(401);
  });

  it('without SSO_LINK_URL the answer has no link', async () => {
    const config = app.config as { ssoLinkUrl: string };
    const saved = config.ssoLinkUrl;
    config.ssoLinkUrl = '';
    try {
      const res = await app.inject({ method: 'GET', url: URL_, headers: analyst });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ssoHref: null });
    } finally {
      config.ssoLinkUrl = saved;
    }
  });
});
