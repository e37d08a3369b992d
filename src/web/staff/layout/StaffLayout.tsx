/**
 * The staff console's layout for now: react-admin's Layout with a Chinese app bar, the
 * resource menu and the user menu. The full shell (tags view, settings...) replaces this folder.
 */
import { memo, useEffect, useMemo, useState, type ReactNode } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import { AppBar, Layout, useResourceDefinitions } from 'react-admin';
import { HideOnScroll } from './HideOnScroll.tsx';
import { resources } from '../../../generated/resources.ts';
import { RecordFooter } from '../../components/RecordFooter.tsx';
import { HttpProblemHandler } from './HttpProblemHandler.tsx';
import { StaffMenu } from './StaffMenu.tsx';
import { StaffSidebar } from './StaffSidebar.tsx';
import { StaffUserMenu } from './StaffUserMenu.tsx';
import { useSessionSettings } from './useSessionSettings.ts';
import { Breadcrumb } from '../shell/Breadcrumb.tsx';
import { FullscreenButton } from '../shell/FullscreenButton.tsx';
import { IdleLock } from '../shell/IdleLock.tsx';
import { MenuSearch } from '../shell/MenuSearch.tsx';
import { MenuGuard } from '../shell/MenuGuard.tsx';
import { SidebarState } from '../shell/SidebarState.tsx';
import { Link as RouterLink } from 'react-router-dom';
import { usePreferences } from '../shell/preferences.ts';
import { SettingsDrawerHost } from '../shell/SettingsDrawer.tsx';
import { TagsView } from '../shell/TagsView.tsx';
import { RealtimeProvider } from '../realtime/RealtimeContext.tsx';
import { NoticeButton } from '../realtime/NoticeButton.tsx';
import { NoticeMarquee } from '../realtime/NoticeMarquee.tsx';
import { ChatButton } from '../realtime/ChatButton.tsx';
import { ExcelProgressDialog } from '../realtime/ExcelProgressDialog.tsx';
import { HelpButton } from '../shell/HelpButton.tsx';
import { PasswordReminder } from '../shell/PasswordReminder.tsx';
import { useConsoleStarted } from '../shell/startup.ts';
import { productName } from '../../../shared/product.ts';

/** The system name from the system settings (its own component: settings arriving re-render only this); the logo is in the sidebar. */
function AppTitle() {
  const sys = useSessionSettings();
  return (
    <Box
      component={RouterLink}
      to="/"
      aria-label={productName(sys.title)}
      sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none', mr: 2 }}
    >
      <Typography variant="h6" sx={{ whiteSpace: 'nowrap', display: { xs: 'none', sm: 'block' } }}>
        {productName(sys.title)}
      </Typography>
    </Box>
  );
}

function ConsoleFooter() {
  const sys = useSessionSettings();
  return (
    <RecordFooter compName={sys.compName} recordNumber={sys.recordNumber} sx={{ textAlign: 'center', color: 'text.secondary', py: 2 }} />
  );
}

/** react-admin's layout passes `alwaysOn` (固定 Header): the header then stays put instead of sliding away on scroll. */
function StaffAppBar({ alwaysOn }: { alwaysOn?: boolean }) {
  return (
    <AppBar userMenu={<StaffUserMenu />} alwaysOn={alwaysOn} container={alwaysOn ? 'div' : HideOnScroll}>
      <AppTitle />
      <Breadcrumb />
      <Box sx={{ flex: 1 }} />
      <MenuSearch />
      <LazyTooltip title="操作文档">
        <IconButton color="inherit" aria-label="操作文档" component={RouterLink} to="/UserCzwd">
          <MenuBookIcon />
        </IconButton>
      </LazyTooltip>
      <NoticeButton />
      <ChatButton />
      <HelpButton />
      <FullscreenButton />
    </AppBar>
  );
}

/** Sockets and counts start once the first screen is up (they do not compete with its list). */
function ConsoleRealtime({ children }: { children: ReactNode }) {
  const started = useConsoleStarted();
  return <RealtimeProvider live={started}>{children}</RealtimeProvider>;
}

/** What no first screen needs: mounted once the first screen is up. */
function AfterStartup({ children }: { children: ReactNode }) {
  return useConsoleStarted() ? <>{children}</> : null;
}

/** the same object on every render (a new one would make the layout's styles be worked out again) */
const LAYOUT_SX = { minWidth: 0, '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 } };

// the header and the sidebar take no props from the layout that change while the console starts:
// memo keeps react-admin's start-up re-renders (resources registered, permissions arrived) out of them
const ConsoleAppBar = memo(StaffAppBar);
const ConsoleMenu = memo(StaffMenu);

/**
 * react-admin registers the resources after its first render, in two rounds, and re-renders its
 * routes each time: everything that links or navigates would render three times. The console
 * waits (a thin progress bar) until the registrations have settled, then renders once.
 */
function AfterResourcesRegistered({ children }: { children: ReactNode }) {
  const definitions = useResourceDefinitions();
  const complete = resources.every((r) => definitions[r.name]);
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (settled || !complete) return;
    // a further round (another definitions object) clears this and waits again
    const timer = setTimeout(() => setSettled(true), 0);
    return () => clearTimeout(timer);
  }, [definitions, complete, settled]);
  return settled ? <>{children}</> : <LinearProgress aria-label="正在加载" />;
}

export function StaffLayout({ children }: { children: ReactNode }) {
  const prefs = usePreferences();
  // elements made once: a re-render of the layout from above does not reach these parts
  const head = useMemo(
    () =>
      prefs.tagsView ? (
        // the latest message shares the tags bar's row: arriving later, it moves nothing below
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            minWidth: 0,
            borderBottom: 1,
            borderColor: 'divider',
            bgcolor: 'background.paper',
            '& > [data-testid="tags-view"]': { flex: '1 1 auto', minWidth: 0, borderBottom: 0 },
          }}
        >
          <TagsView />
          <NoticeMarquee inline />
        </Box>
      ) : (
        <NoticeMarquee />
      ),
    [prefs.tagsView],
  );
  const tail = useMemo(
    () => (
      <>
        <ConsoleFooter />
        <HttpProblemHandler />
        <SettingsDrawerHost />
        <IdleLock />
        <SidebarState />
        <ExcelProgressDialog />
        <AfterStartup>
          <PasswordReminder />
        </AfterStartup>
      </>
    ),
    [],
  );
  return (
    <AfterResourcesRegistered>
      <ConsoleRealtime>
        <Layout
          appBar={ConsoleAppBar}
          menu={ConsoleMenu}
          sidebar={StaffSidebar}
          appBarAlwaysOn={prefs.fixedHeader}
          // a wide table scrolls inside its screen instead of widening the page past the window
          // (react-admin sizes the layout to fit its content)
          sx={LAYOUT_SX}
        >
          {head}
          <MenuGuard>{children}</MenuGuard>
          {tail}
        </Layout>
      </ConsoleRealtime>
    </AfterResourcesRegistered>
  );
}
