/**
 * react-admin auth provider over the staff session. 401/403 answers are handled by the
 * HTTP client (session-expired dialog, /401 page), so checkError never logs out by itself.
 */
import type { AuthProvider } from 'react-admin';
import { loginRoute, parseHash, replaceRoute } from '../../route.ts';
import { clearSession, loadSession, signIn, signOut, type LoginForm, type SessionUser } from '../../common/session.ts';
import { getToken } from '../../common/token.ts';

/** A failed user-info load signs the user out and returns to the sign-in page. */
function leave(): void {
  const from = parseHash();
  clearSession();
  replaceRoute(loginRoute(from));
}

/** react-admin's identity of the signed-in user. */
export function identityOf(user: SessionUser) {
  return { ...user, id: user.id, fullName: user.nickName || user.username, avatar: user.img || undefined };
}

/**
 * checkAuth's refusal: react-admin sends the user to `redirectTo` and, because the message is
 * false, shows no notice (the login page says what to do).
 */
export class SignInRequired extends Error {
  readonly redirectTo: string;
  constructor(redirectTo: string) {
    super('sign-in required');
    this.name = 'SignInRequired';
    this.redirectTo = redirectTo;
    Object.defineProperty(this, 'message', { value: false });
  }
}

export function createAuthProvider(): AuthProvider {
  return {
    async login(params: LoginForm) {
      await signIn(params);
    },
    async logout() {
      await signOut();
      return '/login';
    },
    checkAuth() {
      return getToken() ? Promise.resolve() : Promise.reject(new SignInRequired(loginRoute(parseHash())));
    },
    async checkError() {
      /* handled by the HTTP client */
    },
    async getIdentity() {
      try {
        const { user } = await loadSession();
        return identityOf(user);
      } catch (error) {
        leave();
        throw error;
      }
    },
    async getPermissions() {
      try {
        return (await loadSession()).permissions;
      } catch (error) {
        leave();
        throw error;
      }
    },
  };
}
