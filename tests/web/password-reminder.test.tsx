import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PasswordReminder } from '../../src/web/staff/shell/PasswordReminder.tsx';
import { mockFetch } from './fetchMock.ts';
import { elapse } from '../support/wait.ts';

const MESSAGE = '您的密码已使用85天，请尽快修改密码；密码使用满90天将提示修改，满100天将无法登录。';

function renderReminder() {
  return render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <Routes>
        <Route path="/dashboard" element={<PasswordReminder />} />
        <Route path="/user/center" element={<p>个人中心页</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('password-age reminder notice', () => {
  it('shows the reminder; 去修改 marks it read and opens the personal centre', async () => {
    const { calls } = mockFetch({
      'GET /api/jobs/passwordReminder': { body: { reminder: { id: 1, days: 85, message: MESSAGE } } },
      'PUT /api/jobs/passwordReminder/read': { status: 204 },
    });
    renderReminder();
    await screen.findByText(MESSAGE);
    fireEvent.click(screen.getByRole('button', { name: '去修改' }));
    await screen.findByText('个人中心页');
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url.pathname === '/api/jobs/passwordReminder/read')).toBe(true));
  });

  it('知道了 closes it; no reminder shows nothing', async () => {
    const { calls } = mockFetch({
      'GET /api/jobs/passwordReminder': { body: { reminder: { id: 1, days: 85, message: MESSAGE } } },
      'PUT /api/jobs/passwordReminder/read': { status: 204 },
    });
    const { unmount } = renderReminder();
    await screen.findByText(MESSAGE);
    fireEvent.click(screen.getByRole('button', { name: '知道了' }));
    await waitFor(() => expect(screen.queryByText(MESSAGE)).toBeNull());
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    unmount();

    const second = mockFetch({ 'GET /api/jobs/passwordReminder': { body: { reminder: null } } });
    renderReminder();
    await waitFor(() => expect(second.calls.some((c) => c.url.pathname === '/api/jobs/passwordReminder')).toBe(true));
    await elapse(50); // the answer's render: nothing is shown for an empty reminder
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
