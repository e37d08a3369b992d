/**
 * The model cascader's 查找 boxes: a column narrows by the shared pinyin rule (initials, full,
 * mixed, every reading of a polyphonic character), the matched characters marked, Enter picks.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ModelCascader } from '../../src/web/components/ModelCascader.tsx';
import type { BrandNode } from '../../src/shared/brand-tree.ts';

let nextId = 100;
function node(name: string, level: number, pid: number): BrandNode {
  return {
    id: nextId++,
    pid,
    name,
    level,
    kind: level === 1 ? 'brand' : 'series',
    sort: 1,
    enabled: true,
    enabledXs: true,
    orgId: null,
    brandNature: null,
    brandTier: null,
    origin: null,
    bodyType: null,
    carClass: null,
    fuelType: null,
    emission: null,
    modelYear: null,
    engine: null,
    gearbox: null,
    colorCode: null,
    price: null,
    remark: null,
    createTime: null,
    updateTime: null,
    hasChildren: level < 2,
  };
}

// 长安 (长: chang and zhang), 重汽 (重: zhong and chong), 红旗, 哈弗, 传祺 and a Latin brand
const brands = ['长安', '重汽', '红旗', '哈弗', '传祺', 'MG名爵'].map((n) => node(n, 1, 0));
const changan = brands[0];
const series = ['逸动', 'UNI-K', '锐程PLUS'].map((n) => node(n, 2, changan.id));
const children: Record<number, BrandNode[]> = { 0: brands, [changan.id]: series };

const options = (column: string) =>
  within(screen.getByRole('listbox', { name: column }))
    .queryAllByRole('option')
    .map((o) => o.textContent);
const marks = (column: string) =>
  within(screen.getByRole('listbox', { name: column }))
    .queryAllByTestId('match')
    .map((m) => m.textContent);

function renderCascader(onChange = vi.fn()) {
  render(
    <ModelCascader label="车型" level={2} value={null} onChange={onChange} loadChildren={(pid) => Promise.resolve(children[pid] ?? [])} />,
  );
  fireEvent.click(screen.getByLabelText('车型'));
  return onChange;
}

const type = (column: number, text: string) => fireEvent.change(screen.getByLabelText(`查找第${column}级`), { target: { value: text } });

describe('ModelCascader pinyin search', () => {
  it('narrows the brands by initials, full pinyin and mixed forms, polyphonic readings included', async () => {
    renderCascader();
    await screen.findByRole('option', { name: '长安' });
    expect(options('第1级')).toHaveLength(brands.length);
    // 长 read chang and zhang, 重 read zhong and chong
    for (const [query, found, marked] of [
      ['ca', ['长安'], ['长安']],
      ['za', ['长安'], ['长安']],
      ['changa', ['长安'], ['长安']],
      // 传 also reads zhuan (传记): both are found by zq
      ['zq', ['重汽', '传祺'], ['重汽', '传祺']],
      ['zhongq', ['重汽'], ['重汽']],
      ['chongq', ['重汽'], ['重汽']],
      ['hq', ['红旗'], ['红旗']],
      ['h', ['红旗', '哈弗'], ['红', '哈']],
      ['cq', ['重汽', '传祺'], ['重汽', '传祺']],
      ['mgmj', ['MG名爵'], ['MG名爵']],
      ['名爵', ['MG名爵'], ['名爵']],
    ] as const) {
      type(1, query);
      await waitFor(() => expect(options('第1级')).toEqual(found));
      expect(marks('第1级')).toEqual(marked);
    }
    type(1, 'xyz');
    await waitFor(() => expect(options('第1级')).toEqual([]));
    expect(screen.getByText('没有匹配的选项')).toBeTruthy();
    type(1, '');
    expect(options('第1级')).toHaveLength(brands.length);
  });

  it('Enter picks the first match; the next column has its own box', async () => {
    const onChange = renderCascader();
    await screen.findByRole('option', { name: '长安' });
    type(1, 'zhangan');
    await waitFor(() => expect(options('第1级')).toEqual(['长安']));
    fireEvent.keyDown(screen.getByLabelText('查找第1级'), { key: 'Enter' });
    await screen.findByRole('listbox', { name: '第2级' });
    await waitFor(() => expect(options('第2级')).toEqual(['逸动', 'UNI-K', '锐程PLUS']));
    type(2, 'rcp');
    await waitFor(() => expect(options('第2级')).toEqual(['锐程PLUS']));
    expect(marks('第2级')).toEqual(['锐程P']);
    type(2, 'yd');
    await waitFor(() => expect(options('第2级')).toEqual(['逸动']));
    fireEvent.keyDown(screen.getByLabelText('查找第2级'), { key: 'Enter' });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ names: ['长安', '逸动'] })));
  });
});
