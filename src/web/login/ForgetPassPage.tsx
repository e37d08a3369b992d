/**
 * 忘记密码 (/forgetpass): reset by an SMS code sent to the phone on file. The number is fixed
 * while the code is in use; once the six digits are typed the masked account name is shown (the
 * server names it only for the right code, so the page never tells whether a number is on file
 * before); the new password follows the password rule. 密码重置成功，请重新登录, then back to
 * sign-in after 1 s.
 */
import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CodeButton } from '../components/CodeButton.tsx';
import { messages } from '../../shared/messages.ts';
import { isMobile, isNewPassword } from '../../shared/validators.ts';
import { applyDocumentSettings, usePublicSettings } from '../settings.ts';
import { findByPhone, resetPassword, sendResetCode } from '../common/forgetPassApi.ts';

export const BACK_TO_LOGIN_MS = 1000;

type Field = 'phone' | 'code' | 'password' | 'confirm';
const ORDER: Field[] = ['phone', 'code', 'password', 'confirm'];

const phoneError = (phone: string) =>
  !phone ? messages.contact.phonePrompt : !isMobile(phone) ? messages.contact.mobileInvalid : undefined;

export function validateReset(v: Record<Field, string>): Partial<Record<Field, string>> {
  const e: Partial<Record<Field, string>> = {};
  const p = phoneError(v.phone);
  if (p) e.phone = p;
  if (!v.code) e.code = messages.password.codePrompt;
  if (!v.password) e.password = messages.password.newRequired;
  else if (!isNewPassword(v.password)) e.password = messages.password.newRule;
  if (!v.confirm) e.confirm = messages.password.confirmPrompt;
  else if (v.confirm !== v.password) e.confirm = messages.password.mismatch;
  return e;
}

export default function ForgetPassPage({
  navigate = (route: string) => (window.location.hash = `#${route}`),
}: {
  navigate?: (route: string) => void;
}) {
  const sys = usePublicSettings();
  useEffect(() => applyDocumentSettings('忘记密码', sys), [sys]);
  const [values, setValues] = useState<Record<Field, string>>({ phone: '', code: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [account, setAccount] = useState('');
  const [phoneFixed, setPhoneFixed] = useState(false);
  const [notice, setNotice] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  const set = (name: Field, value: string) => {
    setValues((v) => ({ ...v, [name]: name === 'phone' || name === 'code' ? value.replace(/\D/g, '') : value }));
    setErrors((prev) => (prev[name] ? { ...prev, [name]: undefined } : prev));
  };

  const readyToSend = () => {
    const e = phoneError(values.phone);
    setErrors((prev) => ({ ...prev, phone: e }));
    return !e;
  };
  // the six digits typed: the account of the number, or what is wrong with the code
  useEffect(() => {
    if (!phoneFixed || values.code.length !== 6) return;
    let current = true;
    findByPhone(values.phone, values.code).then(
      (found) => current && setAccount(found.username),
      (error: unknown) => current && setErrors((prev) => ({ ...prev, code: error instanceof Error ? error.message : '验证码错误' })),
    );
    return () => {
      current = false;
    };
  }, [phoneFixed, values.phone, values.code]);

  const send = async () => {
    setNotice(null);
    setAccount('');
    try {
      const message = await sendResetCode(values.phone);
      setPhoneFixed(true);
      setNotice({ type: 'success', text: message });
    } catch (error) {
      setNotice({ type: 'error', text: error instanceof Error ? error.message : '发送失败' });
      throw error;
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || done) return;
    const found = validateReset(values);
    setErrors(found);
    const first = ORDER.find((n) => found[n]);
    if (first) {
      document.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setSubmitting(true);
    setNotice(null);
    try {
      await resetPassword(values.phone, values.code, values.password);
    } catch (error) {
      setSubmitting(false);
      setNotice({ type: 'error', text: error instanceof Error ? error.message : '重置失败' });
      return;
    }
    setDone(true);
    setNotice({ type: 'success', text: messages.notice.passwordReset });
    setTimeout(() => navigate('/login'), BACK_TO_LOGIN_MS);
  };

  const input = (name: Field, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      name={name}
      label={label}
      fullWidth
      size="small"
      margin="dense"
      value={values[name]}
      onChange={(e) => set(name, e.target.value)}
      error={!!errors[name]}
      helperText={errors[name] || ' '}
      {...extra}
    />
  );

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: '#f0f2f5' }}>
      <Paper sx={{ width: 420, maxWidth: 'calc(100vw - 32px)', p: 3 }}>
        <Typography variant="h6" component="h1" align="center" gutterBottom>
          忘记密码
        </Typography>
        <Typography color="text.secondary" variant="body2" align="center" sx={{ mb: 1 }}>
          通过账号绑定的手机号接收验证码，重置登录密码
        </Typography>
        <form onSubmit={(event) => void submit(event)} noValidate aria-label="重置密码">
          {input('phone', '手机号', {
            autoComplete: 'tel',
            slotProps: { htmlInput: { inputMode: 'numeric', maxLength: 11, readOnly: phoneFixed } },
            helperText: errors.phone || (account ? `账号：${account}` : ' '),
          })}
          {phoneFixed && !done ? (
            <Link component="button" type="button" variant="body2" onClick={() => setPhoneFixed(false)} sx={{ mb: 1 }}>
              更换手机号
            </Link>
          ) : null}
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
            {input('code', '验证码', {
              fullWidth: false,
              sx: { flex: 1 },
              autoComplete: 'one-time-code',
              slotProps: { htmlInput: { inputMode: 'numeric', maxLength: 6 } },
            })}
            <CodeButton send={send} ready={readyToSend} sx={{ mt: 1 }} disabled={done} />
          </Box>
          {input('password', '新密码', { type: 'password', autoComplete: 'new-password', slotProps: { htmlInput: { maxLength: 20 } } })}
          {input('confirm', '确认密码', { type: 'password', autoComplete: 'new-password', slotProps: { htmlInput: { maxLength: 20 } } })}
          {notice ? (
            <Alert severity={notice.type} sx={{ mb: 1 }}>
              {notice.text}
            </Alert>
          ) : null}
          <Button type="submit" variant="contained" fullWidth disabled={submitting || done}>
            {submitting ? '提交中...' : '重置密码'}
          </Button>
        </form>
        <Box sx={{ textAlign: 'center', mt: 2 }}>
          <Link href="#/login">返回登录</Link>
        </Box>
      </Paper>
    </Box>
  );
}
