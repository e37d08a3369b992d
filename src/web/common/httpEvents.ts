/**
 * Problems met by the shared HTTP client, reported once to whoever listens (the staff
 * console's HttpProblemHandler turns them into dialogs, navigation and notices).
 */

export type HttpProblem =
  | { kind: 'unauthorized'; url: string }
  | { kind: 'forbidden'; url: string }
  | { kind: 'notice'; message: string; duration: number; closable: boolean; html: boolean };

type Listener = (problem: HttpProblem) => void;
const listeners = new Set<Listener>();

export function onHttpProblem(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Notices just shown, by text: the same text within STORM_MS is not stacked again. */
const showing = new Map<string, number>();
export const STORM_MS = 3000;

/**
 * Tells the listeners, except a notice whose text was shown in the last few seconds: when the
 * database is restarting, every request of a screen answers the same 503, and the user sees it
 * once, not a storm of identical toasts; the same error a minute later shows again.
 */
export function reportHttpProblem(problem: HttpProblem, now = Date.now()): void {
  if (problem.kind === 'notice') {
    const until = showing.get(problem.message);
    if (until !== undefined && until > now) return;
    showing.set(problem.message, now + Math.min(problem.duration, STORM_MS));
    if (showing.size > 50) for (const [k, v] of showing) if (v <= now) showing.delete(k);
  }
  for (const listener of [...listeners]) listener(problem);
}
