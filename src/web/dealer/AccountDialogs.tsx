/**
 * The dealer's personal-centre dialogs.
 * 修改密码 (500 px): phone (the bound one), 发送验证码, code, old, new, confirm password, with the
 * spec's messages; success says 密码修改成功，请重新登录 and signs out after 1 s.
 * 绑定手机号 / 修改手机号 (475 px): (old phone,) new phone, 发送验证码, code.
 * The code button counts down 60 s after a send (发送成功，验证码有效期5分钟), then offers 重新发送.
 */
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { isMobile } from '../../shared/validators.ts';
import { dealerFetch } from './http.ts';
import { notify } from './notices.ts';
import { getDealerSession, setDealerSession } from './session.ts';

export const CODE_COUNTDOWN_S = 60;

function useCountdown(): [number, () => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(t);
  }, [left]);
  return [left, () => setLeft(CODE_COUNTDOWN_S)];
}

export function CodeButton({ send, sentOnce }: { send: () => Promise<boolean>; sentOnce: boolean }) {
  const [left, start] = useCountdown();
  const [busy, setBusy] = useState(false);
  const click = async () => {
    setBusy(true);
    try {
      if (await send()) start();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="outlined"
      disabled={left > 0 || busy}
      sx={{ whiteSpace: 'nowrap', height: 40, minWidth: 112 }}
      onClick={() => void click()}
    >
      {left > 0 ? `${left}s后重新发送` : sentOnce ? '重新发送' : '发送验证码'}
    </Button>
  );
}

type Errors = Record<string, string | undefined>;

export function PasswordDialog({ onClose, onChanged }: { onClose: () => void; onChanged: () => void }) {
  const mobile = getDealerSession()?.user.mobile ?? '';
  const [v, setV] = useState({ code: '', oldPass: '', newPass: '', confirmPass: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [sent, setSent] = useState(false);
  const [saving, setSaving] = useState(false);
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => {
    setV({ ...v, [k]: e.target.value });
    setErrors({ ...errors, [k]: undefined });
  };

  const check = (): Errors => {
    const e: Errors = {};
    if (!v.code.trim()) e.code = '请输入验证码';
    if (!v.oldPass) e.oldPass = '请输入旧密码';
    if (!v.newPass) e.newPass = '请输入新密码';
    else if (v.newPass.length < 6 || v.newPass.length > 20) e.newPass = '长度在 6 到 20 个字符';
    if (!v.confirmPass) e.confirmPass = '请再次输入密码';
    else if (v.confirmPass !== v.newPass) e.confirmPass = '两次输入的密码不一致';
    return e;
  };

  async function save() {
    const e = check();
    setErrors(e);
    const first = Object.values(e).find(Boolean);
    if (first) return notify('error', first);
    setSaving(true);
    try {
      await dealerFetch('comp/dbcCompany/updatePass', { method: 'PUT', body: v });
      notify('success', '密码修改成功，请重新登录', 1500);
      setTimeout(onChanged, 1000);
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  }

  const field = (k: keyof typeof v, label: string, type = 'password') => (
    <TextField
      label={label}
      type={type}
      size="small"
      fullWidth
      required
      margin="dense"
      value={v[k]}
      onChange={set(k)}
      error={!!errors[k]}
      helperText={errors[k] ?? ' '}
      slotProps={{ htmlInput: { maxLength: 20, name: k } }}
    />
  );

  return (
    <Dialog open onClose={saving ? undefined : onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 500 } } }}>
      <DialogTitle>修改密码</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 1 }}>
          <TextField
            label="手机号"
            size="small"
            fullWidth
            value={mobile}
            disabled
            helperText={mobile ? ' ' : '请先绑定手机号'}
            error={!mobile}
          />
          <CodeButton
            sentOnce={sent}
            send={async () => {
              if (!mobile) {
                notify('warning', '请先绑定手机号');
                return false;
              }
              try {
                await dealerFetch('comp/dbcCompany/sendMessage', { method: 'POST', body: { mobile, type: 2 } });
                setSent(true);
                notify('success', '发送成功，验证码有效期5分钟');
                return true;
              } catch {
                return false;
              }
            }}
          />
        </Box>
        {field('code', '验证码', 'text')}
        {field('oldPass', '旧密码')}
        {field('newPass', '新密码')}
        {field('confirmPass', '确认密码')}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          取消
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving}>
          确认
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function PhoneDialog({ onClose }: { onClose: () => void }) {
  const session = getDealerSession();
  const oldMobile = session?.user.mobile ?? '';
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [sent, setSent] = useState(false);
  const [saving, setSaving] = useState(false);
  const mobileError = (m: string) => (!m ? '请输入电话号码' : isMobile(m) ? undefined : '请输入正确的11位手机号码');

  async function save() {
    const e: Errors = { mobile: mobileError(mobile), code: code.trim() ? undefined : '验证码不能为空' };
    setErrors(e);
    const first = Object.values(e).find(Boolean);
    if (first) return notify('error', first);
    setSaving(true);
    try {
      const user = await dealerFetch<{ mobile: string }>('comp/dbcCompany/updateDbcCompany', {
        method: 'PUT',
        body: { mobile, code: code.trim(), oldMobile },
      });
      if (session) setDealerSession({ ...session, user: { ...session.user, mobile: user.mobile } });
      notify('success', '修改成功');
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open onClose={saving ? undefined : onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 475 } } }}>
      <DialogTitle>{oldMobile ? '修改手机号' : '绑定手机号'}</DialogTitle>
      <DialogContent dividers>
        {oldMobile ? <TextField label="原手机号" size="small" margin="dense" fullWidth value={oldMobile} disabled helperText=" " /> : null}
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 1 }}>
          <TextField
            label="新手机号"
            size="small"
            fullWidth
            required
            value={mobile}
            onChange={(e) => {
              setMobile(e.target.value.replace(/\D/g, '').slice(0, 11));
              setErrors({ ...errors, mobile: undefined });
            }}
            error={!!errors.mobile}
            helperText={errors.mobile ?? ' '}
            slotProps={{ htmlInput: { maxLength: 11, inputMode: 'numeric' } }}
          />
          <CodeButton
            sentOnce={sent}
            send={async () => {
              const problem = mobileError(mobile);
              if (problem) {
                setErrors({ ...errors, mobile: problem });
                notify('error', problem === '请输入电话号码' ? '请输入新手机号' : problem);
                return false;
              }
              try {
                await dealerFetch('comp/dbcCompany/sendMessage', { method: 'POST', body: { mobile, type: oldMobile ? 4 : 3 } });
                setSent(true);
                notify('success', '发送成功，验证码有效期5分钟');
                return true;
              } catch {
                return false;
              }
            }}
          />
        </Box>
        <TextField
          label="验证码"
          size="small"
          margin="dense"
          fullWidth
          required
          value={code}
          onChange={(e) => {
            setCode(e.target.value.slice(0, 8));
            setErrors({ ...errors, code: undefined });
          }}
          error={!!errors.code}
          helperText={errors.code ?? ' '}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          取消
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving}>
          确认
        </Button>
      </DialogActions>
    </Dialog>
  );
}
