/**
 * 部门管理: the department tree as a lazily expanded tree table (api/dept/lazy), with 新增 /
 * 编辑 / 删除 by permission key (dept:add, dept:edit, dept:del). The parent is chosen from the
 * visible tree (顶级部门 = root); the server refuses cycles and deleting a department that still
 * has children or users, and says so.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import AddIcon from '@mui/icons-material/Add';
import { messages } from '../../../../shared/messages.ts';
import { DEPT_FORM } from '../../../../shared/admin-forms.ts';
import { ConfirmDialog, flattenDepts, FormDialog, getJson, indentLabel, ScreenTitle, send, TreeTable, useEditing, useCan, useLoad, type DeptNode } from './common.tsx';

interface Form {
  id?: number;
  name: string;
  pid: number;
  sort: number;
  enabled: boolean;
}

const EMPTY: Form = { name: '', pid: 0, sort: 999, enabled: true };

export function DeptAdmin() {
  const can = useCan();
  const [version, setVersion] = useState(0);
  const roots = useLoad(() => getJson<DeptNode[]>('/api/dept/lazy', { pid: 0 }), [version]);
  const tree = useLoad(() => getJson<DeptNode[]>('/api/dept/getDeptList'), [version]);
  const changed = () => setVersion((v) => v + 1);
  const { form, setForm, deleting, setDeleting, busy, save, remove, check } = useEditing<Form, DeptNode>({
    send: (f) => send(f.id ? 'PUT' : 'POST', '/api/dept', f),
    deletePath: '/api/dept',
    done: changed,
    rules: DEPT_FORM,
  });

  const parents = flattenDepts(tree.data).filter((d) => d.id !== form?.id);

  return (
    <Box sx={{ p: 2 }}>
      <ScreenTitle>部门管理</ScreenTitle>
      <Paper sx={{ p: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, mb: 1 }}>
          {can('dept:add') ? (
            <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setForm({ ...EMPTY })}>
              新增
            </Button>
          ) : null}
        </Box>
        <TreeTable<DeptNode>
          label="部门列表"
          rows={roots.data}
          loading={roots.loading}
          failed={roots.failed}
          version={version}
          loadChildren={(id) => getJson<DeptNode[]>('/api/dept/lazy', { pid: id })}
          columns={[
            { title: '名称', render: (d) => d.name },
            { title: '排序', width: 80, render: (d) => d.sort },
            { title: '状态', width: 90, render: (d) => <Chip size="small" color={d.enabled ? 'success' : 'default'} label={d.enabled ? '启用' : '禁用'} /> },
            { title: '创建日期', width: 170, render: (d) => d.createTime ?? '' },
            {
              title: '操作',
              width: 150,
              render: (d) => (
                <Box sx={{ display: 'flex', gap: 0.5 }}>
                  {can('dept:edit') && !d.disabled ? (
                    <Button size="small" onClick={() => setForm({ id: d.id, name: d.name, pid: d.pid, sort: d.sort, enabled: d.enabled })}>
                      编辑
                    </Button>
                  ) : null}
                  {can('dept:del') && !d.disabled ? (
                    <Button size="small" color="error" onClick={() => setDeleting(d)}>
                      删除
                    </Button>
                  ) : null}
                </Box>
              ),
            },
          ]}
        />
      </Paper>
      <FormDialog open={!!form} title={form?.id ? '编辑部门' : '新增部门'} busy={busy} onClose={() => setForm(null)} onSubmit={() => void save()}>
        {form ? (
          <>
            <TextField label="部门名称" required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} inputProps={{ maxLength: 100 }} autoFocus {...check.field('name')} />
            <TextField select label="上级部门" value={form.pid} onChange={(e) => setForm({ ...form, pid: Number(e.target.value) })}>
              <MenuItem value={0}>顶级部门</MenuItem>
              {parents.map((p) => (
                <MenuItem key={p.id} value={p.id} disabled={p.disabled}>
                  {indentLabel(p.name, p.depth)}
                </MenuItem>
              ))}
            </TextField>
            <TextField label="排序" type="number" value={form.sort} onChange={(e) => setForm({ ...form, sort: Number(e.target.value) })} inputProps={{ min: 0, max: 999999 }} {...check.field('sort')} />
            <FormControlLabel control={<Switch checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />} label={form.enabled ? '启用' : '禁用'} />
          </>
        ) : null}
      </FormDialog>
      <ConfirmDialog open={!!deleting} busy={busy} content={messages.confirm.deleteOne} onConfirm={() => void remove()} onClose={() => setDeleting(null)} />
    </Box>
  );
}

export default DeptAdmin;
