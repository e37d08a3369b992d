/**
 * 部门管理: the department tree as a lazily expanded tree table (api/dept/lazy), with 新增 /
 * 编辑 / 删除 by permission key (dept:add, dept:edit, dept:del). The parent is chosen from the
 * visible tree (顶级部门 = root); the server refuses cycles and deleting a department that still
 * has children or users, and says so.
 * WeCom contacts (key dept:qywx), each after a confirmation, busy while WeCom answers, then the
 * result: 同步企业微信部门 (api/dept/syncQwDept), per department 同步到企业微信 (addQw),
 * 同步成员 (synStaffs), 从企业微信删除 (delQw), and 排序 of its sub-departments (updateOrder).
 * 备注 (key dept:remark) edits the department note (PUT api/system/deptRemark).
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import SyncIcon from '@mui/icons-material/Sync';
import { request } from '../../../common/http.ts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import AddIcon from '@mui/icons-material/Add';
import { messages } from '../../../../shared/messages.ts';
import { DEPT_FORM } from '../../../../shared/admin-forms.ts';
import {
  ConfirmDialog,
  flattenDepts,
  FormDialog,
  getJson,
  ScreenTitle,
  send,
  TreeTable,
  useEditing,
  useCan,
  useLoad,
  type DeptNode,
} from './common.tsx';
import { HistoryButton } from './HistoryButton.tsx';
import { RecycleBinButton } from './RecycleBinButton.tsx';
import { PinyinPicker } from '../../../components/pinyin/PinyinPicker.tsx';

interface Form {
  id?: number;
  name: string;
  pid: number;
  sort: number;
  enabled: boolean;
}

const EMPTY: Form = { name: '', pid: 0, sort: 999, enabled: true };

/** A WeCom call waiting for its confirmation: what it says, and the call itself. */
interface WecomAsk {
  title: string;
  content: string;
  run: () => Promise<WecomOutcome>;
}

/** What a WeCom call answered, as lines for the result dialog. */
interface WecomOutcome {
  title: string;
  lines: string[];
}

const names = (label: string, list: string[] | undefined) =>
  list && list.length ? [`${label}（${list.length}）：${list.join('、')}`] : [];

/** The answer of api/dept/syncQwDept, in words. */
export function pullSummary(r: {
  total: number;
  created: string[];
  renamed: string[];
  moved: string[];
  linked: string[];
  unchanged: number;
  unlinked: string[];
  skipped: number;
}): string[] {
  return [
    `企业微信共 ${r.total} 个部门，未变化 ${r.unchanged} 个`,
    ...names('新建', r.created),
    ...names('关联', r.linked),
    ...names('改名', r.renamed),
    ...names('移动', r.moved),
    ...names('企业微信已删除，已解除关联', r.unlinked),
    ...(r.skipped ? [`无法确定上级部门而跳过 ${r.skipped} 个`] : []),
  ];
}

/** The answer of api/dept/synStaffs, in words. */
export function membersSummary(r: {
  members: number;
  bound: string[];
  alreadyBound: number;
  notOnRoster: string[];
  notInWecom: string[];
}): string[] {
  return [
    `企业微信成员 ${r.members} 人，已绑定 ${r.alreadyBound} 人`,
    ...names('本次绑定', r.bound),
    ...names('花名册中没有', r.notOnRoster),
    ...names('不在企业微信部门中的在职员工', r.notInWecom),
  ];
}

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

  const [ask, setAsk] = useState<WecomAsk | null>(null);
  const [working, setWorking] = useState(false);
  const [outcome, setOutcome] = useState<WecomOutcome | null>(null);
  const [remark, setRemark] = useState<{ id: number; name: string; remark: string } | null>(null);
  const [ordering, setOrdering] = useState<{ parent: string; rows: Array<{ id: number; name: string; sort: number }> } | null>(null);
  const runAsk = async () => {
    if (!ask) return;
    setWorking(true);
    try {
      setOutcome(await ask.run());
      changed();
    } catch {
      // the HTTP client shows the server's message
    } finally {
      setWorking(false);
      setAsk(null);
    }
  };
  const post = async <T,>(method: 'GET' | 'PUT' | 'DELETE', url: string, body?: unknown, query?: Record<string, string | number>) =>
    (await request<T>(url, { method, body, query, timeoutMs: 120_000 })).data;
  const askPull = () =>
    setAsk({
      title: '同步企业微信部门',
      content: '从企业微信拉取部门：新增的部门会建立，改名和移动会同步到本系统，确定继续？',
      run: async () => ({ title: '企业微信部门同步完成', lines: pullSummary(await post('GET', '/api/dept/syncQwDept')) }),
    });
  const askAdd = (d: DeptNode) =>
    setAsk({
      title: '同步到企业微信',
      content: `在企业微信中创建部门「${d.name}」？`,
      run: async () => {
        const r = await post<{ wecomDeptId: number }>('PUT', '/api/dept/addQw', { id: d.id });
        return { title: '已同步到企业微信', lines: [`「${d.name}」的企业微信部门ID：${r.wecomDeptId}`] };
      },
    });
  const askMembers = (d: DeptNode) =>
    setAsk({
      title: '同步成员',
      content: `读取企业微信部门「${d.name}」的成员，并与员工花名册绑定？`,
      run: async () => ({
        title: `「${d.name}」成员同步完成`,
        lines: membersSummary(await post('PUT', '/api/dept/synStaffs', { id: d.id })),
      }),
    });
  const askDelete = (d: DeptNode) =>
    setAsk({
      title: '从企业微信删除',
      content: `在企业微信中删除部门「${d.name}」？本系统中的部门会保留。企业微信中仍有成员或下级部门时无法删除。`,
      run: async () => {
        await post('DELETE', '/api/dept/delQw', undefined, { id: d.id });
        return { title: '已从企业微信删除', lines: [`「${d.name}」已从企业微信删除，本系统中的部门保留`] };
      },
    });
  const openOrdering = async (d: DeptNode) => {
    const kids = await getJson<DeptNode[]>('/api/dept/lazy', { pid: d.id });
    setOrdering({ parent: d.name, rows: kids.map((k) => ({ id: k.id, name: k.name, sort: k.sort })) });
  };
  const saveOrdering = async () => {
    if (!ordering) return;
    setWorking(true);
    try {
      const r = await post<{ saved: number; pushed: number }>(
        'PUT',
        '/api/dept/updateOrder',
        ordering.rows.map((x) => ({ id: x.id, sort: x.sort })),
      );
      setOrdering(null);
      setOutcome({ title: '排序已保存', lines: [`已保存 ${r.saved} 个部门的顺序，其中 ${r.pushed} 个已同步到企业微信`] });
      changed();
    } catch {
      // shown by the HTTP client
    } finally {
      setWorking(false);
    }
  };
  const saveRemark = async () => {
    if (!remark) return;
    setWorking(true);
    try {
      await post('PUT', '/api/system/deptRemark', { id: remark.id, remark: remark.remark });
      setRemark(null);
      changed();
    } catch {
      // shown by the HTTP client
    } finally {
      setWorking(false);
    }
  };

  return (
    <Box sx={{ p: 2 }}>
      <ScreenTitle>部门管理</ScreenTitle>
      <Paper sx={{ p: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, mb: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          {can('dept:add') ? (
            <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setForm({ ...EMPTY })}>
              新增
            </Button>
          ) : null}
          {can('dept:qywx') ? (
            <Button size="small" variant="outlined" startIcon={<SyncIcon />} onClick={askPull}>
              同步企业微信部门
            </Button>
          ) : null}
          <RecycleBinButton table="dept" onRestored={changed} />
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
            {
              title: '企业微信',
              width: 100,
              render: (d) =>
                d.wecomDeptId ? (
                  <Chip size="small" color="primary" variant="outlined" label={`ID ${d.wecomDeptId}`} />
                ) : (
                  <Chip size="small" label="未同步" />
                ),
            },
            { title: '备注', render: (d) => d.remark ?? '' },
            {
              title: '状态',
              width: 90,
              render: (d) => <Chip size="small" color={d.enabled ? 'success' : 'default'} label={d.enabled ? '启用' : '禁用'} />,
            },
            { title: '创建日期', width: 170, render: (d) => d.createTime ?? '' },
            {
              title: '操作',
              width: 470,
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
                  {!d.disabled ? <HistoryButton table="dept" id={d.id} onRestored={changed} /> : null}
                  {can('dept:remark') && !d.disabled ? (
                    <Button size="small" onClick={() => setRemark({ id: d.id, name: d.name, remark: d.remark ?? '' })}>
                      备注
                    </Button>
                  ) : null}
                  {can('dept:qywx') && !d.disabled && !d.wecomDeptId ? (
                    <Button size="small" onClick={() => askAdd(d)}>
                      同步到企业微信
                    </Button>
                  ) : null}
                  {can('dept:qywx') && !d.disabled && d.wecomDeptId ? (
                    <Button size="small" onClick={() => askMembers(d)}>
                      同步成员
                    </Button>
                  ) : null}
                  {can('dept:qywx') && !d.disabled && d.hasChildren ? (
                    <Button size="small" onClick={() => void openOrdering(d)}>
                      排序
                    </Button>
                  ) : null}
                  {can('dept:qywx') && !d.disabled && d.wecomDeptId && d.wecomDeptId !== 1 ? (
                    <Button size="small" color="error" onClick={() => askDelete(d)}>
                      从企业微信删除
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
        title={form?.id ? '编辑部门' : '新增部门'}
        busy={busy}
        onClose={() => setForm(null)}
        onSubmit={() => void save()}
      >
        {form ? (
          <>
            <TextField
              label="部门名称"
              required
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              inputProps={{ maxLength: 100 }}
              autoFocus
              {...check.field('name')}
            />
            <PinyinPicker
              label="上级部门"
              options={parents}
              value={form.pid}
              emptyLabel="顶级部门"
              emptyValue={0}
              onChange={(pid) => setForm({ ...form, pid: pid === '' ? 0 : pid })}
            />
            <TextField
              label="排序"
              type="number"
              value={form.sort}
              onChange={(e) => setForm({ ...form, sort: Number(e.target.value) })}
              inputProps={{ min: 0, max: 999999 }}
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
      <Dialog open={!!ask} onClose={() => (working ? undefined : setAsk(null))} maxWidth="xs" fullWidth aria-labelledby="dept-wecom-ask">
        <DialogTitle id="dept-wecom-ask">{ask?.title}</DialogTitle>
        <DialogContent>
          <Typography>{ask?.content}</Typography>
          {working ? (
            <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 2 }}>
              <CircularProgress size={18} /> 正在与企业微信同步，请稍候…
            </Box>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button disabled={working} onClick={() => setAsk(null)}>
            {messages.confirm.cancel}
          </Button>
          <Button variant="contained" disabled={working} onClick={() => void runAsk()}>
            {messages.confirm.ok}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={!!outcome} onClose={() => setOutcome(null)} maxWidth="sm" fullWidth aria-labelledby="dept-wecom-outcome">
        <DialogTitle id="dept-wecom-outcome">{outcome?.title}</DialogTitle>
        <DialogContent>
          <Alert severity="success" role="alert">
            {outcome?.lines.map((l) => (
              <div key={l}>{l}</div>
            ))}
          </Alert>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => setOutcome(null)}>
            知道了
          </Button>
        </DialogActions>
      </Dialog>
      <FormDialog
        open={!!remark}
        title={`部门备注：${remark?.name ?? ''}`}
        busy={working}
        onClose={() => setRemark(null)}
        onSubmit={() => void saveRemark()}
      >
        {remark ? (
          <TextField
            label="备注"
            multiline
            minRows={3}
            value={remark.remark}
            onChange={(e) => setRemark({ ...remark, remark: e.target.value })}
            inputProps={{ maxLength: 500 }}
            autoFocus
          />
        ) : null}
      </FormDialog>
      <FormDialog
        open={!!ordering}
        title={`下级部门排序：${ordering?.parent ?? ''}`}
        busy={working}
        onClose={() => setOrdering(null)}
        onSubmit={() => void saveOrdering()}
      >
        {ordering ? (
          <>
            <Typography variant="body2" color="text.secondary">
              数字小的排在前面；已同步的部门会同时调整企业微信中的顺序。
            </Typography>
            {ordering.rows.map((r, i) => (
              <TextField
                key={r.id}
                label={r.name}
                type="number"
                value={r.sort}
                inputProps={{ min: 0, max: 999999 }}
                onChange={(e) =>
                  setOrdering({ ...ordering, rows: ordering.rows.map((x, j) => (j === i ? { ...x, sort: Number(e.target.value) } : x)) })
                }
              />
            ))}
          </>
        ) : null}
      </FormDialog>
    </Box>
  );
}

export default DeptAdmin;
