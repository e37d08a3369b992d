/**
 * 用车客户: the dealer's customers. Search by mobile; columns 姓名, 手机号 (138****5678),
 * 关注公众号, 创建时间; row actions 编辑 and 提交用车需求; double-click a row to view it.
 * Add/edit (700 px): the mobile is looked up first (getMember); a registered member fills
 * surname, sex, member id, ID number, birthday and status, an unknown mobile warns
 * 您好您还未注册公众号账户请注册后再来 and clears them. A demand needs subscribe 1, otherwise
 * 客户还未关注公众号，请先关注公众号.
 */
import { useCallback, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TableState } from '../components/TableState.tsx';
import { TablePager } from '../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { maskPhone } from '../../shared/masks.ts';
import { isMobile } from '../../shared/validators.ts';
import { DEMAND_MESSAGES } from '../../shared/dbc-demand.ts';
import { dealerFetch, DealerHttpError } from './http.ts';
import { notify } from './notices.ts';
import { label, MEMBER_STATUS_LABELS, SEX_LABELS, SUBSCRIBE_LABELS, type Page } from './labels.ts';
import { DemandDialog, EMPTY_DEMAND } from './DemandForm.tsx';
import { ScrollX } from '../components/ScrollX.tsx';

export const NOT_REGISTERED = '您好您还未注册公众号账户请注册后再来';
const PAGE_SIZE = 10;

export interface Customer {
  id: number;
  mobile: string;
  surname: string;
  sex: number;
  mid: string | null;
  idno: string | null;
  birthday: string | null;
  status: number;
  subscribe: number;
  createTime: string;
}

type MemberFields = Pick<Customer, 'surname' | 'sex' | 'mid' | 'idno' | 'birthday' | 'status' | 'subscribe'>;

function mobileError(v: string): string | undefined {
  if (!v.trim()) return '请输入电话号码';
  return isMobile(v.trim()) ? undefined : '请输入正确的11位手机号码';
}

function CustomerDialog({ record, onClose, onSaved }: { record: Customer | null; onClose: () => void; onSaved: () => void }) {
  const [mobile, setMobile] = useState(record?.mobile ?? '');
  const [member, setMember] = useState<MemberFields | null>(record);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function lookup(): Promise<MemberFields | null> {
    const problem = mobileError(mobile);
    setError(problem);
    if (problem) return null;
    setBusy(true);
    try {
      const m = await dealerFetch<MemberFields>('comp/dbcCompany/getMember', { query: { mobile: mobile.trim() }, quiet: true });
      setMember(m);
      return m;
    } catch (err) {
      setMember(null);
      if (err instanceof DealerHttpError && err.status === 404) notify('warning', NOT_REGISTERED);
      else notify('error', (err as Error).message);
      return null;
    } finally {
      setBusy(false);
    }
  }

  async function save() {
    const m = member && member.surname ? member : await lookup();
    if (!m) return;
    setBusy(true);
    try {
      if (record) await dealerFetch('comp/dbcCompany/updateDbcUserInfo', { method: 'PUT', body: { id: record.id, mobile: mobile.trim() } });
      else await dealerFetch('comp/dbcCompany/submitDbcUserInfo', { method: 'POST', body: { mobile: mobile.trim() } });
      notify('success', record ? '编辑成功' : '新增成功');
      onSaved();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  }

  const ro = (name: string, value: string) => <TextField label={name} value={value} size="small" fullWidth disabled helperText=" " />;
  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 700 } } }}>
      <DialogTitle>{record ? '编辑客户' : '新增客户'}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <TextField
            label="手机号"
            name="mobile"
            required
            size="small"
            fullWidth
            value={mobile}
            onChange={(e) => {
              setMobile(e.target.value.replace(/\D/g, '').slice(0, 11));
              setMember(null);
              setError(undefined);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void lookup();
            }}
            error={!!error}
            helperText={error ?? '先输入手机号查询公众号会员'}
            slotProps={{ htmlInput: { maxLength: 11, inputMode: 'numeric' } }}
          />
          <Button variant="outlined" onClick={() => void lookup()} disabled={busy} sx={{ whiteSpace: 'nowrap', height: 40 }}>
            查询
          </Button>
        </Box>
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 2, mt: 1 }} data-testid="member-fields">
          {ro('姓名', member?.surname ?? '')}
          {ro('性别', label(SEX_LABELS, member?.sex))}
          {ro('会员ID', member?.mid ?? '')}
          {ro('身份证号', member?.idno ?? '')}
          {ro('生日', member?.birthday ?? '')}
          {ro('状态', label(MEMBER_STATUS_LABELS, member?.status))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          取消
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy}>
          确定
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function CustomerView({ record, onClose }: { record: Customer; onClose: () => void }) {
  const rows: Array<[string, string]> = [
    ['姓名', record.surname],
    ['手机号', maskPhone(record.mobile)],
    ['性别', label(SEX_LABELS, record.sex)],
    ['会员ID', record.mid ?? ''],
    ['生日', record.birthday ?? ''],
    ['状态', label(MEMBER_STATUS_LABELS, record.status)],
    ['关注公众号', label(SUBSCRIBE_LABELS, record.subscribe)],
    ['创建时间', record.createTime],
  ];
  return (
    <Dialog open onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 700 } } }}>
      <DialogTitle>查看客户</DialogTitle>
      <DialogContent dividers>
        <Table size="small">
          <TableBody>
            {rows.map(([k, v]) => (
              <TableRow key={k}>
                <TableCell sx={{ width: 140, color: 'text.secondary' }}>{k}</TableCell>
                <TableCell>{v}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>关闭</Button>
      </DialogActions>
    </Dialog>
  );
}

export default function CustomerList() {
  const [mobile, setMobile] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const [data, setData] = useState<Page<Customer>>({ content: [], totalElements: 0 });
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<Customer | null | undefined>(undefined);
  const [viewing, setViewing] = useState<Customer | null>(null);
  const [demandFor, setDemandFor] = useState<Customer | null>(null);

  // another page or search: the table shows its loading state until the answer comes
  const [loadingFor, setLoadingFor] = useState({ page, query });
  if (loadingFor.page !== page || loadingFor.query !== query) {
    setLoadingFor({ page, query });
    setLoading(true);
  }
  const load = useCallback(
    () =>
      dealerFetch<Page<Customer>>('comp/dbcCompany/getDbcUserInfos', { query: { page, size: PAGE_SIZE, sort: 'id,desc', mobile: query } })
        .then(setData, () => undefined /* shown by the client */)
        .finally(() => setLoading(false)),
    [page, query],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const reload = () => {
    setLoading(true);
    void load();
  };

  const search = () => {
    const next = mobile.trim();
    // 搜索 always asks again: with the same text and page nothing would change state, so load now
    if (next === query && page === 0) reload();
    setPage(0);
    setQuery(next);
  };
  const openDemand = (c: Customer) => {
    if (Number(c.subscribe) !== 1) notify('warning', DEMAND_MESSAGES.notFollowing);
    else setDemandFor(c);
  };

  return (
    <Paper sx={{ p: 2 }} data-testid="customer-list">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <TextField
          size="small"
          placeholder="手机号"
          value={mobile}
          onChange={(e) => setMobile(e.target.value.replace(/\D/g, '').slice(0, 11))}
          onKeyDown={(e) => e.key === 'Enter' && search()}
          slotProps={{ htmlInput: { maxLength: 11, 'aria-label': '手机号搜索' } }}
        />
        <Button variant="contained" onClick={search}>
          搜索
        </Button>
        <Button variant="outlined" onClick={() => setEditing(null)}>
          新增
        </Button>
      </Box>
      <ScrollX>
        <Table size="small" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell>姓名</TableCell>
              <TableCell>手机号</TableCell>
              <TableCell>关注公众号</TableCell>
              <TableCell>创建时间</TableCell>
              <TableCell align="center">操作</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.content.map((c) => (
              <TableRow key={c.id} hover onDoubleClick={() => setViewing(c)} sx={{ cursor: 'pointer' }}>
                <TableCell>{c.surname}</TableCell>
                <TableCell>{maskPhone(c.mobile)}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={Number(c.subscribe) === 1 ? 'success' : 'default'}
                    label={label(SUBSCRIBE_LABELS, c.subscribe)}
                  />
                </TableCell>
                <TableCell>{c.createTime}</TableCell>
                <TableCell align="center">
                  <Button size="small" onClick={() => setEditing(c)}>
                    编辑
                  </Button>
                  <Button size="small" onClick={() => openDemand(c)}>
                    提交用车需求
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            <TableState
              loading={loading && data.content.length === 0}
              failed={false}
              empty={!loading && data.content.length === 0}
              columns={5}
              hint={query ? '没有该手机号的用车客户，可修改手机号后再搜索' : '还没有用车客户，可点击「新增」添加'}
            />
          </TableBody>
        </Table>
      </ScrollX>
      <TablePager count={data.totalElements} page={page} size={PAGE_SIZE} onPageChange={setPage} />
      {editing !== undefined ? (
        <CustomerDialog
          record={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            reload();
          }}
        />
      ) : null}
      {viewing ? <CustomerView record={viewing} onClose={() => setViewing(null)} /> : null}
      {demandFor ? (
        <DemandDialog
          open
          title="提交用车需求"
          width={1000}
          customerName={demandFor.surname}
          initial={EMPTY_DEMAND}
          onClose={() => setDemandFor(null)}
          onSubmit={async (body) => {
            await dealerFetch('comp/dbcCompany/submitDbcInfo', { method: 'POST', body: { ...body, duId: demandFor.id } });
            notify('success', '提交成功');
            setDemandFor(null);
          }}
        />
      ) : null}
    </Paper>
  );
}
