/**
 * Screens of schemas with x-entity capabilities: the row switch asks before it saves through
 * updateEnabled (启用成功 / 禁用成功), and the total line shows the server's sum for the
 * current filters.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from './fetchMock.ts';
import { renderScreen } from './renderScreen.tsx';

const LOAD = { timeout: 10000 };

describe('generated screens with capabilities', { timeout: 60000 }, () => {
  it('OS types: the enabled switch confirms, then PUT updateEnabled/{id}, then 禁用成功', async () => {
    const server = mockFetch({
      'GET /api/os/osType': {
        body: {
          content: [{ id: 7, name: '安卓', code: 'android', sort: 1, enabled: true, remark: null, createTime: '2026-01-01 10:00:00' }],
          totalElements: 1,
        },
      },
      'PUT /api/os/osType/updateEnabled/7': { body: { id: 7, enabled: false } },
    });
    renderScreen('osType', ['admin']);
    const toggle = await screen.findByRole('switch', { name: '状态: 启用' }, LOAD);
    fireEvent.click(toggle);
    await screen.findByText('此操作将禁用 是否继续？');
    expect(server.calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await screen.findByText('禁用成功', undefined, LOAD);
    const put = server.calls.find((c) => c.method === 'PUT')!;
    expect(put.url.pathname).toBe('/api/os/osType/updateEnabled/7');
    expect(put.body).toEqual({ enabled: false });
  });

  it('cancelling the confirm saves nothing; without the edit key the switch is disabled', async () => {
    const server = mockFetch({
      'GET /api/jp/jpType': {
        body: {
          content: [
            {
              id: 3,
              name: '销售顾问',
              code: 'xsgw',
              category: '销售',
              sort: 1,
              enabled: false,
              remark: null,
              createTime: '2026-01-01 10:00:00',
            },
          ],
          totalElements: 1,
        },
      },
    });
    const view = renderScreen('jpType', ['jpType:edit']);
    fireEvent.click(await screen.findByRole('switch', { name: '状态: 禁用' }, LOAD));
    await screen.findByText('此操作将启用 是否继续？');
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByText('此操作将启用 是否继续？')).toBeNull());
    expect(server.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    view.unmount();
    renderScreen('jpType', []);
    expect((await screen.findByRole<HTMLInputElement>('switch', { name: '状态: 禁用' }, LOAD)).disabled).toBe(true);
  });

  it('expenses: the total line shows the server total for the list filters', async () => {
    const server = mockFetch({
      'GET /api/expense': {
        body: {
          content: [
            {
              id: 1,
              project: '展厅布置',
              money: 1200.5,
              onTime: '2026-03-01',
              remark: null,
              createTime: '2026-03-01 10:00:00',
              createUser: 'admin',
            },
          ],
          totalElements: 31,
        },
      },
      'GET /api/expense/total': { body: { money: 65432.1, count: 31 } },
    });
    renderScreen('expense', ['admin']);
    const line = await screen.findByRole('status', { name: '合计' }, LOAD);
    await waitFor(() => expect(line.textContent).toBe('合计（共 31 条）：金额(元) 65,432.10'), LOAD);
    const total = server.calls.find((c) => c.url.pathname === '/api/expense/total')!;
    expect(total.url.searchParams.has('page')).toBe(false);
  });

  it('the total line says when the total cannot be loaded', async () => {
    mockFetch({
      'GET /api/expense': { body: { content: [], totalElements: 0 } },
      'GET /api/expense/total': { status: 500, body: { status: 500, message: '服务器错误' } },
    });
    renderScreen('expense', ['admin']);
    await screen.findByText('合计加载失败，请刷新重试', undefined, LOAD);
  });
});
