/**
 * 用户管理: departments on the left (a click filters the list to the department and those
 * below), the user list on the right with 搜索 (user name, nickname, phone, e-mail), 状态 and
 * 创建时间 filters, paging 10/15/30/45/60/100, and by permission key: 新增 (user:add), 编辑 /
 * 重置密码 / 启用·禁用 switch (user:edit), 删除 (user:del). A new user gets the initial password
 * (shown in the notice after 新增 and 重置密码) and must change it at the first sign-in. The organisation can be changed only by a user
 * whose role has the 全部 data scope; otherwise it is fixed to the user's own. Phones and
 * e-mails come masked from the server without 用户查看完整个人信息 (user:sensitive): the edit
 * dialog then shows them read-only and does not send them (the stored values stay).
 */
import { useMemo, useState } from 'react';
import { DEFAULT_USER_PASSWORD, PASSWORD_RESET_NOTICE, USER_CREATED_NOTICE } from '../../../../shared/accounts.ts';
import Box from '@mui/material/Box';
import type { Theme } from '@mui/material/styles';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TablePager } from '../../../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { useGetIdentity } from 'react-admin';
import { formatMessage, messages } from '../../../../shared/messages.ts';
import { maskPhone } from '../../../../shared/masks.ts';
import { DateTextField } from '../../schema/DateTextField.tsx';
import { MASKED_HELP } from '../../schema/maskedFields.tsx';

/** The create dialog's note on the phone and e-mail for a caller without user:sensitive. */
export const CONTACTS_BY_OWNER = '无权填写个人信息，由用户本人在个人中心绑定';
import { USER_FORM } from '../../../../shared/admin-forms.ts';
import {
  ConfirmDialog,
  flattenDepts,
  FormDialog,
  getJson,
  indentLabel,
  ScreenTitle,
  send,
  TableState,
  useAction,
  useCan,
  useLoad,
  type DeptNode,
  type Page,
  useFormCheck,
} from './common.tsx';
import { ScrollX } from '../../../components/ScrollX.tsx';
import { HistoryButton } from './HistoryButton.tsx';
import { RecycleBinButton } from './RecycleBinButton.tsx';
import { Highlight } from '../../../components/pinyin/Highlight.tsx';
import { usePinyinMatcher } from '../../../components/pinyin/usePinyin.ts';
import { PinyinPicker } from '../../../components/pinyin/PinyinPicker.tsx';

interface Role {
  id: number;
  name: string;
  level: number;
  dataScope: string;
}

interface UserRow {
  id: number;
  username: string;
  nickName: string;
  phone: string | null;
  email: string | null;
  wecomUserId?: string | null;
  sex: number;
  enabled: boolean;
  deptId: number | null;
  orgId: number | null;
  dept: { id: number; name: string } | null;
  orgName: string | null;
  createTime: string | null;
  roles: Role[];
}

interface Form {
  id?: number;
  username: string;
  nickName: string;
  phone: string;
  email: string;
  wecomUserId: string;
  sex: number;
  enabled: boolean;
  orgId: number | '';
  deptId: number | '';
  roles: number[];
}

const PAGE_SIZES = [10, 15, 30, 45, 60, 100];

/**
 * The table is wider than its pane beside the department tree (at 1280 px too): the 操作 column
 * stays pinned at the right edge while the other columns scroll under it.
 */
const ACTIONS_PINNED = {
  '& th': { whiteSpace: 'nowrap' },
  '& tr > th:last-of-type:not(:first-of-type), & tr > td:last-of-type:not(:first-of-type)': {
    position: 'sticky',
    right: 0,
    zIndex: 1,
    bgcolor: 'background.paper',
    boxShadow: (theme: Theme) => `inset 1px 0 0 ${theme.palette.divider}`,
  },
} as const;

export function UserAdmin() {
  const can = useCan();
  const act = useAction();
  const { identity } = useGetIdentity();
  const me = identity as unknown as { roles?: Role[]; orgId?: number; username?: string } | undefined;
  const anyOrg = me?.username === 'admin' || (me?.roles ?? []).some((r) => r.dataScope === '全部');
  const [version, setVersion] = useState(0);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [deptId, setDeptId] = useState<number | null>(null);
  const [blurry, setBlurry] = useState('');
  const [deptQuery, setDeptQuery] = useState('');
  const matchDept = usePinyinMatcher('text');
  const [enabled, setEnabled] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [query, setQuery] = useState({ blurry: '', enabled: '', from: '', to: '' });
  const depts = useLoad(() => getJson<DeptNode[]>('/api/dept/getDeptList'), [version]);
  // the companies of the caller's data scope (every company for 全部), for the 公司 selector
  const orgs = useLoad(() => getJson<Array<{ id: number; name: string; enabled: boolean }>>('/api/system/deptRemark/getOrg'), [version]);
  const roles = useLoad(() => getJson<Role[]>('/api/roles/all'), []);
  const level = useLoad(() => getJson<{ level: number | null }>('/api/roles/level'), []);
  const users = useLoad(
    () =>
      getJson<Page<UserRow>>('/api/users', {
        page,
        size,
        sort: 'id,desc',
        deptId: deptId ?? undefined,
        blurry: query.blurry,
        enabled: query.enabled,
        createTime: query.from || query.to ? [query.from, query.to] : undefined,
      }),
    [page, size, deptId, query, version],
  );
  const flat = useMemo(() => flattenDepts(depts.data), [depts.data]);
  const [form, setForm] = useState<Form | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<{ content: string; run: () => Promise<boolean> } | null>(null);
  const reload = () => setVersion((v) => v + 1);
  // without the key the phone and e-mail of an existing user came masked: shown, never sent back
  const seesContacts = can('user:sensitive');
  // without the key phones and e-mails are neither read nor written, on create as on edit
  const contactsMasked = (f: Form | null) => !!f && !seesContacts;
  const maskedHelp = (f: Form | null) => (f?.id ? MASKED_HELP : CONTACTS_BY_OWNER);
  const grantable = (roles.data ?? []).filter((r) => level.data?.level != null && r.level >= level.data.level);

  const orgList = orgs.data ?? [];
  /** a new user's company: the only one in scope, else the caller's own when not 全部, else to choose */
  const defaultOrg = (): number | '' => {
    if (orgList.length === 1) return orgList[0].id;
    if (!anyOrg && me?.orgId && orgList.some((o) => o.id === me.orgId)) return me.orgId;
    return '';
  };
  const openCreate = () => {
    setForm({
      username: '',
      nickName: '',
      phone: '',
      email: '',
      wecomUserId: '',
      sex: 1,
      enabled: true,
      orgId: defaultOrg(),
      deptId: deptId ?? '',
      roles: [],
    });
  };
  const openEdit = (u: UserRow) => {
    setForm({
      id: u.id,
      username: u.username,
      nickName: u.nickName,
      phone: u.phone ?? '',
      email: u.email ?? '',
      wecomUserId: u.wecomUserId ?? '',
      sex: u.sex,
      enabled: u.enabled,
      orgId: u.orgId ?? '',
      deptId: u.deptId ?? '',
      roles: u.roles.map((r) => r.id),
    });
  };
  const bodyOf = (f: Form) => ({
    id: f.id,
    username: f.username.trim(),
    nickName: f.nickName.trim(),
    ...(contactsMasked(f) ? {} : { phone: f.phone.trim() || null, email: f.email.trim() || null }),
    wecomUserId: f.wecomUserId.trim() || null,
    sex: f.sex,
    enabled: f.enabled,
    orgId: f.orgId || null,
    deptId: f.deptId || null,
    roles: f.roles.map((id) => ({ id })),
  });
  const check = useFormCheck(USER_FORM, form && bodyOf(form));
  const save = async () => {
    if (!form || !check.valid()) return;
    setBusy(true);
    const ok = await act(
      () => send(form.id ? 'PUT' : 'POST', '/api/users', bodyOf(form)),
      form.id ? messages.notice.updated : USER_CREATED_NOTICE,
      check.failed,
    );
    setBusy(false);
    if (ok) {
      setForm(null);
      reload();
    }
  };
  const toggle = (u: UserRow) => {
    const action = u.enabled ? '禁用' : '启用';
    setConfirm({
      content: formatMessage(messages.confirm.enableDisable, { action }),
      run: () =>
        act(
          () => send('PUT', '/api/users', { ...bodyOf({ ...toForm(u), enabled: !u.enabled }) }),
          u.enabled ? messages.notice.disabled : messages.notice.enabled,
        ),
    });
  };
  const toForm = (u: UserRow): Form => ({
    id: u.id,
    username: u.username,
    nickName: u.nickName,
    phone: u.phone ?? '',
    email: u.email ?? '',
    wecomUserId: u.wecomUserId ?? '',
    sex: u.sex,
    enabled: u.enabled,
    orgId: u.orgId ?? '',
    deptId: u.deptId ?? '',
    roles: u.roles.map((r) => r.id),
  });
  const runConfirm = async () => {
    if (!confirm) return;
    setBusy(true);
    const ok = await confirm.run();
    setBusy(false);
    setConfirm(null);
    if (ok) reload();
  };
  const rows = users.data?.content ?? [];
  const shownDepts = flat.map((d) => ({ d, range: matchDept(d.name, deptQuery) })).filter((x) => x.range);

  return (
    <Box sx={{ p: 2, minWidth: 0 }}>
      <ScreenTitle>用户管理</ScreenTitle>
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 2, alignItems: { xs: 'stretch', sm: 'flex-start' } }}>
        <Paper
          sx={{ width: { xs: 'auto', sm: 190 }, flexShrink: 0, maxHeight: { xs: '30vh', sm: '75vh' }, overflow: 'auto' }}
          aria-label="部门"
        >
          {/* the departments are found by name or pinyin (总部 by zb), the matched characters marked */}
          <TextField
            size="small"
            value={deptQuery}
            onChange={(e) => setDeptQuery(e.target.value)}
            placeholder="查找部门"
            sx={{ m: 1, mb: 0, width: 'calc(100% - 16px)' }}
            slotProps={{ htmlInput: { 'aria-label': '查找部门' } }}
          />
          {/* buttons in a plain group: a list may only hold list items */}
          <List dense component="div">
            <ListItemButton
              selected={deptId === null}
              onClick={() => {
                setDeptId(null);
                setPage(0);
              }}
            >
              全部部门
            </ListItemButton>
            {shownDepts.map(({ d, range }) => (
              <ListItemButton
                key={d.id}
                selected={deptId === d.id}
                onClick={() => {
                  setDeptId(d.id);
                  setPage(0);
                }}
              >
                {deptQuery.trim() ? <Highlight text={d.name} range={range} /> : indentLabel(d.name, d.depth)}
              </ListItemButton>
            ))}
          </List>
        </Paper>
        <Paper sx={{ flex: 1, p: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
            <TextField
              size="small"
              placeholder="输入名称或者邮箱搜索"
              value={blurry}
              onChange={(e) => setBlurry(e.target.value)}
              inputProps={{ 'aria-label': '搜索' }}
            />
            <DateTextField label="创建时间(开始)" value={from} onChange={setFrom} />
            <DateTextField label="创建时间(结束)" value={to} onChange={setTo} />
            <TextField size="small" select label="状态" value={enabled} onChange={(e) => setEnabled(e.target.value)} sx={{ width: 110 }}>
              <MenuItem value="">全部</MenuItem>
              <MenuItem value="true">启用</MenuItem>
              <MenuItem value="false">禁用</MenuItem>
            </TextField>
            <Button
              size="small"
              variant="contained"
              color="success"
              startIcon={<SearchIcon />}
              onClick={() => {
                setPage(0);
                setQuery({ blurry, enabled, from, to });
              }}
            >
              搜索
            </Button>
            {can('user:add') ? (
              <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={openCreate}>
                新增
              </Button>
            ) : null}
            <RecycleBinButton table="user" onRestored={reload} />
          </Box>
          <ScrollX>
            <Table size="small" aria-label="用户列表" sx={ACTIONS_PINNED}>
              <TableHead>
                <TableRow>
                  {['用户名', '昵称', '性别', '电话', '部门', '岗位', '状态', '创建日期', '操作'].map((h) => (
                    <TableCell key={h} sx={{ fontWeight: 600 }}>
                      {h}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                <TableState loading={users.loading && !users.data} failed={users.failed} empty={!rows.length} columns={9} />
                {rows.map((u) => (
                  <TableRow key={u.id} hover>
                    <TableCell>{u.username}</TableCell>
                    <TableCell>{u.nickName}</TableCell>
                    <TableCell>{u.sex === 1 ? '男' : '女'}</TableCell>
                    <TableCell>{u.phone ? maskPhone(u.phone) : ''}</TableCell>
                    <TableCell>{u.dept?.name ?? ''}</TableCell>
                    <TableCell>{u.roles.map((r) => r.name).join('、')}</TableCell>
                    <TableCell>
                      <Switch
                        size="small"
                        checked={u.enabled}
                        disabled={!can('user:edit') || u.username === 'admin'}
                        onChange={() => toggle(u)}
                        slotProps={{ input: { 'aria-label': `${u.username}状态` } }}
                      />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{u.createTime ?? ''}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {can('user:edit') ? (
                        <>
                          <Button size="small" onClick={() => openEdit(u)}>
                            编辑
                          </Button>
                          <Button
                            size="small"
                            color="warning"
                            onClick={() =>
                              setConfirm({
                                content: `确定将 ${u.username} 的密码重置为初始密码（${DEFAULT_USER_PASSWORD}）吗？`,
                                run: () =>
                                  act(
                                    () => send('POST', '/api/users/resetPass', undefined, { userName: u.username, userid: u.id }),
                                    PASSWORD_RESET_NOTICE,
                                  ),
                              })
                            }
                          >
                            重置密码
                          </Button>
                        </>
                      ) : null}
                      {can('user:del') && u.username !== 'admin' && u.username !== me?.username ? (
                        <Button
                          size="small"
                          color="error"
                          onClick={() =>
                            setConfirm({
                              content: messages.confirm.deleteOne,
                              run: () => act(() => send('DELETE', '/api/users', [u.id]), messages.notice.deleted),
                            })
                          }
                        >
                          删除
                        </Button>
                      ) : null}
                      <HistoryButton table="user" id={u.id} onRestored={reload} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollX>
          <TablePager
            count={users.data?.totalElements ?? 0}
            page={page}
            size={size}
            sizes={PAGE_SIZES}
            onPageChange={setPage}
            onSizeChange={setSize}
          />
        </Paper>
      </Box>
      <FormDialog
        open={!!form}
        title={form?.id ? '编辑用户' : '新增用户'}
        width={570}
        busy={busy}
        onClose={() => setForm(null)}
        onSubmit={() => void save()}
      >
        {form ? (
          <>
            <TextField
              label="用户名"
              required
              value={form.username}
              onChange={(e) => setForm({ ...form, username: e.target.value })}
              inputProps={{ maxLength: 32 }}
              {...check.field('username')}
            />
            <TextField
              label="昵称"
              required
              value={form.nickName}
              onChange={(e) => setForm({ ...form, nickName: e.target.value })}
              inputProps={{ maxLength: 64 }}
              {...check.field('nickName')}
            />
            <TextField
              label="电话"
              value={form.phone}
              onChange={(e) => setForm({ ...form, phone: e.target.value.replace(/\D/g, '') })}
              inputProps={{ maxLength: 11 }}
              {...check.field('phone')}
              disabled={contactsMasked(form)}
              {...(contactsMasked(form) ? { helperText: maskedHelp(form) } : {})}
            />
            <TextField
              label="邮箱"
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
              inputProps={{ maxLength: 100 }}
              {...check.field('email')}
              disabled={contactsMasked(form)}
              {...(contactsMasked(form) ? { helperText: maskedHelp(form) } : {})}
            />
            <TextField
              label="企业微信账号"
              value={form.wecomUserId}
              {...check.field('wecomUserId', '企业微信里的账号（UserID），绑定后可扫码登录')}
              onChange={(e) => setForm({ ...form, wecomUserId: e.target.value.replace(/[^A-Za-z0-9_.@-]/g, '') })}
              inputProps={{ maxLength: 64 }}
            />
            <PinyinPicker
              label="公司"
              required
              options={orgList.map((o) => ({ id: o.id, name: o.name, disabled: !o.enabled && o.id !== form.orgId }))}
              value={form.orgId === '' || orgList.some((o) => o.id === form.orgId) ? form.orgId : ''}
              disabled={!anyOrg && orgList.length <= 1}
              {...check.field('orgId', !anyOrg && orgList.length <= 1 ? '只能选择本公司' : '')}
              onChange={(orgId) => setForm({ ...form, orgId })}
            />
            <PinyinPicker
              label="部门"
              required
              options={flat}
              value={form.deptId}
              {...check.field('deptId')}
              onChange={(deptId) => setForm({ ...form, deptId })}
            />
            <TextField
              select
              label="岗位"
              required
              {...check.field('roles')}
              SelectProps={{
                multiple: true,
                renderValue: (v) =>
                  (roles.data ?? [])
                    .filter((r) => (v as number[]).includes(r.id))
                    .map((r) => r.name)
                    .join('、'),
              }}
              value={form.roles}
              onChange={(e) => setForm({ ...form, roles: (e.target.value as unknown as number[]).map(Number) })}
            >
              {grantable.map((r) => (
                <MenuItem key={r.id} value={r.id}>
                  {r.name}（级别 {r.level}）
                </MenuItem>
              ))}
            </TextField>
            <RadioGroup row value={form.sex} onChange={(e) => setForm({ ...form, sex: Number(e.target.value) })} aria-label="性别">
              <FormControlLabel value={1} control={<Radio size="small" />} label="男" />
              <FormControlLabel value={0} control={<Radio size="small" />} label="女" />
            </RadioGroup>
            <RadioGroup
              row
              value={form.enabled ? 'true' : 'false'}
              onChange={(e) => setForm({ ...form, enabled: e.target.value === 'true' })}
              aria-label="状态"
            >
              <FormControlLabel value="true" control={<Radio size="small" />} label="启用" />
              <FormControlLabel value="false" control={<Radio size="small" />} label="禁用" />
            </RadioGroup>
          </>
        ) : null}
      </FormDialog>
      <ConfirmDialog
        open={!!confirm}
        busy={busy}
        content={confirm?.content ?? ''}
        onConfirm={() => void runConfirm()}
        onClose={() => setConfirm(null)}
      />
    </Box>
  );
}

export default UserAdmin;
