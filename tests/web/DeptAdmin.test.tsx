/**
 * 部门管理 screen: roots first, children loaded when a row is expanded (api/dept/lazy?pid=),
 * the server's refusal shown as it says, and buttons by key.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { AppNotification } from '../../src/web/staff/layout/AppNotification.tsx';
import { createDataProvider } from '../../src/web/staff/providers/dataProvider.ts';
import { DeptAdmin } from '../../src/web/staff/pages/system/DeptAdmin.tsx';
import { mockFetch } from './fetchMock.ts';
import { testAuthProvider } from './renderScreen.tsx';

afterEach(() => vi.unstubAllGlobals());

const node = (id: number, pid: number, name: string, hasChildren: boolean) => ({ id, pid, name, label: name, sort: id, enabled: true, hasChildren, leaf: !hasChildren, subCount: hasChildren ? 1 : 0, createTime: '2026-01-01 10:00:00', disabled: false });

function renderDepts(permissions: string[]) {
  return render(
    <AdminContext dataProvider={createDataProvider()} authProvider={testAuthProvider(permissions)} i18nProvider={i18nProvider} store={memoryStore()}>
      <DeptAdmin />
      <AppNotification />
    </AdminContext>,
  );
}

describe('部门管理', () => {
  it('loads children lazily when a row is expanded', async () => {
    const { calls } = mockFetch({
      'GET /api/dept/lazy': (call) => ({ body: call.url.searchParams.get('pid') === '1' ? [node(2, 1, '销售部', false)] : [node(1, 0, '总公司', true)] }),
      'GET /api/dept/getDeptList': { body: [] },
    });
    renderDepts(['dept:list']);
    await screen.findByText('总公司');
    expect(screen.queryByText('销售部')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '展开' }));
    await screen.findByText('销售部');
    expect(calls.filter((c) => c.url.pathname === '/api/dept/lazy').map((c) => c.url.searchParams.get('pid'))).toEqual(['0', '1']);
    // no keys: no buttons
    expect(screen.queryByRole('button', { name: '新增' })).toBeNull();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
  });

  it('delete asks first and sends the id; a refusal keeps the row', async () => {
    const { calls } = mockFetch({
      'GET /api/dept/lazy': { body: [node(1, 0, '总公司', true)] },
      'GET /api/dept/getDeptList': { body: [] },
      'DELETE /api/dept': { status: 400, body: { status: 400, message: '所选部门存在下级部门，请先删除下级部门', timestamp: 'x' } },
    });
    renderDepts(['dept:list', 'dept:del', 'dept:add']);
    await screen.findByText('总公司');
    await waitFor(() => expect(screen.queryByRole('button', { name: '删除' })).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: '删除' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('确定删除本条数据吗？')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual([1]);
    expect(screen.queryByText('删除成功')).toBeNull();
    expect(screen.getByText('总公司')).toBeTruthy();
  });
});
