import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DateTextField } from '../../src/web/staff/schema/DateTextField.tsx';
import { mockFetch } from './fetchMock.ts';
import { renderScreen } from './renderScreen.tsx';

/** The picker's own input, once its lazily loaded code has arrived (the placeholder is read-only). */
async function pickerBox(name: string): Promise<HTMLInputElement> {
  let box: HTMLInputElement | undefined;
  await waitFor(
    () => {
      box = screen.getByRole<HTMLInputElement>('textbox', { name: new RegExp(name.replace(/[()]/g, '\\$&')) });
      expect(box.readOnly).toBe(false);
    },
    { timeout: 15000 },
  );
  return box!;
}

describe('yyyy-MM-dd date field', { timeout: 60000 }, () => {
  it('passes on real dates only, marks impossible ones, and passes on clearing', async () => {
    const onChange = vi.fn();
    function Harness() {
      const [v, setV] = useState('');
      return <DateTextField label="创建时间(开始)" value={v} onChange={(x) => (onChange(x), setV(x))} />;
    }
    render(<Harness />);
    const box = await pickerBox('创建时间(开始)');
    const user = userEvent.setup();
    await user.click(box);
    await user.keyboard('20230229');
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(box.value).toBe('2023-02-29');
    // the impossible date is never passed on; what an earlier keystroke passed (2023-02-02) is taken back
    expect(onChange).not.toHaveBeenCalledWith('2023-02-29');
    expect(onChange).toHaveBeenLastCalledWith('');
    // pasted into the box (no section selected once it has lost focus)
    await user.tab();
    fireEvent.change(box, { target: { value: '2024-02-29' } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('2024-02-29'));
    expect(box.value).toBe('2024-02-29');
    expect(box.getAttribute('aria-invalid')).toBe('false');
    fireEvent.change(box, { target: { value: '' } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(''));
    expect(screen.getByRole('button', { name: '选择创建时间(开始)' })).toBeTruthy();
  });

  it('a creation-time range filters the list from 00:00:00 to 23:59:59', async () => {
    const { calls } = mockFetch({
      'GET /api/staffunZp': { body: { content: [], totalElements: 0 } },
      'GET /api/dept': { body: { content: [], totalElements: 0 } },
    });
    renderScreen('staffunZp', ['admin']);
    const from = await pickerBox('创建时间(开始)');
    fireEvent.change(from, { target: { value: '2024-05-10' } });
    fireEvent.change(await pickerBox('创建时间(结束)'), { target: { value: '2024-05-01' } });
    await waitFor(
      () => {
        const last = calls.filter((c) => c.url.pathname === '/api/staffunZp').at(-1)!;
        expect(last.url.searchParams.getAll('createTime')).toEqual(['2024-05-01 00:00:00', '2024-05-10 23:59:59']);
      },
      { timeout: 10000 },
    );
  });
});

describe('date-range shortcuts', { timeout: 60000 }, () => {
  it('today to 今天 / 明天 / 3天后 / 1周后 / 半个月后 / 1个月后', async () => {
    const { DATE_SHORTCUTS, shortcutRange } = await import('../../src/web/staff/schema/dateShortcuts.ts');
    expect(DATE_SHORTCUTS).toEqual(['今天', '明天', '3天后', '1周后', '半个月后', '1个月后']);
    const now = new Date(2024, 0, 31, 15, 30);
    expect(shortcutRange('今天', now)).toEqual(['2024-01-31', '2024-01-31']);
    expect(shortcutRange('明天', now)).toEqual(['2024-01-31', '2024-02-01']);
    expect(shortcutRange('3天后', now)).toEqual(['2024-01-31', '2024-02-03']);
    expect(shortcutRange('1周后', now)).toEqual(['2024-01-31', '2024-02-07']);
    expect(shortcutRange('半个月后', now)).toEqual(['2024-01-31', '2024-02-15']);
    // no Feb 31st: the last day of February
    expect(shortcutRange('1个月后', now)).toEqual(['2024-01-31', '2024-02-29']);
    expect(shortcutRange('1个月后', new Date(2024, 11, 15))).toEqual(['2024-12-15', '2025-01-15']);
  });

  it('a shortcut fills both ends and filters the list', async () => {
    const { shortcutRange } = await import('../../src/web/staff/schema/dateShortcuts.ts');
    const { calls } = mockFetch({
      'GET /api/staffunZp': { body: { content: [], totalElements: 0 } },
      'GET /api/dept': { body: { content: [], totalElements: 0 } },
    });
    renderScreen('staffunZp', ['admin']);
    fireEvent.click(await screen.findByRole('button', { name: '创建时间快捷选择' }, { timeout: 10000 }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '3天后' }));
    const [from, to] = shortcutRange('3天后');
    await waitFor(
      () => {
        const last = calls.filter((c) => c.url.pathname === '/api/staffunZp').at(-1)!;
        expect(last.url.searchParams.getAll('createTime')).toEqual([`${from} 00:00:00`, `${to} 23:59:59`]);
      },
      { timeout: 10000 },
    );
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: '创建时间(结束)', hidden: true }).value).toBe(to);
  });
});
