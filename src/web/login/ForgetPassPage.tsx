import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { applyDocumentSettings, usePublicSettings } from '../settings.ts';

/** Password recovery: staff passwords are reset by an administrator (重置密码 in user management). */
export default function ForgetPassPage() {
  const sys = usePublicSettings();
  useEffect(() => applyDocumentSettings('忘记密码', sys), [sys]);
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: '#f0f2f5' }}>
      <Paper sx={{ width: 400, maxWidth: 'calc(100vw - 32px)', p: 3, textAlign: 'center' }}>
        <Typography variant="h6" component="h1" gutterBottom>
          忘记密码
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          请联系系统管理员重置密码，重置后使用新密码登录。
        </Typography>
        <Link href="#/login">返回登录</Link>
      </Paper>
    </Box>
  );
}
