/**
 * Per-address brake on failed sign-ins, in memory: more than LIMIT failures from one address
 * within WINDOW_MS blocks further attempts from it until the window has passed. Bounded in
 * size: old entries are swept, and the table never holds more than MAX_ADDRESSES addresses.
 * (Locking an account after repeated failures is a separate rule.)
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = 60,
    private readonly windowMs = 10 * 60_000,
    private readonly maxAddresses = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(ip: string, now: number): number[] {
    const list = (this.failures.get(ip) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.failures.set(ip, list);
    else this.failures.delete(ip);
    return list;
  }

  blocked(ip: string): boolean {
    return this.recent(ip, this.now()).length >= this.limit;
  }

  fail(ip: string): void {
    const now = this.now();
    if (!this.failures.has(ip) && this.failures.size >= this.maxAddresses) {
      for (const key of [...this.failures.keys()]) this.recent(key, now);
      if (this.failures.size >= this.maxAddresses) {
        const oldest = this.failures.keys().next().value;
        if (oldest !== undefined) this.failures.delete(oldest);
      }
    }
    const list = this.recent(ip, now);
    list.push(now);
    this.failures.set(ip, list.slice(-this.limit));
  }
}
