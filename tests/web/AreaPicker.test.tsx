import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AreaPicker, initialArea } from '../../src/web/applicant/AreaPicker.tsx';

const selected = (label: string) =>
  within(screen.getByRole('listbox', { name: label })).getByRole('option', { selected: true }).textContent;

describe('area picker', () => {
  it('opens on 河南省 / 郑州市 / 中原区 and answers the wheels with 完成', () => {
    const onConfirm = vi.fn();
    render(<AreaPicker open onConfirm={onConfirm} onCancel={() => undefined} />);
    expect(selected('省份')).toBe('河南省');
    expect(selected('城市')).toBe('郑州市');
    expect(selected('区县')).toBe('中原区');
    fireEvent.click(within(screen.getByRole('listbox', { name: '城市' })).getByRole('option', { name: '洛阳市' }));
    // a new city starts at its first district
    expect(selected('区县')).toBe(within(screen.getByRole('listbox', { name: '区县' })).getAllByRole('option')[0].textContent);
    fireEvent.click(within(screen.getByRole('listbox', { name: '省份' })).getByRole('option', { name: '香港特别行政区' }));
    expect(selected('城市')).toBe('香港岛');
    fireEvent.click(screen.getByRole('button', { name: '完成' }));
    expect(onConfirm).toHaveBeenCalledWith({ province: '810000', city: '810100', county: expect.stringMatching(/^8101\d\d$/) as unknown });
  });

  it('取消 answers nothing', () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<AreaPicker open onConfirm={onConfirm} onCancel={onCancel} />);
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    expect(onCancel).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('mode 3 fixes the province to 河南省', () => {
    const onConfirm = vi.fn();
    render(
      <AreaPicker
        open
        mode={3}
        value={{ province: '110000', city: '110100', county: '110101' }}
        onConfirm={onConfirm}
        onCancel={() => undefined}
      />,
    );
    const provinces = within(screen.getByRole('listbox', { name: '省份' })).getAllByRole('option');
    expect(provinces.map((o) => o.textContent)).toEqual(['河南省']);
    fireEvent.click(within(screen.getByRole('listbox', { name: '城市' })).getByRole('option', { name: '开封市' }));
    fireEvent.click(screen.getByRole('button', { name: '完成' }));
    expect(onConfirm.mock.calls[0][0]).toMatchObject({ province: '410000', city: '410200' });
    expect(initialArea({ province: '110000' }, 3)).toEqual({ province: '410000', city: '410100', county: '410102' });
  });

  it('keeps a given value and falls back to the first city and district of another province', () => {
    expect(initialArea({ province: '410000', city: '410100', county: '410105' })).toEqual({
      province: '410000',
      city: '410100',
      county: '410105',
    });
    expect(initialArea({ province: '110000' })).toEqual({ province: '110000', city: '110100', county: '110101' });
    expect(initialArea(undefined)).toEqual({ province: '410000', city: '410100', county: '410102' });
  });
});
