/**
 * Progress of a long transfer (an import, an upload, an avatar, an export): a bar with the
 * percentage and a 取消 button. TransferProgressBar sits inside a dialog that is already open
 * (the import dialog); TransferDialog is a small dialog of its own for transfers started from a
 * button (export, avatar). The percentage comes from the HTTP client's onProgress; when the size
 * is not known (a download without Content-Length) the bar runs without a number.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { TransferProgress } from '../common/http.ts';

export const CANCEL_LABEL = '取消';

export interface TransferProgressBarProps {
  progress: TransferProgress | null;
  /** the bar's accessible name, e.g. 上传进度 */
  label: string;
  /** shows 取消 while the transfer runs */
  onCancel?: () => void;
}

export function TransferProgressBar({ progress, label, onCancel }: TransferProgressBarProps) {
  const percent = progress?.percent;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box sx={{ flex: 1 }}>
        <LinearProgress
          variant={percent === undefined ? 'indeterminate' : 'determinate'}
          value={percent ?? 0}
          aria-label={label}
          aria-valuetext={percent === undefined ? undefined : `${percent}%`}
        />
      </Box>
      <Typography variant="caption" sx={{ minWidth: 40, textAlign: 'right' }} data-testid="transfer-percent">
        {percent === undefined ? '' : `${percent}%`}
      </Typography>
      {onCancel ? (
        <Button size="small" onClick={onCancel}>
          {CANCEL_LABEL}
        </Button>
      ) : null}
    </Box>
  );
}

export interface TransferDialogProps {
  open: boolean;
  title: string;
  progress: TransferProgress | null;
  label: string;
  onCancel: () => void;
}

/** A transfer started from a button: its own small dialog, closed when the transfer ends. */
export function TransferDialog({ open, title, progress, label, onCancel }: TransferDialogProps) {
  return (
    <Dialog open={open} maxWidth={false} slotProps={{ paper: { sx: { width: 420, maxWidth: 'calc(100% - 32px)' } } }}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        <TransferProgressBar progress={progress} label={label} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{CANCEL_LABEL}</Button>
      </DialogActions>
    </Dialog>
  );
}
