/**
 * 回收站 of one entity (holders of its delete key): the deleted records with the list's first
 * columns, who deleted them and when; 恢复 brings the selected ones back with their ids,
 * 彻底删除 removes them for good, each after a confirmation.
 */
import { useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
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
import { listFields, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { request } from '../../common/http.ts';
import { TablePager } from '../../components/TablePager.tsx';
import { SUCCESS_NOTICE_MS } from './notices.ts';
import { actorText, displayValue } from './historyValues.ts';

interface BinItem {
  id: number;
  revisionId: number;
  deleteUser: string | null;
  actorKind: string;
  deleteTime: string;
  record: Record<string, unknown>;
}

export interface RecycleBinDialogProps {
  spec: ResourceSpec;
  open: boolean;
  onClose: () => void;
  /** after records came back (the list shows them again) */
  onRestored: () => void;
}

/** columns of the deleted records beside their id: the list's first ones */
const SHOWN_FIELDS = 4;
const PAGE_SIZE = 10;

export function RecycleBinDialog({ spec, open, onClose, onRestored }: RecycleBinDialogProps) {
  const notify = useNotify();
  const [page, setPage] = useState(0);
  const [items, setItems] = useState<BinItem[] | null>(null);
  const [total, setTotal] = useState(0);
  const [selected, setSelected] = useState<number[]>([]);
  const [pending, setPending] = useState<'restore' | 'purge' | null>(null);
  const [working, setWorking] = useState(false);
  const fields = useMemo(() => listFields(spec).slice(0, SHOWN_FIELDS), [spec]);

  // bumped after a restore or purge: the page is read again
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!open) return;
    let live = true;
    request<{ content: BinItem[]; totalElements: number }>(`/${spec.path}/recycleBin`, { query: { page, size: PAGE_SIZE } })
      .then(({ data }) => {
        if (!live) return;
        setItems(data.content);
        setTotal(data.totalElements);
      })
      .catch(() => live && setItems([]));
    return () => {
      live = false;
    };
  }, [open, spec.path, page, version]);

  const run = async () => {
    if (!pending || !selected.length) return;
    setWorking(true);
    try {
      if (pending === 'restore') {
        await request(`/${spec.path}/recycleBin/restore`, { method: 'POST', body: selected });
        notify(`已恢复${selected.length}条数据`, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
        onRestored();
      } else {
        await request(`/${spec.path}/recycleBin`, { method: 'DELETE', body: selected });
        notify(`已彻底删除${selected.length}条数据`, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      }
      setSelected([]);
      if (page > 0 && selected.length >= (items?.length ?? 0)) setPage(page - 1);
      else setVersion((v) => v + 1);
    } catch {
      /* the HTTP client has shown the server's message */
    } finally {
      setPending(null);
      setWorking(false);
    }
  };

  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const allShown = !!items?.length && items.every((i) => selected.includes(i.id));
  const titleId = `${spec.name}-bin-title`;
  return (
    <Dialog open={open} onClose={onClose} maxWidth="lg" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{spec.title}回收站</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 240 }}>
        <Box sx={{ display: 'flex', gap: 1, mb: 1 }}>
          <Button size="small" variant="contained" color="success" disabled={!selected.length} onClick={() => setPending('restore')}>
            恢复
          </Button>
          <Button size="small" variant="contained" color="error" disabled={!selected.length} onClick={() => setPending('purge')}>
            彻底删除
          </Button>
        </Box>
        {items === null ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress size={28} aria-label="加载中" />
          </Box>
        ) : (
          <Table size="small" aria-label={`${spec.title}回收站`}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    checked={allShown}
                    indeterminate={!allShown && selected.length > 0}
                    onChange={() => setSelected(allShown ? [] : (items ?? []).map((i) => i.id))}
                    slotProps={{ input: { 'aria-label': '全选' } }}
                  />
                </TableCell>
                <TableCell>ID</TableCell>
                {fields.map((f) => (
                  <TableCell key={f.name}>{f.title}</TableCell>
                ))}
                <TableCell>删除人</TableCell>
                <TableCell>删除时间</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((item) => (
                <TableRow key={item.id} hover selected={selected.includes(item.id)} data-testid="bin-row">
                  <TableCell padding="checkbox">
                    <Checkbox
                      size="small"
                      checked={selected.includes(item.id)}
                      onChange={() => toggle(item.id)}
                      slotProps={{ input: { 'aria-label': `选择 ${item.id}` } }}
                    />
                  </TableCell>
                  <TableCell>{item.id}</TableCell>
                  {fields.map((f) => (
                    <TableCell key={f.name} sx={{ maxWidth: 240, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                      {displayValue(f, item.record[f.name])}
                    </TableCell>
                  ))}
                  <TableCell>{actorText(item.actorKind, item.deleteUser)}</TableCell>
                  <TableCell>{item.deleteTime}</TableCell>
                </TableRow>
              ))}
              {items.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={fields.length + 4} align="center">
                    <Typography color="text.secondary">回收站中没有数据</Typography>
                  </TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        )}
        <TablePager
          count={total}
          page={page}
          size={PAGE_SIZE}
          onPageChange={(p) => {
            setSelected([]);
            setPage(p);
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
      <Confirm
        isOpen={!!pending}
        loading={working}
        title={pending === 'purge' ? '彻底删除' : '恢复'}
        content={
          pending === 'purge'
            ? `确定彻底删除选中的${selected.length}条数据吗？彻底删除后无法恢复，其历史记录也一并删除。`
            : `确定恢复选中的${selected.length}条数据吗？`
        }
        confirm="确定"
        cancel="取消"
        onConfirm={() => void run()}
        onClose={() => setPending(null)}
      />
    </Dialog>
  );
}
