/** Who read one system message and when (GET api/sysSocket/getReadUser, size 9999 as the spec calls it), newest first. */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { request } from '../../../common/http.ts';

export interface Reader {
  userId: number;
  username: string;
  nickName: string;
  readTime: string;
}

export function ReadersDialog({ id, title, open, onClose }: { id: number; title: string; open: boolean; onClose: () => void }) {
  const [rows, setRows] = useState<Reader[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [rowsFor, setRowsFor] = useState({ open, id });
  if (rowsFor.open !== open || rowsFor.id !== id) {
    setRowsFor({ open, id });
    if (open) {
      setRows(null);
      setFailed(false);
    }
  }
  useEffect(() => {
    if (!open) return;
    let live = true;
    request<{ content: Reader[]; totalElements: number }>('/api/sysSocket/getReadUser', {
      query: { id, sort: 'readTime,desc', page: 0, size: 9999 },
      quiet: true,
    })
      .then(({ data }) => live && setRows(data.content))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [open, id]);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth={false}
      PaperProps={{ sx: { width: 500, maxWidth: '95vw' } }}
      aria-labelledby="readers-title"
    >
      <DialogTitle id="readers-title">已读人员：{title}</DialogTitle>
      <DialogContent dividers>
        {rows === null && !failed ? <LinearProgress aria-label="正在加载" /> : null}
        {failed ? <Alert severity="error">已读人员加载失败，请稍后重试</Alert> : null}
        {rows && rows.length === 0 ? <Alert severity="info">暂无人阅读</Alert> : null}
        {rows && rows.length > 0 ? (
          <Table size="small" aria-label="已读人员">
            <TableHead>
              <TableRow>
                <TableCell>用户</TableCell>
                <TableCell>阅读时间</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.userId}>
                  <TableCell>{r.nickName === r.username ? r.username : `${r.nickName}（${r.username}）`}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.readTime}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}
