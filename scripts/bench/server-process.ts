/**
 * The production server as a benchmark measures it: a free port, the process's memory from
 * /proc, and a sign-in over HTTP through the real routes.
 */
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

