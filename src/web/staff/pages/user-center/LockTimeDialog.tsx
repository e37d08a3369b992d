/**
 * 锁屏时间: 10/20/30/40/50/60/90 minutes, 永不 (0) or 其他 (custom minutes, digits only, at most
 * 3 characters; 时长不能为空). Saving edits the user (id, lockTime, orgId, deptId), keeps the
 * choice locally too, shows 修改成功 for 1.5 s, then reloads the user's info and the page.
 */
import { useEffect, useState } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useNotify } from 'react-admin';
import { messages } from '../../../../shared/messages.ts';
import { saveLockTime } from './api.ts';
import { errorText, FormDialog } from './FormDialog.tsx';

import { LOCK_CHOICES } from '../../../common/idle.ts';

export { LOCK_CHOICES };
export const LOCK_STORAGE_KEY = 'lockTime';
export const RELOAD_DELAY_MS = 1500;
const OTHER = 'other';

export interface LockUser {
  id: number;
  lockTime?: number;
  orgId?: number | null;
  deptId?: number | null;
}

export function LockTimeDialog({ open, user, onClose, afterSave }: { open: boolean; user: LockUser; onClose: () => void; afterSave: () => void }) {
  const notify = useNotify();
  const initial = Number(user.lockTime ?? 0);
  const [choice, setChoice] = useState<string>(LOCK_CHOICES.includes(initial) ? String(initial) : OTHER);
  const [custom, setCustom] = useState(LOCK_CHOICES.includes(initial) ? '' : String(initial));
  const [error, setError] = useState('');
  const [failure, setFailure] = useState('');
  const [submitting, setSubmitting] = useState(false);
  useEffect(() => {
    if (!open) return;
    setChoice(LOCK_CHOICES.includes(initial) ? String(initial) : OTHER);
    setCustom(LOCK_CHOICES.includes(initial) ? '' : String(initial));
    setError('');
    setFailure('');
  }, [open, initial]);

  const submit = async () => {
    let minutes: number;
    if (choice === OTHER) {
      if (!custom) {
        setError('时长不能为空');
        return;
      }
      minutes = Number(custom);
    } else minutes = Number(choice);
    setError('');
    setSubmitting(true);
    setFailure('');
    try {
      await saveLockTime({ id: user.id, lockTime: minutes, orgId: user.orgId ?? null, deptId: user.deptId ?? null });
    } catch (e) {
      setSubmitting(false);
      setFailure(errorText(e));
      return;
    }
    try {
      localStorage.setItem(LOCK_STORAGE_KEY, String(minutes));
    } catch {
      /* storage may be unavailable */
    }
    notify(messages.notice.modified, { type: 'success', autoHideDuration: RELOAD_DELAY_MS });
    setTimeout(afterSave, RELOAD_DELAY_MS);
  };

  return (
    <FormDialog open={open} title="锁屏时间" width={475} submitting={submitting} error={failure} onClose={onClose} onSubmit={submit}>
      <RadioGroup row name="lockTime" value={choice} onChange={(e) => setChoice(e.target.value)}>
        {LOCK_CHOICES.map((m) => (
          <FormControlLabel key={m} value={String(m)} control={<Radio size="small" />} label={m === 0 ? '永不' : `${m}分钟`} />
        ))}
        <FormControlLabel value={OTHER} control={<Radio size="small" />} label="其他" />
      </RadioGroup>
      {choice === OTHER ? (
        <TextField
          name="custom"
          label="时长（分钟）"
          size="small"
          margin="dense"
          value={custom}
          onChange={(e) => setCustom(e.target.value.replace(/\D/g, '').slice(0, 3))}
          error={!!error}
          helperText={error || '最多3位数字'}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3 } }}
        />
      ) : null}
    </FormDialog>
  );
}
