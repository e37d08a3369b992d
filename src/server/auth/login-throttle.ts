/**
 * Per-address brake on failed sign-ins: more than LIMIT failures from one address within
 * WINDOW_MS blocks further attempts from it until the window has passed. (Locking an account
 * after repeated failures is a separate rule.)
 * - LoginThrottle, in memory (SQLite: one server): a sliding window, bounded in size: old
 *   entries are swept, and the table never holds more than MAX_ADDRESSES addresses.
 * - DatabaseLoginThrottle (PostgreSQL): counted in the shared counter table, so the limit holds
 *   across every instance (fixed windows of WINDOW_MS).
 */
import type { Database } from '../types.ts';
import { SharedCounters } from '../db/shared-limits.ts';

export const LOGIN_FAILURE_LIMIT = 60;
export const LOGIN_FAILURE_WINDOW_MS = 10 * 60_000;

export interface FailureThrottle {
  blocked(ip: string): boolean | Promise<boolean>;
  fail(ip: string): void | Promise<void>;
}

/** The brake for one sign-in form (`name`: staff, dealer ...) on this database. */
export function loginThrottleFor(database: Database, name: string): FailureThrottle {
  return database.dialect === 'postgres' ? new DatabaseLoginThrottle(new SharedCounters(database.db), name) : new LoginThrottle();
}

export class DatabaseLoginThrottle implements FailureThrottle {
  constructor(
    private readonly counters: SharedCounters,
    private readonly name: string,
    private readonly limit = LOGIN_FAILURE_LIMIT,
    private readonly windowMs = LOGIN_FAILURE_WINDOW_MS,
  ) {}

  async blocked(ip: string): Promise<boolean> {
    return (await this.counters.peek(`login:${this.name}:${ip}`)).hits >= this.limit;
  }

  async fail(ip: string): Promise<void> {
    await this.counters.hit(`login:${this.name}:${ip}`, this.windowMs);
  }
}

export class LoginThrottle implements FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = LOGIN_FAILURE_LIMIT,
    private readonly windowMs = LOGIN_FAILURE_WINDOW_MS,
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
