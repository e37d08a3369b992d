/**
 * Shared budgets taken in leases: the per-user read and export budgets (read-limits.ts) on
 * PostgreSQL without a database round trip on every read.
 *
 * The budget of a key is still counted in `sys_limit_counter`, shared by every instance
 * (shared-limits.ts), but an instance reserves a lease of several hits at once (one upsert adds
 * the lease to the counter) and answers the next reads of that key from memory until the lease is
 * used up or the window ends. The database counter orders the leases: a lease is granted only the
 * part of the budget that the hits before it left, so **the reads let through over all instances
 * never exceed the budget**. What can happen instead: reads leased by one instance and not used in
 * the window are not available on another, so a user whose reads go to several instances may be
 * refused up to `(instances - 1) × (lease - 1)` reads before the budget (one instance: exact).
 *
 * A lease is a twentieth of the budget, at most LEASE_MAX hits and at least 1: the default budget
 * of 600 reads a minute takes one upsert per 30 reads, the export budget of 30 one per export (as
 * before), and a budget under 40 is counted read by read.
 */
/** What a lease needs of the shared counters (shared-limits.ts): one counted hit of a size. */
export interface CounterStore {
  hit(key: string, windowMs: number, size: number): Promise<{ hits: number; ttl: number }>;
}

/** hits reserved by one upsert, at most */
export const LEASE_MAX = 50;
/** a lease is this share of the budget (rounded down, at least 1 hit) */
const LEASE_SHARE = 1 / 20;
/** leases remembered; beyond this, ended ones are forgotten */
const KEYS_SWEEP_AT = 10_000;

export const leaseSizeOf = (max: number): number => Math.max(1, Math.min(LEASE_MAX, Math.floor(max * LEASE_SHARE)));

interface Lease {
  /** hits of the lease not used yet */
  left: number;
  /** the hits of the window counted in the database up to the end of this lease */
  top: number;
  /** Date.now() when the window ends */
  until: number;
}

export class LeasedCounters {
  private leases = new Map<string, Lease>();
  /** a lease being taken per key: concurrent reads of one user wait for it instead of taking more */
  private taking = new Map<string, Promise<void>>();

  constructor(private readonly counters: () => CounterStore) {}

  /**
   * Counts one hit of `key` against `max` hits per `windowMs`. Answers the hits counted so far
   * (more than `max` when the budget is spent) and the ms left in the window.
   */
  async hit(key: string, windowMs: number, max: number): Promise<{ current: number; ttl: number }> {
    for (;;) {
      const now = Date.now();
      const lease = this.leases.get(key);
      if (lease && lease.until > now) {
        if (lease.left > 0) {
          lease.left--;
          return { current: lease.top - lease.left, ttl: lease.until - now };
        }
        if (lease.top >= max) return { current: max + 1, ttl: lease.until - now };
      }
      const pending = this.taking.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const taken = this.take(key, windowMs, max).finally(() => this.taking.delete(key));
      this.taking.set(key, taken);
      await taken;
    }
  }

  /** Reserves a lease in the shared counter; the part of it within the budget is granted. */
  private async take(key: string, windowMs: number, max: number): Promise<void> {
    const size = leaseSizeOf(max);
    // the lease ends by this instance's clock no later than the window by the database's
    const sent = Date.now();
    const { hits, ttl } = await this.counters().hit(key, windowMs, size);
    // the counter held `hits - size` before this lease (a new window starts at 0)
    const before = hits - size;
    const granted = Math.max(0, Math.min(size, max - before));
    if (this.leases.size >= KEYS_SWEEP_AT) this.sweep();
    this.leases.set(key, { left: granted, top: Math.min(max, before + granted), until: sent + ttl });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, lease] of this.leases) if (lease.until <= now) this.leases.delete(key);
  }
}
