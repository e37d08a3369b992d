import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import LoginPage from '../../src/web/login/LoginPage.tsx';
import { captchaChars, stripNonWord } from '../../src/web/common/inputFilters.ts';
import { getToken } from '../../src/web/common/token.ts';
import { mockFetch, type Answer } from './fetchMock.ts';

const spki = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

function server(overrides: Record<string, Answer> = {}) {
  let captchas = 0;
  return mockFetch({
    'GET /api/code': () => ({ body: { img: `data:image/png;base64,${++captchas}`, uuid: `uuid-${captchas}`, enabled: true } }),
    'GET /api/system/sysConfigInit/anon/pc': {
      body: { recordNumber: '豫ICP备12345678号', title: '车商后台管理系统', compName: '某汽车集团' },
    },
    'GET /api/publicKey': { body: { publicKey: spki } },
    ...overrides,
  });
}

const user = {
  id: 1,
  username: 'admin',
  nickName: '管理员',
  roles: [{ id: 1, name: '超级管理员', dataScope: '全部', level: 1 }],
  lastPasswordResetDate: new Date().toISOString().slice(0, 19).replace('T', ' '),
  defPassword: false,
};

describe('input filters', { timeout: 60000 }, () => {
  it('account strips non-word characters; captcha keeps digits and minus', () => {
    expect(stripNonWord('ad min!@#_01')).toBe('admin_01');
    expect(captchaChars('-1a2 b3')).toBe('-123');
  });
});

describe('sign-in page', { timeout: 60000 }, () => {
  it('shows the tabs, filing number and required messages', async () => {
    server();
    render(<LoginPage query={new URLSearchParams()} navigate={() => {}} />);
    expect(screen.getByRole('tab', { name: '账号登录' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: '扫码登录' })).toBeTruthy();
    expect(screen.getByText('记住我')).toBeTruthy();
    expect(screen.getByRole('link', { name: '忘记密码' }).getAttribute('href')).toBe('#/forgetpass');
    expect(await screen.findByText('豫ICP备12345678号')).toBeTruthy();
    await screen.findByAltText('验证码');
    fireEvent.click(screen.getByRole('button', { name: '登 录' }));
    expect(screen.getByText('用户名/手机号不能为空')).toBeTruthy();
    expect(screen.getByText('密码不能为空')).toBeTruthy();
    expect(screen.getByText('验证码不能为空')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('账号'));
  });

  it('filters the account and captcha inputs as typed', async () => {
    server();
    render(<LoginPage query={new URLSearchParams()} navigate={() => {}} />);
    const account = screen.getByLabelText<HTMLInputElement>('账号');
    fireEvent.change(account, { target: { value: 'zhang san@1' } });
    expect(account.value).toBe('zhangsan1');
    const code = await screen.findByLabelText<HTMLInputElement>('验证码');
    fireEvent.change(code, { target: { value: '-1x2' } });
    expect(code.value).toBe('-12');
  });

  it('clicking the captcha image fetches a new one', async () => {
    const { calls } = server();
    render(<LoginPage query={new URLSearchParams()} navigate={() => {}} />);
    const img = await screen.findByAltText<HTMLImageElement>('验证码');
    await waitFor(() => expect(img.getAttribute('src')).toContain('base64,1'));
    fireEvent.click(img);
    await waitFor(() => expect(img.getAttribute('src')).toContain('base64,2'));
    expect(calls.filter((c) => c.url.pathname === '/api/code')).toHaveLength(2);
  });

  it('hides the captcha when disabled and sends code ""', async () => {
    const { calls } = server({
      'GET /api/code': { body: { img: '', uuid: 'u-0', enabled: false } },
      'POST /api/login': { body: { token: 'tok', user, permissions: ['admin'], sys: {} } },
    });
    const navigate = vi.fn();
    render(<LoginPage query={new URLSearchParams('redirect=%2FsysQuestion')} navigate={navigate} />);
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/code')).toBe(true));
    await waitFor(() => expect(screen.queryByLabelText('验证码')).toBeNull());
    fireEvent.change(screen.getByLabelText('账号'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret1' } });
    fireEvent.submit(screen.getByRole('form', { name: '账号登录' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/sysQuestion'));
    const login = calls.find((c) => c.url.pathname === '/api/login')!;
    expect(login.body).toMatchObject({ username: 'admin', code: '', uuid: 'u-0', platTypeId: 100001, rememberMe: false });
    expect((login.body as { password: string }).password).not.toBe('secret1');
    expect(atob((login.body as { password: string }).password)).toHaveLength(256);
    expect(getToken()).toBe('tok');
  });

  it('a failed sign-in blocks retry for 5 s with a countdown and fetches a new captcha', async () => {
    const { calls } = server({
      'POST /api/login': { status: 400, body: { status: 400, message: '验证码错误', timestamp: 't' } },
    });
    render(<LoginPage query={new URLSearchParams()} navigate={() => {}} />);
    await screen.findByAltText('验证码');
    await waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/code')).toHaveLength(1));
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.change(screen.getByLabelText('账号'), { target: { value: 'admin' } });
      fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'bad' } });
      fireEvent.change(screen.getByLabelText('验证码'), { target: { value: '12' } });
      fireEvent.click(screen.getByRole('button', { name: '登 录' }));
      expect(await screen.findByText('验证码错误')).toBeTruthy();
      const button = screen.getByRole<HTMLButtonElement>('button', { name: /5 秒后可重新登录/ });
      expect(button.disabled).toBe(true);
      await waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/code')).toHaveLength(2));
      expect(screen.getByLabelText<HTMLInputElement>('验证码').value).toBe('');
      await act(() => {
        vi.advanceTimersByTime(1000);
        return Promise.resolve();
      });
      expect(screen.getByRole('button', { name: /4 秒后可重新登录/ })).toBeTruthy();
      for (let i = 0; i < 4; i++) {
        await act(() => {
          vi.advanceTimersByTime(1000);
          return Promise.resolve();
        });
      }
      await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: '登 录' }).disabled).toBe(false));
    } finally {
      vi.useRealTimers();
    }
  });

  it('a default password goes to /user/center; remember-me keeps the user name only', async () => {
    server({ 'POST /api/login': { body: { token: 'tok2', user: { ...user, defPassword: true }, permissions: ['admin'], sys: {} } } });
    const navigate = vi.fn();
    render(<LoginPage query={new URLSearchParams()} navigate={navigate} />);
    await screen.findByAltText('验证码');
    fireEvent.change(screen.getByLabelText('账号'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret1' } });
    fireEvent.change(screen.getByLabelText('验证码'), { target: { value: '3' } });
    fireEvent.click(screen.getByLabelText('记住我'));
    fireEvent.click(screen.getByRole('button', { name: '登 录' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/user/center'));
    const saved = JSON.stringify(localStorage);
    expect(saved).toContain('admin');
    expect(saved).not.toContain('secret1');
  });

  it('warns when the password is 90 days old', async () => {
    server({
      'POST /api/login': {
        body: { token: 't3', user: { ...user, lastPasswordResetDate: '2000-01-01 00:00:00' }, permissions: [], sys: {} },
      },
    });
    const navigate = vi.fn();
    render(<LoginPage query={new URLSearchParams()} navigate={navigate} />);
    await screen.findByAltText('验证码');
    fireEvent.change(screen.getByLabelText('账号'), { target: { value: 'u1' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'p' } });
    fireEvent.change(screen.getByLabelText('验证码'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: '登 录' }));
    expect(await screen.findByText(/90天未修改/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '暂不修改' }));
    expect(navigate).toHaveBeenCalledWith('/dashboard');
  });
});
