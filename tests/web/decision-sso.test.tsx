/**
 * 数据决策中心's 登录记录: the sign-in links issued (GET api/decision/sso), 10 a page, newest first.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SsoLinkRecords } from '../../src/web/staff/pages/DecisionCenter.tsx';
import { mockFetch } from './fetchMock.ts';

afterEach(() => vi.unstubAllGlobals());

const link = (id: number) => ({
  id,
  username: `user${id}`,
  nickName: `用户${id}`,
  ip: '10.0.0.8',
  createTime: `2026-11-25 09:${String(id).padStart(2, '0')}:00`,
});

describe('登录记录', () => {
  it('pages the sign-in links issued, newest first', async () => {
    const { calls } = mockFetch({
      'GET /api/decision/sso': (call) => {
        const page = Number(call.url.searchParams.get('page'));
        const ids = page === 0 ? [12, 11, 10, 9, 8, 7, 6, 5, 4, 3] : [2, 1];
        return { body: { content: ids.map(link), totalElements: 12 } };
      },
    });
    render(<SsoLinkRecords />);
    await screen.findByText('user12');
    expect(screen.getByText('第 1-10 条，共 12 条')).toBeTruthy();
    expect(calls[0].url.searchParams.get('sort')).toBe('id,desc');
    expect(calls[0].url.searchParams.get('size')).toBe('10');
    fireEvent.click(screen.getByRole('button', { name: /next page|下一页/i }));
    await screen.findByText('user1');
    await waitFor(() => expect(calls.map((c) => c.url.searchParams.get('page'))).toEqual(['0', '1']));
    expect(screen.queryByText('user12')).toBeNull();
  });
});
