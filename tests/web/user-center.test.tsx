import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { generateKeyPairSync } from 'node:crypto';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { AdminContext, memoryStore } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { AppNotification } from '../../src/web/staff/layout/AppNotification.tsx';
import { UserCenter, dialogForType } from '../../src/web/staff/pages/UserCenter.tsx';
import { EmailDialog } from '../../src/web/staff/pages/user-center/EmailDialog.tsx';
import { LockTimeDialog, LOCK_STORAGE_KEY } from '../../src/web/staff/pages/user-center/LockTimeDialog.tsx';
import { NickNameDialog } from '../../src/web/staff/pages/user-center/NickNameDialog.tsx';
import { PasswordDialog, validatePasswordForm } from '../../src/web/staff/pages/user-center/PasswordDialog.tsx';
import { PhoneDialog } from '../../src/web/staff/pages/user-center/PhoneDialog.tsx';
import { ResetBySmsDialog } from '../../src/web/staff/pages/user-center/ResetBySmsDialog.tsx';
import { timeColour } from '../../src/web/staff/pages/user-center/api.ts';
import { mockFetch, type Answer } from './fetchMock.ts';
import { testAuthProvider } from './renderScreen.tsx';
import { elapse } from '../support/wait.ts';

const spki = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

function server(overrides: Record<string, Answer> = {}) {
  return mockFetch({ 'GET /api/publicKey': { body: { publicKey: spki } }, ...overrides });
}

const identity = {
  id: 7,
  username: 'zhang',
  nickName: '小张',
  sex: 1,
  phone: '13811112222',
  email: 'z@example.com',
  lockTime: 30,
  orgId: 1,
  deptId: 3,
  roles: [{ name: '销售' }],
};

function wrap(children: ReactNode, route = '/user/center') {
  return render(
    <MemoryRouter initialEntries={[route]}>
      <AdminContext authProvider={testAuthProvider([], identity)} i18nProvider={i18nProvider} store={memoryStore()}>
        {children}
        <AppNotification />
      </AdminContext>
    </MemoryRouter>,
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const confirm = () => fireEvent.click(screen.getByRole('button', { name: '确认' }));

describe('password dialog', { timeout: 60000 }, () => {
  it('checks the fields with the spec messages', () => {
    expect(validatePasswordForm({ oldPass: '', newPass: '', confirmPass: '' })).toEqual({
      oldPass: '请输入旧密码',
      newPass: '请输入新密码',
      confirmPass: '请再次输入密码',
    });
    expect(validatePasswordForm({ oldPass: 'a', newPass: 'Ab1', confirmPass: 'Ab1' }).newPass).toBe('长度在 6 到 20 个字符');
    expect(validatePasswordForm({ oldPass: 'a', newPass: '1abcdefg', confirmPass: '1abcdefg' }).newPass).toBe(
      '只能输入6-20个以字母开头、可带数字的字串',
    );
    expect(validatePasswordForm({ oldPass: 'a', newPass: 'Abcdef1!', confirmPass: 'Abcdef1@' }).confirmPass).toBe('两次输入的密码不一致');
    expect(validatePasswordForm({ oldPass: 'a', newPass: 'Abcdef1!', confirmPass: 'Abcdef1!' })).toEqual({});
  });

  it('shows the messages, focuses the first field, and sends both passwords encrypted; signs out 1 s after 密码修改成功，请重新登录', async () => {
    const { calls } = server({ 'POST /api/users/updatePass/': { body: { message: 'ok' } } });
    const signedOut = vi.fn();
    wrap(<PasswordDialog open onClose={() => {}} onSignedOut={signedOut} />);
    confirm();
    expect(screen.getByText('请输入旧密码')).toBeTruthy();
    expect(screen.getByText('请输入新密码')).toBeTruthy();
    expect(screen.getByText('请再次输入密码')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('旧密码'));
    type('旧密码', 'Zhang@2024');
    type('新密码', 'Zhang.2025');
    type('确认密码', 'Zhang.2026');
    confirm();
    expect(screen.getByText('两次输入的密码不一致')).toBeTruthy();
    type('确认密码', 'Zhang.2025');
    confirm();
    expect(await screen.findByText('密码修改成功，请重新登录')).toBeTruthy();
    const post = calls.find((c) => c.url.pathname === '/api/users/updatePass/')!;
    const body = post.body as { oldPass: string; newPass: string };
    expect(body.oldPass).not.toContain('Zhang');
    expect(body.oldPass.length).toBeGreaterThan(300);
    expect(body.newPass).not.toBe(body.oldPass);
    expect(signedOut).not.toHaveBeenCalled();
    await waitFor(() => expect(signedOut).toHaveBeenCalledTimes(1), { timeout: 3000 });
  });

  it('shows the server refusal in the dialog and stays signed in', async () => {
    server({ 'POST /api/users/updatePass/': { status: 400, body: { status: 400, message: '修改失败，旧密码错误' } } });
    const signedOut = vi.fn();
    wrap(<PasswordDialog open onClose={() => {}} onSignedOut={signedOut} />);
    type('旧密码', 'Wrong@2024');
    type('新密码', 'Zhang.2025');
    type('确认密码', 'Zhang.2025');
    confirm();
    expect(await screen.findByText('修改失败，旧密码错误')).toBeTruthy();
    await elapse(1200); // longer than the sign-out after a successful change: none comes after a refusal
    expect(signedOut).not.toHaveBeenCalled();
  });
});

describe('e-mail and phone dialogs', { timeout: 60000 }, () => {
  it('e-mail: the code button checks the address, sends, counts down 60 s; saving sends code, address and the encrypted password', async () => {
    const { calls } = server({
      'POST /api/code/resetEmail': { body: { message: '发送成功，验证码有效期5分钟' } },
      'POST /api/users/updateEmail/123456': { body: { message: '邮箱修改成功' } },
    });
    const saved = vi.fn();
    wrap(<EmailDialog open current="z@example.com" onClose={() => {}} onSaved={saved} />);
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(screen.getByText('新邮箱不能为空')).toBeTruthy();
    type('新邮箱', 'not-an-email');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(screen.getByText('邮箱格式错误')).toBeTruthy();
    expect(calls.some((c) => c.url.pathname === '/api/code/resetEmail')).toBe(false);
    type('新邮箱', 'new@example.com');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('发送成功，验证码有效期5分钟')).toBeTruthy();
    const counting = await screen.findByRole('button', { name: /^\d+秒后重新获取$/ });
    expect(counting.textContent).toMatch(/^(60|59)秒后重新获取$/);
    expect((counting as HTMLButtonElement).disabled).toBe(true);
    expect(calls.find((c) => c.url.pathname === '/api/code/resetEmail')!.body).toEqual({ value: 'new@example.com' });
    confirm();
    expect(screen.getByText('请输入验证码')).toBeTruthy();
    expect(screen.getByText('密码不能为空')).toBeTruthy();
    type('验证码', '12a3456');
    expect(screen.getByLabelText<HTMLInputElement>('验证码').value).toBe('123456');
    type('当前密码', 'Zhang@2024');
    confirm();
    expect(await screen.findByText('邮箱修改成功')).toBeTruthy();
    const body = calls.find((c) => c.url.pathname === '/api/users/updateEmail/123456')!.body as { email: string; password: string };
    expect(body.email).toBe('new@example.com');
    expect(body.password).not.toContain('Zhang');
    expect(saved).toHaveBeenCalled();
  });

  it('phone: 请输入电话号码, 请输入正确的11位手机号码, 验证码不能为空; saves {id, phone, code}', async () => {
    const { calls } = server({
      'POST /api/code/resetPhone': { body: { message: '发送成功，验证码有效期5分钟' } },
      'PUT /api/users/updateUserPhone': { body: { message: '修改成功' } },
    });
    const saved = vi.fn();
    wrap(<PhoneDialog open userId={7} onClose={() => {}} onSaved={saved} />);
    confirm();
    expect(screen.getByText('请输入电话号码')).toBeTruthy();
    expect(screen.getByText('验证码不能为空')).toBeTruthy();
    type('新手机号', '12345678901');
    confirm();
    expect(screen.getByText('请输入正确的11位手机号码')).toBeTruthy();
    type('新手机号', '138-5555-6666');
    expect(screen.getByLabelText<HTMLInputElement>('新手机号').value).toBe('13855556666');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await screen.findByRole('button', { name: /秒后重新获取/ });
    type('验证码', '654321');
    confirm();
    expect(await screen.findByText('修改成功')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT' && c.url.pathname === '/api/users/updateUserPhone')!.body).toEqual({
      id: 7,
      phone: '13855556666',
      code: '654321',
    });
    expect(saved).toHaveBeenCalled();
  });

  it('a refused send re-enables the button and says why', async () => {
    server({ 'POST /api/code/resetPhone': { status: 429, body: { status: 429, message: '验证码已发送，请42秒后再试' } } });
    wrap(<PhoneDialog open userId={7} onClose={() => {}} onSaved={() => {}} />);
    type('新手机号', '13855556666');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('验证码已发送，请42秒后再试')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: '获取验证码' }).disabled).toBe(false);
  });
});

describe('nickname and lock-time dialogs', { timeout: 60000 }, () => {
  it('nickname: 昵称不能为空, then saves with the own sex and phone', async () => {
    const { calls } = server({ 'PUT /api/users/center': { status: 204 } });
    const saved = vi.fn();
    wrap(<NickNameDialog open user={{ id: 7, nickName: '小张', sex: 0, phone: '13811112222' }} onClose={() => {}} onSaved={saved} />);
    type('昵称', '   ');
    confirm();
    expect(screen.getByText('昵称不能为空')).toBeTruthy();
    type('昵称', '张经理');
    confirm();
    expect(await screen.findByText('修改成功')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ id: 7, nickName: '张经理', sex: 0, phone: '13811112222' });
    expect(saved).toHaveBeenCalled();
  });

  it('lock time: the choices, 其他 with at most 3 digits, 时长不能为空; saves {id, lockTime, orgId, deptId}, 修改成功, then reloads after 1.5 s', async () => {
    const { calls } = server({ 'PUT /api/users': { status: 204 } });
    const afterSave = vi.fn();
    wrap(<LockTimeDialog open user={{ id: 7, lockTime: 30, orgId: 1, deptId: 3 }} onClose={() => {}} afterSave={afterSave} />);
    const group = screen.getByRole('radiogroup');
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => (r.closest('label') as HTMLElement).textContent),
    ).toEqual(['10分钟', '20分钟', '30分钟', '40分钟', '50分钟', '60分钟', '90分钟', '永不', '其他']);
    expect(screen.getByLabelText<HTMLInputElement>('30分钟').checked).toBe(true);
    fireEvent.click(screen.getByLabelText('其他'));
    confirm();
    expect(screen.getByText('时长不能为空')).toBeTruthy();
    type('时长（分钟）', '12a345');
    expect(screen.getByLabelText<HTMLInputElement>('时长（分钟）').value).toBe('123');
    confirm();
    expect(await screen.findByText('修改成功')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ id: 7, lockTime: 123, orgId: 1, deptId: 3 });
    expect(localStorage.getItem(LOCK_STORAGE_KEY)).toBe('123');
    expect(afterSave).not.toHaveBeenCalled();
    await waitFor(() => expect(afterSave).toHaveBeenCalledTimes(1), { timeout: 3000 });
  });

  it('lock time: 永不 saves 0', async () => {
    const { calls } = server({ 'PUT /api/users': { status: 204 } });
    wrap(<LockTimeDialog open user={{ id: 7, lockTime: 30, orgId: 1, deptId: 3 }} onClose={() => {}} afterSave={() => {}} />);
    fireEvent.click(screen.getByLabelText('永不'));
    confirm();
    await screen.findByText('修改成功');
    expect((calls.find((c) => c.method === 'PUT')!.body as { lockTime: number }).lockTime).toBe(0);
  });
});

describe('personal centre page', { timeout: 60000 }, () => {
  it('opens the password dialog when no type is given; ?type= picks another dialog', () => {
    expect(dialogForType(null)).toBe('password');
    expect(dialogForType('')).toBe('password');
    expect(dialogForType('email')).toBe('email');
    expect(dialogForType('lock')).toBe('lock');
    expect(dialogForType('log')).toBeNull();
  });

  it('shows the profile and the password dialog on entry', async () => {
    server();
    wrap(<UserCenter reloadPage={() => {}} />);
    expect(await screen.findByRole('dialog', { name: '修改密码' })).toBeTruthy();
    expect(screen.getByText('138****2222')).toBeTruthy();
    expect(screen.getByText('z@example.com')).toBeTruthy();
    expect(screen.getByText('30分钟')).toBeTruthy();
  });

  it('the log tab colours times: <=300 success, <=1000 default, <=3000 warning, <=8000 danger, above info', async () => {
    expect([300, 301, 1000, 1001, 3000, 3001, 8000, 8001].map(timeColour)).toEqual([
      'success',
      'default',
      'default',
      'warning',
      'warning',
      'error',
      'error',
      'info',
    ]);
    const rows = [120, 800, 2500, 6000, 9000].map((time, i) => ({
      id: i + 1,
      description: `行为${i}`,
      requestIp: '10.0.0.1',
      address: '内网IP',
      browser: 'Chrome 131',
      time,
      logType: 'INFO',
      exceptionDetail: '',
      createTime: '2026-01-01 10:00:00',
    }));
    const { calls } = server({ 'GET /api/logs/user': { body: { content: rows, totalElements: 23 } } });
    wrap(<UserCenter reloadPage={() => {}} />, '/user/center?type=log');
    const table = await screen.findByRole('table', { name: '操作日志' });
    await within(table).findByText('行为0');
    expect(
      within(table)
        .getAllByText(/\d+ms$/)
        .map((chip) => chip.closest('[data-colour]')!.getAttribute('data-colour')),
    ).toEqual(['success', 'default', 'warning', 'error', 'info']);
    expect(screen.getByText('第 1-10 条，共 23 条')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.find((c) => c.url.pathname === '/api/logs/user')!.url.search).toBe('?page=0&size=10&sort=id%2Cdesc');
  });

  it('saves nickname and sex from the profile form, and uploads an image avatar (others refused before sending)', async () => {
    const { calls } = server({
      'PUT /api/users/center': { status: 204 },
      'POST /api/users/updateAvatar': { body: { avatar: '/api/users/avatar/7?v=1' } },
    });
    wrap(<UserCenter reloadPage={() => {}} />, '/user/center?type=info');
    const nick = await screen.findByLabelText<HTMLInputElement>('昵称');
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.change(nick, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: '保存配置' }));
    expect(screen.getByText('昵称不能为空')).toBeTruthy();
    fireEvent.change(nick, { target: { value: '张经理' } });
    fireEvent.click(screen.getByLabelText('女'));
    fireEvent.click(screen.getByRole('button', { name: '保存配置' }));
    expect(await screen.findByText('修改成功')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ id: 7, nickName: '张经理', sex: 0, phone: '13811112222' });

    const input = screen.getByTestId<HTMLInputElement>('avatar-input');
    fireEvent.change(input, { target: { files: [new File(['<svg/>'], 'a.svg', { type: 'image/svg+xml' })] } });
    expect(await screen.findByText('头像只能是 JPG、PNG、GIF 或 WEBP 格式的图片')).toBeTruthy();
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(3 * 1024 * 1024)], 'big.png', { type: 'image/png' })] } });
    expect(await screen.findByText('头像大小不能超过 2MB')).toBeTruthy();
    expect(calls.some((c) => c.url.pathname === '/api/users/updateAvatar')).toBe(false);
    fireEvent.change(input, { target: { files: [new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', { type: 'image/png' })] } });
    expect(await screen.findByText('头像修改成功')).toBeTruthy();
    const upload = calls.find((c) => c.url.pathname === '/api/users/updateAvatar')!;
    expect(upload.body).toBeInstanceOf(FormData);
    expect(((upload.body as FormData).get('avatar') as File).name).toBe('a.png');
  });

  it('reset by SMS: the phone is fixed and read-only; 请输入验证码, 新密码不能为空; 密码重置成功，请重新登录 then reload after 1 s', async () => {
    const { calls } = server({
      'GET /api/sendMsg': { body: { message: '发送成功，验证码有效期5分钟' } },
      'POST /api/resetPassword': { body: { message: '密码重置成功，请重新登录' } },
    });
    const reload = vi.fn();
    wrap(<ResetBySmsDialog open phone="13811112222" onClose={() => {}} reloadPage={reload} />);
    const phone = screen.getByLabelText<HTMLInputElement>('手机号');
    expect(phone.value).toBe('13811112222');
    expect(phone.readOnly).toBe(true);
    confirm();
    expect(screen.getByText('请输入验证码')).toBeTruthy();
    expect(screen.getByText('新密码不能为空')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await screen.findByRole('button', { name: /秒后重新获取/ });
    expect(calls.find((c) => c.url.pathname === '/api/sendMsg')!.url.searchParams.get('phone')).toBe('13811112222');
    type('验证码', '112233');
    type('新密码', 'Zhang#2030');
    type('确认密码', 'Zhang#2030');
    confirm();
    expect(await screen.findByText('密码重置成功，请重新登录')).toBeTruthy();
    const body = calls.find((c) => c.url.pathname === '/api/resetPassword')!.body as Record<string, string>;
    expect([body.phone, body.code]).toEqual(['13811112222', '112233']);
    expect(body.password).not.toContain('Zhang');
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1), { timeout: 3000 });
  });
});
