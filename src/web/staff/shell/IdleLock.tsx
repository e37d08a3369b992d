/**
 * Idle lock. Any click or key press resets the idle clock. WARN_SECONDS before the user's
 * lockTime a warning counts down and can be cancelled; at lockTime the session is signed out
 * on the server and a lock dialog asks for the user name, password and captcha (Enter
 * submits; a failure refreshes the captcha). Signing in again closes it and restarts the
 * clock, with the page as it was. Closing the page while locked drops the token.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useGetIdentity } from 'react-admin';
import { request } from '../../common/http.ts';
import { fetchCaptcha, signIn, type Captcha } from '../../common/session.ts';
import { getToken, markTokenEnded, removeToken } from '../../common/token.ts';
import { idlePhase, lockFormError, type IdlePhase } from '../../common/idle.ts';

const ACTIVITY_EVENTS = ['click', 'keydown'] as const;

export function IdleLock({ tickMs = 1000 }: { tickMs?: number }) {
  const { identity } = useGetIdentity();
  const lockMinutes = Number(identity?.lockTime ?? 0);
  const lastActivity = useRef(Date.now());
  const [phase, setPhase] = useState<IdlePhase>({ phase: 'active' });
  // not kept across a reload: leaving the page while locked drops the token, so a reload signs in anew
  const [locked, setLocked] = useState(false);

  const reset = useCallback(() => {
    lastActivity.current = Date.now();
    setPhase({ phase: 'active' });
  }, []);

  useEffect(() => {
    if (locked) return;
    const onActivity = () => {
      lastActivity.current = Date.now();
    };
    for (const e of ACTIVITY_EVENTS) document.addEventListener(e, onActivity, true);
    const timer = setInterval(() => {
      const next = idlePhase((Date.now() - lastActivity.current) / 1000, lockMinutes);
      setPhase(next);
      if (next.phase === 'locked') {
        setLocked(true);
        // the server session ends now; the dead token stays until the user signs in again
        markTokenEnded();
        if (getToken()) request('/api/logout', { method: 'DELETE', quiet: true }).catch(() => undefined);
      }
    }, tickMs);
    return () => {
      clearInterval(timer);
      for (const e of ACTIVITY_EVENTS) document.removeEventListener(e, onActivity, true);
    };
  }, [locked, lockMinutes, tickMs]);

  useEffect(() => {
    if (!locked) return;
    const leave = () => removeToken();
    window.addEventListener('beforeunload', leave);
    return () => window.removeEventListener('beforeunload', leave);
  }, [locked]);

  const unlock = useCallback(() => {
    setLocked(false);
    reset();
  }, [reset]);

  return (
    <>
      <Dialog open={!locked && phase.phase === 'warning'} aria-labelledby="idle-warning-title">
        <DialogTitle id="idle-warning-title">系统提示</DialogTitle>
        <DialogContent>
          您已长时间未操作，系统将在 <b data-testid="idle-countdown">{phase.phase === 'warning' ? phase.secondsLeft : 0}</b> 秒后锁定
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={reset}>
            取消
          </Button>
        </DialogActions>
      </Dialog>
      {locked && <LockDialog username={String(identity?.username ?? '')} onUnlocked={unlock} />}
    </>
  );
}

function LockDialog({ username: initialName, onUnlocked }: { username: string; onUnlocked: () => void }) {
  const [form, setForm] = useState({ username: initialName, password: '', code: '' });
  const [captcha, setCaptcha] = useState<Captcha>({ img: '', uuid: '', enabled: true });
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const refreshCaptcha = useCallback(() => {
    fetchCaptcha()
      .then(setCaptcha)
      .catch(() => setError('验证码获取失败，请点击图片重试'));
  }, []);
  useEffect(refreshCaptcha, [refreshCaptcha]);
  useEffect(() => {
    if (!form.username && initialName) setForm((f) => ({ ...f, username: initialName }));
  }, [initialName, form.username]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = lockFormError(form, captcha.enabled);
    if (problem) {
      setError(problem);
      return;
    }
    setLoading(true);
    setError(null);
    try {
      await signIn({ username: form.username.trim(), password: form.password, code: form.code.trim(), uuid: captcha.uuid, rememberMe: false });
      onUnlocked();
    } catch (err) {
      setError((err as Error).message || '登录失败');
      setForm((f) => ({ ...f, code: '' }));
      refreshCaptcha();
    } finally {
      setLoading(false);
    }
  };

  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  return (
    <Dialog
      open
      disableEscapeKeyDown
      aria-labelledby="lock-title"
      // the locked page stays underneath but unreadable
      slotProps={{ paper: { sx: { width: 400 } }, backdrop: { sx: { backdropFilter: 'blur(8px)' } } }}
    >
      <DialogTitle id="lock-title">系统已锁定</DialogTitle>
      <Box component="form" onSubmit={submit} noValidate>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <TextField label="用户名" value={form.username} onChange={set('username')} autoComplete="username" required />
          <TextField label="密码" type="password" value={form.password} onChange={set('password')} autoComplete="current-password" autoFocus required />
          {captcha.enabled && (
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <TextField label="验证码" value={form.code} onChange={(e) => setForm((f) => ({ ...f, code: e.target.value.replace(/[^\d-]/g, '') }))} required sx={{ flex: 1 }} />
              {captcha.img && (
                <Box component="img" src={captcha.img} alt="验证码" title="看不清？换一张" onClick={refreshCaptcha} sx={{ height: 38, cursor: 'pointer' }} />
              )}
            </Box>
          )}
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
