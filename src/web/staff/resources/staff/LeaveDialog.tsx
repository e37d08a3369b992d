/**
 * 离职: the leaving date (default today) and the reason, then a confirmation naming what happens
 * to the linked system account. PUT api/staff/staffLeave; the server checks the date.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import type { RaRecord } from 'react-admin';
import { ConfirmDialog, FormDialog, useAction } from '../../pages/system/common.tsx';
import { DateTextField } from '../../schema/DateTextField.tsx';
import { staffApi } from './api.ts';

export function todayText(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

export function LeaveDialog({ record, onClose, onDone }: { record: RaRecord; onClose: () => void; onDone: () => void }) {
  const act = useAction();
  const [leaveDate, setLeaveDate] = useState(todayText());
  const [cause, setCause] = useState('');
  const [problem, setProblem] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const linked = record.userId !== null && record.userId !== undefined;

  const ask = () => {
    const entry = typeof record.entryDate === 'string' ? record.entryDate : '';
    const p = !leaveDate ? '请选择离职日期' : entry && leaveDate < entry ? `离职日期不能早于入职日期（${entry}）` : '';
    setProblem(p);
    if (!p) setConfirming(true);
  };
  const run = async () => {
    setBusy(true);
    const ok = await act(() => staffApi.leave({ id: Number(record.id), leaveDate, cause: cause.trim() }), '离职办理成功');
    setBusy(false);
    setConfirming(false);
    if (ok) onDone();
  };

  return (
    <>
      <FormDialog open title={`离职：${record.name}`} width={460} busy={busy} onClose={onClose} onSubmit={ask}>
        {problem ? <Alert severity="error">{problem}</Alert> : null}
        <DateTextField
          label="离职日期"
          value={leaveDate}
          onChange={(v) => {
            setLeaveDate(v);
            setProblem('');
          }}
        />
        <TextField
          size="small"
          label="离职原因"
          multiline
          minRows={3}
          value={cause}
          onChange={(e) => setCause(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        {linked ? <Alert severity="warning">办理后将禁用该员工关联的系统账号并使其立即退出登录</Alert> : null}
      </FormDialog>
      <ConfirmDialog
        open={confirming}
        busy={busy}
        content={`确定为「${record.name}」办理离职吗？离职日期：${leaveDate}${linked ? '，其系统账号将被禁用' : ''}。`}
        onConfirm={() => void run()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
