/**
 * 查找地区 in the area picker: regions found by characters, initials, full pinyin and mixed forms,
 * polyphonic characters by every reading, the matched characters marked; a choice turns the wheels.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AreaPicker } from '../../src/web/applicant/AreaPicker.tsx';
import { findRegions, regionEntries } from '../../src/web/applicant/AreaSearch.tsx';
import { pinyinMatcher } from '../../src/shared/pinyin.ts';

const found = () =>
  within(screen.getByRole('listbox', { name: '查找结果' }))
    .queryAllByRole('option')
    .map((o) => o.textContent);
const marks = () =>
  within(screen.getByRole('listbox', { name: '查找结果' }))
    .queryAllByTestId('match')
    .map((m) => m.textContent);
const selected = (label: string) =>
  within(screen.getByRole('listbox', { name: label })).getByRole('option', { selected: true }).textContent;
const type = (text: string) => fireEvent.change(screen.getByLabelText('查找地区'), { target: { value: text } });

describe('area search', () => {
  it('finds provinces, cities and districts by the pinyin rule, with their path', () => {
    const entries = regionEntries();
    const match = pinyinMatcher('text');
    const names = (q: string) => findRegions(entries, q, match).map((e) => [...e.above, e.region.name].join('/'));
    expect(names('bj')[0]).toBe('北京市');
    expect(names('beijing')[0]).toBe('北京市');
    // 重 read chong and zhong: 重庆 by cq and zq
    expect(names('cq')).toContain('重庆市');
    expect(names('zq')).toContain('重庆市');
    expect(names('zhongqing')).toContain('重庆市');
    // 长 chang and zhang: 长沙 by cs and zs
    expect(names('changsha')).toContain('湖南省/长沙市');
    expect(names('zs')).toContain('湖南省/长沙市');
    // 厦 xia and sha
    expect(names('xiamen')).toContain('福建省/厦门市');
    expect(names('shamen')).toContain('福建省/厦门市');
    expect(names('sjzhuang')).toContain('河北省/石家庄市');
    expect(names('中原')).toContain('河南省/郑州市/中原区');
    // a municipality's districts: the city is not repeated
    expect(names('chaoyangq')).toContain('北京市/朝阳区');
    // one province only (mode 3)
    expect(findRegions(regionEntries('410000'), 'bj', pinyinMatcher('text'))).toEqual([]);
  });

  it('in the picker: typing lists and marks the matches, a choice turns the wheels, 完成 answers them', async () => {
    const onConfirm = vi.fn();
    render(<AreaPicker open onConfirm={onConfirm} onCancel={() => undefined} />);
    type('zq');
    await waitFor(() => expect(found()).toContain('重庆市'));
    type('cqs');
    await waitFor(() => expect(found()[0]).toBe('重庆市'));
    expect(marks()[0]).toBe('重庆市');
    type('simingq');
    await waitFor(() => expect(found()).toContain('福建省 / 厦门市 / 思明区'));
    expect(marks()).toEqual(['思明区']);
    fireEvent.click(screen.getByRole('option', { name: '福建省 / 厦门市 / 思明区' }));
    expect(screen.queryByRole('listbox', { name: '查找结果' })).toBeNull();
    expect(selected('省份')).toBe('福建省');
    expect(selected('城市')).toBe('厦门市');
    expect(selected('区县')).toBe('思明区');
    type('bj');
    await waitFor(() => expect(found()[0]).toBe('北京市'));
    fireEvent.keyDown(screen.getByLabelText('查找地区'), { key: 'Enter' });
    expect(selected('省份')).toBe('北京市');
    fireEvent.click(screen.getByRole('button', { name: '完成' }));
    expect(onConfirm).toHaveBeenCalledWith({ province: '110000', city: '110100', county: expect.stringMatching(/^1101\d\d$/) as unknown });
    type('qqqq');
    await waitFor(() => expect(screen.getByText('没有匹配的地区')).toBeTruthy());
  });
});
