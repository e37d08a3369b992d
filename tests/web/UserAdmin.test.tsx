/**
 * 用户管理 screen: buttons by permission key, the enable/disable confirm and notice, the
 * organisation fixed without 全部, and the dialog's own checks before anything is sent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { AppNotification } from '../../src/web/staff/layout/AppNotification.tsx';
import { createDataProvider } from '../../src/web/staff/providers/dataProvider.ts';
import { UserAdmin } from '../../src/web/staff/pages/system/UserAdmin.tsx';
import { mockFetch } from './fetchMock.ts';
import { DEFAULT_USER_PASSWORD, PASSWORD_RESET_NOTICE, USER_CREATED_NOTICE } from '../../src/shared/accounts.ts';
import { testAuthProvider } from './renderScreen.tsx';

afterEach(() => vi.unstubAllGlobals());

const USER = {
  id: 7,
  username: 'lisi',
  nickName: '李四',
  phone: '13800138000',
  email: null,
  sex: 1,
  enabled: true,
  deptId: 2,
  orgId: 1,
  dept: { id: 2, name: '销售部' },
  orgName: '总公司',
  createTime: '2026-01-01 10:00:00',
  roles: [{ id: 3, name: '销售顾问', level: 3, dataScope: '本级' }],
};

function routes() {
  return mockFetch({
    'GET /api/dept/getDeptList': {
      body: [
        {
          id: 1,
          pid: 0,
          name: '总公司',
          enabled: true,
          sort: 0,
          hasChildren: true,
          createTime: null,
          children: [{ id: 2, pid: 1, name: '销售部', enabled: true, sort: 1, hasChildren: false, createTime: null }],
        },
      ],
    },
    'GET /api/system/deptRemark/getOrg': { body: [{ id: 1, name: '总公司', enabled: true, remark: null }] },
    'GET /api/roles/all': { body: [{ id: 3, name: '销售顾问', level: 3, dataScope: '本级' }] },
    'GET /api/roles/level': { body: { level: 3 } },
    'GET /api/users': { body: { content: [USER], totalElements: 1 } },
    'PUT /api/users': { status: 204 },
    'POST /api/users/resetPass': { status: 200, body: {} },
  });
}

function renderUsers(permissions: string[], identity: Record<string, unknown> = {}) {
  return render(
    <AdminContext
      dataProvider={createDataProvider()}
      authProvider={testAuthProvider(permissions, {
        username: 'boss',
        orgId: 1,
        roles: [{ id: 9, name: '经理', level: 2, dataScope: '本级' }],
        ...identity,
      })}
      i18nProvider={i18nProvider}
      store={memoryStore()}
    >
      <UserAdmin />
      <AppNotification />
    </AdminContext>,
  );
}

describe('用户管理', () => {
  it('shows the rows with the phone masked, and only the buttons of the held keys', async () => {
    routes();
    renderUsers(['user:list', 'user:add']);
    await screen.findByText('lisi');
    expect(screen.getByText('138****8000')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: '新增' })).toBeTruthy());
    expect(screen.queryByRole('button', { name: '编辑' })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(screen.queryByRole('button', { name: '重置密码' })).toBeNull();
  });

  it('disabling asks 此操作将禁用 是否继续？ and says 禁用成功', async () => {
    const { calls } = routes();
    renderUsers(['user:list', 'user:edit']);
    const toggle = await screen.findByLabelText('lisi状态');
    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(toggle);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('此操作将禁用 是否继续？')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await screen.findByText('禁用成功');
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ id: 7, enabled: false, roles: [{ id: 3 }], deptId: 2, orgId: 1 });
  });

  it('重置密码 names the initial password in its question and in its notice', async () => {
    const { calls } = routes();
    renderUsers(['user:list', 'user:edit']);
    fireEvent.click(await screen.findByRole('button', { name: '重置密码' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(`确定将 lisi 的密码重置为初始密码（${DEFAULT_USER_PASSWORD}）吗？`)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await screen.findByText(PASSWORD_RESET_NOTICE);
    expect(PASSWORD_RESET_NOTICE).toContain(DEFAULT_USER_PASSWORD);
    expect(USER_CREATED_NOTICE).toContain(DEFAULT_USER_PASSWORD);
    expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/users/resetPass')).toBe(true);
  });

  it("without user:sensitive the new user's phone and e-mail are left to its owner (the personal centre)", async () => {
    routes();
    renderUsers(['user:list', 'user:add']);
    fireEvent.click(await screen.findByRole('button', { name: '新增' }));
    const dialog = await screen.findByRole('dialog');
    for (const label of [/电话/, /邮箱/]) expect(within(dialog).getByLabelText<HTMLInputElement>(label).disabled).toBe(true);
    expect(within(dialog).getAllByText('无权填写个人信息，由用户本人在个人中心绑定')).toHaveLength(2);
  });

  it('without 全部 the organisation is fixed; the dialog checks before sending', async () => {
    const { calls } = routes();
    renderUsers(['user:list', 'user:add', 'user:sensitive']);
    fireEvent.click(await screen.findByRole('button', { name: '新增' }));
    const dialog = await screen.findByRole('dialog');
    // 公司 is a pinyin picker: a text field that is disabled when only the caller's company may be chosen
    expect(within(dialog).getByRole<HTMLInputElement>('combobox', { name: /公司/ }).disabled).toBe(true);
    expect(within(dialog).getByText('只能选择本公司')).toBeTruthy();
    // the companies of the caller's data scope (deptRemark/getOrg): here only its own, chosen already
    await waitFor(() => expect(within(dialog).getByRole<HTMLInputElement>('combobox', { name: /公司/ }).value).toBe('总公司'));
    expect(calls.some((c) => c.url.pathname === '/api/system/deptRemark/getOrg')).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('用户名不能为空')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/用户名/), { target: { value: 'wangwu' } });
    fireEvent.change(within(dialog).getByLabelText(/昵称/), { target: { value: '王五' } });
    fireEvent.change(within(dialog).getByLabelText(/电话/), { target: { value: '12345' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await within(dialog).findByText('请输入正确的11位手机号码')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('without user:sensitive the masked phone and e-mail show read-only and are not sent back; the edit still saves', async () => {
    const masked = { ...USER, phone: '138****8000', email: 'l***@example.com' };
    const { calls } = mockFetch({
      'GET /api/dept/getDeptList': {
        body: [
          {
            id: 1,
            pid: 0,
            name: '总公司',
            enabled: true,
            sort: 0,
            hasChildren: true,
            createTime: null,
            children: [{ id: 2, pid: 1, name: '销售部', enabled: true, sort: 1, hasChildren: false, createTime: null }],
          },
        ],
      },
      'GET /api/system/deptRemark/getOrg': { body: [{ id: 1, name: '总公司', enabled: true, remark: null }] },
      'GET /api/roles/all': { body: [{ id: 3, name: '销售顾问', level: 3, dataScope: '本级' }] },
      'GET /api/roles/level': { body: { level: 3 } },
      'GET /api/users': { body: { content: [masked], totalElements: 1 } },
      'PUT /api/users': { status: 204 },
    });
    renderUsers(['user:list', 'user:edit']);
    await screen.findByText('lisi');
    fireEvent.click(await screen.findByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog');
    const phone = within(dialog).getByLabelText<HTMLInputElement>(/电话/);
    expect(phone.value).toBe('138****8000');
    expect(phone.disabled).toBe(true);
    expect(within(dialog).getAllByText('已脱敏显示，无权查看或修改完整信息')).toHaveLength(2);
    fireEvent.change(within(dialog).getByLabelText(/昵称/), { target: { value: '李四四' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await screen.findByText('编辑成功');
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ id: 7, nickName: '李四四' });
    expect(put?.body).not.toHaveProperty('phone');
    expect(put?.body).not.toHaveProperty('email');
  });

  it('with user:sensitive the phone and e-mail are editable and sent', async () => {
    const { calls } = routes();
    renderUsers(['user:list', 'user:edit', 'user:sensitive']);
    await screen.findByText('lisi');
    fireEvent.click(await screen.findByRole('button', { name: '编辑' }));
    const dialog = await screen.findByRole('dialog');
    const phone = within(dialog).getByLabelText<HTMLInputElement>(/电话/);
    expect(phone.disabled).toBe(false);
    fireEvent.change(phone, { target: { value: '13900139000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await screen.findByText('编辑成功');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ id: 7, phone: '13900139000' });
  });
});
