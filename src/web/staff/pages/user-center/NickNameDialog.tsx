/** 修改昵称: 昵称不能为空; saved with the own sex and phone (PUT api/users/center). */
import { useState } from 'react';
import TextField from '@mui/material/TextField';
import { useNotify } from 'react-admin';
import { messages } from '../../../../shared/messages.ts';
import { updateCenter } from './api.ts';
import { errorText, FormDialog } from './FormDialog.tsx';

export interface CenterUser {
  id: number;
  nickName?: string;
  sex?: number;
  phone?: string | null;
}

export function NickNameDialog({
  open,
  user,
  onClose,
  onSaved,
}: {
  open: boolean;
  user: CenterUser;
  onClose: () => void;
  onSaved: () => void;
}) {
  const notify = useNotify();
  const [nickName, setNickName] = useState(user.nickName ?? '');
  const [error, setError] = useState('');
  const [failure, setFailure] = useState('');
  const [submitting, setSubmitting] = useState(false);
  // each opening starts from the saved nickname
  const [shownFor, setShownFor] = useState({ open, saved: user.nickName });
  if (shownFor.open !== open || shownFor.saved !== user.nickName) {
    setShownFor({ open, saved: user.nickName });
    if (open) setNickName(user.nickName ?? '');
  }

  const submit = async () => {
    const value = nickName.trim();
    setError(value ? '' : messages.contact.nickNameRequired);
    if (!value) return;
    setSubmitting(true);
    setFailure('');
    try {
      await updateCenter({ id: user.id, nickName: value, sex: Number(user.sex ?? 1), phone: user.phone ?? null });
    } catch (e) {
      setSubmitting(false);
      setFailure(errorText(e));
      return;
    }
    setSubmitting(false);
    notify(messages.notice.modified, { type: 'success' });
    onClose();
    onSaved();
  };

  return (
    <FormDialog
      open={open}
      title="修改昵称"
      width={475}
      submitting={submitting}
      error={failure}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <TextField
        name="nickName"
        label="昵称"
        autoFocus
        fullWidth
        size="small"
        margin="dense"
        value={nickName}
        onChange={(e) => setNickName(e.target.value)}
        error={!!error}
        helperText={error || ' '}
        slotProps={{ htmlInput: { maxLength: 64 } }}
      />
    </FormDialog>
  );
}
