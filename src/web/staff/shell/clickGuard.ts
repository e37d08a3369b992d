/** The re-click guard: a second click within CLICK_GUARD_MS of the first is ignored. */
import { useRef } from 'react';

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

/** A guarded handler that always calls the latest `fn` (the last accepted click's time is kept across renders). */
export function useClickGuard<A extends unknown[]>(fn: (...args: A) => void, ms = CLICK_GUARD_MS): (...args: A) => void {
  const last = useRef(Number.NEGATIVE_INFINITY);
  return (...args: A) => {
    const t = Date.now();
    if (t - last.current < ms) return;
    last.current = t;
    fn(...args);
  };
}
