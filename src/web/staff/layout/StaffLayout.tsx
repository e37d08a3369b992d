/**
 * The staff console's layout for now: react-admin's Layout with a Chinese app bar, the
 * resource menu and the user menu. The full shell (tags view, settings...) replaces this folder.
 */
import type { ReactNode } from 'react';
import Typography from '@mui/material/Typography';
import { AppBar, Layout, TitlePortal } from 'react-admin';
import { RecordFooter } from '../../components/RecordFooter.tsx';
import { HttpProblemHandler } from './HttpProblemHandler.tsx';
import { StaffMenu } from './StaffMenu.tsx';
import { StaffUserMenu } from './StaffUserMenu.tsx';
import { useSessionSettings } from './useSessionSettings.ts';

function StaffAppBar() {
  const sys = useSessionSettings();
  return (
    <AppBar userMenu={<StaffUserMenu />}>
      <Typography variant="h6" sx={{ mr: 2, whiteSpace: 'nowrap' }}>
        {sys.title || '后台管理系统'}
      </Typography>
      <TitlePortal />
    </AppBar>
  );
}

export function StaffLayout({ children }: { children: ReactNode }) {
  const sys = useSessionSettings();
  return (
    <Layout appBar={StaffAppBar} menu={StaffMenu}>
      {children}
      <RecordFooter
        compName={sys.compName}
        recordNumber={sys.recordNumber}
        sx={{ textAlign: 'center', color: 'text.secondary', py: 2 }}
      />
      <HttpProblemHandler />
    </Layout>
  );
}
