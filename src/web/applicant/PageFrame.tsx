/** The applicant pages' frame: a title bar and a narrow column that fills a phone screen. */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { RecordFooter } from '../components/RecordFooter.tsx';
import { usePublicSettings } from '../settings.ts';

export function PageFrame({ title, children }: { title: string; children: ReactNode }) {
  const sys = usePublicSettings();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: '#f5f7fa' }}>
      <Box
        component="header"
        sx={{ bgcolor: 'primary.main', color: '#fff', py: 1.5, textAlign: 'center', position: 'sticky', top: 0, zIndex: 10 }}
      >
        <Typography component="h1" sx={{ fontSize: 18, fontWeight: 600 }}>
          {title}
        </Typography>
      </Box>
      <Paper component="main" square elevation={0} sx={{ maxWidth: 640, mx: 'auto', px: 2, py: 1.5, minHeight: 'calc(100vh - 52px)' }}>
        {children}
        <RecordFooter
          compName={sys.compName}
          recordNumber={sys.recordNumber}
          sx={{ textAlign: 'center', color: 'text.secondary', pt: 3, pb: 1 }}
        />
      </Paper>
    </Box>
  );
}
