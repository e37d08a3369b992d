/**
 * 发件箱 (/outbox, outbox:list): the SMS and e-mail messages the development providers kept
 * instead of sending (when no SMS service or SMTP server is configured), newest first.
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TableState } from '../../components/TableState.tsx';
import { TablePager } from '../../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { Title } from 'react-admin';
import { request } from '../../common/http.ts';
import { PAGE_SIZES } from './OperationLogs.tsx';
import { ScrollX } from '../../components/ScrollX.tsx';

interface OutboxRow {
  id: number;
  channel: 'sms' | 'email';
  target: string;
  subject: string;
  content: string;
  createTime: string;
}

interface Answer {
  content: OutboxRow[];
  totalElements: number;
  provider: { sms: string; mail: string };
}

export function OutboxPage() {
  const [channel, setChannel] = useState('');
  const [target, setTarget] = useState('');
  const [applied, setApplied] = useState({ channel: '', target: '' });
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [data, setData] = useState<Answer | null>(null);
  const [error, setError] = useState('');
  // another page, size or filter: the table empties until its answer comes
  const [loadedFor, setLoadedFor] = useState({ applied, page, size });
  if (loadedFor.applied !== applied || loadedFor.page !== page || loadedFor.size !== size) {
    setLoadedFor({ applied, page, size });
    setData(null);
    setError('');
  }
  useEffect(() => {
    request<Answer>('/api/outbox', { query: { page, size, ...applied }, quiet: true })
      .then((res) => setData(res.data))
      .catch((e: unknown) => {
        setData({ content: [], totalElements: 0, provider: { sms: '', mail: '' } });
        setError(e instanceof Error ? e.message : '加载失败');
      });
  }, [applied, page, size]);

  const real = data && (data.provider.sms !== 'outbox' || data.provider.mail !== 'outbox');
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="发件箱" />
      <Alert severity="info" sx={{ mb: 1 }}>
        未配置短信服务或邮件服务器时，验证码短信和邮件不会真正发出，而是保存在这里。
        {real
          ? `当前：短信${data.provider.sms === 'outbox' ? '保存在发件箱' : '由短信服务发送'}，邮件${data.provider.mail === 'outbox' ? '保存在发件箱' : '由邮件服务器发送'}。`
          : ''}
      </Alert>
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(0);
          setApplied({ channel, target: target.trim() });
        }}
        sx={{ display: 'flex', gap: 1, mb: 1, flexWrap: 'wrap' }}
      >
        <TextField select size="small" label="渠道" value={channel} onChange={(e) => setChannel(e.target.value)} sx={{ minWidth: 120 }}>
          <MenuItem value="">全部</MenuItem>
          <MenuItem value="sms">短信</MenuItem>
          <MenuItem value="email">邮件</MenuItem>
        </TextField>
        <TextField size="small" label="接收人" placeholder="手机号或邮箱" value={target} onChange={(e) => setTarget(e.target.value)} />
        <Button type="submit" variant="contained" size="small">
          搜索
        </Button>
      </Box>
      {data === null ? <LinearProgress aria-label="正在加载" /> : null}
      {error ? <Alert severity="error">{error}</Alert> : null}
      <ScrollX>
        <Table size="small" aria-label="发件箱">
          <TableHead>
            <TableRow>
              <TableCell>渠道</TableCell>
              <TableCell>接收人</TableCell>
              <TableCell>主题</TableCell>
              <TableCell>内容</TableCell>
              <TableCell>时间</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data?.content.map((r) => (
              <TableRow key={r.id}>
                <TableCell>{r.channel === 'sms' ? '短信' : '邮件'}</TableCell>
                <TableCell>{r.target}</TableCell>
                <TableCell>{r.subject}</TableCell>
                <TableCell>{r.content}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.createTime}</TableCell>
              </TableRow>
            ))}
            <TableState loading={!data && !error} failed={false} empty={!!data && data.content.length === 0 && !error} columns={5} />
          </TableBody>
        </Table>
      </ScrollX>
      <TablePager
        count={data?.totalElements ?? 0}
        page={page}
        size={size}
        sizes={PAGE_SIZES}
        onPageChange={setPage}
        onSizeChange={setSize}
      />
    </Box>
  );
}
