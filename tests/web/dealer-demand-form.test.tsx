import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { DemandDialog, EMPTY_DEMAND, type DemandFormValues } from '../../src/web/dealer/DemandForm.tsx';
import { mockFetch } from './fetchMock.ts';

const n = (id: number, pid: number, name: string, level: number, children?: unknown[]) => ({
  id,
  pid,
  name,
  level,
  kind: 'brand',
  enabled: true,
  ...(children ? { children } : {}),
});
/** GET comp/dbcCompany/getTree?levels=4: 大众 / 朗逸 / 2024款 1.5L / two configurations; 旧款 has none */
const TREE = [
  n(1, 0, '大众', 1, [
    n(2, 1, '朗逸', 2, [n(3, 2, '2024款 1.5L', 3, [n(4, 3, '1.5L 自动新逸版', 4), n(5, 3, '1.5L 自动满逸版', 4)]), n(6, 2, '旧款', 3)]),
  ]),
];

const FILLED: DemandFormValues = {
  ...EMPTY_DEMAND,
  userCph: '豫A12345',
  userVin: 'LSVAU218XN2183294',
  bah: 'BA20260001',
  wxgsf: '1500',
  wxts: '7',
  startTime: '2026-11-01 09:00:00',
  endTime: '2026-11-08 09:00:00',
  mfts: '5',
  zfts: '2',
  createUser: '王经理',
};

const choose = async (name: string) => fireEvent.click(await screen.findByRole('option', { name }));

afterEach(() => cleanup());

describe('dealer demand form: car type', () => {
  it('picks a configuration in the cascader and sends the brand/series/model path with its ids', async () => {
    const { calls } = mockFetch({ 'GET /comp/dbcCompany/getTree': { body: TREE } });
    const onSubmit = vi.fn(async (_body: Record<string, unknown>) => {});
    render(
      <DemandDialog open title="提交用车需求" width={1000} customerName="张伟" initial={FILLED} onClose={() => {}} onSubmit={onSubmit} />,
    );
    // nothing picked: the form says so and sends nothing
    fireEvent.click(screen.getByTestId('demand-submit'));
    await screen.findAllByText('车型不能为空');
    expect(onSubmit).not.toHaveBeenCalled();
    // stopping at a model without configurations clears the pick
    fireEvent.click(screen.getByLabelText(/^车型/));
    await choose('大众');
    await choose('朗逸');
    await choose('旧款');
    await screen.findByText('请选择到车型配置（第4级）');
    expect(screen.getByLabelText<HTMLInputElement>(/^车型/).value).toBe('');
    fireEvent.click(screen.getByLabelText(/^车型/));
    await choose('大众');
    await choose('朗逸');
    await choose('2024款 1.5L');
    await choose('1.5L 自动满逸版');
    expect(screen.getByLabelText<HTMLInputElement>(/^车型/).value).toBe('大众 / 朗逸 / 2024款 1.5L / 1.5L 自动满逸版');
    fireEvent.click(screen.getByTestId('demand-submit'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      userCarType: '大众/朗逸/2024款 1.5L',
      carTypeIds: [1, 2, 3, 5],
      userCph: '豫A12345',
    });
    // the tree was read once, down to the configuration
    const reads = calls.filter((c) => c.url.pathname === '/comp/dbcCompany/getTree');
    expect(reads).toHaveLength(1);
    expect(reads[0].url.searchParams.get('levels')).toBe('4');
  });

  it('keeps the saved car type of an edited demand (sent without ids) until another is picked', async () => {
    mockFetch({ 'GET /comp/dbcCompany/getTree': { body: TREE } });
    const onSubmit = vi.fn(async (_body: Record<string, unknown>) => {});
    render(
      <DemandDialog
        open
        title="编辑"
        width={1000}
        customerName="张伟"
        initial={{ ...FILLED, userCarType: '大众/朗逸/2024款 1.5L' }}
        onClose={() => {}}
        onSubmit={onSubmit}
      />,
    );
    expect(screen.getByLabelText<HTMLInputElement>(/^车型/).value).toBe('大众 / 朗逸 / 2024款 1.5L');
    fireEvent.click(screen.getByTestId('demand-submit'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const body = onSubmit.mock.calls[0][0];
    expect(body.userCarType).toBe('大众/朗逸/2024款 1.5L');
    expect(body.carTypeIds).toBeUndefined();
  });
});
