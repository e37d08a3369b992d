/** Success and warning notices of the dealer portal (shown by DealerApp, 2.5 s unless told). */
export interface Notice {
  severity: 'success' | 'warning' | 'error' | 'info';
  message: string;
  ms?: number;
}
const listeners = new Set<(n: Notice) => void>();
export function onNotice(listener: (n: Notice) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export function notify(severity: Notice['severity'], message: string, ms = 2500): void {
  for (const l of listeners) l({ severity, message, ms });
}
