/**
 * The dealer portal's idle lock, as the staff console's: any click or key press resets the idle
 * clock; WARN_SECONDS before the company's 锁屏时间 a warning counts down and can be cancelled; at
 * the lock the server session ends and a lock dialog asks for the account and password (the
 * dealer sign-in); signing in again closes it with the page as it was. Closing the page while
 * locked drops the session. 锁屏时间 itself is chosen in the personal-centre menu
 * (DealerLockTimeDialog: the staff's choices, saved by PUT comp/dbcCompany/lockTime).
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { idlePhase, LOCK_CHOICES, type IdlePhase } from '../common/idle.ts';
import { dealerFetch } from './http.ts';
import { clearDealerSession, getDealerSession, setDealerSession, type DealerUser } from './session.ts';
import { dealerSignIn } from './DealerLogin.tsx';
import { notify } from './notices.ts';

const ACTIVITY_EVENTS = ['click', 'keydown'] as const;
const OTHER = 'other';

export function DealerIdleLock({ lockMinutes, username, tickMs = 1000 }: { lockMinutes: number; username: string; tickMs?: number }) {
  const lastActivity = useRef(Date.now());
  const [phase, setPhase] = useState<IdlePhase>({ phase: 'active' });
  const [locked, setLocked] = useState(false);

  const reset = useCallback(() => {
    lastActivity.current = Date.now();
    setPhase({ phase: 'active' });
  }, []);

  useEffect(() => {
    if (locked) return;
    lastActivity.current = Date.now();
    const onActivity = () => {
      lastActivity.current = Date.now();
    };
    for (const e of ACTIVITY_EVENTS) document.addEventListener(e, onActivity, true);
    const timer = setInterval(() => {
      const next = idlePhase((Date.now() - lastActivity.current) / 1000, lockMinutes);
      setPhase(next);
      if (next.phase === 'locked') {
        setLocked(true);
        // the server session ends now; signing in again in the lock dialog starts a new one
        dealerFetch('comp/dbcCompany/auth/logout', { quiet: true }).catch(() => undefined);
      }
    }, tickMs);
    return () => {
      clearInterval(timer);
      for (const e of ACTIVITY_EVENTS) document.removeEventListener(e, onActivity, true);
    };
  }, [locked, lockMinutes, tickMs]);

  useEffect(() => {
    if (!locked) return;
    const leave = () => clearDealerSession();
    window.addEventListener('beforeunload', leave);
    return () => window.removeEventListener('beforeunload', leave);
  }, [locked]);

  const unlock = useCallback(() => {
    setLocked(false);
    reset();
  }, [reset]);

  return (
    <>
      <Dialog open={!locked && phase.phase === 'warning'} aria-labelledby="dealer-idle-warning-title">
        <DialogTitle id="dealer-idle-warning-title">系统提示</DialogTitle>
        <DialogContent>
          您已长时间未操作，系统将在 <b data-testid="idle-countdown">{phase.phase === 'warning' ? phase.secondsLeft : 0}</b> 秒后锁定
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={reset}>
            取消
          </Button>
        </DialogActions>
      </Dialog>
      {locked && <DealerLockDialog username={username} onUnlocked={unlock} />}
    </>
  );
}

function DealerLockDialog({ username: initialName, onUnlocked }: { username: string; onUnlocked: () => void }) {
  const [form, setForm] = useState({ username: initialName, password: '' });
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.username.trim()) return setError('请输入账号');
    if (!form.password) return setError('请输入密码');
    setLoading(true);
    setError(null);
    try {
      await dealerSignIn(form.username.trim(), form.password);
      onUnlocked();
    } catch (err) {
      setError((err as Error).message || '登录失败');
    } finally {
      setLoading(false);
    }
  };

  return (
    <Dialog
      open
      disableEscapeKeyDown
      aria-labelledby="dealer-lock-title"
      slotProps={{ paper: { sx: { width: 400 } }, backdrop: { sx: { backdropFilter: 'blur(8px)' } } }}
    >
      <DialogTitle id="dealer-lock-title">系统已锁定</DialogTitle>
      <Box component="form" onSubmit={submit} noValidate>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <TextField label="账号" value={form.username} onChange={(e) => setForm((f) => ({ ...f, username: e.target.value.slice(0, 32) }))} autoComplete="username" required />
          <TextField
            label="密码"
            type="password"
            value={form.password}
            onChange={(e) => setForm((f) => ({ ...f, password: e.target.value.slice(0, 64) }))}
            autoComplete="current-password"
            autoFocus
            required
          />
        </DialogContent>
        <DialogActions>
          <Button type="submit" variant="contained" disabled={loading}>
            {loading ? '解 锁 中...' : '解 锁'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** 锁屏时间: 10/20/30/40/50/60/90 minutes, 永不 (0) or 其他 (up to 3 digits; 时长不能为空), as for staff. */
export function DealerLockTimeDialog({ open, value, onClose, onSaved }: { open: boolean; value: number; onClose: () => void; onSaved: (user: DealerUser) => void }) {
  const [choice, setChoice] = useState(LOCK_CHOICES.includes(value) ? String(value) : OTHER);
  const [custom, setCustom] = useState(LOCK_CHOICES.includes(value) ? '' : String(value));
  const [error, setError] = useState('');
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setChoice(LOCK_CHOICES.includes(value) ? String(value) : OTHER);
    setCustom(LOCK_CHOICES.includes(value) ? '' : String(value));
    setError('');
    setFailure('');
  }, [open, value]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (choice === OTHER && !custom) return setError('时长不能为空');
    const minutes = choice === OTHER ? Number(custom) : Number(choice);
    setError('');
    setFailure('');
    setBusy(true);
    try {
      const user = await dealerFetch<DealerUser>('comp/dbcCompany/lockTime', { method: 'PUT', body: { lockTime: minutes }, quiet: true });
      const session = getDealerSession();
      if (session) setDealerSession({ ...session, user: { ...session.user, lockTime: user.lockTime } });
      notify('success', '修改成功');
      onSaved(user);
    } catch (err) {
      setFailure((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="dealer-lock-time-title" slotProps={{ paper: { sx: { width: 475 } } }}>
      <DialogTitle id="dealer-lock-time-title">锁屏时间</DialogTitle>
      <Box component="form" onSubmit={submit} noValidate>
        <DialogContent>
          {failure && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {failure}
            </Alert>
          )}
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
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>取消</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            确定
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
