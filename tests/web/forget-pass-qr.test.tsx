import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import ForgetPassPage, { validateReset } from '../../src/web/login/ForgetPassPage.tsx';
import LoginPage, { wecomCallback } from '../../src/web/login/LoginPage.tsx';
import QrPanel, { redirectUri } from '../../src/web/login/QrPanel.tsx';
import { getToken } from '../../src/web/common/token.ts';
import { mockFetch, type Answer } from './fetchMock.ts';

const spki = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

function server(overrides: Record<string, Answer> = {}) {
  return mockFetch({
    'GET /api/publicKey': { body: { publicKey: spki } },
    'GET /api/system/sysConfigInit/anon/pc': { body: { title: '车商后台管理系统' } },
    'GET /api/code': { body: { img: '', uuid: '', enabled: false } },
    ...overrides,
  });
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('forgot password page', { timeout: 60000 }, () => {
  it('checks the form with the spec messages', () => {
    expect(validateReset({ phone: '', code: '', password: '', confirm: '' })).toEqual({
      phone: '请输入电话号码',
      code: '请输入验证码',
      password: '新密码不能为空',
      confirm: '请再次输入密码',
    });
    expect(validateReset({ phone: '1234', code: '1', password: '1abcdef', confirm: 'x' })).toMatchObject({
      phone: '请输入正确的11位手机号码',
      password: '只能输入6-20个以字母开头、可带数字的字串',
      confirm: '两次输入的密码不一致',
    });
  });

  it('sends the code, fixes the phone, names the account for the right code, resets and returns to sign-in 1 s after 密码重置成功，请重新登录', async () => {
    const { calls } = server({
      'GET /api/findByPhone': { body: { phone: '13855556666', username: 'z***g' } },
      'GET /api/sendMsg': { body: { message: '发送成功，验证码有效期5分钟' } },
      'POST /api/resetPassword': { body: { message: '密码重置成功，请重新登录' } },
    });
    const navigate = vi.fn();
    render(<ForgetPassPage navigate={navigate} />);
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(screen.getByText('请输入电话号码')).toBeTruthy();
    type('手机号', '13855556666');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('发送成功，验证码有效期5分钟')).toBeTruthy();
    // nothing says whose number it is before the code
    expect(screen.queryByText(/账号：/)).toBeNull();
    expect(calls.some((c) => c.url.pathname === '/api/findByPhone')).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>('手机号').readOnly).toBe(true);
    expect(screen.getByRole('button', { name: /秒后重新获取/ })).toBeTruthy();
    type('验证码', '123456');
    expect(await screen.findByText('账号：z***g')).toBeTruthy();
    expect(calls.find((c) => c.url.pathname === '/api/findByPhone')!.url.searchParams.get('code')).toBe('123456');
    type('新密码', 'Zhang#2026');
    type('确认密码', 'Zhang#2026');
    fireEvent.click(screen.getByRole('button', { name: '重置密码' }));
    expect(await screen.findByText('密码重置成功，请重新登录')).toBeTruthy();
    const body = calls.find((c) => c.url.pathname === '/api/resetPassword')!.body as Record<string, string>;
    expect(body.phone).toBe('13855556666');
    expect(body.code).toBe('123456');
    expect(body.password).not.toContain('Zhang');
    expect(navigate).not.toHaveBeenCalled();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login'), { timeout: 3000 });
  });

  it('a wrong code says so under 验证码, and typing again clears it', async () => {
    server({
      'GET /api/sendMsg': { body: { message: '发送成功，验证码有效期5分钟' } },
      'GET /api/findByPhone': { status: 400, body: { status: 400, message: '验证码错误' } },
    });
    render(<ForgetPassPage navigate={() => {}} />);
    type('手机号', '13900001111');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('发送成功，验证码有效期5分钟')).toBeTruthy();
    type('验证码', '000000');
    expect(await screen.findByText('验证码错误')).toBeTruthy();
    type('验证码', '00000');
    await waitFor(() => expect(screen.queryByText('验证码错误')).toBeNull());
    expect(screen.queryByText(/账号：/)).toBeNull();
  });
});

describe('WeCom QR sign-in', { timeout: 60000 }, () => {
  it('the panel says when it is not configured', async () => {
    server({ 'GET /api/getQywxInfo': { body: { configured: false } } });
    render(<QrPanel />);
    expect(await screen.findByText(/扫码登录尚未配置/)).toBeTruthy();
  });

  it('the panel shows WeCom login page for appid, agentid, state and the way back', async () => {
    server({
      'GET /api/getQywxInfo': {
        body: {
          configured: true,
          appid: 'ww1',
          agentid: '1000002',
          state: 'S1',
          loginUrl: 'https://login.work.weixin.qq.com/wwlogin/sso/login',
        },
      },
    });
    render(<QrPanel />);
    const frame = await screen.findByTitle<HTMLIFrameElement>('企业微信扫码登录');
    const url = new URL(frame.src);
    expect(url.origin + url.pathname).toBe('https://login.work.weixin.qq.com/wwlogin/sso/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      login_type: 'CorpApp',
      appid: 'ww1',
      agentid: '1000002',
      state: 'S1',
      redirect_uri: redirectUri(),
    });
    expect(screen.getByRole('link', { name: /前往企业微信登录页/ }).getAttribute('href')).toBe(frame.src);
  });

  it('reads code and state from the address or the hash query', () => {
    expect(wecomCallback(new URLSearchParams(), '?code=C&state=S')).toEqual({ code: 'C', state: 'S' });
    expect(wecomCallback(new URLSearchParams('code=C2&state=S2'), '')).toEqual({ code: 'C2', state: 'S2' });
    expect(wecomCallback(new URLSearchParams('redirect=/x'), '?code=C')).toBeNull();
  });

  it('back from WeCom, the sign-in page signs in with code and state and drops them from the address', async () => {
    const { calls } = server({
      'GET /api/qywxLogin': {
        body: {
          token: 'tok-wecom',
          user: {
            id: 3,
            username: 'wang',
            lastPasswordResetDate: new Date().toISOString().slice(0, 19).replace('T', ' '),
            defPassword: false,
          },
          permissions: ['x'],
          sys: {},
        },
      },
    });
    window.history.replaceState(null, '', '/?code=CODE-OK&state=STATE-1#/login');
    const navigate = vi.fn();
    render(<LoginPage query={new URLSearchParams()} navigate={navigate} />);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/dashboard'));
    const call = calls.find((c) => c.url.pathname === '/api/qywxLogin')!;
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ code: 'CODE-OK', state: 'STATE-1' });
    expect(getToken()).toBe('tok-wecom');
    expect(window.location.search).toBe('');
    expect(window.location.hash).toBe('#/login');
  });

  it('a refused scan shows the message on the QR tab', async () => {
    server({
      'GET /api/qywxLogin': { status: 400, body: { status: 400, message: '该企业微信账号未绑定系统用户，请联系管理员' } },
      'GET /api/getQywxInfo': { body: { configured: false } },
    });
    window.history.replaceState(null, '', '/?code=C&state=S#/login');
    render(<LoginPage query={new URLSearchParams()} navigate={() => {}} />);
    expect(await screen.findByText('该企业微信账号未绑定系统用户，请联系管理员')).toBeTruthy();
    expect(screen.getByRole('tab', { name: '扫码登录' }).getAttribute('aria-selected')).toBe('true');
    window.history.replaceState(null, '', '/');
  });
});
