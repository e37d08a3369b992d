/**
 * 历史记录 of one record: a timeline newest first, each entry with who, when (yyyy-MM-dd
 * HH:mm:ss) and what, and a field-by-field diff under the fields' Chinese titles (option and
 * dictionary values by label). 恢复到此版本 on an earlier entry asks first, then restores the
 * record through the server (as an edit: same checks, the restore itself joins the history).
 */
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Confirm, useNotify } from 'react-admin';
import type { Identifier } from 'react-admin';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { request } from '../../common/http.ts';
import { SUCCESS_NOTICE_MS } from './notices.ts';
import { ACTION_LABELS, actorText, displayValue } from './historyValues.ts';

export interface HistoryEntry {
  id: number;
  action: string;
  actorKind: string;
  actorName: string | null;
  time: string;
  changes: Array<{ field: string; title: string; old: unknown; new: unknown }>;
}

export interface HistoryDialogProps {
  spec: ResourceSpec;
  /** the record's id; closed when undefined */
  recordId: Identifier | undefined;
  /** whether 恢复到此版本 is offered (the edit key) */
  canRestore: boolean;
  onClose: () => void;
  /** after a restore (the list shows the record's new values) */
  onRestored?: () => void;
}

const ACTION_COLORS: Record<string, 'default' | 'primary' | 'success' | 'error' | 'warning' | 'info'> = {
  create: 'success',
  import: 'success',
  update: 'primary',
  status: 'info',
  restore: 'warning',
  delete: 'error',
};

export function HistoryDialog({ spec, recordId, canRestore, onClose, onRestored }: HistoryDialogProps) {
  const notify = useNotify();
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [pending, setPending] = useState<HistoryEntry | null>(null);
  const [restoring, setRestoring] = useState(false);
  const open = recordId !== undefined;

  // bumped after a restore: the timeline is read again
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (recordId === undefined) return;
    let live = true;
    request<{ content: HistoryEntry[] }>(`/${spec.path}/${recordId}/history`)
      .then(({ data }) => {
        if (!live) return;
        setEntries(data.content);
        setFailed(false);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [spec.path, recordId, version]);

  const restore = async () => {
    if (!pending || recordId === undefined) return;
    setRestoring(true);
    try {
      await request(`/${spec.path}/${recordId}/restore/${pending.id}`, { method: 'POST' });
      notify('恢复成功', { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      setPending(null);
      onRestored?.();
      setVersion((v) => v + 1);
    } catch {
      /* the HTTP client has shown the server's message; the confirm closes */
      setPending(null);
    } finally {
      setRestoring(false);
    }
  };

  const byName = new Map(spec.fields.map((f) => [f.name, f]));
  const titleId = `${spec.name}-history-title`;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        历史记录
        <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
          {spec.title} · ID {String(recordId ?? '')}
        </Typography>
      </DialogTitle>
      <DialogContent dividers sx={{ minHeight: 200 }}>
        {entries === null && !failed ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress size={28} aria-label="加载中" />
          </Box>
        ) : null}
        {failed ? <Typography color="error">历史记录加载失败</Typography> : null}
        {entries?.length === 0 ? <Typography color="text.secondary">暂无历史记录</Typography> : null}
        <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label="历史记录时间线">
          {entries?.map((entry, index) => (
            <Box
              component="li"
              key={entry.id}
              data-testid="history-entry"
              sx={{ position: 'relative', pl: 3, pb: 2, borderLeft: 2, borderColor: 'divider', ml: 1 }}
            >
              <Box
                sx={{
                  position: 'absolute',
                  left: -7,
                  top: 4,
                  width: 12,
                  height: 12,
                  borderRadius: '50%',
                  bgcolor: index === 0 ? 'primary.main' : 'grey.400',
                }}
              />
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Chip size="small" label={ACTION_LABELS[entry.action] ?? entry.action} color={ACTION_COLORS[entry.action] ?? 'default'} />
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {actorText(entry.actorKind, entry.actorName)}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {entry.time}
                </Typography>
                {canRestore && index > 0 && entry.action !== 'delete' ? (
                  <Button size="small" sx={{ ml: 'auto' }} onClick={() => setPending(entry)}>
                    恢复到此版本
                  </Button>
                ) : null}
              </Box>
              {entry.changes.length ? (
                <Table size="small" sx={{ mt: 1, '& td, & th': { py: 0.5 } }}>
                  <TableHead>
                    <TableRow>
                      <TableCell sx={{ width: '24%' }}>字段</TableCell>
                      <TableCell sx={{ width: '38%' }}>修改前</TableCell>
                      <TableCell sx={{ width: '38%' }}>修改后</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {entry.changes.map((c) => (
                      <TableRow key={c.field}>
                        <TableCell>{byName.get(c.field)?.title ?? c.title}</TableCell>
                        <TableCell sx={{ color: 'error.main', wordBreak: 'break-all' }}>
                          {displayValue(byName.get(c.field), c.old)}
                        </TableCell>
                        <TableCell sx={{ color: 'success.main', wordBreak: 'break-all' }}>
                          {displayValue(byName.get(c.field), c.new)}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              ) : null}
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
      <Confirm
        isOpen={!!pending}
        loading={restoring}
        title="恢复到此版本"
        content={pending ? `确定将该记录恢复到 ${pending.time} 的版本吗？恢复会作为一次新的修改记入历史记录。` : ''}
        confirm="确定"
        cancel="取消"
        onConfirm={() => void restore()}
        onClose={() => setPending(null)}
      />
    </Dialog>
  );
}
