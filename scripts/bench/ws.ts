/**
 * npm run bench:ws [-- --clients N --rounds R --only sqlite|postgres]
 *
 * 1,000 websocket clients (default) connected to /webSocket/{token}, then one broadcast per
 * round after W warm-up rounds (default 5: a running server's code is warm; the first broadcast's
 * p99 is printed on its own): a system message published with POST /api/sysSocket (auth, validation, sanitising,
 * insert, then INFO to every console socket). For each round it measures the time from sending
 * the POST until each client received its INFO, and prints p50, p99 and max over all rounds.
 * Scenarios: SQLite with one instance (in-process pub/sub); with PostgreSQL (DATABASE_URL or
 * TEST_DATABASE_URL on this machine) one instance and two instances on the same database, the
 * clients split between them and the POST sent to the first (LISTEN/NOTIFY).
 * The clients run in a worker thread; both threads read the same clock (timeOrigin + now).
 * Target: p99 <= 200 ms. Figures only: exits 0 whatever they are, non-zero when broken.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import {
  benchConfig,
  buildBenchApp,
  cpuLine,
  cpuSnapshot,
  createTarget,
  fmt,
  heading,
  listenLoopback,
  printTable,
  signInAdmin,
  verdict,
  type BenchTarget,
} from './common.ts';

const require = createRequire(import.meta.url);
const TARGET_P99_MS = 200;

interface Options {
  clients: number;
  rounds: number;
  warmup: number;
  only?: 'sqlite' | 'postgres';
}

function parse(argv: string[]): Options {
  const out: Options = { clients: 1000, rounds: 5, warmup: 5 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[++i];
    if (arg === '--clients' || arg === '--rounds' || arg === '--warmup') {
      const n = Number(value);
      const [min, max] = arg === '--clients' ? [1, 10_000] : arg === '--rounds' ? [1, 100] : [0, 100];
      if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${arg} must be an integer between ${min} and ${max}`);
      out[arg.slice(2) as 'clients' | 'rounds' | 'warmup'] = n;
    } else if (arg === '--only' && (value === 'sqlite' || value === 'postgres')) {
      out.only = value;
    } else {
      throw new Error(`usage: npm run bench:ws -- [--clients N] [--rounds R] [--warmup W] [--only sqlite|postgres] (unknown ${arg})`);
    }
  }
  return out;
}

/** The client side, run in a worker: opens the sockets, then reports arrival times per round. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.ws);
const { urls } = workerData;
const now = () => performance.timeOrigin + performance.now();
const sockets = [];
let round = null;
let arrivals = [];
let got = 0;
let finish = null;
function onMessage(i, data) {
  if (round === null) return;
  let m;
  try { m = JSON.parse(String(data)); } catch { return; }
  if (m.msgType !== 'INFO' || !String(m.msg).endsWith(round)) return;
  if (arrivals[i] !== undefined) return;
  arrivals[i] = now();
  if (++got === urls.length && finish) finish();
}
async function connectAll() {
  const t0 = now();
  let failed = 0;
  for (let start = 0; start < urls.length; start += 100) {
    await Promise.all(urls.slice(start, start + 100).map((url, k) => new Promise((resolve) => {
      const i = start + k;
      const ws = new WebSocket(url);
      ws.on('open', () => resolve());
      ws.on('error', () => { failed++; resolve(); });
      ws.on('message', (data) => onMessage(i, data));
      sockets[i] = ws;
    })));
  }
  parentPort.postMessage({ kind: 'ready', ms: now() - t0, failed });
}
parentPort.on('message', (msg) => {
  if (msg.kind === 'round') {
    round = msg.tag;
    arrivals = new Array(urls.length);
    got = 0;
    const timer = setTimeout(() => finish && finish(), 15000);
    finish = () => {
      clearTimeout(timer);
      finish = null;
      parentPort.postMessage({ kind: 'arrivals', tag: msg.tag, arrivals: Array.from(arrivals, (t) => (t === undefined ? -1 : t)) });
    };
    parentPort.postMessage({ kind: 'armed', tag: msg.tag });
  } else if (msg.kind === 'close') {
    for (const ws of sockets) ws && ws.terminate();
    parentPort.postMessage({ kind: 'closed' });
  }
});
connectAll();
`;

class Clients {
  private readonly worker: Worker;
  private constructor(urls: string[]) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ws: require.resolve('ws'), urls } });
  }

  private next<T>(kind: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: { kind: string }) => {
        if (m.kind !== kind) return;
        this.worker.off('message', onMessage);
        this.worker.off('error', reject);
        resolve(m as T);
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', reject);
    });
  }

  static async open(urls: string[]): Promise<{ clients: Clients; connectMs: number; failed: number }> {
    const clients = new Clients(urls);
    const ready = await clients.next<{ ms: number; failed: number }>('ready');
    return { clients, connectMs: ready.ms, failed: ready.failed };
  }

  /** Arms the round, runs `send` and answers every client's arrival time (-1: none within 15 s). */
  async round(tag: string, send: () => Promise<number>): Promise<{ sentAt: number; arrivals: number[] }> {
    const armed = this.next('armed');
    this.worker.postMessage({ kind: 'round', tag });
    await armed;
    const result = this.next<{ arrivals: number[] }>('arrivals');
    const sentAt = await send();
    return { sentAt, arrivals: (await result).arrivals };
  }

  async close(): Promise<void> {
    const closed = this.next('closed');
    this.worker.postMessage({ kind: 'close' });
    await closed;
    await this.worker.terminate();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

interface Outcome {
  name: string;
  connectMs: number;
  p50: number;
  p99: number;
  max: number;
  worstRoundP99: number;
  missing: number;
  publishMs: number;
  /** p99 of the very first broadcast (cold code paths) */
  firstP99: number;
}

async function scenario(name: string, target: BenchTarget, instances: number, opts: Options): Promise<Outcome> {
  heading(`${name}: ${opts.clients} clients, ${opts.rounds} broadcasts`);
  const apps: FastifyInstance[] = [await buildBenchApp(target)];
  for (let i = 1; i < instances; i++) {
    const app = await buildApp(benchConfig(target));
    await app.ready();
    apps.push(app);
  }
  try {
    const bases: string[] = [];
    for (const app of apps) bases.push(await listenLoopback(app));
    const token = await signInAdmin(apps[0]);
    const urls = Array.from({ length: opts.clients }, (_, i) => `${bases[i % bases.length].replace(/^http/, 'ws')}/webSocket/${token}`);
    const before = cpuSnapshot();
    const started = performance.now();
    const { clients, connectMs, failed } = await Clients.open(urls);
    if (failed) throw new Error(`${failed} of ${opts.clients} sockets did not open`);
    console.log(`connected ${opts.clients} sockets in ${fmt(connectMs)} ms`);
    // let the presence rows and the CONNECT gathering settle before measuring
    await new Promise((r) => setTimeout(r, 500));
    const all: number[] = [];
    const roundP99: number[] = [];
    const publish: number[] = [];
    let missing = 0;
    let firstP99 = NaN;
    for (let r = 1 - opts.warmup; r <= opts.rounds; r++) {
      const tag = `bench-${Date.now()}-${r}`;
      const { sentAt, arrivals } = await clients.round(tag, async () => {
        const sentAt = performance.timeOrigin + performance.now();
        const res = await fetch(`${bases[0]}/api/sysSocket`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            submit_id: String(Date.now()).padStart(32, '1'),
          },
          body: JSON.stringify({ title: `性能测试${tag}`.slice(0, 100), msg: '<p>bench</p>', type: 1, enabled: true, sort: 1 }),
        });
        if (res.status !== 201) throw new Error(`POST /api/sysSocket answered ${res.status}: ${await res.text()}`);
        if (r > 0) publish.push(performance.timeOrigin + performance.now() - sentAt);
        return sentAt;
      });
      // the title carries the tag; the INFO text ends with it
      const latencies = arrivals
        .filter((t) => t >= 0)
        .map((t) => t - sentAt)
        .sort((a, b) => a - b);
      const lost = arrivals.length - latencies.length;
      if (Number.isNaN(firstP99)) firstP99 = percentile(latencies, 99);
      if (r <= 0) {
        missing += lost;
        console.log(
          `warm-up round: ${latencies.length}/${arrivals.length} received, p99 ${fmt(percentile(latencies, 99), 1)} ms (not counted)`,
        );
        continue;
      }
      missing += lost;
      all.push(...latencies);
      roundP99.push(percentile(latencies, 99));
      console.log(
        `round ${r}: received ${latencies.length}/${arrivals.length}, p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(latencies[latencies.length - 1], 1)} ms`,
      );
    }
    await clients.close();
    console.log(cpuLine(before, cpuSnapshot(), (performance.now() - started) / 1000));
    all.sort((a, b) => a - b);
    publish.sort((a, b) => a - b);
    return {
      name,
      connectMs,
      p50: percentile(all, 50),
      p99: percentile(all, 99),
      max: all[all.length - 1],
      worstRoundP99: Math.max(...roundP99),
      missing,
      publishMs: percentile(publish, 50),
      firstP99,
    };
  } finally {
    for (const app of apps) await app.close().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const opts = parse(process.argv.slice(2));
  const outcomes: Outcome[] = [];
  const runs: Array<{ name: string; dialect: 'sqlite' | 'postgres'; instances: number }> = [
    { name: 'SQLite, 1 instance', dialect: 'sqlite', instances: 1 },
    { name: 'PostgreSQL, 1 instance', dialect: 'postgres', instances: 1 },
    { name: 'PostgreSQL, 2 instances', dialect: 'postgres', instances: 2 },
  ];
  const { pgServerUrl } = await import('./common.ts');
  for (const run of runs) {
    if (opts.only && run.dialect !== opts.only) continue;
    if (run.dialect === 'postgres' && !pgServerUrl()) {
      console.log(`\n${run.name}: skipped (set DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server on this machine)`);
      continue;
    }
    const target = await createTarget(run.dialect);
    try {
      outcomes.push(await scenario(run.name, target, run.instances, opts));
    } finally {
      await target.cleanup();
    }
  }
  heading('summary (time from POST /api/sysSocket to the INFO at each client)');
  printTable([
    [
      'scenario',
      'connect',
      'first broadcast p99',
      'POST answered (p50)',
      'p50',
      'p99',
      'max',
      'worst round p99',
      'missed',
      `p99 <= ${TARGET_P99_MS} ms`,
    ],
    ...outcomes.map((o) => [
      o.name,
      `${fmt(o.connectMs)} ms`,
      `${fmt(o.firstP99, 1)} ms`,
      `${fmt(o.publishMs, 1)} ms`,
      `${fmt(o.p50, 1)} ms`,
      `${fmt(o.p99, 1)} ms`,
      `${fmt(o.max, 1)} ms`,
      `${fmt(o.worstRoundP99, 1)} ms`,
      String(o.missing),
      verdict(o.p99 <= TARGET_P99_MS && o.missing === 0),
    ]),
  ]);
  if (outcomes.some((o) => o.missing > 0)) process.exitCode = 1;
}

await main();
