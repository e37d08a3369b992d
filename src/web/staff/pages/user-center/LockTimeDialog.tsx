/**
 * 锁屏时间: 10/20/30/40/50/60/90 minutes, 永不 (0) or 其他 (custom minutes, digits only, at most
 * 3 characters; 时长不能为空). Saving edits the user (id, lockTime, orgId, deptId), keeps the
 * choice locally too, shows 修改成功 for 1.5 s, then reloads the user's info and the page.
 */
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { messages } from '../../../../shared/messages.ts';
import { LOCK_CHOICES } from '../../../common/idle.ts';
import { useLockTimeChoice } from '../../../components/LockTimeChoice.tsx';
import { saveLockTime } from './api.ts';
import { errorText, FormDialog } from './FormDialog.tsx';

export { LOCK_CHOICES };
export const LOCK_STORAGE_KEY = 'lockTime';
export const RELOAD_DELAY_MS = 1500;

export interface LockUser {
  id: number;
  lockTime?: number;
  orgId?: number | null;
  deptId?: number | null;
}

export function LockTimeDialog({
  open,
  user,
  onClose,
  afterSave,
}: {
  open: boolean;
  user: LockUser;
  onClose: () => void;
  afterSave: () => void;
}) {
  const notify = useNotify();
  const initial = Number(user.lockTime ?? 0);
  const { fields, minutes: chosen, failure, setFailure } = useLockTimeChoice(open, initial);
  const [submitting, setSubmitting] = useState(false);

  const submit = async () => {
    const minutes = chosen();
    if (minutes === null) return;
    setSubmitting(true);
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
    <FormDialog
      open={open}
      title="锁屏时间"
      width={475}
      submitting={submitting}
      error={failure}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      {fields}
    </FormDialog>
  );
}
