/**
 * The production server as a benchmark measures it: a free port, the process's memory from
 * /proc, and a sign-in over HTTP through the real routes.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { BENCH_ADMIN_PASSWORD } from './common.ts';
import { encryptPassword } from '../../tests/server/auth-helpers.ts';

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** VmRSS and VmHWM (the kernel's peak RSS) of a process, in bytes. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Waits for the server to answer, then signs in through the real routes (RSA-OAEP password). */
export async function signInOverHttp(base: string, exited: Promise<number | null>): Promise<string> {
  let ended: number | null | undefined;
  void exited.then((code) => (ended = code));
  const deadline = Date.now() + 120_000;
  let publicKey = '';
  while (!publicKey) {
    if (ended !== undefined) throw new Error(`the server ended with ${ended} before answering`);
    if (Date.now() > deadline) throw new Error('the server did not answer within 2 minutes');
    try {
      const res = await fetch(`${base}/api/publicKey`);
      if (res.ok) publicKey = ((await res.json()) as { publicKey: string }).publicKey;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'admin',
      password: encryptPassword(publicKey, BENCH_ADMIN_PASSWORD),
      code: '',
      uuid: '',
      platTypeId: 100001,
      rememberMe: false,
    }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export interface BenchServer {
  base: string;
  token: string;
  pid: number;
  /** RSS sampled every `SAMPLE_MS` since the call: its value then and the peak so far (kernel peak included) */
  rss: () => { before: number; peak: number };
}

const SAMPLE_MS = 20;

/**
 * Runs `fn` against the production server (`node <entry>`, as `npm start` runs it) on a free
 * loopback port with `env`, signed in as admin, its RSS sampled from when `fn` starts; stops the
 * server afterwards.
 */
export async function withBenchServer<T>(
  entry: string,
  nodeFlags: string[],
  env: Record<string, string>,
  fn: (server: BenchServer) => Promise<T>,
): Promise<T> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeFlags, entry], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      // the read limits run but never answer 429 (a benchmark reads far beyond what a person does)
      READ_LIMIT_PER_MINUTE: '1000000000',
      EXPORT_LIMIT_PER_MINUTE: '1000000000',
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let timer: NodeJS.Timeout | undefined;
  try {
    const token = await signInOverHttp(base, exited);
    const pid = child.pid!;
    const before = memoryOf(pid).rss;
    let peak = before;
    timer = setInterval(() => {
      try {
        peak = Math.max(peak, memoryOf(pid).rss);
      } catch {
        // the server ended: the caller's request fails and says so
      }
    }, SAMPLE_MS);
    const rss = () => {
      try {
        const m = memoryOf(pid);
        peak = Math.max(peak, m.rss, m.hwm);
      } catch {
        /* ended */
      }
      return { before, peak };
    };
    return await fn({ base, token, pid, rss });
  } finally {
    clearInterval(timer);
    child.kill('SIGTERM');
    await exited;
  }
}

/** CPU seconds (user and system) a process has used so far, from /proc. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name, which is in parentheses and may hold spaces
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
  return ticks / CLOCK_TICKS;
}

/** USER_HZ of Linux: 100 on every common platform (getconf CLK_TCK) */
const CLOCK_TICKS = 100;
