/**
 * 扫码登录: WeCom's login page for this console (appid, agentid, a fresh single-use state and
 * the console's address to come back to), embedded, with a link to open it in this window.
 * Says so when WeCom sign-in is not configured. The state lives 5 minutes: the panel renews it.
 */
import { useCallback, useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { request } from '../common/http.ts';
import { wecomLoginUrl } from '../../shared/wecom.ts';

export const STATE_RENEW_MS = 4.5 * 60_000;

interface QywxInfo {
  configured: boolean;
  appid?: string;
  agentid?: string;
  state?: string;
  loginUrl?: string;
  message?: string;
}

/** Where WeCom sends the browser back: the console's own address, where the sign-in page reads code and state. */
export function redirectUri(location: Pick<Location, 'origin' | 'pathname'> = window.location): string {
  return `${location.origin}${location.pathname}`;
}

export default function QrPanel() {
  const [info, setInfo] = useState<QywxInfo | null>(null);
  const [error, setError] = useState('');
  const fetchInfo = useCallback(
    () =>
      request<QywxInfo>('/api/getQywxInfo', { quiet: true }).then(
        ({ data }) => setInfo(data),
        (e: unknown) => setError(e instanceof Error ? e.message : '加载失败'),
      ),
    [],
  );
  // each fetch starts without the last failure shown
  const load = useCallback(() => {
    setError('');
    void fetchInfo();
  }, [fetchInfo]);
  useEffect(() => {
    void fetchInfo();
    const timer = setInterval(load, STATE_RENEW_MS);
    return () => clearInterval(timer);
  }, [fetchInfo, load]);

  if (error) {
    return (
      <Box sx={{ minHeight: 240, display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'center', justifyContent: 'center' }}>
        <Alert severity="error">{error}</Alert>
        <Button onClick={load}>重新加载</Button>
      </Box>
    );
  }
  if (!info) {
    return (
      <Box sx={{ minHeight: 240, display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 1 }}>
        <CircularProgress size={20} />
        <Typography color="text.secondary">正在加载二维码...</Typography>
      </Box>
    );
  }
  if (!info.configured || !info.appid || !info.state || !info.loginUrl) {
    return (
      <Box sx={{ minHeight: 240, display: 'flex', alignItems: 'center', justifyContent: 'center', textAlign: 'center' }}>
        <Typography color="text.secondary">
          扫码登录尚未配置
          <br />
          请使用账号登录
        </Typography>
      </Box>
    );
  }
  const url = wecomLoginUrl(info.loginUrl, {
    appid: info.appid,
    agentid: info.agentid ?? '',
    state: info.state,
    redirectUri: redirectUri(),
  });
  return (
    <Box sx={{ textAlign: 'center' }}>
      <Box component="iframe" title="企业微信扫码登录" src={url} sx={{ width: '100%', height: 360, border: 0 }} />
      <Typography variant="body2" color="text.secondary">
        请使用企业微信扫描二维码登录
      </Typography>
      <Link href={url} variant="body2">
        二维码无法显示？点此前往企业微信登录页
      </Link>
    </Box>
  );
}
