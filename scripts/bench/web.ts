/**
 * npm run bench:web
 *
 * Builds the web app (with a manifest) into a temp folder, then prints:
 * - the gzipped JavaScript (and CSS) the sign-in page loads (the entry with its static imports
 *   plus the sign-in chunk) and the console shell loads (the entry plus the console chunk);
 * - the time from navigation to the first list paint (a data row of 问题反馈) in headless
 *   Chromium, signed in, against the production server on SQLite with demo data: median and
 *   worst of 5 cold loads (fresh browser context each, so nothing is cached).
 * Targets: sign-in <= 200 KB gz, shell <= 450 KB gz, first list paint <= 1 s.
 * Figures only: exits 0 whatever they are, non-zero when the build or the page fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fmt, heading, printTable, verdict } from './common.ts';

const TARGET_LOGIN_KB = 200;
const TARGET_SHELL_KB = 450;
const TARGET_PAINT_MS = 1000;
const RUNS = 5;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Files a chunk loads before it runs: itself and its static imports, transitively. */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const imp of chunk.imports ?? []) staticClosure(manifest, imp, into);
  return into;
}

function gzKb(outDir: string, files: Iterable<string>): { js: number; css: number } {
  let js = 0;
  let css = 0;
  for (const f of files) {
    const size = gzipSync(readFileSync(join(outDir, f)), { level: 9 }).length / 1024;
    if (f.endsWith('.css')) css += size;
    else js += size;
  }
  return { js, css };
}

function findKey(manifest: Manifest, srcSuffix: string): string {
  const key = Object.keys(manifest).find((k) => k.endsWith(srcSuffix));
  if (!key) throw new Error(`no chunk for ${srcSuffix} in the build manifest`);
  return key;
}

async function firstListPaint(outDir: string): Promise<number[]> {
  const { startProduct, launchBrowser, ADMIN, signInAs, VIEWPORT } = await import('../../tests/e2e/support.ts');
  process.env.WEB_DIST_DIR = outDir;
  const product = await startProduct({ captchaEnabled: false });
  const browser = await launchBrowser();
  const times: number[] = [];
  try {
    // one sign-in for the token; each measured load is a fresh context with only that cookie
    const first = await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN' });
    const page = await first.newPage();
    await signInAs(page, product, ADMIN);
    const cookies = await first.cookies();
    await first.close();
    for (let i = 0; i < RUNS; i++) {
      const ctx = await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN' });
      await ctx.addCookies(cookies);
      const p = await ctx.newPage();
      const t0 = Date.now();
      await p.goto(`${product.url}/#/sysQuestion`);
      await p.locator('table tbody tr').first().waitFor({ timeout: 30000 });
      times.push(Date.now() - t0);
      await ctx.close();
    }
  } finally {
    await browser.close();
    await product.close();
  }
  return times;
}

async function main(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
  try {
    heading('build');
    const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir', '--manifest'], { stdio: 'inherit' });
    if (b.status !== 0) throw new Error('the build failed');
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
    const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
    const base = staticClosure(manifest, entry);
    const login = staticClosure(manifest, findKey(manifest, 'src/web/login/LoginApp.tsx'), new Set(base));
    const shell = staticClosure(manifest, findKey(manifest, 'src/web/staff/StaffApp.tsx'), new Set(base));
    const l = gzKb(outDir, login);
    const s = gzKb(outDir, shell);
    heading('what each page loads (gzip -9)');
    console.log(`sign-in: ${[...login].join(', ')}`);
    console.log(`shell:   ${[...shell].join(', ')}`);

    let paint: number[] = [];
    if (existsSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium')) {
      heading(`first list paint, ${RUNS} cold loads`);
      paint = await firstListPaint(outDir);
      console.log(paint.map((t) => `${t} ms`).join(', '));
    } else {
      console.log('no Chromium: the first-paint measure is skipped (apt-get install chromium fonts-noto-cjk)');
    }
    const sorted = [...paint].sort((a, b) => a - b);
    const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
    const worst = sorted.length ? sorted[sorted.length - 1] : NaN;

    heading('summary');
    printTable([
      ['measure', 'value', 'target', 'verdict'],
      ['sign-in JS', `${fmt(l.js, 1)} KB gz (+ ${fmt(l.css, 1)} KB CSS)`, `<= ${TARGET_LOGIN_KB} KB`, verdict(l.js <= TARGET_LOGIN_KB)],
      ['shell JS', `${fmt(s.js, 1)} KB gz (+ ${fmt(s.css, 1)} KB CSS)`, `<= ${TARGET_SHELL_KB} KB`, verdict(s.js <= TARGET_SHELL_KB)],
      ['first list paint', paint.length ? `median ${median} ms, worst ${worst} ms` : 'skipped', `<= ${TARGET_PAINT_MS} ms`, paint.length ? verdict(median <= TARGET_PAINT_MS) : '-'],
    ]);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
