import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AT_LEAST_ONE_COLUMN, toggleColumn } from '../../src/web/staff/schema/columnPicker.ts';
import { clickGuard, CLICK_GUARD_MS } from '../../src/web/staff/shell/clickGuard.ts';
import { mockFetch } from './fetchMock.ts';
import { renderScreen } from './renderScreen.tsx';

describe('column picker rules', () => {
  const all = ['a', 'b', 'c'];
  it('hides and shows columns but keeps at least one (请至少选择一列)', () => {
    expect(AT_LEAST_ONE_COLUMN).toBe('请至少选择一列');
    expect(toggleColumn([], 'a', all)).toEqual({ hidden: ['a'], refused: false });
    expect(toggleColumn(['a'], 'a', all)).toEqual({ hidden: [], refused: false });
    expect(toggleColumn(['a', 'b'], 'c', all)).toEqual({ hidden: ['a', 'b'], refused: true });
    // names of columns that no longer exist are dropped
    expect(toggleColumn(['gone'], 'a', all)).toEqual({ hidden: ['a'], refused: false });
  });
});

describe('re-click guard', () => {
  it('ignores a second click within 1000 ms', () => {
    let now = 0;
    const fn = vi.fn();
    const guarded = clickGuard(fn, CLICK_GUARD_MS, () => now);
    guarded();
    now = 999;
    guarded();
    expect(fn).toHaveBeenCalledTimes(1);
    now = 1000;
    guarded();
    expect(fn).toHaveBeenCalledTimes(2);
  });
});

describe('column picker on a list', { timeout: 60000 }, () => {
  it('hides a column from the table and refuses to hide the last one', async () => {
    mockFetch({
      'GET /api/staffunZp': {
        body: {
          content: [
            { id: 1, deptId: 1, job: '销售顾问', money: '6000', address: '郑州', jobNum: 2, jobZz: 'x', jobYq: 'y', enabled: true },
          ],
          totalElements: 1,
        },
      },
      'GET /api/dept': { body: { content: [], totalElements: 0 } },
    });
    renderScreen('staffunZp', ['admin']);
    await screen.findByText('销售顾问', {}, { timeout: 10000 });
    const headers = () => screen.getAllByRole('columnheader', { hidden: true }).map((h) => h.textContent ?? '');
    expect(headers().some((h) => h.startsWith('薪资待遇'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '列设置' }));
    const menu = await screen.findByRole('menu');
    fireEvent.click(within(menu).getByText('薪资待遇'));
    await waitFor(() => expect(headers().some((h) => h.startsWith('薪资待遇'))).toBe(false));
    for (const title of ['招聘岗位', '工作区域']) fireEvent.click(within(menu).getByText(title));
    // 招聘人数 is the last one left
    fireEvent.click(within(menu).getByText('招聘人数'));
    expect(await screen.findByText(AT_LEAST_ONE_COLUMN)).toBeTruthy();
    expect(headers().some((h) => h.startsWith('招聘人数'))).toBe(true);
  });
});
