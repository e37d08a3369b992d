/**
 * `npm start` runs the esbuild bundle of the server under plain Node (no TypeScript loader):
 * the bundle must load its packages as Node's ES module resolution sees them and answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('the server bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dealer-console-bundle-'));
  const bundleDir = resolve('build', `test-${process.pid}`);
  const bundle = join(bundleDir, 'main.js');
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    rmSync(bundleDir, { recursive: true, force: true });
  });

  it('starts under plain Node and serves the sign-in routes', async () => {
    // inside the project, so that Node finds the external packages in node_modules
    const entry = await buildServer(bundle);
    const port = await freePort();
    let stderr = '';
    server = spawn(process.execPath, [entry], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: join(dir, 'data'),
        DATABASE_URL: '',
        SERVE_WEB: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    server.stderr!.on('data', (d) => (stderr += d));
    let exitCode: number | null | undefined;
    server.once('exit', (code) => (exitCode = code));
    let body: { uuid?: string; img?: string } | undefined;
    for (let i = 0; i < 150 && !body; i++) {
      if (exitCode !== undefined) throw new Error(`the bundled server ended with ${exitCode}: ${stderr}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/code`);
        if (res.ok) body = (await res.json()) as { uuid?: string; img?: string };
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(body?.uuid).toMatch(/\S/);
    expect(body?.img).toMatch(/^data:image\/svg\+xml;base64,/);
    const unauthorized = await fetch(`http://127.0.0.1:${port}/api/info`);
    expect(unauthorized.status).toBe(401);
  });
});
