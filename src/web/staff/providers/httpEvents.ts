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

export function reportHttpProblem(problem: HttpProblem): void {
  for (const listener of [...listeners]) listener(problem);
}
