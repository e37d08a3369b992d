/**
 * 操作日志 (/logs, log:list): every logged write and sign-in, newest first. Filters: keyword
 * (user name or description), user name, date range, errors only. A row opens its details
 * (method, parameters with secrets masked, error message).
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TableState } from '../../components/TableState.tsx';
import { TablePager } from '../../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Title } from 'react-admin';
import { request } from '../../common/http.ts';
import { DateTextField } from '../schema/DateTextField.tsx';
import { TimeChip } from './user-center/UserLogs.tsx';

export const PAGE_SIZES = [10, 15, 30, 45, 60, 100];

export interface LogRow {
  id: number;
  username: string | null;
  description: string;
  method: string;
  params: string;
  requestIp: string;
  address: string;
  browser: string;
  time: number;
  logType: string;
  exceptionDetail: string;
  createTime: string;
}

interface Filters {
  blurry: string;
  username: string;
  from: string;
  to: string;
  errorOnly: boolean;
}

const EMPTY: Filters = { blurry: '', username: '', from: '', to: '', errorOnly: false };

export function OperationLogsPage() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [rows, setRows] = useState<LogRow[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState('');
  const [detail, setDetail] = useState<LogRow | null>(null);

  // another page, size or filter: the table empties until its answer comes
  const [loadedFor, setLoadedFor] = useState({ filters, page, size });
  if (loadedFor.filters !== filters || loadedFor.page !== page || loadedFor.size !== size) {
    setLoadedFor({ filters, page, size });
    setRows(null);
    setError('');
  }
  useEffect(() => {
    const range = filters.from && filters.to ? [filters.from, filters.to] : undefined;
    request<{ content: LogRow[]; totalElements: number }>('/api/logs', {
      query: {
        page,
        size,
        sort: 'id,desc',
        blurry: filters.blurry,
        username: filters.username,
        createTime: range,
        error: filters.errorOnly ? 'true' : undefined,
      },
      quiet: true,
    })
      .then(({ data }) => {
        setRows(data.content);
        setTotal(data.totalElements);
      })
      .catch((e: unknown) => {
        setRows([]);
        setTotal(0);
        setError(e instanceof Error ? e.message : '加载失败');
      });
  }, [filters, page, size]);

  const search = () => {
    const date = /^\d{4}-\d{2}-\d{2}$/;
    if ((draft.from && !draft.to) || (!draft.from && draft.to) || (draft.from && (!date.test(draft.from) || !date.test(draft.to)))) {
      setError('请选择完整的日期范围（yyyy-MM-dd）');
      return;
    }
    setPage(0);
    setFilters({ ...draft, blurry: draft.blurry.trim(), username: draft.username.trim() });
  };

  return (
    <Box sx={{ mt: 1 }}>
      <Title title="操作日志" />
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          search();
        }}
        sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1 }}
      >
        <TextField
          size="small"
          label="关键字"
          placeholder="用户名或行为"
          sx={{ width: 180 }}
          value={draft.blurry}
          onChange={(e) => setDraft({ ...draft, blurry: e.target.value })}
        />
        <TextField
          size="small"
          label="用户名"
          sx={{ width: 160 }}
          value={draft.username}
          onChange={(e) => setDraft({ ...draft, username: e.target.value })}
        />
        <DateTextField label="开始日期" value={draft.from} onChange={(v) => setDraft((d) => ({ ...d, from: v }))} />
        <DateTextField label="结束日期" value={draft.to} onChange={(v) => setDraft((d) => ({ ...d, to: v }))} />
        <FormControlLabel
          control={
            <Checkbox size="small" checked={draft.errorOnly} onChange={(e) => setDraft({ ...draft, errorOnly: e.target.checked })} />
          }
          label="只看异常"
        />
        <Button type="submit" variant="contained" size="small">
          搜索
        </Button>
        <Button
          size="small"
          onClick={() => {
            setDraft(EMPTY);
            setFilters(EMPTY);
            setPage(0);
          }}
        >
          重置
        </Button>
      </Box>
      {rows === null ? <LinearProgress aria-label="正在加载" /> : null}
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Box sx={{ overflowX: 'auto' }}>
        <Table
          size="small"
          aria-label="操作日志"
          sx={{ '& td, & th': { whiteSpace: 'nowrap' }, '& td.result': { whiteSpace: 'normal', minWidth: 120 } }}
        >
          <TableHead>
            <TableRow>
              <TableCell>用户名</TableCell>
              <TableCell>行为</TableCell>
              <TableCell>IP</TableCell>
              <TableCell>IP来源</TableCell>
              <TableCell>浏览器</TableCell>
              <TableCell>请求耗时</TableCell>
              <TableCell>结果</TableCell>
              <TableCell>创建日期</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows?.map((r) => (
              <TableRow
                key={r.id}
                hover
                // a row opens its details by keyboard too (Tab to it, Enter or Space)
                tabIndex={0}
                sx={{ cursor: 'pointer', '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 } }}
                onClick={() => setDetail(r)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    setDetail(r);
                  }
                }}
              >
                <TableCell>{r.username ?? ''}</TableCell>
                <TableCell>{r.description}</TableCell>
                <TableCell>{r.requestIp}</TableCell>
                <TableCell>{r.address}</TableCell>
                <TableCell>{r.browser}</TableCell>
                <TableCell>
                  <TimeChip ms={r.time} />
                </TableCell>
                <TableCell className="result" sx={{ color: r.logType === 'ERROR' ? 'error.main' : 'success.main', maxWidth: 240 }}>
                  {r.logType === 'ERROR' ? r.exceptionDetail || '失败' : '成功'}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.createTime}</TableCell>
              </TableRow>
            ))}
            <TableState loading={!rows && !error} failed={false} empty={!!rows && rows.length === 0 && !error} columns={8} />
          </TableBody>
        </Table>
      </Box>
      <TablePager count={total} page={page} size={size} sizes={PAGE_SIZES} onPageChange={setPage} onSizeChange={setSize} />
      <Dialog open={!!detail} onClose={() => setDetail(null)} slotProps={{ paper: { sx: { width: 700, maxWidth: 'calc(100vw - 32px)' } } }}>
        <DialogTitle>日志详情</DialogTitle>
        <DialogContent>
          {detail ? (
            <>
              <Typography variant="body2">请求方法：{detail.method}</Typography>
              <Typography variant="body2" sx={{ mt: 1 }}>
                请求参数：
              </Typography>
              <Box component="pre" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', bgcolor: '#f5f7fa', p: 1, fontSize: 12 }}>
                {detail.params}
              </Box>
              {detail.exceptionDetail ? <Alert severity="error">{detail.exceptionDetail}</Alert> : null}
            </>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDetail(null)}>关闭</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
