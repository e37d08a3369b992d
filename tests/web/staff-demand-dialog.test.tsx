import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StaffDemandDialog } from '../../src/web/staff/resources/dbcUserInfo/StaffDemandDialog.tsx';
import userEvent from '@testing-library/user-event';
import { mockFetch } from './fetchMock.ts';

const n = (id: number, pid: number, name: string, level: number, hasChildren: boolean) => ({
  id,
  pid,
  name,
  level,
  kind: 'brand',
  enabled: true,
  hasChildren,
});
/** GET /api/brandTree/getTreeByPid?pid=&enabled=true */
const CHILDREN: Record<string, unknown[]> = {
  '0': [n(1, 0, '大众', 1, true)],
  '1': [n(2, 1, '朗逸', 2, true)],
  '2': [n(3, 2, '2024款 1.5L', 3, true)],
  '3': [n(4, 3, '1.5L 自动新逸版', 4, true)],
};

afterEach(() => cleanup());

describe('staff 代客提交用车需求', { timeout: 60000 }, () => {
  it('picks the car type in the cascader from the staff brand tree and submits for the customer and its company', async () => {
    const { calls } = mockFetch({
      'GET /api/brandTree/getTreeByPid': (call) => ({ body: CHILDREN[call.url.searchParams.get('pid') ?? ''] ?? [] }),
      'POST /api/dbc/dbcInfo/submitDbcInfo': { status: 201, body: { id: 9 } },
    });
    const notify = vi.fn();
    const onSaved = vi.fn();
    render(<StaffDemandDialog customer={{ id: 7, compId: 3, surname: '张伟' }} onClose={() => {}} onSaved={onSaved} notify={notify} />);
    screen.getByRole('heading', { name: '代客提交用车需求' });
    fireEvent.click(screen.getByTestId('demand-submit'));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('车型不能为空', 'error'));
    fireEvent.click(screen.getByLabelText(/^车型/));
    for (const name of ['大众', '朗逸', '2024款 1.5L', '1.5L 自动新逸版']) fireEvent.click(await screen.findByRole('option', { name }));
    expect(screen.getByLabelText<HTMLInputElement>(/^车型/).value).toBe('大众 / 朗逸 / 2024款 1.5L / 1.5L 自动新逸版');
    const fill = (field: string, value: string) =>
      fireEvent.change(document.querySelector(`[data-field="${field}"]`)!, { target: { value } });
    fill('userCph', '豫A12345');
    fill('userVin', 'LSVAU218XN2183294');
    fill('bah', 'BA20260001');
    fill('wxgsf', '1500');
    fill('wxts', '7');
    // 开始时间 / 结束时间 are yyyy-MM-dd HH:mm:ss pickers (loaded lazily): typed as digits
    const user = userEvent.setup();
    for (const [label, digits] of [
      ['开始时间', '20261101090000'],
      ['结束时间', '20261108090000'],
    ]) {
      let box: HTMLInputElement | undefined;
      await waitFor(
        () => {
          box = screen.getByRole<HTMLInputElement>('textbox', { name: new RegExp(`^${label}`) });
          expect(box.readOnly).toBe(false);
        },
        { timeout: 15000 },
      );
      await user.click(box!);
      await user.keyboard(digits);
    }
    fill('mfts', '5');
    fill('zfts', '2');
    fill('createUser', '王经理');
    fireEvent.click(screen.getByTestId('demand-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/dbc/dbcInfo/submitDbcInfo');
    expect(post.body).toMatchObject({
      duId: 7,
      compId: 3,
      userCarType: '大众/朗逸/2024款 1.5L',
      carTypeIds: [1, 2, 3, 4],
      userCph: '豫A12345',
    });
    expect(notify).toHaveBeenLastCalledWith('提交成功', 'success');
    // the staff tree loader asks for enabled nodes only
    expect(
      calls.filter((c) => c.url.pathname === '/api/brandTree/getTreeByPid').every((c) => c.url.searchParams.get('enabled') === 'true'),
    ).toBe(true);
  });
});
