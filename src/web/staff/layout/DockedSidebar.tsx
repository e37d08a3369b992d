/**
 * react-admin's Sidebar (ra-ui-materialui layout/Sidebar), the same markup, classes and styles,
 * with one change: whether the page has scrolled down comes from useScrolledDown (read on scroll
 * only) instead of MUI's useScrollTrigger, which reads the scroll position as the console mounts
 * and so makes the browser lay out the whole new page before its first paint.
 */
import clsx from 'clsx';
import Drawer from '@mui/material/Drawer';
import useMediaQuery from '@mui/material/useMediaQuery';
import { styled, useThemeProps, type Theme } from '@mui/material/styles';
import { CLOSED_DRAWER_WIDTH, DRAWER_WIDTH, SidebarClasses, useLocale, useSidebarState, type SidebarProps } from 'react-admin';
import { useScrolledDown } from './HideOnScroll.tsx';

const PREFIX = 'RaSidebar';
const OPEN_CLASS = `${PREFIX}-open`;
const CLOSED_CLASS = `${PREFIX}-closed`;

export function DockedSidebar(inProps: SidebarProps) {
  const props = useThemeProps({ props: inProps, name: PREFIX });

  const { appBarAlwaysOn, children, closedSize, size, ...rest } = props;
  const isXSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [open, setOpen] = useSidebarState();
  useLocale(); // redrawn on a change of locale, as react-admin's
  const trigger = useScrolledDown();
  const toggleSidebar = () => setOpen(!open);
  return isXSmall ? (
    <StyledDrawer variant="temporary" open={open} onClose={toggleSidebar} classes={SidebarClasses} {...rest}>
      {children}
    </StyledDrawer>
  ) : (
    <StyledDrawer
      variant="permanent"
      open={open}
      onClose={toggleSidebar}
      classes={SidebarClasses}
      className={clsx(trigger && !appBarAlwaysOn ? SidebarClasses.appBarCollapsed : '', open ? OPEN_CLASS : CLOSED_CLASS)}
      {...rest}
    >
      <div className={SidebarClasses.fixed}>{children}</div>
    </StyledDrawer>
  );
}

type SidebarTheme = Theme & { sidebar?: { width?: number; closedWidth?: number } };

const StyledDrawer = styled(Drawer, {
  name: PREFIX,
  slot: 'Root',
  overridesResolver: (_props, styles) => styles.root,
  shouldForwardProp: () => true,
})(({ open, theme }: { open?: boolean; theme: SidebarTheme }) => ({
  height: 'calc(100vh - 3em)',
  marginTop: 0,
  transition: theme.transitions.create('margin', {
    easing: theme.transitions.easing.easeOut,
    duration: theme.transitions.duration.enteringScreen,
  }),
  [`&.${SidebarClasses.appBarCollapsed}`]: {
    // compensate the margin of the Layout appFrame instead of removing it in the Layout
    marginTop: theme.spacing(-6),
    [theme.breakpoints.down('sm')]: {
      marginTop: theme.spacing(-7),
    },
    transition: theme.transitions.create('margin', {
      easing: theme.transitions.easing.sharp,
      duration: theme.transitions.duration.leavingScreen,
    }),
  },
  [`& .${SidebarClasses.docked}`]: {},
  [`& .${SidebarClasses.paper}`]: {},
  [`& .${SidebarClasses.paperAnchorLeft}`]: {},
  [`& .${SidebarClasses.paperAnchorRight}`]: {},
  [`& .${SidebarClasses.paperAnchorTop}`]: {},
  [`& .${SidebarClasses.paperAnchorBottom}`]: {},
  [`& .${SidebarClasses.paperAnchorDockedLeft}`]: {},
  [`& .${SidebarClasses.paperAnchorDockedTop}`]: {},
  [`& .${SidebarClasses.paperAnchorDockedRight}`]: {},
  [`& .${SidebarClasses.paperAnchorDockedBottom}`]: {},
  [`& .${SidebarClasses.modal}`]: {},
  [`& .${SidebarClasses.fixed}`]: {
    position: 'fixed',
    height: 'calc(100vh - 3em)',
    overflowX: 'hidden',
    // hide scrollbar
    scrollbarWidth: 'none',
    msOverflowStyle: 'none',
    '&::-webkit-scrollbar': {
      display: 'none',
    },
  },
  [`& .MuiPaper-root`]: {
    position: 'relative',
    width: open ? (theme.sidebar?.width ?? DRAWER_WIDTH) : (theme.sidebar?.closedWidth ?? CLOSED_DRAWER_WIDTH),
    transition: theme.transitions.create('width', {
      easing: theme.transitions.easing.sharp,
      duration: theme.transitions.duration.leavingScreen,
    }),
    backgroundColor: 'transparent',
    borderRight: 'none',
    [theme.breakpoints.only('xs')]: {
      marginTop: 0,
      height: '100vh',
      position: 'inherit',
      backgroundColor: (theme.vars || theme).palette.background.default,
    },
    [theme.breakpoints.up('md')]: {
      border: 'none',
    },
    zIndex: 'inherit',
  },
}));
