/** The re-click guard: a second click within CLICK_GUARD_MS of the first is ignored. */
import { useMemo, useRef } from 'react';

export const CLICK_GUARD_MS = 1000;

export function clickGuard<A extends unknown[]>(
  fn: (...args: A) => void,
  ms = CLICK_GUARD_MS,
  now: () => number = Date.now,
): (...args: A) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (...args: A) => {
    const t = now();
    if (t - last < ms) return;
    last = t;
    fn(...args);
  };
}

/** A guarded handler that always calls the latest `fn`. */
export function useClickGuard<A extends unknown[]>(fn: (...args: A) => void, ms = CLICK_GUARD_MS): (...args: A) => void {
  const latest = useRef(fn);
  latest.current = fn;
  return useMemo(() => clickGuard((...args: A) => latest.current(...args), ms), [ms]);
}
