/**
 * 导入: 下载模板 (the import columns with an example row and drop-down lists), choose an xlsx
 * (checked before upload), upload with a progress bar (percentage, 取消), show the server's row errors.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useNotify } from 'react-admin';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { checkImportFile, uploadImport, type ImportResult } from './importFile.ts';
import { SUCCESS_NOTICE_MS } from './notices.ts';
import { downloadTemplate } from './exportFile.ts';
import { TransferProgressBar } from '../../components/TransferProgress.tsx';

export interface ImportDialogProps {
  spec: ResourceSpec;
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}

export function ImportDialog({ spec, open, onClose, onImported }: ImportDialogProps) {
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [fileName, setFileName] = useState('');
  const upload = useRef<AbortController | null>(null);
  const uploading = progress !== null && result === null;
  const [fetching, setFetching] = useState(false);
  const template = async () => {
    setFetching(true);
    try {
      await downloadTemplate(spec);
    } catch {
      /* the HTTP client shows why */
    } finally {
      setFetching(false);
    }
  };

  const reset = () => {
    setProgress(null);
    setResult(null);
    setFileName('');
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = checkImportFile(file);
    if (problem) {
      notify(problem, { type: 'error', autoHideDuration: SUCCESS_NOTICE_MS });
      return;
    }
    setFileName(file.name);
    setResult(null);
    setProgress(0);
    const controller = new AbortController();
    upload.current = controller;
    const answer = await uploadImport(spec, file, setProgress, controller.signal);
    upload.current = null;
    if (answer.canceled) {
      reset();
      notify(answer.message, { type: 'info', autoHideDuration: SUCCESS_NOTICE_MS });
      return;
    }
    setResult(answer);
    if (answer.ok) {
      notify(answer.message || '导入成功', { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      onImported();
    }
  };

  return (
    <Dialog
      open={open}
      onClose={uploading ? undefined : () => (reset(), onClose())}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: 500, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle>导入{spec.title}</DialogTitle>
      <DialogContent dividers>
        <input
          ref={input}
          type="file"
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          hidden
          data-testid="import-file"
          onChange={(event) => void choose(event)}
        />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Button variant="outlined" onClick={() => input.current?.click()} disabled={uploading}>
            选择文件
          </Button>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {fileName || '只能上传xlsx文件，且不超过10MB'}
          </Typography>
          <Button onClick={() => void template()} disabled={fetching} data-testid="import-template">
            下载模板
          </Button>
        </Box>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
          模板含示例行，带下拉框的列请从下拉列表中选择；导入前请删除或替换示例行。
        </Typography>
        {progress !== null ? (
          <Box sx={{ mt: 2 }}>
            <TransferProgressBar
              progress={{ percent: progress, loaded: 0, total: undefined }}
              label="上传进度"
              onCancel={uploading ? () => upload.current?.abort() : undefined}
            />
          </Box>
        ) : null}
        {result && result.status === 299 ? (
          <Alert severity="info" sx={{ mt: 2 }}>
            {result.message}
          </Alert>
        ) : null}
        {result && !result.ok && result.status !== 299 ? (
          <Alert severity="error" sx={{ mt: 2, whiteSpace: 'pre-wrap' }}>
            {result.message}
            {result.errors.length ? (
              <Box component="ul" sx={{ m: 0, pl: 2, maxHeight: 240, overflow: 'auto' }}>
                {result.errors.map((e, i) => (
                  <li key={i}>
                    {e.row !== undefined ? `第${e.row}行` : ''}
                    {e.column ? ` ${e.column}` : ''}
                    {e.row !== undefined || e.column ? '：' : ''}
                    {e.message}
                  </li>
                ))}
              </Box>
            ) : null}
          </Alert>
        ) : null}
        {result?.ok ? (
          <Alert severity="success" sx={{ mt: 2 }}>
            {result.message || '导入成功'}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => (reset(), onClose())} disabled={uploading}>
          关闭
        </Button>
      </DialogActions>
    </Dialog>
  );
}
