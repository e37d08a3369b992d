/** 操作日志 tab: the user's own operation log, newest first, paged; the time is coloured by duration. */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TableState } from '../../../components/TableState.tsx';
import { TablePager } from '../../../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import { fetchUserLogs, timeColour, type UserLog } from './api.ts';

export const LOG_PAGE_SIZES = [10, 15, 30, 45, 60, 100];

export function TimeChip({ ms }: { ms: number }) {
  return <Chip size="small" color={timeColour(ms)} label={`${ms}ms`} data-colour={timeColour(ms)} />;
}

export function UserLogs() {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [rows, setRows] = useState<UserLog[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState('');
  // another page or size: the table empties until its answer comes
  const [loadedFor, setLoadedFor] = useState({ page, size });
  if (loadedFor.page !== page || loadedFor.size !== size) {
    setLoadedFor({ page, size });
    setRows(null);
    setError('');
  }
  useEffect(() => {
    fetchUserLogs(page, size)
      .then((data) => {
        setRows(data.content);
        setTotal(data.totalElements);
      })
      .catch((e: unknown) => {
        setRows([]);
        setError(e instanceof Error ? e.message : '加载失败');
      });
  }, [page, size]);

  return (
    <>
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
              <TableCell>行为</TableCell>
              <TableCell>IP</TableCell>
              <TableCell>IP来源</TableCell>
              <TableCell>浏览器</TableCell>
              <TableCell>请求耗时</TableCell>
              <TableCell>创建日期</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows?.map((r) => (
              <TableRow key={r.id}>
                <TableCell className="result">
                  {r.description}
                  {r.logType === 'ERROR' ? (
                    <Box component="span" sx={{ display: 'block', color: 'error.main', fontSize: 12 }}>
                      {r.exceptionDetail || '失败'}
                    </Box>
                  ) : null}
                </TableCell>
                <TableCell>{r.requestIp}</TableCell>
                <TableCell>{r.address}</TableCell>
                <TableCell>{r.browser}</TableCell>
                <TableCell>
                  <TimeChip ms={r.time} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.createTime}</TableCell>
              </TableRow>
            ))}
            <TableState loading={!rows && !error} failed={false} empty={!!rows && rows.length === 0 && !error} columns={6} />
          </TableBody>
        </Table>
      </Box>
      <TablePager count={total} page={page} size={size} sizes={LOG_PAGE_SIZES} onPageChange={setPage} onSizeChange={setSize} />
    </>
  );
}
