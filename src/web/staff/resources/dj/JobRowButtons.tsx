/**
 * Per-row buttons of the jobs screen: 暂停/恢复 (PUT api/jobs/{id}), 执行 (PUT
 * api/jobs/exec/{id}, notice 执行成功 or the failure) and 日志 (the run log). Pause, resume and
 * run need timing:edit; the log is open to whoever sees the screen.
 */
import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import CircularProgress from '@mui/material/CircularProgress';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import PauseIcon from '@mui/icons-material/Pause';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutline';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { Confirm, usePermissions, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { messages } from '../../../../shared/messages.ts';
import { request } from '../../../common/http.ts';
import { hasPermission } from '../../../common/session.ts';
import { ERROR_NOTICE_MS, SUCCESS_NOTICE_MS } from '../../schema/notices.ts';
import { JobLogDialog } from './JobLogDialog.tsx';

interface ExecAnswer {
  success: boolean;
  message: string;
}

export function JobRowButtons() {
  const record = useRecordContext();
  const { permissions } = usePermissions<string[]>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState<'pause' | 'exec' | null>(null);
  const [confirmPause, setConfirmPause] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  if (!record) return null;
  const canEdit = hasPermission(permissions, 'timing:edit');
  const paused = Boolean(record.isPause);

  const togglePause = async () => {
    setBusy('pause');
    try {
      await request(`/api/jobs/${record.id}`, { method: 'PUT' });
      notify(paused ? '恢复成功' : '暂停成功', { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      setConfirmPause(false);
      refresh();
    } catch {
      /* the HTTP client has shown the message */
    } finally {
      setBusy(null);
    }
  };

  const execute = async () => {
    setBusy('exec');
    try {
      const { data } = await request<ExecAnswer>(`/api/jobs/exec/${record.id}`, { method: 'PUT' });
      if (data.success) notify(messages.notice.executed, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      else notify(data.message, { type: 'error', autoHideDuration: ERROR_NOTICE_MS });
    } catch {
      /* shown by the HTTP client */
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      {canEdit ? (
        <>
          <Tooltip title="执行">
            <span>
              <IconButton size="small" color="primary" aria-label="执行" onClick={() => void execute()} disabled={busy !== null}>
                {busy === 'exec' ? <CircularProgress size={16} /> : <PlayArrowIcon fontSize="small" />}
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={paused ? '恢复' : '暂停'}>
            <span>
              <IconButton
                size="small"
                color={paused ? 'success' : 'warning'}
                aria-label={paused ? '恢复' : '暂停'}
                onClick={() => setConfirmPause(true)}
                disabled={busy !== null}
              >
                {paused ? <PlayCircleOutlineIcon fontSize="small" /> : <PauseIcon fontSize="small" />}
              </IconButton>
            </span>
          </Tooltip>
        </>
      ) : null}
      <Tooltip title="日志">
        <IconButton size="small" aria-label="日志" onClick={() => setLogOpen(true)}>
          <ReceiptLongIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Confirm
        isOpen={confirmPause}
        loading={busy === 'pause'}
        title={messages.confirm.title}
        content={paused ? `确定恢复任务「${record.money}」吗？` : `确定暂停任务「${record.money}」吗？暂停后不再按时执行。`}
        confirm={messages.confirm.ok}
        cancel={messages.confirm.cancel}
        onConfirm={() => void togglePause()}
        onClose={() => setConfirmPause(false)}
      />
      {logOpen ? (
        <JobLogDialog open jobId={Number(record.id)} jobName={String(record.money ?? '')} onClose={() => setLogOpen(false)} />
      ) : null}
    </>
  );
}
