/**
 * 数据决策中心 landing (/DecisionCenter/index): admin goes to /403; others get their SSO link
 * (GET api/decision/getDecision) opened in a new tab once per visit (the popped cookie flag:
 * yes after opening, back to no on leaving the page); no link -> /404. The loading state
 * clears after 2000 ms at most. Holders of DecisionCenter:sso also see 登录记录: the sign-in links
 * issued (GET api/decision/sso, paged, newest first).
 */
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TablePager } from '../../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import { useCan } from './system/common.tsx';
import { Title, useGetIdentity } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { request } from '../../common/http.ts';

export const POPPED_COOKIE = 'popped';
export const LOADING_TIMEOUT_MS = 2000;

export function readPopped(cookie: string = document.cookie): boolean {
  return cookie.split(';').some((p) => p.trim() === `${POPPED_COOKIE}=yes`);
}

function setPopped(value: 'yes' | 'no'): void {
  document.cookie = `${POPPED_COOKIE}=${value}; path=/; SameSite=Lax`;
}

interface SsoLink {
  id: number;
  username: string;
  nickName: string | null;
  ip: string | null;
  createTime: string;
}

/** 登录记录: the decision-centre sign-in links issued, 10 a page, newest first. */
export function SsoLinkRecords() {
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<{ content: SsoLink[]; totalElements: number } | null>(null);
  useEffect(() => {
    let live = true;
    request<{ content: SsoLink[]; totalElements: number }>('/api/decision/sso', { query: { page, size: 10, sort: 'id,desc' } })
      .then(({ data }) => live && setRows(data))
      .catch(() => live && setRows({ content: [], totalElements: 0 }));
    return () => {
      live = false;
    };
  }, [page]);
  return (
    <Paper sx={{ maxWidth: 760, mx: 'auto', mt: 4, textAlign: 'left' }} data-testid="sso-records">
      <Typography variant="subtitle1" sx={{ px: 2, pt: 1.5, fontWeight: 600 }}>
        登录记录
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>用户名</TableCell>
            <TableCell>姓名</TableCell>
            <TableCell>IP</TableCell>
            <TableCell>进入时间</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(rows?.content ?? []).map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.username}</TableCell>
              <TableCell>{r.nickName ?? ''}</TableCell>
              <TableCell>{r.ip ?? ''}</TableCell>
              <TableCell>{r.createTime}</TableCell>
            </TableRow>
          ))}
          {rows && rows.content.length === 0 ? (
            <TableRow>
              <TableCell colSpan={4} align="center" sx={{ color: 'text.secondary' }}>
                暂无数据
              </TableCell>
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
      <TablePager count={rows?.totalElements ?? 0} page={page} size={10} onPageChange={setPage} />
    </Paper>
  );
}

export function DecisionCenterPage() {
  const can = useCan();
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
      void navigate('/403', { replace: true });
      return;
    }
    request<{ ssoHref: string | null }>('/api/decision/getDecision', { quiet: true })
      .then(({ data }) => {
        if (!data?.ssoHref) {
          void navigate('/404', { replace: true });
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
      {/* read again once this visit's own link is issued */}
      {can('DecisionCenter:sso') && identity?.username !== 'admin' ? <SsoLinkRecords key={href ?? ''} /> : null}
    </Box>
  );
}
