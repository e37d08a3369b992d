/**
 * Waiting in tests: for the event a test checks, never for a fixed time. `until` polls a
 * condition until it holds (failing with what it waited for after a deadline of seconds, so a
 * machine twice as slow still passes); `elapse` lets a stretch of time pass where the time itself
 * is the scenario (a window that must run out, a quiet spell in which nothing may happen), which
 * a slower machine only lengthens. `tests/unit/test-waits.test.ts` refuses any other fixed wait.
 */

/** Polls `condition` every `everyMs` until it returns a truthy value, which it returns. */
export async function until<T>(
  condition: () => T | Promise<T>,
  what: string,
  { timeoutMs = 15_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Lets at least `ms` pass. For a time that is part of the scenario only: a window that has to run
 * out, or a quiet spell after which the test checks that something did not happen. A longer pause
 * on a slower machine can only make such a check stricter, never fail it wrongly.
 */
export function elapse(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Waits until `read` gives the same value over `quietMs` (polled every `everyMs`), and returns it:
 * for "this stops growing" (a source that back-pressure must stop), with a deadline in seconds.
 */
export async function steady<T>(
  read: () => T,
  what: string,
  { quietMs = 300, everyMs = 50, timeoutMs = 15_000 }: { quietMs?: number; everyMs?: number; timeoutMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = read();
  let since = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, everyMs));
    const now = read();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return now;
    if (Date.now() > deadline) throw new Error(`${what} did not settle within ${timeoutMs} ms (last ${String(now)})`);
  }
}
