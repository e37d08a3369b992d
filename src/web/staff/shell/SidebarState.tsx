/**
 * Keeps react-admin's sidebar in step with the layout preferences: the open/closed state is
 * remembered (sidebarStatus 1 open / 0 closed), and below 992 px the layout turns mobile and
 * the sidebar closes (without forgetting the desktop choice).
 */
import { useEffect, useRef } from 'react';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useSidebarState } from 'react-admin';
import { setPreferences, usePreferences } from './preferences.ts';

/** Below this width the console's layout is the mobile one. */
export const MOBILE_WIDTH = 992;
/** the same media query as MUI's `down()` at MOBILE_WIDTH */
export const MOBILE_QUERY = `(max-width:${MOBILE_WIDTH - 0.05}px)`;

export function SidebarState() {
  const [open, setOpen] = useSidebarState();
  const prefs = usePreferences();
  const mobile = useMediaQuery(MOBILE_QUERY, { noSsr: true });
  const started = useRef(false);

  useEffect(() => {
    if (mobile) setOpen(false);
    else setOpen(prefs.sidebarOpen);
    started.current = true;
    // only when the width class changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mobile]);

  useEffect(() => {
    if (!started.current || mobile) return;
    if (open !== prefs.sidebarOpen) setPreferences({ sidebarOpen: open });
  }, [open, mobile, prefs.sidebarOpen]);

  return null;
}
