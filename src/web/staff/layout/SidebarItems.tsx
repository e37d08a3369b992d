/**
 * The sidebar's entries as plain elements: a screen is a link, a directory a button, both with
 * role menuitem inside react-admin's menu list, styled by one set of rules on that list
 * (`sidebarItemRules`) instead of a styled MUI component per entry.
 *
 * Why: react-admin's menu item (a MUI MenuItem with a Typography, a media query and a hotkey
 * hook) and MUI's ListItemButton with its ListItemIcon and ListItemText cost 30-35 components
 * each, most of them styled ones whose styles emotion serialises again for every entry; with the
 * open directory's screens the sidebar was some 680 components of the 3,400 the console renders
 * before a list's first rows show. These render 4-8 and look the same (the rules below are
 * those MUI and react-admin give the same elements: body1 type, 6 px / 16 px padding, a 40 px
 * icon column, secondary text that turns primary on the current screen, the hover and
 * focus-visible backgrounds).
 *
 * Behaviour kept: every entry is focusable (tabindex 0, so the menu list's arrow keys reach the
 * top-level ones and Tab every one), Enter and Space act, the folded sidebar shows each title as
 * a tooltip on the right, and on a narrow window choosing a screen folds the sidebar away.
 */
import type { ReactNode } from 'react';
import { useTheme, type Theme } from '@mui/material/styles';
import { useSidebarState } from 'react-admin';
import { Link as RouterLink, useMatch } from 'react-router-dom';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';

export const SIDEBAR_ITEM = 'StaffSidebar-item';
const ACTIVE = 'StaffSidebar-active';
const ICON = 'StaffSidebar-icon';
const TEXT = 'StaffSidebar-text';
const DIRECTORY = 'StaffSidebar-directory';

/** The rules of every entry, for the `sx` of the list that holds them. */
export function sidebarItemRules(theme: Theme) {
  const palette = theme.palette;
  return {
    [`& .${SIDEBAR_ITEM}`]: {
      ...theme.typography.body1,
      display: 'flex',
      justifyContent: 'flex-start',
      alignItems: 'center',
      position: 'relative',
      boxSizing: 'border-box',
      width: '100%',
      minHeight: 48,
      [theme.breakpoints.up('sm')]: { minHeight: 'auto' },
      margin: 0,
      paddingTop: '6px',
      paddingBottom: '6px',
      paddingRight: '16px',
      border: 0,
      borderRadius: 0,
      outline: 0,
      backgroundColor: 'transparent',
      color: palette.text.secondary,
      textDecoration: 'none',
      textAlign: 'left',
      whiteSpace: 'nowrap',
      cursor: 'pointer',
      userSelect: 'none',
      verticalAlign: 'middle',
      WebkitTapHighlightColor: 'transparent',
      '&:hover': { backgroundColor: palette.action.hover, '@media (hover: none)': { backgroundColor: 'transparent' } },
      '&:focus-visible': { backgroundColor: palette.action.focus },
    },
    [`& .${ACTIVE}`]: { color: palette.text.primary },
    [`& .${DIRECTORY}`]: { color: palette.text.primary, paddingTop: '8px', paddingBottom: '8px' },
    [`& .${ICON}`]: { display: 'flex', flexShrink: 0, minWidth: 40, color: palette.action.active },
    [`& .${TEXT}`]: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
    [`& .${DIRECTORY} .${TEXT}`]: { overflow: 'visible', marginTop: '4px', marginBottom: '4px' },
  };
}

/** Left padding (theme spacing units) of an entry at `depth`. */
type Indent = number;

function useFolded(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useSidebarState();
  return [!open, setOpen];
}

/** Whether the window is below the theme's md breakpoint, where react-admin folds the sidebar on a choice. */
function narrowWindow(theme: Theme): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(theme.breakpoints.down('md').replace(/^@media\s*/, '')).matches;
}

/** A screen of the menu. */
export function SidebarLink({ to, title, icon, indent }: { to: string; title: string; icon: ReactNode; indent: Indent }) {
  const [folded, setOpen] = useFolded();
  const theme = useTheme();
  const active = useMatch({ path: to, end: to === '/' });
  return (
    <LazyTooltip title={folded ? title : ''} placement="right">
      <RouterLink
        to={to}
        role="menuitem"
        tabIndex={0}
        className={active ? `${SIDEBAR_ITEM} ${ACTIVE}` : SIDEBAR_ITEM}
        aria-current={active ? 'page' : undefined}
        style={{ paddingLeft: indent * 8 }}
        onClick={() => {
          if (narrowWindow(theme)) setOpen(false);
        }}
      >
        <span className={ICON}>{icon}</span>
        <span className={TEXT}>{title}</span>
      </RouterLink>
    </LazyTooltip>
  );
}

/** A directory of the menu: opens and folds its screens. */
export function SidebarDirectory({
  title,
  icon,
  indent,
  open,
  onToggle,
  expandIcon,
}: {
  title: string;
  icon: ReactNode;
  indent: Indent;
  open: boolean;
  onToggle: () => void;
  /** the open / closed arrow, shown in the unfolded sidebar */
  expandIcon: ReactNode;
}) {
  const [folded] = useFolded();
  return (
    <LazyTooltip title={folded ? title : ''} placement="right">
      <button
        type="button"
        role="menuitem"
        tabIndex={0}
        aria-expanded={open}
        className={`${SIDEBAR_ITEM} ${DIRECTORY}`}
        style={{ paddingLeft: indent * 8 }}
        onClick={onToggle}
      >
        <span className={ICON}>{icon}</span>
        <span className={TEXT}>{title}</span>
        {folded ? null : expandIcon}
      </button>
    </LazyTooltip>
  );
}
