/**
 * The idle lock of the staff console and the dealer portal. Any click or key press resets the idle
 * clock (which also starts over whenever the watch starts: on mount, after a new lock time, after
 * unlocking); WARN_SECONDS before the lock time a warning counts down and can be cancelled; at the
 * lock `onLock` ends the server session and a lock dialog asks for the user name and password (and
 * a captcha where the app signs in with one; Enter submits; a failure refreshes the captcha).
 * Signing in again closes it and restarts the clock, with the page as it was. Closing the page
 * while locked calls `onLeaveLocked` (the app drops its session).
 */
import { useCallback, useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { idlePhase, type IdlePhase } from '../common/idle.ts';
import type { Captcha } from '../common/session.ts';
import { CaptchaButton } from './CaptchaButton.tsx';
import { useOpenedOnce } from './useOpenedOnce.ts';

const ACTIVITY_EVENTS = ['click', 'keydown'] as const;

/** What the lock dialog sends to sign in again: the user name and captcha code trimmed. */
export interface UnlockForm {
  username: string;
  password: string;
  code: string;
  uuid: string;
}

export interface UnlockOptions {
  /** the signed-in user's name, filled in */
  username: string;
  /** the user-name field's label */
  usernameLabel: string;
  /** the first missing field's message, or null (captchaEnabled: the code is asked for) */
  validate: (form: { username: string; password: string; code: string }, captchaEnabled: boolean) => string | null;
  signIn: (form: UnlockForm) => Promise<unknown>;
  /** where the app signs in with a captcha: fetches one (again after each failure) */
  fetchCaptcha?: () => Promise<Captcha>;
  /** the user name and password are cut to these lengths as they are typed */
  maxLength?: { username: number; password: number };
  /** the name may arrive after the dialog opens: an empty user-name field takes it */
  refillName?: boolean;
}

export interface IdleGuardProps {
  /** minutes; 0 never locks */
  lockMinutes: number;
  tickMs?: number;
  /** prefix of the dialogs' ids (`${idPrefix}idle-warning-title`, `${idPrefix}lock-title`) */
  idPrefix?: string;
  /** at the lock: end the server session */
  onLock: () => void;
  /** the page is left while locked */
  onLeaveLocked: () => void;
  unlock: UnlockOptions;
}

export function IdleGuard({ lockMinutes, tickMs = 1000, idPrefix = '', onLock, onLeaveLocked, unlock: unlockOptions }: IdleGuardProps) {
  // set when the watch starts (the effect below) and on every activity
  const lastActivity = useRef(0);
  const [phase, setPhase] = useState<IdlePhase>({ phase: 'active' });
  // not kept across a reload: leaving the page while locked drops the session, so a reload signs in anew
  const [locked, setLocked] = useState(false);
  // the latest callbacks, called from the timer and the unload listener without restarting them
  const lockNow = useEffectEvent(() => onLock());
  const leaveLocked = useEffectEvent(() => onLeaveLocked());

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
        lockNow();
      }
    }, tickMs);
    return () => {
      clearInterval(timer);
      for (const e of ACTIVITY_EVENTS) document.removeEventListener(e, onActivity, true);
    };
  }, [locked, lockMinutes, tickMs]);

  useEffect(() => {
    if (!locked) return;
    const leave = () => leaveLocked();
    window.addEventListener('beforeunload', leave);
    return () => window.removeEventListener('beforeunload', leave);
  }, [locked]);

  const warning = !locked && phase.phase === 'warning';
  // the warning renders from its first showing on
  const warningUsed = useOpenedOnce(warning);

  const unlock = useCallback(() => {
    setLocked(false);
    reset();
  }, [reset]);

  return (
    <>
      {warningUsed ? (
        <Dialog open={warning} aria-labelledby={`${idPrefix}idle-warning-title`}>
          <DialogTitle id={`${idPrefix}idle-warning-title`}>系统提示</DialogTitle>
          <DialogContent>
            您已长时间未操作，系统将在 <b data-testid="idle-countdown">{phase.phase === 'warning' ? phase.secondsLeft : 0}</b> 秒后锁定
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={reset}>
              取消
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
      {locked && <LockDialog titleId={`${idPrefix}lock-title`} options={unlockOptions} onUnlocked={unlock} />}
    </>
  );
}

function LockDialog({ titleId, options, onUnlocked }: { titleId: string; options: UnlockOptions; onUnlocked: () => void }) {
  const { username: initialName, usernameLabel, maxLength, refillName } = options;
  const [form, setForm] = useState({ username: initialName, password: '', code: '' });
  const [captcha, setCaptcha] = useState<Captcha>({ img: '', uuid: '', enabled: !!options.fetchCaptcha });
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const refreshCaptcha = () => {
    options
      .fetchCaptcha?.()
      .then(setCaptcha)
      .catch(() => setError('验证码获取失败，请点击图片重试'));
  };
  // one captcha when the dialog opens; later ones on a click or a failed unlock
  const firstCaptcha = useEffectEvent(() => refreshCaptcha());
  useEffect(() => firstCaptcha(), []);
  // a cleared name box is filled again with the signed-in name
  if (refillName && !form.username && initialName) setForm((f) => ({ ...f, username: initialName }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { validate, signIn, fetchCaptcha } = options;
    const problem = validate(form, captcha.enabled);
    if (problem) {
      setError(problem);
      return;
    }
    setLoading(true);
    setError(null);
    try {
      await signIn({ username: form.username.trim(), password: form.password, code: form.code.trim(), uuid: captcha.uuid });
      onUnlocked();
    } catch (err) {
      setError((err as Error).message || '登录失败');
      if (fetchCaptcha) {
        setForm((f) => ({ ...f, code: '' }));
        refreshCaptcha();
      }
    } finally {
      setLoading(false);
    }
  };

  const set = (key: 'username' | 'password') => (e: { target: { value: string } }) => {
    const value = maxLength ? e.target.value.slice(0, maxLength[key]) : e.target.value;
    setForm((f) => ({ ...f, [key]: value }));
  };
  return (
    <Dialog
      open
      disableEscapeKeyDown
      aria-labelledby={titleId}
      // the locked page stays underneath but unreadable
      slotProps={{ paper: { sx: { width: 400 } }, backdrop: { sx: { backdropFilter: 'blur(8px)' } } }}
    >
      <DialogTitle id={titleId}>系统已锁定</DialogTitle>
      <Box component="form" onSubmit={(e) => void submit(e)} noValidate>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <TextField label={usernameLabel} value={form.username} onChange={set('username')} autoComplete="username" required />
          <TextField
            label="密码"
            type="password"
            value={form.password}
            onChange={set('password')}
            autoComplete="current-password"
            autoFocus
            required
          />
          {captcha.enabled && (
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <TextField
                label="验证码"
                value={form.code}
                onChange={(e) => setForm((f) => ({ ...f, code: e.target.value.replace(/[^\d-]/g, '') }))}
                required
                sx={{ flex: 1 }}
              />
              {captcha.img && <CaptchaButton img={captcha.img} onRefresh={refreshCaptcha} height={38} />}
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
