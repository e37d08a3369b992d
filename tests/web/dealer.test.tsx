import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { dealerFetch, onDealerProblem, type Problem } from '../../src/web/dealer/http.ts';
import { clearDealerSession, getDealerSession, setDealerSession } from '../../src/web/dealer/session.ts';
import DealerApp from '../../src/web/dealer/DealerApp.tsx';
import { mockFetch } from './fetchMock.ts';

const SESSION = { token: 't'.repeat(43), user: { id: 1, compName: '示例经销商一', compCode: 'JXS001', username: 'jxs001', mobile: null } };

describe('dealer HTTP client', () => {
  let problems: Problem[];
  let stop: () => void;
  beforeEach(() => {
    problems = [];
    stop = onDealerProblem((p) => problems.push(p));
    sessionStorage.clear();
  });
  afterEach(() => stop());

  it('sends the dealer token from session storage under authorization, with a 32-digit submit_id', async () => {
    setDealerSession(SESSION);
    const { calls } = mockFetch({ 'POST /comp/dbcCompany/getDbcInfos': { body: { content: [], totalElements: 0 } } });
    await dealerFetch('comp/dbcCompany/getDbcInfos', { method: 'POST', body: { page: 0 } });
    expect(calls[0].headers.Authorization).toBe(`Bearer ${SESSION.token}`);
    expect(calls[0].headers.submit_id).toMatch(/^\d{32}$/);
    expect((JSON.parse(sessionStorage.getItem('authorization')!) as { user: { username: string } }).user.username).toBe('jxs001');
  });

  it('reports a 401 as an expired session and other failures with the server message', async () => {
    setDealerSession(SESSION);
    mockFetch({
      'GET /comp/dbcCompany/getDbcUserInfos': { status: 401, body: { status: 401, message: '登录状态已过期，请重新登录', timestamp: 't' } },
      'POST /comp/dbcCompany/submitDbcInfo': { status: 400, body: { status: 400, message: '请输入正确的车牌号', timestamp: 't' } },
    });
    await expect(dealerFetch('comp/dbcCompany/getDbcUserInfos')).rejects.toMatchObject({ status: 401 });
    await expect(dealerFetch('comp/dbcCompany/submitDbcInfo', { method: 'POST', body: {} })).rejects.toMatchObject({
      message: '请输入正确的车牌号',
    });
    expect(problems).toEqual([{ kind: 'expired' }, { kind: 'message', message: '请输入正确的车牌号' }]);
  });
});

describe('dealer app', () => {
  beforeEach(() => {
    sessionStorage.clear();
    window.location.hash = '';
  });

  it('sends a visit without a dealer session to /jxsLogin', async () => {
    mockFetch({});
    render(<DealerApp path="/comp/jxs_comp" />);
    await waitFor(() => expect(window.location.hash).toBe('#/jxsLogin'));
  });

  it('on 重新登录 after a 401 clears the session and opens /jxsLogin', async () => {
    setDealerSession(SESSION);
    mockFetch({
      'GET /comp/dbcCompany/getDbcUserInfos': { status: 401, body: { status: 401, message: '登录状态已过期，请重新登录', timestamp: 't' } },
    });
    render(<DealerApp path="/comp/jxs_comp" />);
    await screen.findByText('登录状态已过期，您可以继续留在该页面，或者重新登录');
    expect(screen.getByText('系统提示')).toBeTruthy();
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: '重新登录' }));
      return Promise.resolve();
    });
    expect(getDealerSession()).toBeNull();
    expect(window.location.hash).toBe('#/jxsLogin');
    clearDealerSession();
  });
});
