/** Error pages: /401 (no access, 返回首页) and the 404 page (ERROR!, return home, feedback). */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Title } from 'react-admin';

export function UnauthorizedPage() {
  return (
    <Box sx={{ py: 8, textAlign: 'center' }}>
      <Title title="401" />
      <Typography variant="h2" color="text.secondary" gutterBottom>
        401
      </Typography>
      <Typography variant="h6" gutterBottom>
        抱歉，您无权访问该页面
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        如需访问，请联系您的领导或系统管理员开通权限。
      </Typography>
      <Link href="#/">返回首页</Link>
    </Box>
  );
}

export function NotFoundPage() {
  return (
    <Box sx={{ py: 8, textAlign: 'center' }}>
      <Title title="404" />
      <Typography variant="h3" color="error" gutterBottom>
        ERROR!
      </Typography>
      <Typography variant="h6" gutterBottom>
        您访问的页面不存在
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        请检查您输入的网址是否正确，或者返回首页；如有问题，欢迎反馈。
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center' }}>
        <Button variant="contained" href="#/">
          返回首页
        </Button>
        <Button variant="outlined" href="#/sysQuestion">
          问题反馈
        </Button>
      </Box>
    </Box>
  );
}
