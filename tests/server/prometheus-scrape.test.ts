/**
 * A real Prometheus scrapes the product: the product listens on a free port with METRICS_TOKEN,
 * Prometheus (the Debian package's binary) gets a scrape configuration like the one in
 * docs/operations-monitoring.md (bearer token, the alert rules of ops/prometheus/), a scrape
 * interval of one second, a temporary folder and a free port; the test then reads the samples
 * back through Prometheus's HTTP API, polling with a deadline. On PostgreSQL two instances on one
 * database are scraped, each reporting its own under Prometheus's `instance` label.
 * Skipped, saying why, where Prometheus is not installed (.ci/run installs it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, testApps, type TestApp } from './helpers.ts';

const TOKEN = 'prometheus-scrape-token-0123456789';
const RULES = resolve(import.meta.dirname, '../../ops/prometheus/alerts.yml');
const missing = spawnSync('prometheus', ['--version']).error ? 'prometheus is not installed (apt-get install prometheus)' : undefined;
if (missing) console.log(`prometheus scrape: skipped, ${missing}`);

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

describe.skipIf(!!missing).each(testApps())('a real Prometheus scraping the product on %s', (dialect, start) => {
  let t: TestApp;
  const apps: FastifyInstance[] = [];
  const targets: string[] = [];
  let prometheus: ChildProcess | undefined;
  let api = '';
  let dir = '';
  let log = '';

  beforeAll(async () => {
    t = await start({ metricsToken: TOKEN });
    apps.push(t.app);
    // on PostgreSQL a second instance on the same database
    if (dialect === 'postgres') apps.push(await t.reopen());
    for (const app of apps) {
      await app.listen({ host: '127.0.0.1', port: 0 });
      targets.push(`127.0.0.1:${(app.server.address() as { port: number }).port}`);
    }
    dir = mkdtempSync(join(tmpdir(), 'prometheus-test-'));
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      `  - ${JSON.stringify(RULES)}`,
      'scrape_configs:',
      '  - job_name: dealer-console',
      '    metrics_path: /metrics',
      '    authorization:',
      `      credentials: ${TOKEN}`,
      '    static_configs:',
      `      - targets: ${JSON.stringify(targets)}`,
    ].join('\n');
    writeFileSync(join(dir, 'prometheus.yml'), config);
    const port = await freePort();
    api = `http://127.0.0.1:${port}/api/v1`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    prometheus.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  }, 60_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((r) => prometheus!.once('exit', r));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** the samples of an instant query, once `ok` accepts them (polled up to 30 s) */
  async function until(query: string, ok: (samples: Sample[]) => boolean): Promise<Sample[]> {
    const deadline = Date.now() + 30_000;
    let last: Sample[] = [];
    while (Date.now() < deadline) {
      const res = await fetch(`${api}/query?query=${encodeURIComponent(query)}`).catch(() => undefined);
      if (res?.ok) {
        last = ((await res.json()) as { data: { result: Sample[] } }).data.result;
        if (ok(last)) return last;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${query}: no acceptable answer in 30 s, last ${JSON.stringify(last)}; prometheus log: ${log.slice(-1500)}`);
  }

  it('scrapes every instance with the token and reads their samples back', async () => {
    const up = await until('up{job="dealer-console"}', (s) => s.length === targets.length && s.every((x) => x.value[1] === '1'));
    expect(up.map((s) => s.metric.instance).sort()).toEqual([...targets].sort());

    // requests on every instance, then their counts through Prometheus
    for (const app of apps) {
      const token = await loginAs(app, 'admin', ADMIN_PASSWORD);
      for (let i = 0; i < 5; i++) {
        const res = await app.inject({ method: 'GET', url: '/api/sysQuestion?page=0&size=10', headers: bearer(token) });
        expect(res.statusCode).toBe(200);
      }
    }
    const lists = await until(
      'http_request_duration_seconds_count{job="dealer-console",route="/api/sysQuestion",method="GET",status_class="2xx"}',
      (s) => s.length === targets.length && s.every((x) => Number(x.value[1]) >= 5),
    );
    expect(lists.map((s) => s.metric.instance).sort()).toEqual([...targets].sort());

    const ready = await until('dealer_ready', (s) => s.length === targets.length && s.every((x) => x.value[1] === '1'));
    expect(ready).toHaveLength(targets.length);
    const statements = await until(
      'sum by (instance) (dealer_db_statement_duration_seconds_count{operation="select",table="sys_question"})',
      (s) => s.length === targets.length,
    );
    expect(statements.every((s) => Number(s.value[1]) > 0)).toBe(true);
    await until('dealer_disk_free_ratio{dir="data"}', (s) => s.length === targets.length && s.every((x) => Number(x.value[1]) > 0));
    await until('nodejs_heap_size_used_bytes', (s) => s.length === targets.length);
  }, 90_000);

  it('loads the alert rules, all healthy, none firing on a healthy instance', async () => {
    const deadline = Date.now() + 30_000;
    let rules: Array<{ name: string; health: string; state: string }> = [];
    while (Date.now() < deadline) {
      const res = await fetch(`${api}/rules`).catch(() => undefined);
      if (res?.ok) {
        const body = (await res.json()) as { data: { groups: Array<{ rules: typeof rules }> } };
        rules = body.data.groups.flatMap((g) => g.rules);
        if (rules.length >= 8 && rules.every((r) => r.health === 'ok')) break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(rules.map((r) => r.name)).toEqual(expect.arrayContaining(['DealerBackupTooOld', 'DealerNotReady', 'DealerDiskFreeLow']));
    expect(rules.filter((r) => r.health !== 'ok')).toEqual([]);
    expect(rules.filter((r) => r.name === 'DealerNotReady' && r.state !== 'inactive')).toEqual([]);
  }, 60_000);
});
