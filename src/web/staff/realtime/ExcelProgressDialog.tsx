/**
 * Progress of background imports and exports: opens when an EXCEL message arrives and lists the
 * last 5 (progress, success with the download link, failure with the reason).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useRealtime, type ExcelMessage } from './RealtimeContext.tsx';
import { downloadLink } from './download.ts';

const severity = (code: number) => (code === 200 ? 'success' : code === 500 ? 'error' : 'info');
const time = (ms: number) => new Date(ms).toTimeString().slice(0, 8);

function Line({ m }: { m: ExcelMessage }) {
  return (
    <Alert severity={severity(m.code)} sx={{ mb: 1 }} data-code={m.code}>
      <Typography variant="body2">
        {m.msg}
        {m.code === 200 && m.url ? (
          <>
            {' '}
            <Link component="button" onClick={() => void downloadLink(m.url!, m.fileName).catch(() => undefined)}>
              重新下载
            </Link>
          </>
        ) : null}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {time(m.time)}
      </Typography>
    </Alert>
  );
}

export function ExcelProgressDialog() {
  const { excel, excelOpen, setExcelOpen } = useRealtime();
  const last = excel[excel.length - 1];
  const running = last?.code === 100;
  return (
    <Dialog
      open={excelOpen && excel.length > 0}
      onClose={() => setExcelOpen(false)}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle>导入导出进度</DialogTitle>
      <DialogContent dividers>
        {running ? <LinearProgress aria-label="处理中" sx={{ mb: 2 }} /> : null}
        <Box aria-label="最近5条进度消息">
          {excel.map((m) => (
            <Line key={m.key} m={m} />
          ))}
        </Box>
        {running ? (
          <Typography variant="caption" color="text.secondary">
            关闭此窗口不影响后台处理，完成后会再次提示。
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setExcelOpen(false)}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}
