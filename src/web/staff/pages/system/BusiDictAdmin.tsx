/**
 * 业务字典: the business dictionary tree (业务类别, 续保类型, 保险险种 ... with their entries) as a
 * lazily expanded tree table (api/busidict/list/{pid}), with 新增 (busidict:add), 编辑
 * (busidict:edit, POST api/busidict/update) and 删除 (busidict:del; refused while an entry has
 * children). 新增下级 adds an entry under the row.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import { messages } from '../../../../shared/messages.ts';
import { BUSI_DICT_FORM } from '../../../../shared/admin-forms.ts';
import { ConfirmDialog, FormDialog, getJson, ScreenTitle, send, TreeTable, useEditing, useCan, useLoad, type Page } from './common.tsx';

interface Entry {
  id: number;
  pid: number;
  code: string;
  name: string;
  value: string | null;
  sort: number;
  enabled: boolean;
  hasChildren: boolean;
}

type Form = { id?: number; pid: number; parentName: string; code: string; name: string; value: string; sort: number; enabled: boolean };

const children = async (pid: number) => (await getJson<Page<Entry>>(`/api/busidict/list/${pid}`, { page: 0, size: 9999 })).content;

export function BusiDictAdmin() {
  const can = useCan();
  const [version, setVersion] = useState(0);
  const roots = useLoad(() => children(0), [version]);
  const reload = () => setVersion((v) => v + 1);
  const toBody = (f: Form) => ({
    id: f.id,
    pid: f.pid,
    code: f.code,
    name: f.name,
    value: f.value || null,
    sort: f.sort,
    enabled: f.enabled,
  });
  const { form, setForm, deleting, setDeleting, busy, save, remove, check } = useEditing<Form, Entry>({
    send: (f) => send('POST', f.id ? '/api/busidict/update' : '/api/busidict/add', toBody(f)),
    deletePath: '/api/busidict',
    done: reload,
    rules: BUSI_DICT_FORM,
    toBody,
  });

  return (
    <Box sx={{ p: 2 }}>
      <ScreenTitle>业务字典</ScreenTitle>
      <Paper sx={{ p: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, mb: 1 }}>
          {can('busidict:add') ? (
            <Button
              size="small"
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => setForm({ pid: 0, parentName: '顶级类别', code: '', name: '', value: '', sort: 999, enabled: true })}
            >
              新增类别
            </Button>
          ) : null}
        </Box>
        <TreeTable<Entry>
          label="业务字典"
          rows={roots.data}
          loading={roots.loading}
          failed={roots.failed}
          version={version}
          loadChildren={children}
          columns={[
            { title: '名称', render: (e) => e.name },
            { title: '编码', width: 140, render: (e) => e.code },
            { title: '值', width: 140, render: (e) => e.value ?? '' },
            { title: '排序', width: 60, render: (e) => e.sort },
            { title: '状态', width: 60, render: (e) => (e.enabled ? '启用' : '禁用') },
            {
              title: '操作',
              width: 220,
              render: (e) => (
                <Box sx={{ display: 'flex' }}>
                  {can('busidict:add') ? (
                    <Button
                      size="small"
                      onClick={() => setForm({ pid: e.id, parentName: e.name, code: '', name: '', value: '', sort: 999, enabled: true })}
                    >
                      新增下级
                    </Button>
                  ) : null}
                  {can('busidict:edit') ? (
                    <Button
                      size="small"
                      onClick={() =>
                        setForm({
                          id: e.id,
                          pid: e.pid,
                          parentName: '',
                          code: e.code,
                          name: e.name,
                          value: e.value ?? '',
                          sort: e.sort,
                          enabled: e.enabled,
                        })
                      }
                    >
                      编辑
                    </Button>
                  ) : null}
                  {can('busidict:del') ? (
                    <Button size="small" color="error" onClick={() => setDeleting(e)}>
                      删除
                    </Button>
                  ) : null}
                </Box>
              ),
            },
          ]}
        />
      </Paper>
      <FormDialog
        open={!!form}
        title={form?.id ? '编辑' : `新增（上级：${form?.parentName ?? ''}）`}
        busy={busy}
        onClose={() => setForm(null)}
        onSubmit={() => void save()}
      >
        {form ? (
          <>
            <TextField
              label="名称"
              required
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value, code: form.id || form.code ? form.code : '' })}
              inputProps={{ maxLength: 100 }}
              {...check.field('name')}
            />
            <TextField
              label="编码"
              required
              value={form.code}
              onChange={(e) => setForm({ ...form, code: e.target.value })}
              {...check.field('code', '同一上级下唯一；类别的编码用于 options 接口')}
              inputProps={{ maxLength: 64 }}
            />
            <TextField
              label="值"
              value={form.value}
              onChange={(e) => setForm({ ...form, value: e.target.value })}
              inputProps={{ maxLength: 255 }}
              {...check.field('value')}
            />
            <TextField
              label="排序"
              type="number"
              value={form.sort}
              onChange={(e) => setForm({ ...form, sort: Number(e.target.value) })}
              {...check.field('sort')}
            />
            <FormControlLabel
              control={<Switch checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />}
              label={form.enabled ? '启用' : '禁用'}
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

export default BusiDictAdmin;
