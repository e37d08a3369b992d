/**
 * 菜单管理: the menu tree as a lazily expanded tree table (api/menus/getMenusByPid) with 新增 /
 * 编辑 / 删除 (menu:add, menu:edit, menu:del). Types: 目录 (0), 菜单 (1, a screen), 按钮 (2, a
 * permission key). Deleting a menu deletes everything below it (the confirm says so).
 */
import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import { MENU_FORM } from '../../../../shared/admin-forms.ts';
import { ConfirmDialog, FormDialog, getJson, indentLabel, ScreenTitle, send, TreeTable, useEditing, useCan, useLoad } from './common.tsx';
import { HistoryButton } from './HistoryButton.tsx';
import { RecycleBinButton } from './RecycleBinButton.tsx';

interface MenuRow {
  id: number;
  pid: number;
  type: number;
  title: string;
  name: string | null;
  component: string | null;
  path: string | null;
  icon: string | null;
  sort: number;
  permission: string | null;
  hidden: boolean;
  cache: boolean;
  iFrame: boolean;
  createTime: string | null;
  hasChildren: boolean;
  children?: MenuRow[];
}

type Form = Omit<MenuRow, 'createTime' | 'hasChildren' | 'children' | 'id'> & { id?: number };

const EMPTY: Form = {
  pid: 0,
  type: 1,
  title: '',
  name: '',
  component: '',
  path: '',
  icon: '',
  sort: 999,
  permission: '',
  hidden: false,
  cache: false,
  iFrame: false,
};
const TYPES = ['目录', '菜单', '按钮'];

function flatten(tree: MenuRow[] | undefined, depth = 0, out: Array<{ id: number; title: string; depth: number; type: number }> = []) {
  for (const m of tree ?? []) {
    out.push({ id: m.id, title: m.title, depth, type: m.type });
    flatten(m.children, depth + 1, out);
  }
  return out;
}

function yesNo(label: string, value: boolean, set: (v: boolean) => void, yes = '是', no = '否') {
  return (
    <Box>
      <FormLabel sx={{ fontSize: 13 }}>{label}</FormLabel>
      <RadioGroup row value={value ? 'true' : 'false'} onChange={(e) => set(e.target.value === 'true')} aria-label={label}>
        <FormControlLabel value="true" control={<Radio size="small" />} label={yes} />
        <FormControlLabel value="false" control={<Radio size="small" />} label={no} />
      </RadioGroup>
    </Box>
  );
}

export function MenuAdmin() {
  const can = useCan();
  const [version, setVersion] = useState(0);
  const roots = useLoad(() => getJson<MenuRow[]>('/api/menus/getMenusByPid', { pid: 0 }), [version]);
  const all = useLoad(() => getJson<MenuRow[]>('/api/menus/list'), [version]);
  const parents = useMemo(() => flatten(all.data), [all.data]);
  const reload = () => setVersion((v) => v + 1);
  const toBody = (f: Form) => ({
    ...f,
    name: f.name || null,
    component: f.component || null,
    path: f.path || null,
    icon: f.icon || null,
    permission: f.permission || null,
  });
  const { form, setForm, deleting, setDeleting, busy, save, remove, check } = useEditing<Form, MenuRow>({
    send: (f) => send(f.id ? 'PUT' : 'POST', '/api/menus', toBody(f)),
    deletePath: '/api/menus',
    done: reload,
    rules: MENU_FORM,
    toBody,
  });

  const edit = (m: MenuRow) =>
    setForm({
      id: m.id,
      pid: m.pid,
      type: m.type,
      title: m.title,
      name: m.name ?? '',
      component: m.component ?? '',
      path: m.path ?? '',
      icon: m.icon ?? '',
      sort: m.sort,
      permission: m.permission ?? '',
      hidden: m.hidden,
      cache: m.cache,
      iFrame: m.iFrame,
    });

  return (
    <Box sx={{ p: 2 }}>
      <ScreenTitle>菜单管理</ScreenTitle>
      <Paper sx={{ p: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, mb: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          {can('menu:add') ? (
            <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setForm({ ...EMPTY })}>
              新增
            </Button>
          ) : null}
          <RecycleBinButton table="menu" onRestored={reload} />
        </Box>
        <TreeTable<MenuRow>
          label="菜单列表"
          rows={roots.data}
          loading={roots.loading}
          failed={roots.failed}
          version={version}
          loadChildren={(id) => getJson<MenuRow[]>('/api/menus/getMenusByPid', { pid: id })}
          columns={[
            { title: '菜单标题', render: (m) => m.title },
            { title: '类型', width: 60, render: (m) => TYPES[m.type] ?? '' },
            { title: '图标', width: 90, render: (m) => m.icon ?? '' },
            { title: '排序', width: 60, render: (m) => m.sort },
            { title: '权限标识', width: 170, render: (m) => m.permission ?? '' },
            { title: '组件路径', width: 170, render: (m) => m.component ?? '' },
            { title: '外链', width: 50, render: (m) => (m.iFrame ? '是' : '否') },
            { title: '缓存', width: 50, render: (m) => (m.cache ? '是' : '否') },
            { title: '可见', width: 50, render: (m) => (m.hidden ? '否' : '是') },
            {
              title: '操作',
              width: 210,
              render: (m) => (
                <Box sx={{ display: 'flex' }}>
                  {can('menu:edit') ? (
                    <Button size="small" onClick={() => edit(m)}>
                      编辑
                    </Button>
                  ) : null}
                  {can('menu:del') ? (
                    <Button size="small" color="error" onClick={() => setDeleting(m)}>
                      删除
                    </Button>
                  ) : null}
                  <HistoryButton table="menu" id={m.id} onRestored={reload} />
                </Box>
              ),
            },
          ]}
        />
      </Paper>
      <FormDialog
        open={!!form}
        title={form?.id ? '编辑菜单' : '新增菜单'}
        width={620}
        busy={busy}
        onClose={() => setForm(null)}
        onSubmit={() => void save()}
      >
        {form ? (
          <>
            <RadioGroup row value={form.type} onChange={(e) => setForm({ ...form, type: Number(e.target.value) })} aria-label="菜单类型">
              {TYPES.map((t, i) => (
                <FormControlLabel key={t} value={i} control={<Radio size="small" />} label={t} />
              ))}
            </RadioGroup>
            <TextField
              label={form.type === 2 ? '按钮名称' : '菜单标题'}
              required
              value={form.title}
              onChange={(e) => setForm({ ...form, title: e.target.value })}
              inputProps={{ maxLength: 100 }}
              {...check.field('title')}
            />
            <TextField select label="上级类目" value={form.pid} onChange={(e) => setForm({ ...form, pid: Number(e.target.value) })}>
              <MenuItem value={0}>顶级类目</MenuItem>
              {parents
                .filter((p) => p.type !== 2 && p.id !== form.id)
                .map((p) => (
                  <MenuItem key={p.id} value={p.id}>
                    {indentLabel(p.title, p.depth)}
                  </MenuItem>
                ))}
            </TextField>
            {form.type !== 2 ? (
              <>
                <TextField
                  label="路由地址"
                  required
                  value={form.path ?? ''}
                  onChange={(e) => setForm({ ...form, path: e.target.value })}
                  {...check.field('path', form.iFrame ? '外链以http://或者https://开头' : '例如 system/user')}
                />
                {form.type === 1 ? (
                  <TextField
                    label="组件路径"
                    value={form.component ?? ''}
                    onChange={(e) => setForm({ ...form, component: e.target.value })}
                    {...check.field('component')}
                  />
                ) : null}
                <TextField
                  label="组件名称"
                  value={form.name ?? ''}
                  onChange={(e) => setForm({ ...form, name: e.target.value })}
                  {...check.field('name')}
                />
                <TextField
                  label="菜单图标"
                  value={form.icon ?? ''}
                  onChange={(e) => setForm({ ...form, icon: e.target.value })}
                  {...check.field('icon')}
                />
              </>
            ) : null}
            <TextField
              label="权限标识"
              required={form.type === 2}
              value={form.permission ?? ''}
              onChange={(e) => setForm({ ...form, permission: e.target.value })}
              {...check.field('permission', '格式 模块:操作，例如 user:add')}
            />
            <TextField
              label="菜单排序"
              type="number"
              value={form.sort}
              onChange={(e) => setForm({ ...form, sort: Number(e.target.value) })}
              inputProps={{ min: 0, max: 999999 }}
              {...check.field('sort')}
            />
            {form.type !== 2 ? (
              <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap' }}>
                {yesNo('外链菜单', form.iFrame, (v) => setForm({ ...form, iFrame: v }))}
                {yesNo('菜单缓存', form.cache, (v) => setForm({ ...form, cache: v }))}
                {yesNo('菜单可见', !form.hidden, (v) => setForm({ ...form, hidden: !v }))}
              </Box>
            ) : null}
          </>
        ) : null}
      </FormDialog>
      <ConfirmDialog
        open={!!deleting}
        busy={busy}
        content={`确定删除「${deleting?.title ?? ''}」及其下级菜单吗？`}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}

export default MenuAdmin;
