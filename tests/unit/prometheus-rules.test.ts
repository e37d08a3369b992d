/**
 * The alert rules in ops/prometheus/ through Prometheus's own tool: `promtool check rules` finds
 * them valid and `promtool test rules` passes their unit tests (ops/prometheus/alerts.test.yml),
 * which hold a test for every alert. Skipped, saying why, where promtool is not installed
 * (Debian package `prometheus`, installed by .ci/run).
 * The Grafana dashboard (ops/grafana/dealer-console.json): every query is valid PromQL (checked by
 * promtool as a recording rule) and, like the alert rules, names only metrics the product exports.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = resolve(import.meta.dirname, '../../ops/prometheus');
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const missing = promtool.error ? 'promtool is not installed (apt-get install prometheus)' : undefined;
if (missing) console.log(`prometheus rules: skipped, ${missing}`);

const DASHBOARD = resolve(import.meta.dirname, '../../ops/grafana/dealer-console.json');
const METRICS_SOURCE = resolve(import.meta.dirname, '../../src/server/metrics/index.ts');

/** the PromQL queries of the dashboard, its variables replaced by a match-all */
function dashboardQueries(): string[] {
  const dash = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Array<{ targets: Array<{ expr: string }> }> };
  return dash.panels.flatMap((p) => p.targets.map((t) => t.expr.replace(/\$(job|instance)/g, '.*')));
}

/** metric names a query uses: identifiers followed by { or [ or a space and an operator, known prefixes */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b((?:dealer|http|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|count|sum)$/, ''));
}

/** names the product exports: its own (metrics/index.ts: prom-client's `name: '…'`, or the first argument of its own histograms) and the default collectors' prefixes */
function exported(name: string): boolean {
  if (name.startsWith('nodejs_') || name.startsWith('process_')) return true;
  const source = readFileSync(METRICS_SOURCE, 'utf8');
  return source.includes(`name: '${name}'`) || new RegExp(`new FastHistogram\\(\\s*'${name}'`).test(source);
}

const alertNames = (text: string) => [...text.matchAll(/^\s*- alert:\s*(\S+)/gm)].map((m) => m[1]);

describe('alert rules', () => {
  it('every alert has a unit test', () => {
    const names = alertNames(readFileSync(`${DIR}/alerts.yml`, 'utf8'));
    expect(names.length).toBeGreaterThanOrEqual(8);
    const tests = readFileSync(`${DIR}/alerts.test.yml`, 'utf8');
    const tested = new Set([...tests.matchAll(/alertname:\s*(\S+)/g)].map((m) => m[1]));
    expect(names.filter((n) => !tested.has(n))).toEqual([]);
    // each alert is also seen firing somewhere (a test with expected alerts, not only quiet ones)
    const firing = new Set([...tests.matchAll(/alertname:\s*(\S+)\s*\n\s*exp_alerts:\s*\n\s*- exp_labels/g)].map((m) => m[1]));
    expect(names.filter((n) => !firing.has(n))).toEqual([]);
  });

  it('the rules and the dashboard name only metrics the product exports', () => {
    const used = [readFileSync(`${DIR}/alerts.yml`, 'utf8'), ...dashboardQueries()].flatMap(metricNames);
    expect(used.length).toBeGreaterThan(20);
    expect([...new Set(used)].filter((n) => !exported(n))).toEqual([]);
  });

  it.skipIf(!!missing)('every query of the dashboard is valid PromQL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-rules-'));
    try {
      const rules = dashboardQueries().map((expr, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(expr)}`);
      writeFileSync(join(dir, 'dashboard.yml'), `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
      const run = spawnSync('promtool', ['check', 'rules', join(dir, 'dashboard.yml')], { encoding: 'utf8' });
      expect(`${run.stdout}${run.stderr}`).toMatch(/SUCCESS/);
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!!missing)('promtool check rules finds them valid', () => {
    const out = execFileSync('promtool', ['check', 'rules', 'alerts.yml'], { cwd: DIR, encoding: 'utf8' });
    expect(out).toMatch(/SUCCESS: \d+ rules found/);
  });

  it.skipIf(!!missing)(
    'promtool test rules passes every unit test',
    () => {
      const run = spawnSync('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: DIR, encoding: 'utf8' });
      expect(`${run.stdout}${run.stderr}`).toMatch(/SUCCESS/);
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    },
    120_000,
  );
});
