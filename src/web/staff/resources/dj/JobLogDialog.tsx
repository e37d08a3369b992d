/** The run log of one job (GET api/jobs/logs?jobId=), newest first, paged. */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TablePager } from '../../../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { request } from '../../../common/http.ts';

export interface JobLog {
  id: number;
  trigger: 'schedule' | 'manual';
  startTime: string;
  time: number | null;
  isSuccess: boolean | null;
  result: string | null;
  exceptionDetail: string | null;
  instance: string | null;
}

/** Log time colours of the spec: up to 300 ms success, 1000 default, 3000 warning, 8000 danger (error), above info. */
export function timeColor(ms: number): 'success' | 'default' | 'warning' | 'error' | 'info' {
  if (ms <= 300) return 'success';
  if (ms <= 1000) return 'default';
  if (ms <= 3000) return 'warning';
  if (ms <= 8000) return 'error';
  return 'info';
}

export const LOG_PAGE_SIZES = [10, 15, 30];

export function JobLogDialog({ jobId, jobName, open, onClose }: { jobId: number; jobName: string; open: boolean; onClose: () => void }) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [rows, setRows] = useState<JobLog[] | null>(null);
  const [total, setTotal] = useState(0);
  const [failed, setFailed] = useState(false);

  // opened, or another job, page or size: the table empties until the answer comes
  const [rowsFor, setRowsFor] = useState({ open, jobId, page, size });
  if (rowsFor.open !== open || rowsFor.jobId !== jobId || rowsFor.page !== page || rowsFor.size !== size) {
    setRowsFor({ open, jobId, page, size });
    if (open) {
      setRows(null);
      setFailed(false);
    }
  }
  useEffect(() => {
    if (!open) return;
    let live = true;
    request<{ content: JobLog[]; totalElements: number }>('/api/jobs/logs', { query: { jobId, page, size }, quiet: true })
      .then(({ data }) => {
        if (!live) return;
        setRows(data.content);
        setTotal(data.totalElements);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [open, jobId, page, size]);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth={false}
      PaperProps={{ sx: { width: 1000, maxWidth: '95vw' } }}
      aria-labelledby="job-log-title"
    >
      <DialogTitle id="job-log-title">执行日志：{jobName}</DialogTitle>
      <DialogContent dividers>
        {rows === null && !failed ? <LinearProgress aria-label="正在加载" /> : null}
        {failed ? <Alert severity="error">日志加载失败，请稍后重试</Alert> : null}
        {rows && rows.length === 0 ? <Alert severity="info">暂无执行记录</Alert> : null}
        {rows && rows.length > 0 ? (
          <Table size="small" aria-label="执行日志">
            <TableHead>
              <TableRow>
                <TableCell>开始时间</TableCell>
                <TableCell>触发方式</TableCell>
                <TableCell>耗时</TableCell>
                <TableCell>状态</TableCell>
                <TableCell>结果</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.startTime}</TableCell>
                  <TableCell>{r.trigger === 'manual' ? '手动执行' : '定时执行'}</TableCell>
                  <TableCell>{r.time === null ? '-' : <Chip size="small" color={timeColor(r.time)} label={`${r.time}ms`} />}</TableCell>
                  <TableCell>
                    {r.isSuccess === null ? (
                      <Chip size="small" label="执行中" />
                    ) : r.isSuccess ? (
                      <Chip size="small" color="success" label="成功" />
                    ) : (
                      <Chip size="small" color="error" label="失败" />
                    )}
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    {r.exceptionDetail ? (
                      <Tooltip
                        title={
                          <pre style={{ margin: 0, whiteSpace: 'pre-wrap', maxHeight: 300, overflow: 'auto' }}>{r.exceptionDetail}</pre>
                        }
                      >
                        <span>{r.result ?? '查看异常'}</span>
                      </Tooltip>
                    ) : (
                      (r.result ?? '')
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ justifyContent: 'space-between' }}>
        <TablePager count={total} page={page} size={size} sizes={LOG_PAGE_SIZES} onPageChange={setPage} onSizeChange={setSize} />
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}
