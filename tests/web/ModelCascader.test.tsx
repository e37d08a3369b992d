import { useState } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ModelCascader, type ModelValue } from '../../src/web/components/ModelCascader.tsx';
import { levelRequiredMessage, type BrandNode, type NodeKind } from '../../src/shared/brand-tree.ts';

const KINDS: NodeKind[] = ['brand', 'series', 'model', 'config', 'colour'];
let nextId = 1;
function node(name: string, level: number, pid: number, hasChildren: boolean): BrandNode {
  return {
    id: nextId++,
    pid,
    name,
    level,
    kind: KINDS[level - 1],
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
    hasChildren,
  };
}

// 大众 / 朗逸 / 2024款 1.5L / 1.5L 自动新逸版 ; and a model 旧款 without configurations
const brand = node('大众', 1, 0, true);
const series = node('朗逸', 2, brand.id, true);
const model = node('2024款 1.5L', 3, series.id, true);
const empty = node('旧款', 3, series.id, false);
const config = node('1.5L 自动新逸版', 4, model.id, true);
const colour = node('极地白', 5, config.id, false);
const children: Record<number, BrandNode[]> = {
  0: [brand],
  [brand.id]: [series],
  [series.id]: [model, empty],
  [model.id]: [config],
  [config.id]: [colour],
};

function Harness({
  level,
  onValue,
  onLevelError,
}: {
  level?: number;
  onValue: (v: ModelValue | null) => void;
  onLevelError?: (m: string) => void;
}) {
  const [value, setValue] = useState<ModelValue | null>(null);
  return (
    <ModelCascader
      label="车型"
      level={level}
      value={value}
      loadChildren={(pid) => Promise.resolve(children[pid] ?? [])}
      onLevelError={onLevelError}
      onChange={(v) => {
        setValue(v);
        onValue(v);
      }}
    />
  );
}

const open = () => fireEvent.click(screen.getByLabelText('车型'));
const choose = async (name: string) => fireEvent.click(await screen.findByRole('option', { name }));

describe('ModelCascader', () => {
  it('loads columns lazily and commits a configuration (level 4 by default) with userCarType', async () => {
    const load = vi.fn((pid: number) => Promise.resolve(children[pid] ?? []));
    const onChange = vi.fn();
    render(<ModelCascader label="车型" value={null} onChange={onChange} loadChildren={load} />);
    open();
    await choose('大众');
    expect(load).toHaveBeenCalledWith(0);
    expect(load).toHaveBeenCalledWith(brand.id);
    expect(load).not.toHaveBeenCalledWith(series.id);
    await choose('朗逸');
    await choose('2024款 1.5L');
    await choose('1.5L 自动新逸版');
    expect(onChange).toHaveBeenLastCalledWith({
      ids: [brand.id, series.id, model.id, config.id],
      names: ['大众', '朗逸', '2024款 1.5L', '1.5L 自动新逸版'],
      userCarType: '大众/朗逸/2024款 1.5L',
      node: config,
    });
    // the colour level is not offered when level 4 is asked for
    expect(load).not.toHaveBeenCalledWith(config.id);
  });

  it("is a select-only combobox: expanded and controlling the columns' listboxes while open", async () => {
    render(<Harness onValue={() => undefined} />);
    const field = screen.getByRole('combobox', { name: '车型' });
    expect(field.getAttribute('aria-expanded')).toBe('false');
    expect(field.getAttribute('aria-controls')).toBeNull();
    expect(field.getAttribute('aria-haspopup')).toBe('listbox');
    open();
    await choose('大众');
    const columns = [await screen.findByRole('listbox', { name: '第1级' }), await screen.findByRole('listbox', { name: '第2级' })];
    await waitFor(() => expect(field.getAttribute('aria-controls')).toBe(columns.map((c) => c.id).join(' ')));
    expect(field.getAttribute('aria-expanded')).toBe('true');
    expect(columns.every((c) => c.id && document.getElementById(c.id) === c)).toBe(true);
  });

  it('closing above the required level clears the pick with the level message', async () => {
    const values: Array<ModelValue | null> = [];
    const errors: string[] = [];
    render(<Harness onValue={(v) => values.push(v)} onLevelError={(m) => errors.push(m)} />);
    open();
    await choose('大众');
    await choose('朗逸');
    await choose('2024款 1.5L');
    fireEvent.keyDown(await screen.findByRole('listbox', { name: '第4级' }), { key: 'Escape' });
    await waitFor(() => expect(errors).toEqual(['请选择到车型配置（第4级）']));
    expect(values.at(-1)).toBeNull();
    expect(screen.getByText('请选择到车型配置（第4级）')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('车型').value).toBe('');
  });

  it('a model without configurations is a dead end: cleared with the message', async () => {
    const values: Array<ModelValue | null> = [];
    render(<Harness onValue={(v) => values.push(v)} />);
    open();
    await choose('大众');
    await choose('朗逸');
    await choose('旧款');
    await waitFor(() => expect(screen.getByText(levelRequiredMessage(4))).toBeTruthy());
    expect(values).toEqual([null]);
  });

  it('the required level is a prop: level 3 commits a model and shows the path', async () => {
    const values: Array<ModelValue | null> = [];
    render(<Harness level={3} onValue={(v) => values.push(v)} />);
    open();
    await choose('大众');
    await choose('朗逸');
    await choose('2024款 1.5L');
    await waitFor(() => expect(values.at(-1)?.node.id).toBe(model.id));
    expect(screen.getByLabelText<HTMLInputElement>('车型').value).toBe('大众 / 朗逸 / 2024款 1.5L');
    expect(levelRequiredMessage(3)).toBe('请选择到车型（第3级）');
    // the clear button empties it
    fireEvent.click(screen.getByLabelText('清空'));
    expect(values.at(-1)).toBeNull();
  });
});
