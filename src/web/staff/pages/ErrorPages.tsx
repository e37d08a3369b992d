/**
 * Error and notice pages: 401 (no access: contact the leader, back, 返回首页), 403 (forbidden),
 * 404 (ERROR!, return home, feedback), and the placeholder of a screen still being built.
 */
import { useEffect, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Title } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { markNotATab } from '../shell/tags.ts';

function Notice({ code, title, hint, children }: { code: string; title: string; hint: string; children: ReactNode }) {
  return (
    <Box sx={{ py: 8, textAlign: 'center' }}>
      <Title title={code} />
      <Typography variant="h2" color="text.secondary" gutterBottom>
        {code}
      </Typography>
      <Typography variant="h6" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {hint}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center' }}>{children}</Box>
    </Box>
  );
}

/** 401 / no-permission: the user lacks the menu or key of what they opened. */
export function UnauthorizedPage() {
  const navigate = useNavigate();
  return (
    <Notice code="401" title="抱歉，您无权访问该页面" hint="如需访问，请联系您的领导或系统管理员开通权限。">
      <Button variant="outlined" onClick={() => void navigate(-1)}>
        返回
      </Button>
      <Button variant="contained" href="#/dashboard">
        返回首页
      </Button>
    </Notice>
  );
}

/** 403: an action the account may never take (the admin account at the decision centre...). */
export function ForbiddenPage() {
  return (
    <Notice code="403" title="抱歉，您的账号不能访问该页面" hint="该页面不对当前账号开放，请使用您本人的账号登录后访问。">
      <Button variant="contained" href="#/dashboard">
        返回首页
      </Button>
    </Notice>
  );
}

export function NotFoundPage() {
  const { pathname } = useLocation();
  // the address it stands in for is no screen: no tab for it
  useEffect(() => markNotATab(pathname), [pathname]);
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

/** A menu whose screen is not built yet. */
export function DevelopingPage() {
  return (
    <Box sx={{ py: 10, textAlign: 'center' }}>
      <Title title="建设中" />
      <Typography variant="h6" color="text.secondary">
        页面正在开发建设中......
      </Typography>
    </Box>
  );
}
