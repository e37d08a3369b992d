/** 修改手机号: the new number and the SMS code sent to it (60 s countdown); 修改成功. */
import { useState } from 'react';
import TextField from '@mui/material/TextField';
import { useNotify } from 'react-admin';
import { CodeField } from '../../../components/CodeButton.tsx';
import { messages } from '../../../../shared/messages.ts';
import { isMobile } from '../../../../shared/validators.ts';
import { sendPhoneCode, updatePhone } from './api.ts';
import { errorText, focusFirst, FormDialog } from './FormDialog.tsx';

type Field = 'phone' | 'code';

export const phoneError = (phone: string) =>
  !phone ? messages.contact.phonePrompt : !isMobile(phone) ? messages.contact.mobileInvalid : undefined;

export function PhoneDialog({
  open,
  userId,
  onClose,
  onSaved,
}: {
  open: boolean;
  userId: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const notify = useNotify();
  const [values, setValues] = useState<Record<Field, string>>({ phone: '', code: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState('');

  const close = () => {
    setValues({ phone: '', code: '' });
    setErrors({});
    setFailure('');
    onClose();
  };
  const send = async () => {
    setFailure('');
    try {
      notify(await sendPhoneCode(values.phone), { type: 'success' });
    } catch (error) {
      setFailure(errorText(error));
      throw error;
    }
  };
  const readyToSend = () => {
    const e = phoneError(values.phone);
    setErrors((prev) => ({ ...prev, phone: e }));
    return !e;
  };
  const submit = async () => {
    const found: Partial<Record<Field, string>> = {};
    const e = phoneError(values.phone);
    if (e) found.phone = e;
    if (!values.code) found.code = messages.login.codeRequired;
    setErrors(found);
    if (Object.keys(found).length) {
      focusFirst(found, ['phone', 'code']);
      return;
    }
    setSubmitting(true);
    setFailure('');
    try {
      await updatePhone(userId, values.phone, values.code);
    } catch (error) {
      setSubmitting(false);
      setFailure(errorText(error));
      return;
    }
    setSubmitting(false);
    notify(messages.notice.modified, { type: 'success' });
    close();
    onSaved();
  };
  const set = (name: Field, value: string) => setValues((v) => ({ ...v, [name]: value.replace(/\D/g, '') }));

  return (
    <FormDialog
      open={open}
      title="修改手机号"
      width={475}
      submitting={submitting}
      error={failure}
      onClose={close}
      onSubmit={() => void submit()}
    >
      <TextField
        name="phone"
        label="新手机号"
        fullWidth
        size="small"
        margin="dense"
        value={values.phone}
        onChange={(e) => set('phone', e.target.value)}
        error={!!errors.phone}
        helperText={errors.phone || ' '}
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 11 } }}
      />
      <CodeField value={values.code} onChange={(d) => set('code', d)} error={errors.code} send={send} ready={readyToSend} />
    </FormDialog>
  );
}
