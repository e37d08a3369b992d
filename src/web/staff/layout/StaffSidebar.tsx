/**
 * react-admin's sidebar (as DockedSidebar, without its layout forced at mount) with the
 * console's mobile width: below 992 px (MOBILE_QUERY) the layout turns mobile, and the sidebar
 * leaves the page for a drawer over it, opened by the header's menu button and closed by a pick
 * or a click beside it. react-admin switches at MUI's `sm`
 * (600 px) and closes the drawer after a pick below `md`: within the sidebar both are moved to
 * 992 px. At 992 px and wider it is the docked sidebar, 205 px open and 50 px closed.
 */
import { ThemeProvider, createTheme, type Theme } from '@mui/material/styles';
import type { SidebarProps } from 'react-admin';
import { DockedSidebar } from './DockedSidebar.tsx';
import { MOBILE_WIDTH } from '../shell/SidebarState.tsx';

/** `down('sm')` and `down('md')` both mean the mobile layout (below MOBILE_WIDTH). */
const MOBILE_BREAKPOINTS = { xs: 0, sm: MOBILE_WIDTH, md: MOBILE_WIDTH + 1, lg: 1200, xl: 1536 };

let breakpoints: Theme['breakpoints'] | undefined;

function withMobileBreakpoints(outer: Theme): Theme {
  breakpoints ??= createTheme({ breakpoints: { values: MOBILE_BREAKPOINTS } }).breakpoints;
  return { ...outer, breakpoints };
}

export function StaffSidebar(props: SidebarProps) {
  return (
    <ThemeProvider theme={withMobileBreakpoints}>
      <DockedSidebar {...props} />
    </ThemeProvider>
  );
}
