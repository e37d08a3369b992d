/**
 * 用车客户: the dealer's customers. Search by mobile; columns 姓名, 手机号 (138****5678),
 * 关注公众号, 创建时间; row actions 编辑 and 提交用车需求; double-click a row to view it.
 * Add/edit (700 px): 手机号 + 发送验证码 (a 客户授权 code to the customer's phone, 60 s countdown)
 * + 验证码. The membership is looked up only with the customer's code (their consent): 确定 submits
 * {mobile, code}; a registered member becomes a customer and the dialog shows the member data as
 * the dealer may see it (ID number and birthday masked); an unknown mobile answers
 * 您好您还未注册公众号账户请注册后再来. Editing keeps the mobile without a code; a new mobile
 * needs the new holder's code. A demand needs subscribe 1, otherwise 客户还未关注公众号，请先关注公众号.
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
import { CodeButton } from './AccountDialogs.tsx';

export const NOT_REGISTERED = '您好您还未注册公众号账户请注册后再来';
export const CONSENT_CODE_EMPTY = '请输入客户收到的验证码';
export const CONSENT_CODE_INVALID = '请输入6位数字验证码';
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

function codeError(v: string): string | undefined {
  if (!v.trim()) return CONSENT_CODE_EMPTY;
  return /^\d{6}$/.test(v.trim()) ? undefined : CONSENT_CODE_INVALID;
}

function CustomerDialog({ record, onClose, onSaved }: { record: Customer | null; onClose: () => void; onSaved: () => void }) {
  const [mobile, setMobile] = useState(record?.mobile ?? '');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const [member, setMember] = useState<MemberFields | null>(record);
  const [added, setAdded] = useState(false);
  const [errors, setErrors] = useState<{ mobile?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);
  // the customer's consent is needed for a new customer and for a changed mobile
  const needsCode = !record || mobile.trim() !== record.mobile;

  async function sendCode(): Promise<boolean> {
    const problem = mobileError(mobile);
    setErrors({ mobile: problem });
    if (problem) return false;
    try {
      await dealerFetch('comp/dbcCompany/sendMessage', { method: 'POST', body: { mobile: mobile.trim(), type: 5 } });
      setSent(true);
      notify('success', '验证码已发送到客户手机，有效期5分钟');
      return true;
    } catch {
      return false; /* shown by the client */
    }
  }

  async function save() {
    const next = { mobile: mobileError(mobile), code: needsCode ? codeError(code) : undefined };
    setErrors(next);
    if (next.mobile || next.code) return;
    setBusy(true);
    try {
      const body = { mobile: mobile.trim(), ...(needsCode ? { code: code.trim() } : {}) };
      if (record) {
        await dealerFetch('comp/dbcCompany/updateDbcUserInfo', { method: 'PUT', body: { id: record.id, ...body } });
        notify('success', '编辑成功');
        onSaved();
        return;
      }
      const created = await dealerFetch<Customer>('comp/dbcCompany/submitDbcUserInfo', { method: 'POST', body });
      // the member data as the dealer may see it; 关闭 refreshes the list
      setMember(created);
      setAdded(true);
      notify('success', '新增成功');
    } catch (err) {
      if (err instanceof DealerHttpError && err.message === NOT_REGISTERED) setMember(null);
      /* the message is shown by the client */
    } finally {
      setBusy(false);
    }
  }

  const ro = (name: string, value: string) => <TextField label={name} value={value} size="small" fullWidth disabled helperText=" " />;
  return (
    <Dialog open onClose={busy ? undefined : added ? onSaved : onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 700 } } }}>
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
            disabled={added}
            onChange={(e) => {
              setMobile(e.target.value.replace(/\D/g, '').slice(0, 11));
              setMember(record && e.target.value === record.mobile ? record : null);
              setSent(false);
              setCode('');
              setErrors({});
            }}
            error={!!errors.mobile}
            helperText={errors.mobile ?? '客户的手机号，会员资料在客户授权后读取'}
            slotProps={{ htmlInput: { maxLength: 11, inputMode: 'numeric' } }}
          />
          {needsCode && !added ? <CodeButton key={mobile.trim()} sentOnce={sent} send={sendCode} /> : null}
        </Box>
        {needsCode && !added ? (
          <TextField
            label="验证码"
            name="code"
            required
            size="small"
            fullWidth
            sx={{ mt: 1 }}
            value={code}
            onChange={(e) => {
              setCode(e.target.value.replace(/\D/g, '').slice(0, 6));
              setErrors((v) => ({ ...v, code: undefined }));
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void save();
            }}
            error={!!errors.code}
            helperText={errors.code ?? '请客户告知收到的6位短信验证码，作为查询会员资料的授权'}
            slotProps={{ htmlInput: { maxLength: 6, inputMode: 'numeric', autoComplete: 'one-time-code' } }}
          />
        ) : null}
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
        {added ? (
          <Button variant="contained" onClick={onSaved}>
            关闭
          </Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={busy}>
              取消
            </Button>
            <Button variant="contained" onClick={() => void save()} disabled={busy}>
              确定
            </Button>
          </>
        )}
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
  const [name, setName] = useState('');
  /** the searched mobile and name (the name by characters or pinyin: zw finds 张伟) */
  const [query, setQuery] = useState({ mobile: '', name: '' });
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
      dealerFetch<Page<Customer>>('comp/dbcCompany/getDbcUserInfos', {
        query: { page, size: PAGE_SIZE, sort: 'id,desc', mobile: query.mobile, ...(query.name ? { surname: query.name } : {}) },
      })
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
    const next = { mobile: mobile.trim(), name: name.trim() };
    // 搜索 always asks again: with the same text and page nothing would change state, so load now
    const same = next.mobile === query.mobile && next.name === query.name;
    if (same && page === 0) reload();
    setPage(0);
    if (!same) setQuery(next);
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
        <TextField
          size="small"
          placeholder="姓名（可输入拼音，如 zw）"
          value={name}
          onChange={(e) => setName(e.target.value.slice(0, 50))}
          onKeyDown={(e) => e.key === 'Enter' && search()}
          slotProps={{ htmlInput: { maxLength: 50, 'aria-label': '姓名搜索' } }}
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
              hint={
                query.name
                  ? '没有该姓名的用车客户，可修改姓名或拼音后再搜索'
                  : query.mobile
                    ? '没有该手机号的用车客户，可修改手机号后再搜索'
                    : '还没有用车客户，可点击「新增」添加'
              }
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
