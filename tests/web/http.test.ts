import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request, HttpError } from '../../src/web/common/http.ts';
import { onHttpProblem, type HttpProblem } from '../../src/web/common/httpEvents.ts';
import { mockFetch } from './fetchMock.ts';

describe('HTTP client error rules', () => {
  let problems: HttpProblem[];
  let stop: () => void;
  beforeEach(() => {
    problems = [];
    stop = onHttpProblem((p) => problems.push(p));
  });
  afterEach(() => stop());

  it('401 reports the session-expired problem (no notice)', async () => {
    mockFetch({ 'GET /api/sysQuestion': { status: 401, body: { status: 401, message: '未登录', timestamp: 't' } } });
    await expect(request('/api/sysQuestion')).rejects.toMatchObject({ status: 401 });
    expect(problems).toEqual([{ kind: 'unauthorized', url: '/api/sysQuestion' }]);
  });

  it('403 reports forbidden (the console goes to /401)', async () => {
    mockFetch({ 'DELETE /api/sysQuestion': { status: 403, body: { status: 403, message: '无权限', timestamp: 't' } } });
    await expect(request('/api/sysQuestion', { method: 'DELETE', body: [1] })).rejects.toBeInstanceOf(HttpError);
    expect(problems).toEqual([{ kind: 'forbidden', url: '/api/sysQuestion' }]);
  });

  it('other failures show the server message for 30 s, closable', async () => {
    mockFetch({ 'POST /api/sysQuestion': { status: 400, body: { status: 400, message: '模块不能为空', timestamp: 't' } } });
    await expect(request('/api/sysQuestion', { method: 'POST', body: {} })).rejects.toMatchObject({ message: '模块不能为空', status: 400 });
    expect(problems).toEqual([{ kind: 'notice', message: '模块不能为空', duration: 30000, closable: true, html: true }]);
  });

  it('a timeout says 网络请求超时 for 5 s', async () => {
    mockFetch({ 'GET /api/slow': { body: {}, delayMs: 1000 } });
    await expect(request('/api/slow', { timeoutMs: 20 })).rejects.toMatchObject({ message: '网络请求超时', status: 0 });
    expect(problems).toEqual([{ kind: 'notice', message: '网络请求超时', duration: 5000, closable: false, html: false }]);
  });

  it('no answer says 接口请求失败 for 5 s', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(request('/api/x')).rejects.toMatchObject({ message: '接口请求失败' });
    expect(problems).toEqual([{ kind: 'notice', message: '接口请求失败', duration: 5000, closable: false, html: false }]);
  });

  it('quiet requests report nothing', async () => {
    mockFetch({ 'GET /api/info': { status: 401, body: { status: 401, message: 'x' } } });
    await expect(request('/api/info', { quiet: true })).rejects.toMatchObject({ status: 401 });
    expect(problems).toEqual([]);
  });

  it('the default timeout is 30 s', async () => {
    const { REQUEST_TIMEOUT_MS } = await import('../../src/web/common/http.ts');
    expect(REQUEST_TIMEOUT_MS).toBe(30000);
  });
});

describe('a storm of identical notices', () => {
  it('shows the same notice once within a few seconds, and again after them', async () => {
    const { onHttpProblem, reportHttpProblem, STORM_MS } = await import('../../src/web/common/httpEvents.ts');
    const seen: string[] = [];
    const off = onHttpProblem((p) => p.kind === 'notice' && seen.push(p.message));
    const notice = (message: string) => ({ kind: 'notice' as const, message, duration: 30_000, closable: true, html: false });
    const t0 = 1_000_000;
    for (let i = 0; i < 20; i++) reportHttpProblem(notice('数据库暂时不可用，请稍后再试'), t0 + i * 10);
    reportHttpProblem(notice('另一个错误'), t0 + 50);
    reportHttpProblem(notice('数据库暂时不可用，请稍后再试'), t0 + STORM_MS + 1);
    off();
    expect(seen).toEqual(['数据库暂时不可用，请稍后再试', '另一个错误', '数据库暂时不可用，请稍后再试']);
  });
});

describe('one axios instance per app', () => {
  it('staff, dealer and applicant clients are separate instances carrying their own token and submit_id rules', async () => {
    const { staffHttp } = await import('../../src/web/common/http.ts');
    const { dealerHttp } = await import('../../src/web/dealer/http.ts');
    const { applicantHttp, setApplicantToken } = await import('../../src/web/applicant/api.ts');
    const { setToken, removeToken } = await import('../../src/web/common/token.ts');
    expect(new Set([staffHttp, dealerHttp, applicantHttp]).size).toBe(3);
    for (const client of [staffHttp, dealerHttp, applicantHttp]) expect(client.defaults.adapter).toBe('fetch');
    const { calls } = mockFetch({ '/api/x': { body: { ok: true } } });
    setToken('staff-tok', false);
    setApplicantToken('ap.tok');
    await staffHttp.get('/api/x');
    await applicantHttp.get('/api/x');
    await applicantHttp.post('/api/x', { a: 1 });
    expect(calls[0].headers.Authorization).toBe('Bearer staff-tok');
    expect(calls[0].headers.submit_id).toMatch(/^[1-9]\d{31}$/);
    expect(calls[1].headers.Authorization).toBe('Bearer ap.tok');
    expect(calls[1].headers.submit_id).toBeUndefined();
    expect(calls[2].headers.submit_id).toMatch(/^\d{32}$/);
    expect(calls[2].body).toEqual({ a: 1 });
    removeToken();
    setApplicantToken(null);
  });

  it('a cancelled request rejects with 已取消 and reports nothing', async () => {
    const problems: HttpProblem[] = [];
    const off = onHttpProblem((p) => problems.push(p));
    mockFetch({ 'GET /api/slow': { body: {}, delayMs: 1000 } });
    const controller = new AbortController();
    const pending = request('/api/slow', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ message: '已取消', status: 0 });
    off();
    expect(problems).toEqual([]);
  });

  it('a write without a body names no content type (a form-urlencoded PUT is refused with 415)', async () => {
    const { calls } = mockFetch({ 'PUT /api/jobs/exec/3': { body: {} }, 'DELETE /api/sysQuestion': { body: {} } });
    await request('/api/jobs/exec/3', { method: 'PUT' });
    await request('/api/sysQuestion', { method: 'DELETE', body: [3] });
    const type = (i: number) => Object.entries(calls[i].headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    expect(type(0)).toBeUndefined();
    expect(type(1)).toMatch(/^application\/json/);
  });
});
