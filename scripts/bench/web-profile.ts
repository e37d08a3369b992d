/**
 * npm run bench:web-profile -- --dist DIR [--runs N] [--top N] [--match a,b]
 *
 * Where the renderer's main thread spends its time before the first list paint, for a build made
 * with `vite build --manifest --outDir DIR` (build it with `--minify false` to read function
 * names). Opens `#/sysQuestion` N times (3 by default) in fresh signed-in Chromium contexts with
 * the V8 CPU profiler on (sampled every 0.2 ms), keeps the samples up to the paint of the first
 * data row (the same Element Timing as `bench:web`), and prints, as means per load:
 * - self time by function (name, file, line), the largest first;
 * - inclusive time of the functions named in `--match` (default: emotion's style work, MUI's
 *   Tooltip, React's render and commit phases);
 * - self time by script file.
 * - time by the nearest React component on the stack (all loads, and inside the synchronous
 *   re-render React runs right after its commit: `--within NAME` names another function).
 * With `--trace`, no profiler: a Chromium trace of each load instead (`DUMP_TRACE=file` keeps the
 * last), and the renderer main thread's own CPU time (the trace's thread time of its tasks)
 * before the paint, per load and the median. A busy machine stretches it less than wall-clock
 * time, but at a load average of 6-8 on two cores it still varies by ±20 % between loads.
 * With `--commits`, neither: React's commits up to the paint, each with the number of components
 * it rendered and the most frequent ones, read through React's DevTools hook. The same build
 * gives the same counts whatever the machine is doing, so they show what a change removed.
 * Figures only: exits 0 whatever they are.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fmt, heading, printTable } from './print.ts';
import { watchFirstRowPaint } from './first-row-paint.ts';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

const dist = arg('--dist');
if (!dist || !existsSync(join(dist, '.vite', 'manifest.json'))) throw new Error('--dist needs a folder built with --manifest');
const RUNS = Number(arg('--runs')) || 3;
const TRACE = process.argv.includes('--trace');
const COMMITS = process.argv.includes('--commits');

/**
 * Page script (a string: the bundler's helpers do not exist in the page): a stand-in for React's
 * DevTools hook that counts, at each commit, the components that rendered in it (a fiber not in
 * the previous commit's tree, marked as having performed work) by name.
 */
const COUNT_COMMITS = `(() => {
  const w = window; w.__commits = []; let previous = new WeakSet();
  const nameOf = (t) => t.displayName || t.name || (t.render && (t.render.displayName || t.render.name)) || (t.type && (t.type.displayName || t.type.name)) || '?';
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), inject() { return 1; }, checkDCE() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id, root) {
      const counts = {}; let total = 0; const seen = new WeakSet();
      const walk = (f) => {
        for (; f; f = f.sibling) {
          seen.add(f);
          if (!previous.has(f) && (f.flags & 1) && f.type && typeof f.type !== 'string') {
            const n = nameOf(f.type); counts[n] = (counts[n] || 0) + 1; total++;
          }
          if (f.child) walk(f.child);
        }
      };
      walk(root.current.child); previous = seen;
      w.__commits.push({ at: performance.now(), total, top: Object.entries(counts).sort((a, b) => b[1] - a[1]).slice(0, 12) });
    },
  };
})()`;
interface Commit {
  at: number;
  total: number;
  top: Array<[string, number]>;
}
const TOP = Number(arg('--top')) || 40;
const MATCH = (
  arg('--match') ??
  'insertStyles,serializeStyles,insert,Tooltip,Tooltip2,useTooltip,renderRootSync,performWorkOnRoot,commitRoot,commitRootImpl,flushPassiveEffects,flushSyncWorkAcrossRoots_impl'
).split(',');

const short = (url: string) =>
  url
    .replace(/^.*\/assets\//, '')
    .replace(/-[\w-]{8}\.js$/, '.js')
    .replace(/^https?:\/\/[^/]+\//, '') || '(native)';

process.env.WEB_DIST_DIR = dist;
const { startProduct, launchBrowser, ADMIN, signInAs, VIEWPORT } = await import('../../tests/e2e/support.ts');
const { WEB_DIST } = await import('../../src/server/web-static.ts');
if (WEB_DIST !== resolve(dist)) throw new Error(`the server would serve ${WEB_DIST}, not the build under test`);

const product = await startProduct({ captchaEnabled: false });
const browser = await launchBrowser();
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const byFile = new Map<string, number>();
/** self time of each sample given to the nearest React component (a capitalised function) on its stack */
const byComponent = new Map<string, number>();
const byComponentWithin = new Map<string, number>();
const WITHIN = arg('--within') ?? 'flushSyncWorkAcrossRoots_impl';
const paints: number[] = [];
const cpu: number[] = [];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { documentLoaderURL?: string } };
}

/** The renderer main thread's CPU time (ms) in tasks that started before the paint. */
function mainThreadCpu(events: TraceEvent[], paintMs: number): number {
  // the about:blank the page opened with has a navigationStart of its own, in another process
  const nav = events.find(
    (e) => e.name === 'navigationStart' && e.ph === 'R' && e.args?.data?.documentLoaderURL?.includes('#/sysQuestion'),
  );
  // marked on the renderer's main thread
  if (!nav) return NaN;
  const main = nav;
  const paintTs = nav.ts + paintMs * 1000;
  let total = 0;
  for (const e of events) {
    if (e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask'))
      continue;
    if (e.ts >= nav.ts && e.ts <= paintTs) total += (e.tdur ?? 0) / 1000;
  }
  return total;
}
try {
  const first = await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN' });
  const signIn = await first.newPage();
  await signInAs(signIn, product, ADMIN);
  const cookies = await first.cookies();
  await first.close();
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext({ viewport: VIEWPORT, locale: 'zh-CN' });
    await ctx.addCookies(cookies);
    await ctx.addInitScript(watchFirstRowPaint);
    const page = await ctx.newPage();
    if (COMMITS) {
      await ctx.addInitScript({ content: COUNT_COMMITS });
      await page.goto(`${product.url}/#/sysQuestion`);
      await page.waitForFunction(() => (window as unknown as { __rowPaint?: number }).__rowPaint !== undefined, undefined, {
        timeout: 30000,
        polling: 20,
      });
      const { paint, commits } = await page.evaluate(() => {
        const w = window as unknown as { __rowPaint: number; __commits: Commit[] };
        return { paint: w.__rowPaint, commits: w.__commits };
      });
      const before = commits.filter((c) => c.at <= paint);
      heading(`load ${i + 1}: first row painted at ${Math.round(paint)} ms; ${before.length} commits before it`);
      printTable([
        ['commit at ms', 'components rendered', 'most rendered'],
        ...before.map((c) => [fmt(c.at), fmt(c.total), c.top.map(([n, k]) => `${n} ${k}`).join(', ')]),
        ['before the paint', fmt(before.reduce((sum, c) => sum + c.total, 0)), ''],
      ]);
      await ctx.close();
      continue;
    }
    if (TRACE) {
      await browser.startTracing(page, { categories: ['devtools.timeline', 'blink.user_timing', 'toplevel'] });
      await page.goto(`${product.url}/#/sysQuestion`);
      await page.waitForFunction(() => (window as unknown as { __rowPaint?: number }).__rowPaint !== undefined, undefined, {
        timeout: 30000,
        polling: 20,
      });
      const paint = await page.evaluate(() => (window as unknown as { __rowPaint: number }).__rowPaint);
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
      if (process.env.DUMP_TRACE) (await import('node:fs')).writeFileSync(process.env.DUMP_TRACE, JSON.stringify(trace));
      paints.push(Math.round(paint));
      cpu.push(Math.round(mainThreadCpu(trace.traceEvents, paint)));
      await ctx.close();
      continue;
    }
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(`${product.url}/#/sysQuestion`);
    await page.waitForFunction(() => (window as unknown as { __rowPaint?: number }).__rowPaint !== undefined, undefined, {
      timeout: 30000,
      polling: 20,
    });
    const { paint, now } = await page.evaluate(() => ({
      paint: (window as unknown as { __rowPaint: number }).__rowPaint,
      now: performance.now(),
    }));
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    paints.push(Math.round(paint));
    // the profile's clock (µs) against the page's (ms): its end is about the page's `now` above
    const cutoff = profile.endTime - (now - paint) * 1000;
    const parent = new Map<number, number>();
    const nodes = new Map<number, ProfileNode>();
    for (const n of profile.nodes) {
      nodes.set(n.id, n);
      for (const c of n.children ?? []) parent.set(c, n.id);
    }
    let t = profile.startTime;
    for (let s = 0; s < profile.samples.length; s++) {
      t += profile.timeDeltas[s];
      if (t > cutoff) break;
      const dt = (profile.timeDeltas[s + 1] ?? 0) / 1000;
      const node = nodes.get(profile.samples[s])!;
      const f = node.callFrame;
      const key = `${f.functionName || '(anonymous)'}  ${short(f.url)}:${f.lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + dt);
      byFile.set(short(f.url), (byFile.get(short(f.url)) ?? 0) + dt);
      const seen = new Set<string>();
      let component: string | undefined;
      for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
        const frame = nodes.get(id)!.callFrame;
        const name = frame.functionName;
        if (!component && /^[A-Z]/.test(name) && frame.url) component = `${name}  ${short(frame.url)}:${frame.lineNumber + 1}`;
        if (MATCH.includes(name) && !seen.has(name)) {
          seen.add(name);
          inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
        }
        if (name === WITHIN) seen.add(WITHIN);
      }
      if (component) {
        byComponent.set(component, (byComponent.get(component) ?? 0) + dt);
        if (seen.has(WITHIN)) byComponentWithin.set(component, (byComponentWithin.get(component) ?? 0) + dt);
      }
    }
    await ctx.close();
  }
} finally {
  await browser.close();
  await product.close();
}

if (COMMITS) process.exit(0);
if (TRACE) {
  const median = (v: number[]) => {
    const known = v.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    return known[Math.floor(known.length / 2)];
  };
  heading(`${RUNS} traced loads`);
  console.log(`first row painted: ${paints.join(', ')} ms; median ${median(paints)} ms`);
  console.log(`renderer main thread CPU before the paint: ${cpu.join(', ')} ms; median ${median(cpu)} ms`);
  process.exit(0);
}
const per = (ms: number) => fmt(ms / RUNS, 1);
heading(`first row painted: ${paints.join(', ')} ms (${RUNS} loads)`);
heading('self time by function, ms per load');
printTable([
  ['function', 'ms'],
  ...[...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([k, v]) => [k, per(v)]),
]);
heading('inclusive time, ms per load');
printTable([['function', 'ms'], ...MATCH.map((m) => [m, per(inclusive.get(m) ?? 0)])]);
for (const [title, map] of [
  ['time by the nearest component on the stack (its render, hooks and styles), ms per load', byComponent],
  [`the same, inside ${WITHIN}`, byComponentWithin],
] as const) {
  heading(title);
  printTable([
    ['component', 'ms'],
    ...[...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([k, v]) => [k, per(v)]),
  ]);
}
heading('self time by script, ms per load');
printTable([
  ['script', 'ms'],
  ...[...byFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([k, v]) => [k, per(v)]),
]);
