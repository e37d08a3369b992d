/**
 * 调岗: a new department (inside the entry's company), job, job type and, when the entry is
 * linked to a system account, its roles (岗位权限; only roles at or below the actor's level are
 * offered, empty keeps the current ones). PUT api/staff/editJob; the server checks everything.
 */
import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { RaRecord } from 'react-admin';
import { FormDialog, flattenDepts, getJson, useAction, useLoad, type DeptNode } from '../../pages/system/common.tsx';
import { staffApi, type JpTypeOption, type RoleOption } from './api.ts';
import { PinyinPicker } from '../../../components/pinyin/PinyinPicker.tsx';

/** The company's subtree of the department tree (the company itself first). */
export function companyDepartments(
  tree: DeptNode[] | undefined,
  orgId: number,
): Array<{ id: number; name: string; depth: number; disabled: boolean }> {
  const find = (nodes: DeptNode[] | undefined): DeptNode | undefined => {
    for (const n of nodes ?? []) {
      if (n.id === orgId) return n;
      const hit = find(n.children);
      if (hit) return hit;
    }
    return undefined;
  };
  const company = find(tree);
  return company ? flattenDepts([company]) : [];
}

export function TransferDialog({ record, onClose, onDone }: { record: RaRecord; onClose: () => void; onDone: () => void }) {
  const act = useAction();
  const depts = useLoad(() => getJson<DeptNode[]>('/api/dept/getDeptList'), []);
  const types = useLoad(() => getJson<JpTypeOption[]>('/api/jp/jpType/queryAll'), []);
  const linked = record.userId !== null && record.userId !== undefined;
  const roles = useLoad(async () => (linked ? getJson<RoleOption[]>('/api/roles/all') : []), [linked]);
  const level = useLoad(async () => (linked ? getJson<{ level: number | null }>('/api/roles/level') : { level: null }), [linked]);
  const options = useMemo(() => companyDepartments(depts.data, Number(record.orgId)), [depts.data, record.orgId]);
  const grantable = (roles.data ?? []).filter((r) => level.data?.level != null && r.level >= level.data.level);
  const [deptId, setDeptId] = useState<number | ''>(record.deptId ? Number(record.deptId) : '');
  const [job, setJob] = useState(String(record.job ?? ''));
  const [jpTypeId, setJpTypeId] = useState<number | ''>(record.jpTypeId ? Number(record.jpTypeId) : '');
  const [roleIds, setRoleIds] = useState<number[]>([]);
  const [remark, setRemark] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const p = !deptId ? '所属部门不能为空' : !job.trim() ? '岗位不能为空' : job.trim().length > 50 ? '岗位长度不能超过50个字符' : '';
    setProblem(p);
    if (p) return;
    setBusy(true);
    const ok = await act(
      () =>
        staffApi.editJob({
          id: Number(record.id),
          deptId: Number(deptId),
          job: job.trim(),
          jpTypeId: jpTypeId === '' ? null : jpTypeId,
          ...(roleIds.length ? { roleIds } : {}),
          ...(remark.trim() ? { remark: remark.trim() } : {}),
        }),
      '调岗成功',
    );
    setBusy(false);
    if (ok) onDone();
  };

  return (
    <FormDialog open title={`调岗：${record.name}`} width={520} busy={busy} onClose={onClose} onSubmit={() => void submit()}>
      {problem ? <Alert severity="error">{problem}</Alert> : null}
      {depts.failed ? <Alert severity="error">部门加载失败，请关闭后重试</Alert> : null}
      <PinyinPicker
        size="small"
        label="所属部门"
        required
        options={options}
        value={deptId}
        onChange={(id) => setDeptId(id)}
        disabled={depts.loading}
      />
      <TextField
        size="small"
        label="岗位"
        required
        value={job}
        onChange={(e) => setJob(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 50 } }}
      />
      <PinyinPicker
        size="small"
        label="岗位类型"
        options={(types.data ?? []).map((t) => ({ id: t.id, name: t.name, disabled: t.enabled === false && t.id !== jpTypeId }))}
        value={jpTypeId}
        emptyLabel="无"
        onChange={(id) => setJpTypeId(id)}
      />
      {linked ? (
        <TextField
          select
          size="small"
          label="岗位权限"
          value={roleIds}
          helperText="一人可兼任多个岗位；不选择则保留系统账号现有岗位"
          slotProps={{
            select: {
              multiple: true,
              renderValue: (v) =>
                grantable
                  .filter((r) => (v as number[]).includes(r.id))
                  .map((r) => r.name)
                  .join('、'),
            },
          }}
          onChange={(e) => setRoleIds((e.target.value as unknown as number[]).map(Number))}
        >
          {grantable.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
      ) : (
        <Alert severity="info">该员工未关联系统账号，只调整花名册中的部门与岗位</Alert>
      )}
      <TextField
        size="small"
        label="调岗说明"
        multiline
        minRows={2}
        value={remark}
        onChange={(e) => setRemark(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
    </FormDialog>
  );
}
