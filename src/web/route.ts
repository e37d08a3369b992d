/**
 * Hash-route helpers shared by the sign-in page and the staff console.
 * Routes look like `#/path?query`; the query lives inside the hash.
 */

/** The public applicant pages (their own app, no sign-in). */
export const APPLICANT_PATHS = ['/staffun', '/staffun/list', '/staffun/view', '/staffun/education', '/staffun/resume', '/staffun/success'];

/** Paths that need no sign-in. */
export const PUBLIC_PATHS = ['/login', '/forgetpass', ...APPLICANT_PATHS];

export function isApplicantPath(path: string): boolean {
  return APPLICANT_PATHS.includes(path);
}

/** The dealer portal's paths: its own app and session (no staff sign-in needed). */
export const DEALER_PATHS = ['/jxsLogin', '/comp/jxs_comp', '/comp/jxs_khdj_list', '/comp/jxs_dbc'];
export const isDealerPath = (path: string): boolean => DEALER_PATHS.includes(path);

export interface HashLocation {
  path: string;
  search: string;
  query: URLSearchParams;
}

export function parseHash(hash: string = window.location.hash): HashLocation {
  const raw = hash.replace(/^#/, '') || '/';
  const at = raw.indexOf('?');
  const path = (at >= 0 ? raw.slice(0, at) : raw) || '/';
  const search = at >= 0 ? raw.slice(at) : '';
  return { path: path.startsWith('/') ? path : `/${path}`, search, query: new URLSearchParams(search) };
}

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.includes(path) || isDealerPath(path);
}

/** Replaces the current hash route (no new history entry). */
export function replaceRoute(route: string): void {
  const url = `${window.location.pathname}${window.location.search}#${route}`;
  window.history.replaceState(window.history.state, '', url);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/** Sign-in route remembering where the user was. */
export function loginRoute(from: HashLocation = parseHash()): string {
  if (isPublicPath(from.path) || from.path === '/') return '/login';
  return `/login?redirect=${encodeURIComponent(from.path + from.search)}`;
}

/**
 * Where to go after sign-in: the redirect parameter when it is a local route, else /dashboard.
 * Only paths starting with a single slash are accepted, so a crafted link cannot leave the site.
 */
export function redirectTarget(query: URLSearchParams): string {
  const redirect = query.get('redirect');
  if (redirect && redirect.startsWith('/') && !redirect.startsWith('//') && !isPublicPath(redirect.split('?')[0])) {
    return redirect;
  }
  return '/dashboard';
}
