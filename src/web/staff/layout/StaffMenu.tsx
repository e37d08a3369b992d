/**
 * The sidebar: 首页, then the user's menus from api/menus/build (directories fold open and
 * closed, one at a time with the unique-opened preference). While the menus load, a short
 * placeholder; if they fail, the screens of the resources the user can list.
 *
 * It is one ARIA menu (react-admin's): every entry is a menuitem, a directory one with
 * aria-expanded whose entries form a group; the logo link and the placeholder sit outside it.
 */
import { useState } from 'react';
import Collapse from '@mui/material/Collapse';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import HomeIcon from '@mui/icons-material/Home';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Menu, useSidebarState } from 'react-admin';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useSessionSettings } from './useSessionSettings.ts';
import { menuIcon } from '../shell/menuIcons.tsx';
import { sidebarEntries, useMenus, type SidebarEntry } from '../shell/menus.ts';
import { usePreferences } from '../shell/preferences.ts';
import { productName } from '../../../shared/product.ts';
import { staffTheme } from '../theme.ts';
import { SidebarDirectory, SidebarLink, sidebarItemRules } from './SidebarItems.tsx';

function contains(entry: SidebarEntry, path: string): boolean {
  return entry.route === path || entry.children.some((c) => contains(c, path));
}

/** Left padding of an entry: nested entries step in, except in the folded sidebar where only icons show. */
function indent(depth: number, sidebarOpen: boolean): number {
  return sidebarOpen ? 2 + depth * 2 : 2;
}

/** The menu entry's icon (a fixed component from the icon table) as an element. */
function iconOf(name: string | null, route: string | undefined, directory: boolean) {
  const Icon = menuIcon(name, route, directory);
  return <Icon />;
}

function Directory({ entry, depth, open, onToggle }: { entry: SidebarEntry; depth: number; open: boolean; onToggle: () => void }) {
  const [sidebarOpen] = useSidebarState();
  return (
    <>
      <SidebarDirectory
        title={entry.title}
        icon={iconOf(entry.icon, undefined, true)}
        indent={indent(depth, sidebarOpen)}
        open={open}
        onToggle={onToggle}
        expandIcon={open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      />
      <Collapse in={open} timeout="auto" unmountOnExit>
        <Box component="ul" role="group" aria-label={entry.title} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          <Entries entries={entry.children} depth={depth + 1} />
        </Box>
      </Collapse>
    </>
  );
}

function Entries({ entries, depth }: { entries: SidebarEntry[]; depth: number }) {
  const { pathname } = useLocation();
  const prefs = usePreferences();
  const [sidebarOpen] = useSidebarState();
  const [openDirs, setOpenDirs] = useState<string[]>(() =>
    entries.filter((e) => e.kind === 'directory' && contains(e, pathname)).map((e) => e.title),
  );
  // open the directory of the current screen when the route changes
  const [routeSeen, setRouteSeen] = useState(pathname);
  if (routeSeen !== pathname) {
    setRouteSeen(pathname);
    const current = entries.find((e) => e.kind === 'directory' && contains(e, pathname));
    if (current && !openDirs.includes(current.title)) setOpenDirs((o) => (prefs.uniqueOpened ? [current.title] : [...o, current.title]));
  }
  const toggle = (title: string) =>
    setOpenDirs((o) => (o.includes(title) ? o.filter((t) => t !== title) : prefs.uniqueOpened ? [title] : [...o, title]));
  return (
    <>
      {entries.map((e) =>
        e.kind === 'directory' ? (
          <Directory key={`d:${e.title}`} entry={e} depth={depth} open={openDirs.includes(e.title)} onToggle={() => toggle(e.title)} />
        ) : e.external ? (
          <ListItemButton
            key={`x:${e.route}`}
            component="a"
            role="menuitem"
            href={e.route}
            target="_blank"
            rel="noopener"
            sx={{ pl: indent(depth, sidebarOpen) }}
          >
            <ListItemIcon sx={{ minWidth: 40 }}>{iconOf(e.icon, undefined, false)}</ListItemIcon>
            <ListItemText primary={e.title} />
          </ListItemButton>
        ) : (
          <SidebarLink
            key={`s:${e.route}`}
            to={e.route!}
            title={e.title}
            icon={iconOf(e.icon, e.route, false)}
            indent={indent(depth, sidebarOpen)}
          />
        ),
      )}
    </>
  );
}

/**
 * The top of the sidebar (显示 Logo in the layout settings): the logo of 系统设置 (the favicon
 * until one is set) and the company name, linking to /; folded, the logo alone.
 */
function SidebarBrand() {
  const sys = useSessionSettings();
  const prefs = usePreferences();
  const [open] = useSidebarState();
  if (!prefs.sidebarLogo) return null;
  const name = productName(sys.title);
  return (
    <Box
      component={RouterLink}
      to="/"
      aria-label={name}
      data-testid="sidebar-brand"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        // outside the menu, so held to the sidebar's own width (open or folded) here
        boxSizing: 'border-box',
        width: open ? (staffTheme.sidebar?.width ?? 205) : (staffTheme.sidebar?.closedWidth ?? 50),
        justifyContent: open ? 'flex-start' : 'center',
        px: open ? 2 : 0,
        py: 1.5,
        color: 'inherit',
        textDecoration: 'none',
        minHeight: 48,
        overflow: 'hidden',
      }}
    >
      <Box
        component="img"
        src={sys.logo ? String(sys.logo) : '/favicon.ico'}
        alt="Logo"
        sx={{ height: 28, width: open ? 'auto' : 28, maxWidth: open ? 56 : 28, objectFit: 'contain', flexShrink: 0 }}
      />
      {open && (
        <Typography
          variant="subtitle2"
          sx={{ fontWeight: 600, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
          title={name}
        >
          {name}
        </Typography>
      )}
    </Box>
  );
}

export function StaffMenu() {
  const { tree, error } = useMenus();
  return (
    <>
      <SidebarBrand />
      <Menu aria-label="导航菜单" sx={sidebarItemRules}>
        <SidebarLink to="/dashboard" title="首页" icon={<HomeIcon />} indent={2} />
        {tree ? <Entries entries={sidebarEntries(tree)} depth={0} /> : error ? <Menu.ResourceItems /> : null}
      </Menu>
      {!tree && !error ? (
        <Box role="status" aria-busy="true" aria-label="正在加载菜单">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="text" sx={{ mx: 2, my: 1 }} />
          ))}
        </Box>
      ) : null}
    </>
  );
}
