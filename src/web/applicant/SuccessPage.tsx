/** /staffun/success: the end of the onboarding. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { PageFrame } from './PageFrame.tsx';

export default function SuccessPage() {
  return (
    <PageFrame title="应聘人员信息登记表">
      <Box sx={{ textAlign: 'center', py: 6 }}>
        <CheckCircleIcon sx={{ fontSize: 72, color: '#67c23a' }} />
        <Typography component="h2" sx={{ fontSize: 20, fontWeight: 600, mt: 2 }}>
          提交成功
        </Typography>
        <Typography sx={{ color: '#606266', mt: 1 }}>您的应聘信息已提交，我们会尽快与您联系，请保持电话畅通。</Typography>
      </Box>
    </PageFrame>
  );
}
