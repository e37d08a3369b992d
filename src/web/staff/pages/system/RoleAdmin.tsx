/**
 * 角色管理 (positions): the roles on the left with 新增 / 编辑 / 删除 (roles:add, roles:edit,
 * roles:del); choosing a role shows its menus on the right as a tree with checkboxes, saved by
 * 保存 (roles:edit). A role has a name, a level (1 highest; nobody creates, edits or grants a role
 * above their own level) and a data scope: 全部, 本级 or 自定义 with chosen departments.
 */
import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import { TablePager } from '../../../components/TablePager.tsx';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import SaveIcon from '@mui/icons-material/Save';
import { messages } from '../../../../shared/messages.ts';
import { ROLE_FORM } from '../../../../shared/admin-forms.ts';
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
import { MenuTreeChecklist, type MenuTreeNode } from './MenuTreeChecklist.tsx';
import { ScrollX } from '../../../components/ScrollX.tsx';
import { HistoryButton } from './HistoryButton.tsx';
import { RecycleBinButton } from './RecycleBinButton.tsx';
import { Highlight } from '../../../components/pinyin/Highlight.tsx';
import { usePinyinMatcher } from '../../../components/pinyin/usePinyin.ts';

interface RoleRow {
  id: number;
  name: string;
  level: number;
  dataScope: string;
  description: string | null;
  createTime: string | null;
  depts: Array<{ id: number; name: string }>;
  menus: Array<{ id: number }>;
}

interface Form {
  id?: number;
  name: string;
  level: number;
  dataScope: string;
  description: string;
  depts: number[];
}

export const DATA_SCOPES = ['全部', '本级', '自定义'];

export function RoleAdmin() {
  const can = useCan();
  const act = useAction();
  const [version, setVersion] = useState(0);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [blurry, setBlurry] = useState('');
  const [deptQuery, setDeptQuery] = useState('');
  const matchDept = usePinyinMatcher('text');
  const roles = useLoad(() => getJson<Page<RoleRow>>('/api/roles', { page, size, blurry }), [page, size, blurry, version]);
  const menus = useLoad(() => getJson<MenuTreeNode[]>('/api/menus/list'), []);
  const depts = useLoad(() => getJson<DeptNode[]>('/api/dept/getDeptList'), []);
  const level = useLoad(() => getJson<{ level: number | null }>('/api/roles/level'), []);
  const flat = useMemo(() => flattenDepts(depts.data), [depts.data]);
  const [selected, setSelected] = useState<RoleRow | null>(null);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [form, setForm] = useState<Form | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<RoleRow | null>(null);

  // reloaded roles: the selected one is replaced by its fresh row
  const [rolesSeen, setRolesSeen] = useState(roles.data);
  if (rolesSeen !== roles.data) {
    setRolesSeen(roles.data);
    const fresh = selected ? roles.data?.content.find((r) => r.id === selected.id) : undefined;
    if (fresh) setSelected(fresh);
  }
  // the menu ticks follow the selected role
  const [checkedFor, setCheckedFor] = useState(selected);
  if (checkedFor !== selected) {
    setCheckedFor(selected);
    setChecked(new Set(selected?.menus.map((m) => m.id) ?? []));
  }

  const reload = () => setVersion((v) => v + 1);
  const bodyOf = (f: Form) => ({
    ...f,
    description: f.description.trim() || null,
    depts: f.dataScope === '自定义' ? f.depts.map((id) => ({ id })) : [],
  });
  const check = useFormCheck(ROLE_FORM, form && bodyOf(form));
  const save = async () => {
    if (!form || !check.valid()) return;
    setBusy(true);
    const body = bodyOf(form);
    const ok = await act(
      () => send(form.id ? 'PUT' : 'POST', '/api/roles', body),
      form.id ? messages.notice.updated : messages.notice.created,
      check.failed,
    );
    setBusy(false);
    if (ok) {
      setForm(null);
      reload();
    }
  };
  const saveMenus = async () => {
    if (!selected) return;
    setBusy(true);
    const ok = await act(() => send('PUT', '/api/roles/menu', { id: selected.id, menus: [...checked].map((id) => ({ id })) }), '保存成功');
    setBusy(false);
    if (ok) reload();
  };
  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    const ok = await act(() => send('DELETE', '/api/roles', [deleting.id]), messages.notice.deleted);
    setBusy(false);
    setDeleting(null);
    if (ok) {
      if (selected?.id === deleting.id) setSelected(null);
      reload();
    }
  };
  const myLevel = level.data?.level ?? 999;
  const rows = roles.data?.content ?? [];

  return (
    <Box sx={{ p: 2, minWidth: 0 }}>
      <ScreenTitle>角色管理</ScreenTitle>
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 2, alignItems: { xs: 'stretch', md: 'flex-start' } }}>
        <Paper sx={{ flex: 3, p: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', gap: 1, mb: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <TextField
              size="small"
              placeholder="输入名称或者描述搜索"
              value={blurry}
              onChange={(e) => {
                setBlurry(e.target.value);
                setPage(0);
              }}
              inputProps={{ 'aria-label': '搜索' }}
            />
            {can('roles:add') ? (
              <Button
                size="small"
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => setForm({ name: '', level: Math.max(myLevel, 3), dataScope: '本级', description: '', depts: [] })}
              >
                新增
              </Button>
            ) : null}
            <RecycleBinButton table="role" onRestored={reload} />
          </Box>
          <ScrollX>
            <Table size="small" aria-label="角色列表" sx={{ '& th': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  {['名称', '角色级别', '数据权限', '描述', '创建日期', '操作'].map((h) => (
                    <TableCell key={h} sx={{ fontWeight: 600 }}>
                      {h}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                <TableState loading={roles.loading && !roles.data} failed={roles.failed} empty={!rows.length} columns={6} />
                {rows.map((r) => (
                  <TableRow key={r.id} hover selected={selected?.id === r.id} onClick={() => setSelected(r)} sx={{ cursor: 'pointer' }}>
                    <TableCell>{r.name}</TableCell>
                    <TableCell>{r.level}</TableCell>
                    <TableCell>
                      {r.dataScope}
                      {r.dataScope === '自定义' && r.depts.length ? `（${r.depts.map((d) => d.name).join('、')}）` : ''}
                    </TableCell>
                    <TableCell>{r.description ?? ''}</TableCell>
                    <TableCell>{r.createTime ?? ''}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
                      {can('roles:edit') && r.level >= myLevel ? (
                        <Button
                          size="small"
                          onClick={() =>
                            setForm({
                              id: r.id,
                              name: r.name,
                              level: r.level,
                              dataScope: r.dataScope,
                              description: r.description ?? '',
                              depts: r.depts.map((d) => d.id),
                            })
                          }
                        >
                          编辑
                        </Button>
                      ) : null}
                      {can('roles:del') && r.level >= myLevel && r.name !== 'admin' ? (
                        <Button size="small" color="error" onClick={() => setDeleting(r)}>
                          删除
                        </Button>
                      ) : null}
                      <HistoryButton table="role" id={r.id} onRestored={reload} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollX>
          <TablePager
            count={roles.data?.totalElements ?? 0}
            page={page}
            size={size}
            sizes={[10, 15, 30, 45, 60, 100]}
            onPageChange={setPage}
            onSizeChange={setSize}
          />
        </Paper>
        <Paper sx={{ flex: 2, p: 1, minWidth: 280, maxHeight: '78vh', overflow: 'auto' }}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
            <Typography variant="subtitle1">菜单分配{selected ? `：${selected.name}` : ''}</Typography>
            {can('roles:edit') && selected ? (
              <Button
                size="small"
                variant="contained"
                startIcon={<SaveIcon />}
                disabled={busy || selected.level < myLevel}
                onClick={() => void saveMenus()}
              >
                保存
              </Button>
            ) : null}
          </Box>
          {selected ? (
            <MenuTreeChecklist
              tree={menus.data ?? []}
              checked={checked}
              onChange={setChecked}
              disabled={!can('roles:edit') || selected.level < myLevel}
            />
          ) : (
            <Typography variant="body2" sx={{ color: 'text.secondary', p: 2 }}>
              请在角色列表中点击一个角色，再分配菜单和按钮权限
            </Typography>
          )}
        </Paper>
      </Box>
      <FormDialog
        open={!!form}
        title={form?.id ? '编辑角色' : '新增角色'}
        width={520}
        busy={busy}
        onClose={() => setForm(null)}
        onSubmit={() => void save()}
      >
        {form ? (
          <>
            <TextField
              label="角色名称"
              required
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              inputProps={{ maxLength: 64 }}
              {...check.field('name')}
            />
            <TextField
              label="角色级别"
              type="number"
              required
              value={form.level}
              {...check.field('level', `1 最高；你的级别为 ${myLevel}，只能设置 ${myLevel} 及以下`)}
              onChange={(e) => setForm({ ...form, level: Number(e.target.value) })}
              inputProps={{ min: myLevel, max: 999 }}
            />
            <TextField select label="数据范围" value={form.dataScope} onChange={(e) => setForm({ ...form, dataScope: e.target.value })}>
              {DATA_SCOPES.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </TextField>
            {form.dataScope === '自定义' ? (
              <Typography
                variant="caption"
                sx={{ color: check.errors.depts ? 'error.main' : 'text.secondary', mb: -1.5 }}
                role={check.errors.depts ? 'alert' : undefined}
              >
                {check.errors.depts ?? '数据权限：所选部门及其全部下级'}
              </Typography>
            ) : null}
            {form.dataScope === '自定义' ? (
              <Box
                sx={{
                  maxHeight: 200,
                  overflow: 'auto',
                  border: 1,
                  borderColor: check.errors.depts ? 'error.main' : 'divider',
                  borderRadius: 1,
                  p: 1,
                }}
                aria-label="数据权限"
                aria-invalid={!!check.errors.depts}
              >
                <TextField
                  size="small"
                  value={deptQuery}
                  onChange={(e) => setDeptQuery(e.target.value)}
                  placeholder="查找部门"
                  fullWidth
                  slotProps={{ htmlInput: { 'aria-label': '查找部门' } }}
                />
                {flat
                  .map((d) => ({ d, range: matchDept(d.name, deptQuery) }))
                  .filter((x) => x.range)
                  .map(({ d, range }) => (
                    <FormControlLabel
                      key={d.id}
                      sx={{ display: 'flex', pl: deptQuery.trim() ? 0 : d.depth * 2 }}
                      control={
                        <Checkbox
                          size="small"
                          disabled={d.disabled}
                          checked={form.depts.includes(d.id)}
                          onChange={(e) =>
                            setForm({ ...form, depts: e.target.checked ? [...form.depts, d.id] : form.depts.filter((x) => x !== d.id) })
                          }
                        />
                      }
                      label={deptQuery.trim() ? <Highlight text={d.name} range={range} /> : indentLabel(d.name, 0)}
                    />
                  ))}
              </Box>
            ) : null}
            <TextField
              label="描述信息"
              multiline
              minRows={2}
              value={form.description}
              onChange={(e) => setForm({ ...form, description: e.target.value })}
              inputProps={{ maxLength: 255 }}
              {...check.field('description')}
            />
          </>
        ) : null}
      </FormDialog>
      <ConfirmDialog
        open={!!deleting}
        busy={busy}
        content={messages.confirm.deleteOne}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}

export default RoleAdmin;
