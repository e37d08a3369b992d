/** 调岗记录: the entry's job changes and leaving (GET api/staff/jobHistory?id=), newest first. */
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
import TableRow from '@mui/material/TableRow';
import { useLoad } from '../../pages/system/common.tsx';
import { staffApi, type JobHistoryRow } from './api.ts';

const change = (from: string | null, to: string | null) => (from === to ? (to ?? '-') : `${from ?? '-'} → ${to ?? '-'}`);

export function describeChange(r: JobHistoryRow): string {
  if (r.kind === '离职') return `离职日期 ${r.leaveDate ?? '-'}（原部门 ${r.fromDeptName ?? '-'}，岗位 ${r.fromJob ?? '-'}）`;
  const parts = [`部门 ${change(r.fromDeptName, r.toDeptName)}`, `岗位 ${change(r.fromJob, r.toJob)}`];
  if (r.fromJpTypeName !== r.toJpTypeName) parts.push(`岗位类型 ${change(r.fromJpTypeName, r.toJpTypeName)}`);
  if (r.roles) parts.push(`岗位权限 ${r.roles}`);
  return parts.join('；');
}

export function HistoryDialog({ id, name, onClose }: { id: number; name: string; onClose: () => void }) {
  const rows = useLoad(() => staffApi.history(id), [id]);
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      PaperProps={{ sx: { width: 900, maxWidth: '95vw' } }}
      aria-labelledby="staff-history-title"
    >
      <DialogTitle id="staff-history-title">调岗记录：{name}</DialogTitle>
      <DialogContent dividers>
        {rows.loading ? <LinearProgress aria-label="正在加载" /> : null}
        {rows.failed ? <Alert severity="error">调岗记录加载失败，请稍后重试</Alert> : null}
        {!rows.loading && !rows.failed && rows.data?.length === 0 ? <Alert severity="info">暂无调岗记录</Alert> : null}
        {rows.data && rows.data.length > 0 ? (
          <Table size="small" aria-label="调岗记录">
            <TableHead>
              <TableRow>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>时间</TableCell>
                <TableCell>类型</TableCell>
                <TableCell>变动内容</TableCell>
                <TableCell sx={{ minWidth: 120 }}>说明</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>操作人</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.data.map((r) => (
                <TableRow key={r.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.createTime}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Chip size="small" color={r.kind === '离职' ? 'warning' : 'primary'} label={r.kind} />
                  </TableCell>
                  <TableCell>{describeChange(r)}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{r.remark ?? ''}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.createUser ?? ''}</TableCell>
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
