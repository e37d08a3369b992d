/**
 * The staff console: react-admin over the Spring-style API, one screen per resource spec
 * (src/generated/resources.ts) with per-resource overrides from ./resources.
 */
import { useEffect, useMemo, useRef } from 'react';
import { createHashRouter, Route, RouterProvider } from 'react-router-dom';
import { Admin, CustomRoutes, Resource, localStorageStore } from 'react-admin';
import { resources } from '../../generated/resources.ts';
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import { i18nProvider } from '../i18n/index.ts';
import { AppNotification } from './layout/AppNotification.tsx';
import { StaffLayout } from './layout/StaffLayout.tsx';
import { Dashboard } from './pages/Dashboard.tsx';
import { DevelopingPage, ForbiddenPage, NotFoundPage, UnauthorizedPage } from './pages/ErrorPages.tsx';
import { HomeRedirect } from './pages/HomeRedirect.tsx';
import { createAuthProvider } from './providers/authProvider.ts';
import { createDataProvider } from './providers/dataProvider.ts';
import { createConsoleQueryClient } from './providers/queryClient.ts';
import { peekSession } from '../common/session.ts';
import { takeListPrefetch } from './prefetchScreen.ts';
import { resourceShellParts } from './resources/shellParts.ts';
import { ResourceListScreen, ResourceParamScreen } from './resourceScreensLoader.tsx';
import { themeFor } from './theme.ts';
import { MOBILE_QUERY } from './shell/SidebarState.tsx';
import { usePreferences } from './shell/preferences.ts';
import { RedirectPage } from './shell/RedirectPage.tsx';
import { SYSTEM_SCREENS } from './pages/system/index.ts';
import { lazyPage } from './lazyPart.tsx';
import { storeAppKey } from '../common/token.ts';
import { DEFAULT_PRODUCT_NAME } from '../../shared/product.ts';

// screens most visits never open: their code comes when first shown
const DecisionCenterPage = lazyPage(() => import('./pages/DecisionCenter.tsx'), 'DecisionCenterPage');
const UsageGuidePage = lazyPage(() => import('./pages/UsageGuide.tsx'), 'UsageGuidePage');
const ContentPage = lazyPage(() => import('./pages/ContentPage.tsx'), 'ContentPage');
const UserCenter = lazyPage(() => import('./pages/UserCenter.tsx'), 'UserCenter');
const OperationLogsPage = lazyPage(() => import('./pages/OperationLogs.tsx'), 'OperationLogsPage');
const OutboxPage = lazyPage(() => import('./pages/Outbox.tsx'), 'OutboxPage');
const BrandTreePage = lazyPage(() => import('./pages/brand-tree/BrandTreePage.tsx'), 'BrandTreePage');
const HelpPage = lazyPage(() => import('./pages/HelpPage.tsx'), 'HelpPage');
const JobDescriptionPage = lazyPage(() => import('./pages/JobDescriptionPage.tsx'), 'JobDescriptionPage');

function listScreen(spec: ResourceSpec) {
  return function GeneratedList() {
    return <ResourceListScreen name={spec.name} />;
  };
}

export const staffResources = resources.map((spec) => ({
  spec,
  list: listScreen(spec),
  icon: resourceShellParts[spec.name]?.icon,
  show: resourceShellParts[spec.name]?.Show,
}));

/**
 * The console's hash router, made once. react-admin makes its own when it is not inside one, but
 * anew on each of its renders, and the console then missed navigations the browser makes itself:
 * an address typed in the address bar, or 前进 (forward), left the screen as it was.
 */
export default function StaffApp() {
  const router = useMemo(() => createHashRouter([{ path: '*', element: <StaffAdmin /> }]), []);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      // let go of the browser's history once really unmounted (signed out), not between
      // StrictMode's second mount in development
      queueMicrotask(() => {
        if (!mounted.current) router.dispose();
      });
    };
  }, [router]);
  return <RouterProvider router={router} />;
}

/**
 * react-admin's store. A console opened in the mobile layout starts with the sidebar closed:
 * the remembered desktop "open" would otherwise render the mobile drawer open for the first
 * frame, and closing it at once left its invisible backdrop over the page, taking every click
 * (the desktop choice itself lives in the layout preferences and is kept).
 */
function openStore() {
  // one store per user: the list filters of the last user do not greet the next one
  const store = localStorageStore(undefined, storeAppKey());
  if (typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches) store.setItem('sidebar.open', false);
  return store;
}

function StaffAdmin() {
  const dataProvider = useMemo(() => createDataProvider(), []);
  const authProvider = useMemo(() => createAuthProvider(), []);
  const queryClient = useMemo(() => createConsoleQueryClient(peekSession(), takeListPrefetch()), []);
  const store = useMemo(() => openStore(), []);
  const { theme: color, size } = usePreferences();
  const theme = useMemo(() => themeFor({ theme: color, size }), [color, size]);
  return (
    <Admin
      dataProvider={dataProvider}
      authProvider={authProvider}
      queryClient={queryClient}
      i18nProvider={i18nProvider}
      store={store}
      theme={theme}
      layout={StaffLayout}
      notification={AppNotification}
      dashboard={HomeRedirect}
      catchAll={NotFoundPage}
      loginPage={false}
      requireAuth
      title={DEFAULT_PRODUCT_NAME}
      disableTelemetry
    >
      <CustomRoutes>
        <Route path="/dashboard" element={<Dashboard />} />
        <Route path="/user/center" element={<UserCenter />} />
        <Route path="/401" element={<UnauthorizedPage />} />
        <Route path="/403" element={<ForbiddenPage />} />
        <Route path="/developing" element={<DevelopingPage />} />
        {/* 操作文档 (/UserCzwd) is the screen of the UserCzwd schema */}
        <Route path="/DecisionCenter/index" element={<DecisionCenterPage />} />
        <Route path="/usage" element={<UsageGuidePage />} />
        {/* the spec's /explain (说明) is the usage guide */}
        <Route path="/explain" element={<UsageGuidePage />} />
        <Route path="/content" element={<ContentPage />} />
        <Route path="/logs" element={<OperationLogsPage />} />
        <Route path="/outbox" element={<OutboxPage />} />
        <Route path="/404" element={<NotFoundPage />} />
        <Route path="/redirect/*" element={<RedirectPage />} />
        <Route path="/brandTree" element={<BrandTreePage />} />
        <Route path="/help" element={<HelpPage />} />
        <Route path="/jobDescription" element={<JobDescriptionPage />} />
        {SYSTEM_SCREENS.map(({ path, component: Screen }) => (
          <Route key={path} path={path} element={<Screen />} />
        ))}
        <Route path="/:segment" element={<ResourceParamScreen />} />
      </CustomRoutes>
      {staffResources.map(({ spec, list, icon, show }) => (
        <Resource key={spec.name} name={spec.name} list={list} show={show} icon={icon} options={{ label: spec.title }} />
      ))}
    </Admin>
  );
}
