/**
 * The staff console's idle lock (the shared IdleGuard): the lock time is the user's lockTime; at
 * the lock the session is signed out on the server (the dead token stays until the user signs in
 * again); the lock dialog asks for the 用户名, password and captcha. Closing the page while locked
 * drops the token.
 */
import { useGetIdentity } from 'react-admin';
import { request } from '../../common/http.ts';
import { fetchCaptcha, signIn } from '../../common/session.ts';
import { getToken, markTokenEnded, removeToken } from '../../common/token.ts';
import { lockFormError } from '../../common/idle.ts';
import { IdleGuard, type UnlockForm } from '../../components/IdleGuard.tsx';

const endSession = () => {
  markTokenEnded();
  if (getToken()) request('/api/logout', { method: 'DELETE', quiet: true }).catch(() => undefined);
};
const signInAgain = (form: UnlockForm) => signIn({ ...form, rememberMe: false });

export function IdleLock({ tickMs = 1000 }: { tickMs?: number }) {
  const { identity } = useGetIdentity();
  return (
    <IdleGuard
      lockMinutes={Number(identity?.lockTime ?? 0)}
      tickMs={tickMs}
      onLock={endSession}
      onLeaveLocked={removeToken}
      unlock={{
        username: String(identity?.username ?? ''),
        usernameLabel: '用户名',
        validate: lockFormError,
        signIn: signInAgain,
        fetchCaptcha,
        refillName: true,
      }}
    />
  );
}
