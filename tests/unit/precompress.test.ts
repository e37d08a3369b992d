import { mkdtempSync, mkdirSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResolvedConfig } from 'vite';
import { MIN_BYTES, compressedCopies, precompress } from '../../scripts/vite/precompress.ts';
import { registerWebStatic } from '../../src/server/web-static.ts';

const dir = mkdtempSync(join(tmpdir(), 'precompress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, title: '问题反馈 ${i}' }`).join(', ')}];\n`;

async function build(files: Record<string, string | Buffer>): Promise<void> {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const plugin = precompress();
  (plugin.configResolved as (c: ResolvedConfig) => void)({ root: dir, build: { outDir: '.' } } as ResolvedConfig);
  const bundle = Object.fromEntries(Object.keys(files).map((name) => [name, {}]));
  await (plugin.writeBundle as (o: { dir: string }, b: object) => Promise<void>)({ dir }, bundle);
}

describe('precompressed build output', () => {
  it('writes .br and .gz copies of text files of 1 KB or more that decode to the file', async () => {
    await build({
      'index.html': `<!doctype html><html><body>${'<p>后台管理系统</p>'.repeat(80)}</body></html>`,
      'assets/app-abc.js': script,
      'assets/tiny-abc.js': 'export const a = 1;\n',
      'assets/logo-abc.png': Buffer.alloc(4096, 7),
    });
    const js = readFileSync(join(dir, 'assets/app-abc.js'));
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets/app-abc.js.br')))).toEqual(js);
    expect(gunzipSync(readFileSync(join(dir, 'assets/app-abc.js.gz')))).toEqual(js);
    expect(readFileSync(join(dir, 'assets/app-abc.js.br')).length).toBeLessThan(js.length / 3);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    // too small to gain, and not text
    expect('export const a = 1;\n'.length).toBeLessThan(MIN_BYTES);
    expect(existsSync(join(dir, 'assets/tiny-abc.js.br'))).toBe(false);
    expect(existsSync(join(dir, 'assets/logo-abc.png.gz'))).toBe(false);
  });

  it('the server sends the copy the browser accepts, and the file itself to one that accepts none', async () => {
    const app = Fastify();
    expect(await registerWebStatic(app, dir)).toBe(true);
    const get = (encoding?: string) =>
      app.inject({ method: 'GET', url: '/assets/app-abc.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await get('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    const page = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    await app.close();
  });

  it('compressedCopies: both copies are smaller than repetitive text', async () => {
    const text = Buffer.from(script);
    const { br, gz } = await compressedCopies(text);
    expect(br.length).toBeLessThan(text.length);
    expect(gz.length).toBeLessThan(text.length);
  });
});
