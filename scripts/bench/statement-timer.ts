/**
 * Times every SQL statement the process runs (for `bench:profile -- --statements`): on SQLite the
 * synchronous `all`/`run`/`get` of better-sqlite3 statements, on PostgreSQL the round trip of
 * `pg`'s `query` (the server's work and the wait for it). Patched into the drivers' prototypes,
 * so it must be installed before the app opens its database.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { fmt } from './print.ts';

interface Timing {
  count: number;
  ms: number;
}

const timings = new Map<string, Timing>();
let counting = false;

function note(text: string, ms: number): void {
  if (!counting) return;
  const key = text.replace(/\s+/g, ' ').trim();
  const t = timings.get(key);
  if (t) {
    t.count++;
    t.ms += ms;
  } else timings.set(key, { count: 1, ms });
}

export function installStatementTimer(): void {
  const probe = new SQLite(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const name of ['all', 'run', 'get'] as const) {
    const original = statementProto[name] as (this: { source: string }, ...args: unknown[]) => unknown;
    statementProto[name] = function timed(this: { source: string }, ...args: unknown[]) {
      const t0 = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        note(this.source, performance.now() - t0);
      }
    };
  }
  const clientProto = pg.Client.prototype as unknown as Record<string, unknown>;
  const query = clientProto.query as (this: unknown, ...args: unknown[]) => unknown;
  clientProto.query = function timed(this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '?');
    const t0 = performance.now();
    const out = query.apply(this, args);
    if (out && typeof (out as Promise<unknown>).then === 'function')
      (out as Promise<unknown>).then(
        () => note(text, performance.now() - t0),
        () => note(text, performance.now() - t0),
      );
    return out;
  };
}

/** Starts counting (statements before, e.g. the seed, are left out). */
export function startStatementTimer(): void {
  timings.clear();
  counting = true;
}

/** Prints each statement's runs per request and µs per run, the costliest first. */
export function printStatementTimes(requests: number): void {
  counting = false;
  const rows = [...timings].sort((a, b) => b[1].ms - a[1].ms);
  console.log(`SQL statements over ${requests} requests (µs per run, runs per request, µs per request):`);
  for (const [text, t] of rows)
    console.log(
      `${fmt((t.ms * 1000) / t.count, 1).padStart(8)} µs × ${(t.count / requests).toFixed(2).padStart(5)} = ${fmt((t.ms * 1000) / requests, 1).padStart(6)} µs/req  ${text.slice(0, 220)}`,
    );
}
