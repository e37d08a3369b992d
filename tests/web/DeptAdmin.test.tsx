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

const node = (id: number, pid: number, name: string, hasChildren: boolean) => ({
  id,
  pid,
  name,
  label: name,
  sort: id,
  enabled: true,
  hasChildren,
  leaf: !hasChildren,
  subCount: hasChildren ? 1 : 0,
  createTime: '2026-01-01 10:00:00',
  disabled: false,
});

function renderDepts(permissions: string[]) {
  return render(
    <AdminContext
      dataProvider={createDataProvider()}
      authProvider={testAuthProvider(permissions)}
      i18nProvider={i18nProvider}
      store={memoryStore()}
    >
      <DeptAdmin />
      <AppNotification />
    </AdminContext>,
  );
}

describe('部门管理', () => {
  it('loads children lazily when a row is expanded', async () => {
    const { calls } = mockFetch({
      'GET /api/dept/lazy': (call) => ({
        body: call.url.searchParams.get('pid') === '1' ? [node(2, 1, '销售部', false)] : [node(1, 0, '总公司', true)],
      }),
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

describe('部门管理 and WeCom contacts', () => {
  const linked = (
    id: number,
    pid: number,
    name: string,
    hasChildren: boolean,
    wecomDeptId: number | null,
    remark: string | null = null,
  ) => ({ ...node(id, pid, name, hasChildren), wecomDeptId, remark });

  it('shows the WeCom buttons only to holders of dept:qywx', async () => {
    mockFetch({
      'GET /api/dept/lazy': { body: [linked(1, 0, '总公司', true, 1)] },
      'GET /api/dept/getDeptList': { body: [] },
    });
    renderDepts(['dept:list', 'dept:edit']);
    await screen.findByText('总公司');
    await waitFor(() => expect(screen.queryByRole('button', { name: '编辑' })).toBeTruthy());
    for (const name of ['同步企业微信部门', '同步成员', '同步到企业微信', '从企业微信删除', '备注'])
      expect(screen.queryByRole('button', { name }), name).toBeNull();
  });

  it('pulls WeCom departments after a confirmation and shows what changed', async () => {
    const { calls } = mockFetch({
      'GET /api/dept/lazy': { body: [linked(1, 0, '总公司', true, 1), linked(5, 0, '洛阳分公司', false, null)] },
      'GET /api/dept/getDeptList': { body: [] },
      'GET /api/dept/syncQwDept': {
        body: {
          total: 4,
          created: ['售后服务部'],
          renamed: ['销售一部 → 销售部'],
          moved: [],
          linked: ['总公司'],
          unchanged: 1,
          unlinked: [],
          skipped: 0,
        },
      },
    });
    renderDepts(['dept:list', 'dept:qywx']);
    await screen.findByText('总公司');
    expect(screen.getByText('ID 1')).toBeTruthy();
    expect(screen.getByText('未同步')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: '同步企业微信部门' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/从企业微信拉取部门/)).toBeTruthy();
    expect(calls.some((c) => c.url.pathname === '/api/dept/syncQwDept')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await screen.findByText('企业微信部门同步完成');
    expect(screen.getByText('新建（1）：售后服务部')).toBeTruthy();
    expect(screen.getByText('改名（1）：销售一部 → 销售部')).toBeTruthy();
    expect(screen.getByText('企业微信共 4 个部门，未变化 1 个')).toBeTruthy();
  });

  it('creates an unsynced department in WeCom, syncs members of a synced one, and edits a note', async () => {
    const { calls } = mockFetch({
      'GET /api/dept/lazy': { body: [linked(1, 0, '总公司', false, 1), linked(5, 0, '洛阳分公司', false, null, '旧备注')] },
      'GET /api/dept/getDeptList': { body: [] },
      'PUT /api/dept/addQw': { body: { id: 5, wecomDeptId: 101, parentid: 1 } },
      'PUT /api/dept/synStaffs': {
        body: { members: 3, bound: ['王强（wangqiang）'], alreadyBound: 1, notOnRoster: ['陌生人（stranger）'], notInWecom: [] },
      },
      'PUT /api/system/deptRemark': { body: { id: 5, remark: '新备注' } },
    });
    renderDepts(['dept:list', 'dept:qywx', 'dept:remark']);
    await screen.findByText('洛阳分公司');
    fireEvent.click(await screen.findByRole('button', { name: '同步到企业微信' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    await screen.findByText('「洛阳分公司」的企业微信部门ID：101');
    expect(calls.find((c) => c.url.pathname === '/api/dept/addQw')?.body).toEqual({ id: 5 });
    fireEvent.click(screen.getByRole('button', { name: '知道了' }));

    fireEvent.click(await screen.findByRole('button', { name: '同步成员' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '确定' }));
    await screen.findByText('本次绑定（1）：王强（wangqiang）');
    expect(screen.getByText('花名册中没有（1）：陌生人（stranger）')).toBeTruthy();
    expect(calls.find((c) => c.url.pathname === '/api/dept/synStaffs')?.body).toEqual({ id: 1 });
    fireEvent.click(screen.getByRole('button', { name: '知道了' }));

    expect(screen.getByText('旧备注')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('button', { name: '备注' })).toHaveLength(2));
    fireEvent.click(screen.getAllByRole('button', { name: '备注' })[1]);
    const form = await screen.findByRole('dialog');
    fireEvent.change(within(form).getByLabelText('备注'), { target: { value: '新备注' } });
    fireEvent.click(within(form).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(calls.find((c) => c.url.pathname === '/api/system/deptRemark')?.body).toEqual({ id: 5, remark: '新备注' }));
  });
});
