/**
 * Personal data that came masked (the user lacks `<permission>:sensitive`): the edit dialog
 * shows it read-only with a note and leaves it out of the update, so the mask is never written
 * back; a holder of the key edits it as usual.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from './fetchMock.ts';
import { renderScreen } from './renderScreen.tsx';

const LOAD = { timeout: 10000 };
const masked = {
  id: 5,
  mobile: '139****5678',
  surname: '张三',
  sex: 1,
  mid: 'M001',
  status: 1,
  subscribe: 1,
  idno: '1101*********1002X',
  birthday: '1990-**-**',
  createTime: '2024-05-03 10:00:00',
};
const full = { ...masked, mobile: '13912345678', surname: '张三', idno: '11010519491231002X', birthday: '1990-01-02' };

async function openEdit() {
  const button = await screen.findByRole('button', { name: '编辑' }, LOAD);
  fireEvent.click(button);
  return within(await screen.findByRole('dialog'));
}

describe('masked personal data in the edit dialog', { timeout: 60000 }, () => {
  it('without the key: masked fields are read-only, marked, and not sent', async () => {
    const { calls } = mockFetch({
      'GET /api/dbc/dbcMember': { body: { content: [masked], totalElements: 1 } },
      'PUT /api/dbc/dbcMember': { status: 204 },
    });
    renderScreen('dbcMember', ['dbcMember:list', 'dbcMember:edit']);
    const dialog = await openEdit();
    const mobile = dialog.getByLabelText<HTMLInputElement>(/手机号/);
    expect(mobile.value).toBe('139****5678');
    expect(mobile.readOnly).toBe(true);
    expect(dialog.getAllByText('已脱敏显示，无权查看或修改完整信息').length).toBeGreaterThanOrEqual(3);
    fireEvent.change(dialog.getByLabelText(/会员ID/), { target: { value: 'M002' } });
    fireEvent.click(dialog.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true), LOAD);
    const body = calls.find((c) => c.method === 'PUT')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ id: 5, mid: 'M002' });
    for (const name of ['mobile', 'idno', 'birthday']) expect(body, name).not.toHaveProperty(name);
  });

  it('with the key: the fields are editable and sent', async () => {
    const { calls } = mockFetch({
      'GET /api/dbc/dbcMember': { body: { content: [full], totalElements: 1 } },
      'PUT /api/dbc/dbcMember': { status: 204 },
    });
    renderScreen('dbcMember', ['dbcMember:list', 'dbcMember:edit', 'dbcMember:sensitive']);
    const dialog = await openEdit();
    const mobile = dialog.getByLabelText<HTMLInputElement>(/手机号/);
    expect(mobile.readOnly).toBe(false);
    expect(dialog.queryByText('已脱敏显示，无权查看或修改完整信息')).toBeNull();
    fireEvent.change(mobile, { target: { value: '13800000000' } });
    fireEvent.click(dialog.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true), LOAD);
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ id: 5, mobile: '13800000000', idno: '11010519491231002X' });
  });
});
