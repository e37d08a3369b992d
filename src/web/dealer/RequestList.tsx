/**
 * 用车需求 (mode "requests"): free-text search (Enter runs it) and a status select; columns
 * 客户名称, 事故车型, 代步车开始时间, 结束时间, 申请时间, 状态 and 编辑. 代步车用车信息 (mode "usage",
 * /comp/jxs_dbc): the same demands filtered by 审核状态 and 订单状态. Double-click opens the
 * read-only view (1000 px, watermarked with the user label, with the status history); 编辑 opens
 * the form (1300 px), offered only while 审核中 or after 未通过 (the server enforces it too).
 */
import { useCallback, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TableState } from '../components/TableState.tsx';
import { TablePager } from '../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Watermark } from '../components/Watermark.tsx';
import { maskPhone } from '../../shared/masks.ts';
import { DBC_STATUS_LABELS, DD_STATUS_LABELS, dealerMayEdit, SH_STATUS_LABELS, statusLabel } from '../../shared/dbc-status.ts';
import { dealerFetch } from './http.ts';
import { notify } from './notices.ts';
import { label, type Page } from './labels.ts';
import { dealerLabel, getDealerSession } from './session.ts';
import { DemandDialog, demandFromRecord } from './DemandForm.tsx';
import { ScrollX } from '../components/ScrollX.tsx';

const PAGE_SIZE = 10;

export interface DbcRequest {
  id: number;
  duId: number;
  khName: string;
  khMobile: string;
  userCarType: string;
  userCph: string;
  userVin: string;
  bah: string;
  wxgsf: number;
  wxts: number;
  startTime: string;
  endTime: string;
  mfts: number;
  zfts: number;
  foregiftPrice: number;
  countPrice: number;
  status: number;
  shStatus: number;
  ddStatus: number;
  auditReason: string | null;
  createUser: string;
  createTime: string;
}

interface HistoryEntry {
  id: number;
  fromStatus: number | null;
  toStatus: number;
  action: string;
  reason: string | null;
  actorKind: string;
  actor: string;
  createTime: string;
}

const STATUS_COLORS: Record<number, 'default' | 'primary' | 'success' | 'error' | 'warning' | 'info'> = {
  1: 'warning',
  2: 'success',
  3: 'error',
  4: 'info',
  5: 'primary',
  6: 'info',
  7: 'default',
};
const options = (table: Record<number, string>) => Object.entries(table).map(([value, text]) => ({ value, text }));

/** A demand has a contract once approved (2, 4-7). */
export const hasContract = (status: number) => status === 2 || status >= 4;

/** Opens (view) or saves (download) the demand's contract PDF, fetched with the dealer's token. */
export async function openContract(id: number, how: 'view' | 'download'): Promise<void> {
  const blob = await dealerFetch<Blob>(`comp/dbcCompany/${how === 'view' ? 'viewContract' : 'downloadContract'}`, {
    query: { contract_id: id },
    blob: true,
  });
  const url = URL.createObjectURL(blob);
  if (how === 'view') {
    window.open(url, '_blank', 'noopener');
  } else {
    const a = document.createElement('a');
    a.href = url;
    a.download = `代步车借用合同-DBC${String(id).padStart(8, '0')}.pdf`;
    a.click();
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function RequestView({ record, onClose }: { record: DbcRequest; onClose: () => void }) {
  const [history, setHistory] = useState<HistoryEntry[] | null>(null);
  useEffect(() => {
    dealerFetch<HistoryEntry[]>('comp/dbcCompany/getDbcInfoHistory', { query: { id: record.id } })
      .then(setHistory)
      .catch(() => setHistory([]));
  }, [record.id]);
  const rows: Array<[string, string]> = [
    ['客户名称', record.khName],
    ['客户手机号', maskPhone(record.khMobile ?? '')],
    ['事故车型', record.userCarType],
    ['车牌号', record.userCph],
    ['底盘号', record.userVin],
    ['报案号', record.bah],
    ['预估工时费', String(record.wxgsf)],
    ['预估维修天数', String(record.wxts)],
    ['代步车开始时间', record.startTime],
    ['代步车结束时间', record.endTime],
    ['免费天数', String(record.mfts)],
    ['自费天数', String(record.zfts)],
    ['押金', String(record.foregiftPrice)],
    ['合计费用', String(record.countPrice)],
    ['状态', statusLabel(record.status)],
    ['审核状态', label(SH_STATUS_LABELS, record.shStatus)],
    ['订单状态', label(DD_STATUS_LABELS, record.ddStatus)],
    ['审核意见', record.auditReason ?? ''],
    ['申请人', record.createUser],
    ['申请时间', record.createTime],
  ];
  return (
    <Dialog open onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 1000, maxWidth: '96vw' } } }}>
      <DialogTitle>查看用车需求</DialogTitle>
      <DialogContent dividers>
        <Watermark text={dealerLabel(getDealerSession()?.user)}>
          <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 3 }} data-testid="request-view">
            {rows.map(([k, v]) => (
              <Box key={k} sx={{ display: 'flex', borderBottom: '1px solid #ebeef5', py: 0.75 }}>
                <Typography sx={{ width: 120, color: 'text.secondary', flexShrink: 0 }}>{k}</Typography>
                <Typography sx={{ wordBreak: 'break-all' }}>{v}</Typography>
              </Box>
            ))}
          </Box>
          <Typography sx={{ mt: 2, mb: 1, fontWeight: 600 }}>状态记录</Typography>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>时间</TableCell>
                <TableCell>状态</TableCell>
                <TableCell>操作人</TableCell>
                <TableCell>意见</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(history ?? []).map((h) => (
                <TableRow key={h.id}>
                  <TableCell>{h.createTime}</TableCell>
                  <TableCell>
                    {h.fromStatus === null ? '' : `${statusLabel(h.fromStatus)} → `}
                    {statusLabel(h.toStatus)}
                  </TableCell>
                  <TableCell>{h.actorKind === 'staff' ? `集团（${h.actor}）` : h.actor}</TableCell>
                  <TableCell>{h.reason ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Watermark>
      </DialogContent>
      <DialogActions>
        {hasContract(record.status) ? (
          <>
            <Button onClick={() => void openContract(record.id, 'view').catch(() => undefined)}>查看合同</Button>
            <Button onClick={() => void openContract(record.id, 'download').catch(() => undefined)}>下载合同</Button>
          </>
        ) : null}
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}

export default function RequestList({ mode }: { mode: 'requests' | 'usage' }) {
  const [text, setText] = useState('');
  const [filters, setFilters] = useState<{ blurry: string; status: string; shStatus: string; ddStatus: string }>({
    blurry: '',
    status: '',
    shStatus: '',
    ddStatus: '',
  });
  const [page, setPage] = useState(0);
  const [data, setData] = useState<Page<DbcRequest>>({ content: [], totalElements: 0 });
  const [loading, setLoading] = useState(true);
  const [viewing, setViewing] = useState<DbcRequest | null>(null);
  const [editing, setEditing] = useState<DbcRequest | null>(null);

  // another page or filter: the table shows its loading state until the answer comes
  const [loadingFor, setLoadingFor] = useState({ page, filters });
  if (loadingFor.page !== page || loadingFor.filters !== filters) {
    setLoadingFor({ page, filters });
    setLoading(true);
  }
  const load = useCallback(() => {
    const body: Record<string, unknown> = { page, size: PAGE_SIZE, sort: 'id,desc' };
    for (const [k, v] of Object.entries(filters)) if (v !== '') body[k] = v;
    return dealerFetch<Page<DbcRequest>>('comp/dbcCompany/getDbcInfos', { method: 'POST', body })
      .then(setData, () => undefined /* shown by the client */)
      .finally(() => setLoading(false));
  }, [page, filters]);
  useEffect(() => {
    void load();
  }, [load]);
  const reload = () => {
    setLoading(true);
    void load();
  };

  const setFilter = (key: keyof typeof filters, value: string) => {
    setPage(0);
    setFilters((f) => ({ ...f, [key]: value }));
  };
  const select = (key: 'status' | 'shStatus' | 'ddStatus', title: string, table: Record<number, string>) => (
    <TextField
      select
      size="small"
      label={title}
      value={filters[key]}
      onChange={(e) => setFilter(key, e.target.value)}
      sx={{ width: 170 }}
      name={key}
    >
      <MenuItem value="">全部</MenuItem>
      {options(table).map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.text}
        </MenuItem>
      ))}
    </TextField>
  );
  const cols = mode === 'usage' ? 9 : 7;

  return (
    <Paper sx={{ p: 2 }} data-testid={mode === 'usage' ? 'usage-list' : 'request-list'}>
      {mode === 'usage' ? (
        <Typography variant="h6" sx={{ mb: 1 }}>
          代步车用车信息
        </Typography>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1, mb: 2, flexWrap: 'wrap' }}>
        <TextField
          size="small"
          placeholder="客户名称/手机号/车型/车牌号/底盘号/报案号，回车搜索"
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, 50))}
          onKeyDown={(e) => e.key === 'Enter' && setFilter('blurry', text.trim())}
          sx={{ width: { xs: '100%', sm: 360 } }}
          slotProps={{ htmlInput: { 'aria-label': '搜索' } }}
        />
        {mode === 'requests' ? select('status', '类型', DBC_STATUS_LABELS) : null}
        {mode === 'usage' ? select('shStatus', '审核状态', SH_STATUS_LABELS) : null}
        {mode === 'usage' ? select('ddStatus', '订单状态', DD_STATUS_LABELS) : null}
      </Box>
      <ScrollX>
        <Table size="small" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell>客户名称</TableCell>
              <TableCell>事故车型</TableCell>
              <TableCell>代步车开始时间</TableCell>
              <TableCell>代步车结束时间</TableCell>
              <TableCell>申请时间</TableCell>
              <TableCell>状态</TableCell>
              {mode === 'usage' ? <TableCell>审核状态</TableCell> : null}
              {mode === 'usage' ? <TableCell>订单状态</TableCell> : null}
              <TableCell align="center">操作</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.content.map((r) => (
              <TableRow key={r.id} hover onDoubleClick={() => setViewing(r)} sx={{ cursor: 'pointer' }} data-status={r.status}>
                <TableCell>{r.khName}</TableCell>
                <TableCell>{r.userCarType}</TableCell>
                <TableCell>{r.startTime}</TableCell>
                <TableCell>{r.endTime}</TableCell>
                <TableCell>{r.createTime}</TableCell>
                <TableCell>
                  <Chip size="small" color={STATUS_COLORS[r.status] ?? 'default'} label={statusLabel(r.status)} />
                </TableCell>
                {mode === 'usage' ? <TableCell>{label(SH_STATUS_LABELS, r.shStatus)}</TableCell> : null}
                {mode === 'usage' ? <TableCell>{label(DD_STATUS_LABELS, r.ddStatus)}</TableCell> : null}
                <TableCell align="center">
                  <Button size="small" onClick={() => setViewing(r)}>
                    查看
                  </Button>
                  <Tooltip title={dealerMayEdit(r.status) ? '' : '只有审核中或未通过的需求可以修改'}>
                    <span>
                      <Button size="small" disabled={!dealerMayEdit(r.status)} onClick={() => setEditing(r)}>
                        编辑
                      </Button>
                    </span>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            <TableState
              loading={loading && data.content.length === 0}
              failed={false}
              empty={!loading && data.content.length === 0}
              columns={cols}
              hint={
                Object.values(filters).some((v) => v !== '')
                  ? '没有符合搜索条件的记录，可修改或清空搜索条件后再试'
                  : '还没有用车需求，可在「用车客户」中点击客户的「提交用车需求」'
              }
            />
          </TableBody>
        </Table>
      </ScrollX>
      <TablePager count={data.totalElements} page={page} size={PAGE_SIZE} onPageChange={setPage} />
      {viewing ? <RequestView record={viewing} onClose={() => setViewing(null)} /> : null}
      {editing ? (
        <DemandDialog
          open
          title={editing.status === 3 ? '修改并重新提交用车需求' : '编辑用车需求'}
          width={1300}
          customerName={editing.khName}
          initial={demandFromRecord(editing as unknown as Record<string, unknown>)}
          onClose={() => setEditing(null)}
          onSubmit={async (body) => {
            await dealerFetch('comp/dbcCompany/updateDbcInfo', { method: 'PUT', body: { ...body, id: editing.id, duId: editing.duId } });
            notify('success', editing.status === 3 ? '提交成功' : '编辑成功');
            setEditing(null);
            reload();
          }}
        />
      ) : null}
    </Paper>
  );
}
