/**
 * Picks the application by hash route: the public sign-in pages or the staff console,
 * each loaded on demand so the sign-in page does not download the console.
 * Unauthenticated visits go to /login?redirect=...; a signed-in visit to /login goes to /.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { isApplicantPath, isDealerPath, isPublicPath, loginRoute, parseHash, replaceRoute, type HashLocation } from './route.ts';
import { getToken } from './staff/providers/token.ts';

const loadStaffApp = () => import('./staff/StaffApp.tsx');
const LoginApp = lazy(() => import('./login/LoginApp.tsx'));
const ApplicantApp = lazy(() => import('./applicant/ApplicantApp.tsx'));
const StaffApp = lazy(loadStaffApp);
const DealerApp = lazy(() => import('./dealer/DealerApp.tsx'));

/**
 * A signed-in visit starts the console's code, the user's info and menus at once, in parallel,
 * instead of one after the other once React has rendered (first list paint).
 */
export function warmUpConsole(): void {
  if (!getToken() || isPublicPath(parseHash().path)) return;
  void loadStaffApp().catch(() => undefined);
  void import('./staff/providers/session.ts').then((m) => m.loadSession()).catch(() => undefined);
  // the screen waits for the user's menus (MenuGuard): ask for them now too
  void import('./staff/shell/menus.ts').then((m) => m.loadMenus()).catch(() => undefined);
  const { path, search } = parseHash();
  void import('./staff/prefetchScreen.ts').then((m) => m.prefetchScreen(path, search)).catch(() => undefined);
}

function useHashLocation(): HashLocation {
  const [location, setLocation] = useState(() => parseHash());
  useEffect(() => {
    const update = () => setLocation(parseHash());
    window.addEventListener('hashchange', update);
    window.addEventListener('popstate', update);
    return () => {
      window.removeEventListener('hashchange', update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return location;
}

/** Where a visit must be sent instead, or null to show it. */
export function routeGuard(location: HashLocation, signedIn: boolean): string | null {
  if (location.path === '/login' && signedIn) return '/';
  if (!isPublicPath(location.path) && !signedIn) return loginRoute(location);
  return null;
}

function Loading() {
  return <div style={{ padding: 24, color: '#909399', fontFamily: 'sans-serif' }}>正在加载...</div>;
}

export default function Root() {
  const location = useHashLocation();
  const redirect = routeGuard(location, !!getToken());
  useEffect(() => {
    if (redirect) replaceRoute(redirect);
  }, [redirect]);
  if (redirect) return null;
  return (
    <Suspense fallback={<Loading />}>
      {isApplicantPath(location.path) ? (
        <ApplicantApp path={location.path} query={location.query} />
      ) : isDealerPath(location.path) ? (
        <DealerApp path={location.path} />
      ) : isPublicPath(location.path) ? (
        <LoginApp path={location.path} query={location.query} />
      ) : (
        <StaffApp />
      )}
    </Suspense>
  );
}
