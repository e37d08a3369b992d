/**
 * 备份管理 (/system/backup, backup:list): the backups in BACKUP_DIR, newest first, with size and
 * time; 立即备份 (backup:add), 下载 (backup:download), 删除 (backup:del), and 恢复 of a listed
 * backup or of an uploaded file (backup:restore). A restore is confirmed first with the
 * signed-in user's password (step-up; it replaces every record and file; the present state is
 * kept as a backup) and shows its progress: the upload's percentage, then the server's stage
 * until it is done. Backups are encrypted with BACKUP_ENCRYPTION_KEY: without it the page says
 * that no backup is made; with the demo's own key it says so too.
 */
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
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
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Title, useNotify } from 'react-admin';
import { request, type TransferProgress } from '../../../common/http.ts';
import { encryptPassword } from '../../../common/rsa.ts';
import { fetchPublicKey } from '../../../common/session.ts';
import { TransferProgressBar } from '../../../components/TransferProgress.tsx';
import { TableState } from '../../../components/TableState.tsx';
import { ScrollX } from '../../../components/ScrollX.tsx';
import { saveBlob } from '../../schema/exportFile.ts';
import { getJson, useCan, useLoad } from './common.tsx';

interface Backup {
  name: string;
  size: number;
  createdAt: string;
  reason: 'manual' | 'schedule' | 'cli' | 'pre-restore' | 'pre-migration';
  /** false: the older unencrypted format (restored only from the command line) */
  encrypted?: boolean;
}

interface Task {
  kind: 'backup' | 'restore';
  stage: string;
  ok?: boolean;
  message?: string;
  finishedAt?: string;
}

interface Answer {
  content: Backup[];
  totalElements: number;
  dir: string;
  keep: number;
  task: Task | null;
  lastScheduled: { time: string; success: boolean; message: string } | null;
  encryption?: { state: 'configured' | 'demo' | 'missing'; message: string | null };
}

const REASONS: Record<Backup['reason'], string> = {
  manual: '手动',
  schedule: '定时',
  cli: '命令行',
  'pre-restore': '恢复前自动',
  'pre-migration': '迁移前自动',
};
/** a backup or restore may take long: the page waits for it (the server answers 202 near its own deadline) */
const LONG_MS = 60 * 60_000;

export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/** What a restore starts from: a listed backup or a chosen file. */
type Source = { backup: Backup } | { file: File };
const sourceName = (s: Source) => ('backup' in s ? s.backup.name : s.file.name);

export function BackupAdmin() {
  const can = useCan();
  const notify = useNotify();
  const { data, loading, failed, reload } = useLoad(() => getJson<Answer>('/api/backups'), []);
  const [creating, setCreating] = useState(false);
  const [confirming, setConfirming] = useState<Source | null>(null);
  const [password, setPassword] = useState('');
  const [deleting, setDeleting] = useState<Backup | null>(null);
  const [restoring, setRestoring] = useState<{ name: string; upload: TransferProgress | null; stage: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // while a restore runs, follow the server's stage
  const running = restoring !== null;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      void request<{ task: Task | null }>('/api/backups/task', { quiet: true })
        .then(({ data: d }) => {
          if (d.task?.kind === 'restore' && !d.task.finishedAt) setRestoring((r) => (r ? { ...r, stage: d.task!.stage } : r));
        })
        .catch(() => undefined);
    }, 1000);
    return () => clearInterval(timer);
  }, [running]);

  /** Waits for a task the server answered 202 for (it went on past the request deadline). */
  const settle = async (answer: { running?: boolean; task?: Task }): Promise<Task | null> => {
    if (!answer.running) return null;
    for (;;) {
      await new Promise((r) => setTimeout(r, 2000));
      const { data: d } = await request<{ task: Task | null }>('/api/backups/task', { quiet: true });
      if (d.task?.finishedAt) return d.task;
      if (d.task) setRestoring((r) => (r ? { ...r, stage: d.task!.stage } : r));
    }
  };

  const backupNow = async () => {
    setCreating(true);
    try {
      const { data: made } = await request<Backup & { running?: boolean; task?: Task }>('/api/backups', {
        method: 'POST',
        timeoutMs: LONG_MS,
      });
      const late = await settle(made);
      if (late && !late.ok) notify(late.message ?? '备份失败', { type: 'error' });
      else notify(late ? (late.message ?? '备份完成') : `备份完成：${made.name}`, { type: 'success' });
    } catch {
      // the HTTP client shows the server's message
    } finally {
      setCreating(false);
      reload();
    }
  };

  const download = async (b: Backup) => {
    const res = await request<Blob>(`/api/backups/${encodeURIComponent(b.name)}/download`, { responseType: 'blob', timeoutMs: LONG_MS });
    saveBlob(res.data, b.name);
  };

  const remove = async () => {
    if (!deleting) return;
    const name = deleting.name;
    setDeleting(null);
    try {
      await request(`/api/backups/${encodeURIComponent(name)}`, { method: 'DELETE' });
      notify('删除成功', { type: 'success' });
    } catch {
      // shown by the HTTP client
    }
    reload();
  };

  const closeConfirm = () => {
    setConfirming(null);
    setPassword('');
  };

  const restore = async (source: Source) => {
    const plain = password;
    closeConfirm();
    const name = sourceName(source);
    setRestoring({ name, upload: null, stage: 'backup' in source ? '正在校验备份文件' : '正在上传备份文件' });
    try {
      // the password again (step-up), encrypted as at sign-in
      const encrypted = await encryptPassword(plain, await fetchPublicKey());
      let answer: { running?: boolean; task?: Task; createdAt?: string; before?: Backup };
      if ('backup' in source) {
        answer = (
          await request<typeof answer>(`/api/backups/${encodeURIComponent(name)}/restore`, {
            method: 'POST',
            body: { password: encrypted },
            timeoutMs: LONG_MS,
          })
        ).data;
      } else {
        const form = new FormData();
        // before the file: the server checks it before storing the upload
        form.append('password', encrypted);
        form.append('file', source.file);
        answer = (
          await request<typeof answer>('/api/backups/restore', {
            method: 'POST',
            body: form,
            timeoutMs: LONG_MS,
            onProgress: (p) =>
              setRestoring((r) => (r ? { ...r, upload: p, stage: p.percent === 100 ? '正在校验备份文件' : '正在上传备份文件' } : r)),
          })
        ).data;
      }
      const late = await settle(answer);
      if (late && !late.ok) notify(late.message ?? '恢复失败', { type: 'error' });
      else
        notify(late?.message ?? `已恢复到 ${answer.createdAt ?? ''} 的备份，恢复前的数据已另存为 ${answer.before?.name ?? ''}`, {
          type: 'success',
          autoHideDuration: 10_000,
        });
    } catch {
      // the HTTP client shows the server's message (a refused archive changes nothing)
    } finally {
      setRestoring(null);
      reload();
    }
  };

  const last = data?.lastScheduled;
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="备份管理" />
      <Alert severity="info" sx={{ mb: 1 }}>
        备份包含数据库的全部数据和上传的文件，加密后保存在服务器的 {data?.dir ?? '备份目录'}；定时备份（定时任务“定时备份”）保留最近{' '}
        {data?.keep ?? '-'} 份。恢复会用所选备份替换当前全部数据，恢复前的数据会先自动另存为一份备份。
      </Alert>
      {data?.encryption?.state === 'missing' ? (
        <Alert severity="error" sx={{ mb: 1 }} role="alert">
          {data.encryption.message}
        </Alert>
      ) : null}
      {data?.encryption?.state === 'demo' ? (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {data.encryption.message}
        </Alert>
      ) : null}
      {last && !last.success ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {last.time} 的定时备份失败：{last.message}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        {can('backup:add') ? (
          <Button variant="contained" size="small" disabled={creating || running} onClick={() => void backupNow()}>
            {creating ? '正在备份…' : '立即备份'}
          </Button>
        ) : null}
        {can('backup:restore') ? (
          <>
            <Button
              variant="outlined"
              size="small"
              color="warning"
              disabled={creating || running}
              onClick={() => fileInput.current?.click()}
            >
              从文件恢复
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept=".enc,.tar.gz.enc,.gz,.tar.gz"
              hidden
              aria-label="选择备份文件"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) setConfirming({ file });
              }}
            />
          </>
        ) : null}
      </Box>
      {creating ? <LinearProgress aria-label="正在备份" sx={{ mb: 1 }} /> : null}
      <ScrollX>
        <Table size="small" aria-label="备份列表">
          <TableHead>
            <TableRow>
              <TableCell>备份文件</TableCell>
              <TableCell>方式</TableCell>
              <TableCell align="right">大小</TableCell>
              <TableCell>备份时间</TableCell>
              <TableCell>操作</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data?.content.map((b) => (
              <TableRow key={b.name} hover>
                <TableCell sx={{ fontFamily: 'monospace' }}>{b.name}</TableCell>
                <TableCell>{REASONS[b.reason]}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {sizeText(b.size)}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{b.createdAt}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {can('backup:download') ? (
                    <Button size="small" onClick={() => void download(b).catch(() => undefined)}>
                      下载
                    </Button>
                  ) : null}
                  {can('backup:restore') ? (
                    <Button size="small" color="warning" disabled={creating || running} onClick={() => setConfirming({ backup: b })}>
                      恢复
                    </Button>
                  ) : null}
                  {can('backup:del') ? (
                    <Button size="small" color="error" disabled={running} onClick={() => setDeleting(b)}>
                      删除
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
            <TableState loading={loading && !data} failed={failed} empty={!!data && data.content.length === 0} columns={5} />
          </TableBody>
        </Table>
      </ScrollX>

      <Dialog open={confirming !== null} onClose={closeConfirm} aria-labelledby="restore-title">
        <DialogTitle id="restore-title">确认恢复</DialogTitle>
        <DialogContent dividers>
          <Typography gutterBottom>
            确定用备份 <b>{confirming ? sourceName(confirming) : ''}</b> 恢复吗？
          </Typography>
          <Typography variant="body2" color="text.secondary">
            恢复会用该备份替换系统的全部数据和上传的文件，备份之后录入的数据将不再显示；恢复前的数据会先自动另存为一份备份。
            恢复期间其他用户的操作会稍有等待，完成后所有在线用户都会收到系统消息。
          </Typography>
          <TextField
            label="当前账号的密码"
            type="password"
            size="small"
            fullWidth
            required
            autoComplete="current-password"
            sx={{ mt: 2 }}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            helperText="恢复备份需要再次输入当前登录账号的密码"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={closeConfirm}>取消</Button>
          <Button color="warning" variant="contained" disabled={!password} onClick={() => confirming && void restore(confirming)}>
            确定恢复
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} aria-labelledby="delete-title">
        <DialogTitle id="delete-title">确认删除</DialogTitle>
        <DialogContent dividers>
          <Typography>确定删除备份 {deleting?.name} 吗？删除后不能找回。</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>取消</Button>
          <Button color="error" variant="contained" onClick={() => void remove()}>
            确定
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog
        open={restoring !== null}
        aria-labelledby="restoring-title"
        maxWidth={false}
        slotProps={{ paper: { sx: { width: 460, maxWidth: 'calc(100% - 32px)' } } }}
      >
        <DialogTitle id="restoring-title">正在恢复</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" gutterBottom>
            {restoring?.name}
          </Typography>
          {restoring?.upload && restoring.upload.percent !== 100 ? (
            <TransferProgressBar progress={restoring.upload} label="上传进度" />
          ) : (
            <LinearProgress aria-label="恢复进度" />
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} role="status">
            {restoring?.stage}
          </Typography>
        </DialogContent>
      </Dialog>
    </Box>
  );
}
