import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { AdminContext, memoryStore } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { OperationLogsPage } from '../../src/web/staff/pages/OperationLogs.tsx';
import { OutboxPage } from '../../src/web/staff/pages/Outbox.tsx';
import { mockFetch } from './fetchMock.ts';
import { testAuthProvider } from './renderScreen.tsx';

const wrap = (el: ReactElement) =>
  render(
    <MemoryRouter>
      <AdminContext authProvider={testAuthProvider(['log:list', 'outbox:list'])} i18nProvider={i18nProvider} store={memoryStore()}>
        {el}
      </AdminContext>
    </MemoryRouter>,
  );

const log = {
  id: 9,
  username: 'clerk',
  description: '用户登录',
  method: 'POST /api/login',
  params: '{"username":"clerk","password":"******"}',
  requestIp: '10.0.0.2',
  address: '内网IP',
  browser: 'Chrome 131',
  time: 4200,
  logType: 'ERROR',
  exceptionDetail: '用户名或密码错误',
  createTime: '2026-01-02 10:00:00',
};

describe('operation-log screen', { timeout: 60000 }, () => {
  it('lists, filters by keyword, user, date range and errors, and shows a row in detail', async () => {
    const { calls } = mockFetch({ 'GET /api/logs': { body: { content: [log], totalElements: 1 } } });
    wrap(<OperationLogsPage />);
    const table = await screen.findByRole('table', { name: '操作日志' });
    await within(table).findByText('clerk');
    expect(within(table).getByText('用户名或密码错误')).toBeTruthy();
    expect(within(table).getByText('4200ms').closest('[data-colour]')!.getAttribute('data-colour')).toBe('error');
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: ' 登录 ' } });
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'clerk' } });
    // the date picker arrives lazily (until then a read-only box stands in)
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('开始日期').readOnly).toBe(false), { timeout: 15000 });
    fireEvent.change(screen.getByLabelText('开始日期'), { target: { value: '2026-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: '搜索' }));
    expect(await screen.findByText('请选择完整的日期范围（yyyy-MM-dd）')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('结束日期'), { target: { value: '2026-01-31' } });
    fireEvent.click(screen.getByLabelText('只看异常'));
    fireEvent.click(screen.getByRole('button', { name: '搜索' }));
    await within(await screen.findByRole('table', { name: '操作日志' })).findByText('clerk');
    const last = calls.filter((c) => c.url.pathname === '/api/logs').pop()!;
    expect(last.url.searchParams.get('blurry')).toBe('登录');
    expect(last.url.searchParams.get('username')).toBe('clerk');
    expect(last.url.searchParams.getAll('createTime')).toEqual(['2026-01-01', '2026-01-31']);
    expect(last.url.searchParams.get('error')).toBe('true');
    expect(last.url.searchParams.get('page')).toBe('0');
    fireEvent.click(screen.getByText('clerk'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('请求方法：POST /api/login')).toBeTruthy();
    expect(within(dialog).getByText('{"username":"clerk","password":"******"}')).toBeTruthy();
  });

  it('a refused list says why; an empty one says 暂无数据', async () => {
    mockFetch({
      'GET /api/logs': { status: 403, body: { status: 403, message: '没有权限，请联系管理员' } },
      'GET /api/outbox': { body: { content: [], totalElements: 0, provider: { sms: 'outbox', mail: 'outbox' } } },
    });
    wrap(<OperationLogsPage />);
    expect(await screen.findByText('没有权限，请联系管理员')).toBeTruthy();
    wrap(<OutboxPage />);
    expect(await screen.findByText('暂无数据')).toBeTruthy();
  });
});
