/**
 * 继续填写: an applicant who registered before (on this or another device) comes back with the
 * ID number and mobile of the registration and an SMS code (POST api/staffun/resume/sendCode,
 * then api/staffun/resume -> the applicant token) and continues at the education step. Shown
 * at /staffun/resume (the registration links to it: 已登记过？继续填写).
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { ID_CARD_WRONG, idCardAutofill } from '../../shared/applicant-rules.ts';
import { CodeField } from '../components/CodeButton.tsx';
import { api, setApplicantToken } from './api.ts';
import { go } from './nav.ts';
import type { Notice } from './notice.tsx';

const MOBILE = /^1[3-9]\d{9}$/;

export function ResumeForm({
  initial,
  reason,
  notify,
}: {
  initial?: { card?: string; mobile?: string };
  reason?: string;
  notify: (n: Notice) => void;
}) {
  const [card, setCard] = useState(initial?.card ?? '');
  const [mobile, setMobile] = useState(initial?.mobile ?? '');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const identityProblems = () => {
    const e: Record<string, string> = {};
    if (!card) e.card = '请输入身份证号码';
    else if (!idCardAutofill(card)) e.card = ID_CARD_WRONG;
    if (!MOBILE.test(mobile)) e.mobile = '请输入正确的手机号码';
    return e;
  };
  const ready = () => {
    const e = identityProblems();
    setErrors(e);
    return Object.keys(e).length === 0;
  };
  const send = async () => {
    try {
      const res = await api<{ message: string }>('POST', 'api/staffun/resume/sendCode', { card, mobile });
      notify({ type: 'success', text: res.message });
    } catch (err) {
      notify({ type: 'error', text: (err as Error).message });
      throw err;
    }
  };
  const resume = async () => {
    const e = identityProblems();
    if (!/^\d{6}$/.test(code)) e.code = '请输入6位验证码';
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    try {
      const res = await api<{ id: number; token: string; mobile: string }>('POST', 'api/staffun/resume', { card, mobile, code });
      setApplicantToken(res.token);
      go(`/staffun/education?staffunId=${res.id}&phoneNum=${encodeURIComponent(res.mobile)}`);
    } catch (err) {
      notify({ type: 'error', text: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-label="继续填写"
      onSubmit={(e) => {
        e.preventDefault();
        void resume();
      }}
    >
      <Alert severity="info" sx={{ my: 1.5 }}>
        {reason ?? '已登记过的应聘人员，请输入登记时的身份证号码和手机号码，获取短信验证码后继续填写。'}
      </Alert>
      <TextField
        name="resumeCard"
        label="身份证号码"
        value={card}
        onChange={(e) =>
          setCard(
            e.target.value
              .replace(/[^\dXx]/g, '')
              .slice(0, 18)
              .toUpperCase(),
          )
        }
        error={!!errors.card}
        helperText={errors.card}
        required
        fullWidth
        margin="dense"
        size="small"
      />
      <TextField
        name="resumeMobile"
        label="手机号码"
        value={mobile}
        onChange={(e) => setMobile(e.target.value.replace(/\D/g, '').slice(0, 11))}
        error={!!errors.mobile}
        helperText={errors.mobile}
        required
        fullWidth
        margin="dense"
        size="small"
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 11 } }}
      />
      <CodeField value={code} onChange={setCode} error={errors.code} send={send} ready={ready} />
      <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 1 }} disabled={busy}>
        {busy ? '验证中...' : '继续填写'}
      </Button>
    </form>
  );
}
