/** 修改邮箱: new address, a code sent to it (60 s countdown), the current password; 邮箱修改成功. */
import { useState } from 'react';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useNotify } from 'react-admin';
import { CodeField } from '../../../components/CodeButton.tsx';
import { messages } from '../../../../shared/messages.ts';
import { isEmail } from '../../../../shared/validators.ts';
import { sendEmailCode, updateEmail } from './api.ts';
import { errorText, focusFirst, FormDialog } from './FormDialog.tsx';

type Field = 'email' | 'code' | 'password';
const ORDER: Field[] = ['email', 'code', 'password'];

const emailError = (email: string) =>
  !email ? messages.contact.emailRequired : !isEmail(email) ? messages.contact.emailInvalid : undefined;

export function EmailDialog({
  open,
  current,
  onClose,
  onSaved,
}: {
  open: boolean;
  current?: string | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const notify = useNotify();
  const [values, setValues] = useState<Record<Field, string>>({ email: '', code: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState('');

  const close = () => {
    setValues({ email: '', code: '', password: '' });
    setErrors({});
    setFailure('');
    onClose();
  };

  const send = async () => {
    setFailure('');
    try {
      notify(await sendEmailCode(values.email.trim()), { type: 'success' });
    } catch (error) {
      setFailure(errorText(error));
      throw error;
    }
  };
  const readyToSend = () => {
    const e = emailError(values.email.trim());
    setErrors((prev) => ({ ...prev, email: e }));
    return !e;
  };

  const submit = async () => {
    const found: Partial<Record<Field, string>> = {};
    const e = emailError(values.email.trim());
    if (e) found.email = e;
    if (!values.code.trim()) found.code = messages.password.codePrompt;
    if (!values.password) found.password = messages.login.passwordRequired;
    setErrors(found);
    if (Object.keys(found).length) {
      focusFirst(found, ORDER);
      return;
    }
    setSubmitting(true);
    setFailure('');
    try {
      await updateEmail(values.code.trim(), values.password, values.email.trim());
    } catch (error) {
      setSubmitting(false);
      setFailure(errorText(error));
      return;
    }
    setSubmitting(false);
    notify(messages.notice.emailChanged, { type: 'success' });
    close();
    onSaved();
  };

  const set = (name: Field, value: string) => setValues((v) => ({ ...v, [name]: value }));

  return (
    <FormDialog
      open={open}
      title="修改邮箱"
      width={475}
      submitting={submitting}
      error={failure}
      onClose={close}
      onSubmit={() => void submit()}
    >
      {current ? <Box sx={{ color: 'text.secondary', fontSize: 13, mb: 1 }}>当前邮箱：{current}</Box> : null}
      <TextField
        name="email"
        label="新邮箱"
        fullWidth
        size="small"
        margin="dense"
        value={values.email}
        onChange={(e) => set('email', e.target.value)}
        error={!!errors.email}
        helperText={errors.email || ' '}
      />
      <CodeField value={values.code} onChange={(d) => set('code', d)} error={errors.code} send={send} ready={readyToSend} />
      <TextField
        name="password"
        label="当前密码"
        type="password"
        autoComplete="current-password"
        fullWidth
        size="small"
        margin="dense"
        value={values.password}
        onChange={(e) => set('password', e.target.value)}
        error={!!errors.password}
        helperText={errors.password || ' '}
      />
    </FormDialog>
  );
}
