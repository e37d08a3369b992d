import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DateField, DateTimeField } from '../../src/web/components/DateFields.tsx';

// an English browser: a native date input would show mm/dd/yyyy here
beforeAll(() => {
  Object.defineProperty(window.navigator, 'language', { value: 'en-US', configurable: true });
  Object.defineProperty(window.navigator, 'languages', { value: ['en-US', 'en'], configurable: true });
});

function Harness({ kind, initial = '', onChange }: { kind: 'date' | 'datetime'; initial?: string; onChange: (v: string) => void }) {
  const [v, setV] = useState(initial);
  const Field = kind === 'date' ? DateField : DateTimeField;
  return <Field label="出生日期" value={v} onChange={(x) => (onChange(x), setV(x))} />;
}

/** The picker's own input, once its lazily loaded code has arrived (the placeholder is read-only). */
async function pickerBox(): Promise<HTMLInputElement> {
  let box: HTMLInputElement | undefined;
  await waitFor(
    () => {
      box = screen.getByRole<HTMLInputElement>('textbox', { name: /出生日期/ });
      expect(box.readOnly).toBe(false);
    },
    { timeout: 15000 },
  );
  return box!;
}

describe('date pickers in an English browser', { timeout: 60000 }, () => {
  it('shows an empty date as yyyy-MM-dd and a value in that format', async () => {
    const onChange = vi.fn();
    const { unmount } = render(<Harness kind="date" initial="2024-05-10" onChange={onChange} />);
    const box = await pickerBox();
    expect(box.value).toBe('2024-05-10');
    unmount();
    render(<Harness kind="datetime" initial="2024-05-10 08:30:05" onChange={onChange} />);
    expect((await pickerBox()).value).toBe('2024-05-10 08:30:05');
  });

  it('typing the digits gives yyyy-MM-dd', async () => {
    const onChange = vi.fn();
    render(<Harness kind="date" onChange={onChange} />);
    const box = await pickerBox();
    const user = userEvent.setup();
    await user.click(box);
    await user.keyboard('20240229');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('2024-02-29'));
    expect(box.value).toBe('2024-02-29');
  });

  it('a date that does not exist is marked and passed on as ""; clearing passes ""', async () => {
    const onChange = vi.fn();
    render(<Harness kind="date" onChange={onChange} />);
    const box = await pickerBox();
    const user = userEvent.setup();
    await user.click(box);
    await user.keyboard('20230229');
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(onChange).not.toHaveBeenCalledWith('2023-02-29');
    expect(onChange).toHaveBeenLastCalledWith('');
    // pasted into the box (no section selected once it has lost focus)
    await user.tab();
    fireEvent.change(box, { target: { value: '2024-03-01' } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('2024-03-01'));
    fireEvent.change(box, { target: { value: '' } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(''));
  });

  it('typing a date and time gives yyyy-MM-dd HH:mm:ss (24-hour clock)', async () => {
    const onChange = vi.fn();
    render(<Harness kind="datetime" onChange={onChange} />);
    const box = await pickerBox();
    const user = userEvent.setup();
    await user.click(box);
    await user.keyboard('20240510173005');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('2024-05-10 17:30:05'));
    expect(box.value).toBe('2024-05-10 17:30:05');
  });

  it('picking a day in the calendar gives yyyy-MM-dd, with Chinese labels', async () => {
    const onChange = vi.fn();
    render(<Harness kind="date" initial="2024-05-10" onChange={onChange} />);
    await pickerBox();
    fireEvent.click(screen.getByRole('button', { name: /选择出生日期|选择日期/ }));
    const dialog = await screen.findByRole('dialog');
    // Chinese month heading and weekday initials whatever the browser's language
    expect(dialog.textContent).toMatch(/2024年5月|5月 2024|五月/);
    expect(within(dialog).getAllByText('一').length).toBeGreaterThan(0);
    await act(() => Promise.resolve(fireEvent.click(within(dialog).getByRole('gridcell', { name: '15' }))));
    const ok = within(dialog).queryByRole('button', { name: '确认' });
    if (ok) fireEvent.click(ok);
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('2024-05-15'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /出生日期/ }).value).toBe('2024-05-15');
  });
});
