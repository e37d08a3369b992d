/**
 * 数据决策中心 landing (/DecisionCenter/index): admin goes to /403; others get their SSO link
 * (GET api/decision/getDecision) opened in a new tab once per visit (the popped cookie flag:
 * yes after opening, back to no on leaving the page); no link -> /404. The loading state
 * clears after 2000 ms at most.
 */
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { Title, useGetIdentity } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { request } from '../providers/http.ts';

export const POPPED_COOKIE = 'popped';
export const LOADING_TIMEOUT_MS = 2000;

export function readPopped(cookie: string = document.cookie): boolean {
  return cookie.split(';').some((p) => p.trim() === `${POPPED_COOKIE}=yes`);
}

function setPopped(value: 'yes' | 'no'): void {
  document.cookie = `${POPPED_COOKIE}=${value}; path=/; SameSite=Lax`;
}

export function DecisionCenterPage() {
  const navigate = useNavigate();
  const { identity, isPending } = useGetIdentity();
  const [loading, setLoading] = useState(true);
  const [href, setHref] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    const timer = setTimeout(() => setLoading(false), LOADING_TIMEOUT_MS);
    return () => {
      clearTimeout(timer);
      setPopped('no');
    };
  }, []);

  useEffect(() => {
    if (isPending || started.current) return;
    started.current = true;
    if (identity?.username === 'admin') {
      navigate('/403', { replace: true });
      return;
    }
    request<{ ssoHref: string | null }>('/api/decision/getDecision', { quiet: true })
      .then(({ data }) => {
        if (!data?.ssoHref) {
          navigate('/404', { replace: true });
          return;
        }
        setHref(data.ssoHref);
        if (!readPopped()) {
          window.open(data.ssoHref, '_blank', 'noopener');
          setPopped('yes');
        }
      })
      .catch(() => navigate('/404', { replace: true }))
      .finally(() => setLoading(false));
  }, [identity, isPending, navigate]);

  return (
    <Box sx={{ py: 8, textAlign: 'center' }}>
      <Title title="数据决策中心" />
      {loading && <CircularProgress size={28} sx={{ mb: 2 }} />}
      <Typography variant="h6" gutterBottom>
        正在进入数据决策中心...
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, justifyContent: 'center', my: 3 }}>
        <Button variant="outlined" href="#/dashboard">
          返回首页
        </Button>
        <Button variant="contained" disabled={!href} onClick={() => href && window.open(href, '_blank', 'noopener')}>
          进入数据中心
        </Button>
      </Box>
      <Alert severity="info" sx={{ maxWidth: 520, mx: 'auto', textAlign: 'left' }}>
        如看不到报表，请联系系统管理员开通数据中心权限；管理员账号不能进入数据决策中心。
      </Alert>
    </Box>
  );
}
