/**
 * Picks the application by hash route: the public sign-in pages or the staff console,
 * each loaded on demand so the sign-in page does not download the console.
 * Unauthenticated visits go to /login?redirect=...; a signed-in visit to /login goes to /.
 */
import { Suspense, useEffect, useMemo, useSyncExternalStore } from 'react';
import { preloadable } from './preloadable.tsx';
import { isApplicantPath, isDealerPath, isPublicPath, loginRoute, parseHash, replaceRoute, type HashLocation } from './route.ts';
import { getToken } from './common/token.ts';

/** What an application is given: its path and query (the console reads them from its router). */
type AppProps = { path: string; query: URLSearchParams };

const LoginApp = preloadable<AppProps>(() => import('./login/LoginApp.tsx'));
const ForgetPassApp = preloadable<AppProps>(() => import('./login/ForgetPassApp.tsx'));
const ApplicantApp = preloadable<AppProps>(() => import('./applicant/ApplicantApp.tsx'));
const StaffApp = preloadable<AppProps>(() => import('./staff/StaffApp.tsx'));
const DealerApp = preloadable<AppProps>(() => import('./dealer/DealerApp.tsx'));

/** The application a path belongs to (the console for every path no other one claims). */
function appOf(path: string) {
  if (isApplicantPath(path)) return ApplicantApp;
  if (isDealerPath(path)) return DealerApp;
  if (path === '/forgetpass') return ForgetPassApp;
  if (isPublicPath(path)) return LoginApp;
  return StaffApp;
}

/**
 * Loads the code of the application the page opens on, so that the first render shows it
 * rather than a loading fallback (index.html shows 正在加载... meanwhile). A fallback would also
 * hold the application back: React reveals content that replaces a fallback no sooner than
 * 300 ms after the fallback appeared. Resolves (never rejects) once loaded or failed; a failed
 * load is tried again by the first render, which then shows the fallback.
 */
export function preloadFirstApp(): Promise<void> {
  const location = parseHash();
  if (routeGuard(location, !!getToken())) return Promise.resolve();
  return appOf(location.path)
    .preload()
    .then(
      () => undefined,
      () => undefined,
    );
}

/**
 * A signed-in visit starts the console's code, the user's info and menus at once, in parallel,
 * instead of one after the other once React has rendered (first list paint).
 */
export function warmUpConsole(): void {
  if (!getToken() || isPublicPath(parseHash().path)) return;
  void StaffApp.preload().catch(() => undefined);
  void import('./common/session.ts').then((m) => m.loadSession()).catch(() => undefined);
  // the screen waits for the user's menus (MenuGuard): ask for them now too
  void import('./staff/shell/menus.ts').then((m) => m.loadMenus()).catch(() => undefined);
  const { path, search } = parseHash();
  void import('./staff/prefetchScreen.ts').then((m) => m.prefetchScreen(path, search)).catch(() => undefined);
}

function subscribeToHash(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  window.addEventListener('popstate', onChange);
  return () => {
    window.removeEventListener('hashchange', onChange);
    window.removeEventListener('popstate', onChange);
  };
}

/**
 * The hash route. A store rather than a listener added in an effect: an application's own effects
 * run before its parent's, so a redirect made by one at mount (the dealer portal sends a visit
 * without a session to /jxsLogin) came before the listener and was never seen. The store looks
 * again once subscribed.
 */
function useHashLocation(): HashLocation {
  const hash = useSyncExternalStore(subscribeToHash, () => window.location.hash);
  return useMemo(() => parseHash(hash), [hash]);
}

/** Where a visit must be sent instead, or null to show it. */
export function routeGuard(location: HashLocation, signedIn: boolean): string | null {
  if (location.path === '/login' && signedIn) return '/';
  if (!isPublicPath(location.path) && !signedIn) return loginRoute(location);
  return null;
}

function Loading() {
  return <div style={{ padding: 24, color: '#6b6e72', fontFamily: 'sans-serif' }}>正在加载...</div>;
}

export default function Root() {
  const location = useHashLocation();
  const redirect = routeGuard(location, !!getToken());
  useEffect(() => {
    if (redirect) replaceRoute(redirect);
  }, [redirect]);
  if (redirect) return null;
  const App = appOf(location.path).Component;
  return (
    <Suspense fallback={<Loading />}>
      <App path={location.path} query={location.query} />
    </Suspense>
  );
}
