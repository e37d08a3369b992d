import { StrictMode } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import Root, { preloadFirstApp } from '../../src/web/Root.tsx';
import { clearDealerSession } from '../../src/web/dealer/session.ts';
import { reportHttpProblem } from '../../src/web/common/httpEvents.ts';
import { clearSession } from '../../src/web/common/session.ts';
import { getToken, setToken } from '../../src/web/common/token.ts';
import { mockFetch } from './fetchMock.ts';

// a bound for a screen to show, not a wait: a poll ends when the screen is there. The feedback
// screen in StrictMode shows in 4 s on a quiet machine, 13 s beside a full run, and took over 45 s
// in a full `taskset -c 0 npm test` (every suite on one core)
const LOAD = { timeout: 120_000 };
const info = {
  user: {
    id: 1,
    username: 'admin',
    nickName: '超级管理员',
    orgName: '集团',
    deptNamePath: '集团/信息部',
    roles: [{ id: 1, name: '超级管理员', dataScope: '全部', level: 1 }],
  },
  permissions: ['admin'],
  sys: { title: '车商后台管理系统', recordNumber: '豫ICP备1号' },
};

function consoleServer() {
  return mockFetch({
    'GET /api/info': { body: info },
    'DELETE /api/logout': { status: 200, body: {} },
    'GET /api/sysQuestion': {
      body: { content: [{ id: 1, userType: '员工', model: '系统', content: '卡顿', status: false }], totalElements: 1 },
    },
    'GET /api/code': { body: { img: '', uuid: 'u', enabled: true } },
    'GET /api/system/sysConfigInit/anon/pc': { body: info.sys },
  });
}

function start(hash: string) {
  window.history.replaceState(null, '', `/${hash}`);
  return render(<Root />);
}

describe('staff console', { timeout: 300_000 }, () => {
  // The console's code and its list screens are compiled on first import; on a loaded machine that
  // and the first render took more than the 15 s the tests gave a screen to show (the StrictMode
  // test, first to render the console, failed so twice beside a full run). Loaded here, with a
  // bound of its own, each test's wait is for what it checks: the screen rendering.
  beforeAll(async () => {
    await Promise.all([import('../../src/web/staff/StaffApp.tsx'), import('../../src/web/staff/resourceScreens.tsx')]);
  }, 180_000);

  it('follows a redirect an application makes as it mounts, with its code loaded first (as main.tsx does)', async () => {
    mockFetch({});
    clearDealerSession();
    window.history.replaceState(null, '', '/#/comp/jxs_comp');
    await preloadFirstApp();
    render(<Root />);
    // the dealer portal sends a visit without a dealer session to its sign-in page
    expect(await screen.findByText('经销商登录', undefined, LOAD)).toBeTruthy();
    expect(window.location.hash).toBe('#/jxsLogin');
  });

  it('in StrictMode (as main.tsx renders) the console follows hash changes it did not make', async () => {
    clearSession();
    setToken('tok', false);
    consoleServer();
    window.history.replaceState(null, '', '/#/sysQuestion');
    render(
      <StrictMode>
        <Root />
      </StrictMode>,
    );
    expect(await screen.findByText('卡顿', {}, LOAD)).toBeTruthy();
    act(() => {
      window.location.hash = '#/developing';
    });
    expect(await screen.findByText('页面正在开发建设中......', {}, LOAD)).toBeTruthy();
  });

  it('without a token any console route goes to the sign-in page with a redirect', async () => {
    consoleServer();
    start('#/sysQuestion');
    expect(await screen.findByRole('tab', { name: '账号登录' }, LOAD)).toBeTruthy();
    expect(window.location.hash).toBe('#/login?redirect=%2FsysQuestion');
  });

  it('signed in: shows the feedback screen, the 401 dialog, /401 on 403, and logs out after the confirm', async () => {
    clearSession();
    setToken('tok', false);
    consoleServer();
    start('#/sysQuestion');
    expect(await screen.findByText('卡顿', {}, LOAD)).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('车商后台管理系统'));

    act(() => reportHttpProblem({ kind: 'notice', message: '网络请求超时', duration: 5000, closable: false, html: false }));
    expect(await screen.findByText('网络请求超时')).toBeTruthy();

    act(() => reportHttpProblem({ kind: 'unauthorized', url: '/api/sysQuestion' }));
    const expired = within(await screen.findByRole('dialog'));
    expect(expired.getByText('系统提示')).toBeTruthy();
    expect(expired.getByText('登录状态已过期，您可以继续留在该页面，或者重新登录')).toBeTruthy();
    fireEvent.click(expired.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(getToken()).toBe('tok');

    act(() => reportHttpProblem({ kind: 'forbidden', url: '/api/sysQuestion' }));
    expect(await screen.findByText('返回首页', {}, LOAD)).toBeTruthy();
    expect(window.location.hash).toBe('#/401');

    fireEvent.click(screen.getByRole('button', { name: /Profile|个人中心/ }));
    fireEvent.click(await screen.findByText('退出登录'));
    const confirm = within(await screen.findByRole('dialog'));
    expect(confirm.getByText('确定注销并退出系统吗？')).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: '确定' }));
    expect(await screen.findByRole('tab', { name: '账号登录' }, LOAD)).toBeTruthy();
    expect(getToken()).toBeNull();
  });

  it('an unknown path shows the 404 page with home and feedback links', async () => {
    clearSession();
    setToken('tok', false);
    consoleServer();
    start('#/no-such-page/x');
    expect(await screen.findByText('ERROR!', {}, LOAD)).toBeTruthy();
    expect(screen.getByRole('link', { name: '返回首页' }).getAttribute('href')).toBe('#/');
    expect(screen.getByRole('link', { name: '问题反馈' }).getAttribute('href')).toBe('#/sysQuestion');
  });
});
