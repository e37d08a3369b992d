/**
 * 短信重置密码: the phone on file (fixed, read-only), an SMS code (60 s countdown), a new password
 * by the password rule. 密码重置成功，请重新登录, then the page reloads after 1 s (the server has
 * ended every session of the user, so the reload lands on the sign-in page).
 */
import { useState } from 'react';
import TextField from '@mui/material/TextField';
import { useNotify } from 'react-admin';
import { CodeField } from '../../../components/CodeButton.tsx';
import { resetPassword, sendResetCode } from '../../../common/forgetPassApi.ts';
import { messages } from '../../../../shared/messages.ts';
import { isNewPassword } from '../../../../shared/validators.ts';
import { errorText, focusFirst, FormDialog } from './FormDialog.tsx';

export const RESET_RELOAD_MS = 1000;

type Field = 'code' | 'password' | 'confirm';

export function ResetBySmsDialog({
  open,
  phone,
  onClose,
  reloadPage,
}: {
  open: boolean;
  phone: string;
  onClose: () => void;
  reloadPage: () => void;
}) {
  const notify = useNotify();
  const [values, setValues] = useState<Record<Field, string>>({ code: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const close = () => {
    setValues({ code: '', password: '', confirm: '' });
    setErrors({});
    setFailure('');
    onClose();
  };
  const send = async () => {
    setFailure('');
    try {
      notify(await sendResetCode(phone), { type: 'success' });
    } catch (e) {
      setFailure(errorText(e));
      throw e;
    }
  };
  const submit = async () => {
    const found: Partial<Record<Field, string>> = {};
    if (!values.code) found.code = messages.password.codePrompt;
    if (!values.password) found.password = messages.password.newRequired;
    else if (!isNewPassword(values.password)) found.password = messages.password.newRule;
    if (!values.confirm) found.confirm = messages.password.confirmPrompt;
    else if (values.confirm !== values.password) found.confirm = messages.password.mismatch;
    setErrors(found);
    if (Object.keys(found).length) {
      focusFirst(found, ['code', 'password', 'confirm']);
      return;
    }
    setSubmitting(true);
    setFailure('');
    try {
      await resetPassword(phone, values.code, values.password);
    } catch (e) {
      setSubmitting(false);
      setFailure(errorText(e));
      return;
    }
    notify(messages.notice.passwordReset, { type: 'success', autoHideDuration: RESET_RELOAD_MS });
    setTimeout(reloadPage, RESET_RELOAD_MS);
  };
  const set = (name: Field, value: string) => setValues((v) => ({ ...v, [name]: name === 'code' ? value.replace(/\D/g, '') : value }));

  return (
    <FormDialog
      open={open}
      title="短信重置密码"
      width={475}
      submitting={submitting}
      error={failure}
      onClose={close}
      onSubmit={() => void submit()}
    >
      <TextField
        name="phone"
        label="手机号"
        fullWidth
        size="small"
        margin="dense"
        value={phone}
        helperText=" "
        slotProps={{ htmlInput: { readOnly: true } }}
      />
      <CodeField value={values.code} onChange={(d) => set('code', d)} error={errors.code} send={send} />
      <TextField
        name="password"
        label="新密码"
        type="password"
        autoComplete="new-password"
        fullWidth
        size="small"
        margin="dense"
        value={values.password}
        onChange={(e) => set('password', e.target.value)}
        error={!!errors.password}
        helperText={errors.password || ' '}
        slotProps={{ htmlInput: { maxLength: 20 } }}
      />
      <TextField
        name="confirm"
        label="确认密码"
        type="password"
        autoComplete="new-password"
        fullWidth
        size="small"
        margin="dense"
        value={values.confirm}
        onChange={(e) => set('confirm', e.target.value)}
        error={!!errors.confirm}
        helperText={errors.confirm || ' '}
        slotProps={{ htmlInput: { maxLength: 20 } }}
      />
    </FormDialog>
  );
}
