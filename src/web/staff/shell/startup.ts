/**
 * Whether the console's first screen is up. Work that no first screen needs (the realtime
 * sockets with their unread count and latest notice, the password reminder) waits for it, so
 * that it does not compete with the first list for the network and the main thread. A list
 * marks it once its first page (or its error) is on screen; other screens after FALLBACK_MS.
 */
import { useEffect, useSyncExternalStore } from 'react';

export const STARTUP_FALLBACK_MS = 1500;
/** at most this long after the first paint, even on a busy page */
export const IDLE_WAIT_MS = 500;

let started = false;
let fallback: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();

export function markStarted(): void {
  if (started) return;
  started = true;
  if (fallback) clearTimeout(fallback);
  for (const l of listeners) l();
}

/** Marks the start once the browser has painted what was just rendered and has a moment to spare. */
export function markStartedAfterPaint(): void {
  if (started) return;
  const idle = (window as { requestIdleCallback?: (cb: () => void, options?: { timeout: number }) => number }).requestIdleCallback;
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (idle) idle(markStarted, { timeout: IDLE_WAIT_MS });
      else markStarted();
    }, 0),
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  fallback ??= setTimeout(markStarted, STARTUP_FALLBACK_MS);
  return () => listeners.delete(listener);
}

/** True once the first screen is up (or STARTUP_FALLBACK_MS after the first component asked). */
export function useConsoleStarted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => started,
    () => started,
  );
}

/** Runs `effect` once the first screen is up (for effects that would otherwise run at mount). */
export function useAfterStartup(effect: () => void | (() => void), deps: unknown[]): void {
  const ready = useConsoleStarted();
  useEffect(() => (ready ? effect() : undefined), [ready, ...deps]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** For tests: back to "not started". */
export function resetStartup(): void {
  started = false;
  if (fallback) clearTimeout(fallback);
  fallback = null;
}
