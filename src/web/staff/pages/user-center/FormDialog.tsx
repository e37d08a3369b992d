/** The frame of the personal-centre dialogs: title, fields, an error line, 取消 / 确认 (loading while sending). */
import type { FormEvent, ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';

export interface FormDialogProps {
  open: boolean;
  title: string;
  width?: number;
  submitting: boolean;
  error?: string;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}

export function FormDialog({ open, title, width = 500, submitting, error, onClose, onSubmit, children }: FormDialogProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!submitting) onSubmit();
  };
  const id = `dialog-${title}`;
  return (
    <Dialog
      open={open}
      onClose={submitting ? undefined : onClose}
      aria-labelledby={id}
      slotProps={{ paper: { sx: { width, maxWidth: 'calc(100vw - 32px)' } } }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={id}>{title}</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          {children}
          {error ? (
            <Alert severity="error" sx={{ mt: 1 }}>
              {error}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={submitting}>
            取消
          </Button>
          <Button type="submit" variant="contained" disabled={submitting}>
            {submitting ? '提交中...' : '确认'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Field errors of a form: the first one's input gets the focus. */
export function focusFirst(errors: Record<string, string | undefined>, order: string[], container: ParentNode = document): void {
  const first = order.find((name) => errors[name]);
  if (!first) return;
  const input = container.querySelector<HTMLInputElement>(`[name="${first}"]`);
  input?.focus();
}

export const errorText = (error: unknown, fallback = '操作失败'): string =>
  error instanceof Error && error.message ? error.message : fallback;
