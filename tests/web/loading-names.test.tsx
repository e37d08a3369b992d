import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import CircularProgress from '@mui/material/CircularProgress';
import { AdminContext, LoadingIndicator } from 'react-admin';
import { staffTheme } from '../../src/web/staff/theme.ts';
import { loginTheme } from '../../src/web/common/loginTheme.ts';

/** A query that never settles: react-admin counts it as loading for the whole test (placed after the indicator, which watches from its first effect). */
function Pending() {
  useQuery({ queryKey: ['pending'], queryFn: () => new Promise(() => undefined) });
  return null;
}

describe('spinners are named (axe: aria-progressbar-name)', () => {
  it("react-admin's app-bar loading indicator, shown while a request is in flight, reads 加载中", async () => {
    render(
      <AdminContext theme={staffTheme}>
        <LoadingIndicator />
        <Pending />
      </AdminContext>,
    );
    expect(await screen.findByRole('progressbar', { name: '加载中' })).toBeTruthy();
  });

  it('a spinner whose place names it keeps its own name, on the sign-in theme too', () => {
    render(
      <ThemeProvider theme={createTheme(loginTheme)}>
        <CircularProgress />
        <CircularProgress aria-label="正在加载" />
      </ThemeProvider>,
    );
    expect(screen.getAllByRole('progressbar').map((el) => el.getAttribute('aria-label'))).toEqual(['加载中', '正在加载']);
  });
});
