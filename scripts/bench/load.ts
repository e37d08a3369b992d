/**
 * The two load generators of the list benchmark.
 *
 * httpLoad: autocannon in a worker thread (its own event loop, so the server under test keeps
 * the main thread to itself), closed loop of N connections for D seconds; latency percentiles
 * come from autocannon's own histogram (1 ms resolution).
 *
 * directLoad: N async callers in this process each running `work` back to back for D seconds
 * (the list benchmark passes the route's own page + count function on the app's database).
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface LoadResult {
  /** completed requests (or pages) */
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** answers that were not 2xx, plus socket errors and timeouts */
  failures: number;
  statusCodes: Record<string, number>;
}

// CommonJS source of the worker: runs autocannon and posts its raw result back.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const autocannon = require(workerData.autocannon);
autocannon(workerData.opts, (err, res) => {
  if (err) parentPort.postMessage({ error: String(err && err.stack || err) });
  else parentPort.postMessage({ res });
});
`;

interface RawAutocannon {
  latencies: string;
  totalCompletedRequests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number;
}

export async function httpLoad(
  url: string,
  opts: { connections: number; duration: number; headers: Record<string, string> },
): Promise<LoadResult> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      autocannon: require.resolve('autocannon'),
      opts: { url, connections: opts.connections, duration: opts.duration, headers: opts.headers, timeout: 30 },
    },
  });
  const raw = await new Promise<RawAutocannon>((resolve, reject) => {
    worker.once('message', (m: { error?: string; res?: RawAutocannon }) => (m.error ? reject(new Error(m.error)) : resolve(m.res!)));
    worker.once('error', reject);
  });
  await worker.terminate();
  const { decodeHist } = require('autocannon/lib/histUtil.js') as {
    decodeHist: (s: string) => { getValueAtPercentile(p: number): number; maxValue: number };
  };
  const hist = decodeHist(raw.latencies);
  const statusCodes: Record<string, number> = {};
  for (const [code, v] of Object.entries(raw.statusCodeStats ?? {})) statusCodes[code] = v.count;
  const none = raw.totalCompletedRequests === 0;
  return {
    count: raw.totalCompletedRequests,
    seconds: raw.duration,
    perSecond: raw.totalCompletedRequests / raw.duration,
    // no completed request: no latency figure (and so no PASS)
    p50: none ? NaN : hist.getValueAtPercentile(50),
    p95: none ? NaN : hist.getValueAtPercentile(95),
    p99: none ? NaN : hist.getValueAtPercentile(99),
    max: none ? NaN : hist.maxValue,
    failures: raw.non2xx + raw.errors + raw.timeouts,
    statusCodes,
  };
}

/**
 * Waits until the app has run no query for `quietMs` (requests still in flight when a load
 * generator stops are finished by the server afterwards), at most `maxMs`.
 */
export async function settle(
  capture: <T>(fn: () => Promise<T>) => Promise<{ queries: unknown[] }>,
  quietMs = 300,
  maxMs = 180_000,
): Promise<void> {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    const { queries } = await capture(() => new Promise((r) => setTimeout(r, quietMs)));
    if (queries.length === 0) return;
  }
}

/** The p-th percentile (nearest rank) of ascending values; NaN when there are none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** `work` is one unit (one list page: its queries and row mapping); C callers loop on it. */
export async function directLoad(work: () => Promise<unknown>, opts: { connections: number; duration: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  let firstError: unknown;
  const t0 = performance.now();
  const stopAt = t0 + opts.duration * 1000;
  const caller = async () => {
    while (performance.now() < stopAt) {
      const s = performance.now();
      try {
        await work();
        latencies.push(performance.now() - s);
      } catch (e) {
        failures++;
        firstError ??= e;
        if (failures > 100) break;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, caller));
  const seconds = (performance.now() - t0) / 1000;
  if (firstError) console.log(`direct queries failed ${failures} times, first: ${(firstError as Error).message}`);
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    failures,
    statusCodes: {},
  };
}
