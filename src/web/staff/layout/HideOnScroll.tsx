/**
 * Whether the page has scrolled down (past 100 px, and not back up since), as MUI's
 * useScrollTrigger tells react-admin's header and sidebar. The difference: that one reads the
 * scroll position as the console mounts, which makes the browser lay out the whole new page in
 * the middle of starting it (30-50 ms each time, before the first list could be painted); this
 * one reads it on scroll only. A page opens at the top, where the answer is "no" either way.
 */
import { useEffect, useState, type ReactElement } from 'react';
import Slide from '@mui/material/Slide';

const THRESHOLD_PX = 100;

export function useScrolledDown(): boolean {
  const [down, setDown] = useState(false);
  useEffect(() => {
    let last: number | undefined;
    const onScroll = () => {
      const y = window.pageYOffset;
      const previous = last;
      last = y;
      setDown(previous !== undefined && y < previous ? false : y > THRESHOLD_PX);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return down;
}

/**
 * The header's container when it is not fixed (固定 Header off): it slides away while the page
 * scrolls down and comes back as soon as it scrolls up, as react-admin's HideOnScroll does.
 */
export function HideOnScroll({ children, className }: { children: ReactElement; className?: string }) {
  const down = useScrolledDown();
  return (
    <Slide appear={false} direction="down" in={!down} className={className}>
      {children}
    </Slide>
  );
}
