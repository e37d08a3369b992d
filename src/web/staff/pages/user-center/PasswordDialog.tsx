/**
 * 修改密码: old password, new password (6-20, starting with a letter; letters, digits and
 * . _ ! @ # $ % ^ & *), confirmation. Both passwords travel RSA-encrypted. On success:
 * 密码修改成功，请重新登录, then sign-out after 1 s (the server has ended the session already).
 */
import { useState } from 'react';
import TextField from '@mui/material/TextField';
import { useLogout, useNotify } from 'react-admin';
import { messages } from '../../../../shared/messages.ts';
import { isNewPassword } from '../../../../shared/validators.ts';
import { clearTokenEnded, markTokenEnded } from '../../../common/token.ts';
import { updatePassword } from './api.ts';
import { errorText, focusFirst, FormDialog } from './FormDialog.tsx';

export const SIGN_OUT_DELAY_MS = 1000;

type Field = 'oldPass' | 'newPass' | 'confirmPass';
const ORDER: Field[] = ['oldPass', 'newPass', 'confirmPass'];

export function validatePasswordForm(v: Record<Field, string>): Partial<Record<Field, string>> {
  const e: Partial<Record<Field, string>> = {};
  if (!v.oldPass) e.oldPass = messages.password.oldPrompt;
  if (!v.newPass) e.newPass = messages.password.newPrompt;
  else if (v.newPass.length < 6 || v.newPass.length > 20) e.newPass = messages.password.length;
  else if (!isNewPassword(v.newPass)) e.newPass = messages.password.newRule;
  if (!v.confirmPass) e.confirmPass = messages.password.confirmPrompt;
  else if (v.confirmPass !== v.newPass) e.confirmPass = messages.password.mismatch;
  return e;
}

export function PasswordDialog({ open, onClose, onSignedOut }: { open: boolean; onClose: () => void; onSignedOut?: () => void }) {
  const notify = useNotify();
  const logout = useLogout();
  const [values, setValues] = useState<Record<Field, string>>({ oldPass: '', newPass: '', confirmPass: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState('');

  const close = () => {
    setValues({ oldPass: '', newPass: '', confirmPass: '' });
    setErrors({});
    setFailure('');
    onClose();
  };

  const submit = async () => {
    const found = validatePasswordForm(values);
    setErrors(found);
    if (Object.keys(found).length) {
      focusFirst(found, ORDER);
      return;
    }
    setSubmitting(true);
    setFailure('');
    // a successful change ends this session on the server at once: no socket may start with it
    // meanwhile and report the refusal as a connection error over the notice below
    markTokenEnded();
    try {
      await updatePassword(values.oldPass, values.newPass);
    } catch (error) {
      clearTokenEnded();
      setSubmitting(false);
      setFailure(errorText(error));
      return;
    }
    notify(messages.notice.passwordChanged, { type: 'success', autoHideDuration: SIGN_OUT_DELAY_MS });
    setTimeout(() => {
      if (onSignedOut) onSignedOut();
      else void logout();
    }, SIGN_OUT_DELAY_MS);
  };

  const field = (name: Field, label: string) => (
    <TextField
      key={name}
      name={name}
      label={label}
      type="password"
      autoComplete={name === 'oldPass' ? 'current-password' : 'new-password'}
      fullWidth
      size="small"
      margin="dense"
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      error={!!errors[name]}
      helperText={errors[name] || ' '}
      slotProps={{ htmlInput: { maxLength: 20 } }}
    />
  );

  return (
    <FormDialog
      open={open}
      title="修改密码"
      width={500}
      submitting={submitting}
      error={failure}
      onClose={close}
      onSubmit={() => void submit()}
    >
      {field('oldPass', '旧密码')}
      {field('newPass', '新密码')}
      {field('confirmPass', '确认密码')}
    </FormDialog>
  );
}
