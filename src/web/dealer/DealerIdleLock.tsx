/**
 * The dealer portal's idle lock, the staff console's (the shared IdleGuard): any click or key press resets the idle
 * clock; WARN_SECONDS before the company's 锁屏时间 a warning counts down and can be cancelled; at
 * the lock the server session ends and a lock dialog asks for the account and password (the
 * dealer sign-in); signing in again closes it with the page as it was. Closing the page while
 * locked drops the session. 锁屏时间 itself is chosen in the personal-centre menu
 * (DealerLockTimeDialog: the staff's choices, LockTimeChoice, saved by PUT comp/dbcCompany/lockTime).
 */
import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { IdleGuard, type UnlockForm } from '../components/IdleGuard.tsx';
import { useLockTimeChoice } from '../components/LockTimeChoice.tsx';
import { dealerFetch } from './http.ts';
import { clearDealerSession, getDealerSession, setDealerSession, type DealerUser } from './session.ts';
import { dealerSignIn } from './DealerLogin.tsx';
import { notify } from './notices.ts';

// the server session ends at the lock; signing in again in the lock dialog starts a new one
const endSession = () => {
  dealerFetch('comp/dbcCompany/auth/logout', { quiet: true }).catch(() => undefined);
};
const leaveLocked = () => clearDealerSession();
const validate = (form: { username: string; password: string }) =>
  !form.username.trim() ? '请输入账号' : !form.password ? '请输入密码' : null;
const signInAgain = (form: UnlockForm) => dealerSignIn(form.username, form.password);

export function DealerIdleLock({ lockMinutes, username, tickMs = 1000 }: { lockMinutes: number; username: string; tickMs?: number }) {
  return (
    <IdleGuard
      lockMinutes={lockMinutes}
      tickMs={tickMs}
      idPrefix="dealer-"
      onLock={endSession}
      onLeaveLocked={leaveLocked}
      unlock={{ username, usernameLabel: '账号', validate, signIn: signInAgain, maxLength: { username: 32, password: 64 } }}
    />
  );
}

/** 锁屏时间: 10/20/30/40/50/60/90 minutes, 永不 (0) or 其他 (up to 3 digits; 时长不能为空), as for staff. */
export function DealerLockTimeDialog({
  open,
  value,
  onClose,
  onSaved,
}: {
  open: boolean;
  value: number;
  onClose: () => void;
  onSaved: (user: DealerUser) => void;
}) {
  const { fields, minutes: chosen, failure, setFailure } = useLockTimeChoice(open, value);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const minutes = chosen();
    if (minutes === null) return;
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
      <Box component="form" onSubmit={(e) => void submit(e)} noValidate>
        <DialogContent>
          {failure && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {failure}
            </Alert>
          )}
          {fields}
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
