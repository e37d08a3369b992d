/**
 * The dealer's session in the browser: the sign-in answer ({token, user}) kept in session
 * storage under `authorization`, so it ends with the browser tab and never mixes with the staff
 * token. The chosen view (用车客户 2 / 用车需求 3) and the sidebar state live there too.
 */
import { replaceRoute } from '../route.ts';

export const DEALER_LOGIN = '/jxsLogin';
export const DEALER_SESSION_KEY = 'authorization';
export const DEALER_VIEW_KEY = 'jxsActiveIndex';
export const DEALER_SIDEBAR_KEY = 'jxsSidebarStatus';

export interface DealerUser {
  id: number;
  compName: string;
  compCode: string;
  username: string;
  mobile: string | null;
  /** 锁屏时间: minutes without a click or key press before the portal locks (0: never) */
  lockTime?: number;
}

export interface DealerSession {
  token: string;
  user: DealerUser;
}

export function getDealerSession(): DealerSession | null {
  try {
    const raw = sessionStorage.getItem(DEALER_SESSION_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as DealerSession;
    return typeof value?.token === 'string' && value.user ? value : null;
  } catch {
    return null;
  }
}

export function setDealerSession(session: DealerSession): void {
  sessionStorage.setItem(DEALER_SESSION_KEY, JSON.stringify(session));
}

export function clearDealerSession(): void {
  sessionStorage.removeItem(DEALER_SESSION_KEY);
  sessionStorage.removeItem(DEALER_VIEW_KEY);
}

/** The label shown in brackets in the header and as the watermark. */
export function dealerLabel(user: DealerUser | undefined | null): string {
  return user ? user.compName || user.username : '';
}

/** Ends the dealer's session in this tab and shows the sign-in page. */
export function signOutToLogin(): void {
  clearDealerSession();
  replaceRoute(DEALER_LOGIN);
}
