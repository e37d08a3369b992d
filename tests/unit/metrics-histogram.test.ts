import { describe, expect, it } from 'vitest';
import client from 'prom-client';
import { FastHistogram } from '../../src/server/metrics/histogram.ts';

/** Exposition lines with each line's labels in a fixed order (Prometheus does not care about their order). */
function normalised(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^(\w+)(?:\{(.*)\})? (.+)$/.exec(line);
      if (!m) return line;
      const labels = (m[2] ?? '')
        .split(/,(?=\w+=")/)
        .filter(Boolean)
        .sort()
        .join(',');
      return `${m[1]}{${labels}} ${Number(m[3])}`;
    })
    .sort();
}

describe('FastHistogram', () => {
  it("exposes what prom-client's histogram exposes for the same observations, bucket edges included", async () => {
    const buckets = [0.005, 0.01, 0.1, 1];
    const ours = new client.Registry();
    const theirs = new client.Registry();
    const fast = new FastHistogram('t_seconds', 'help', ['method', 'route'], buckets, ours);
    const reference = new client.Histogram({
      name: 't_seconds',
      help: 'help',
      labelNames: ['method', 'route'],
      buckets,
      registers: [theirs],
    });
    // values on a bound fall in it (le is inclusive), past the last bound only in +Inf
    const seen = [0, 0.005, 0.0051, 0.01, 0.5, 1, 3, 0.002];
    for (const [i, v] of seen.entries()) {
      const labels = i % 2 ? ['GET', '/api/a'] : ['POST', '/api/b'];
      fast.labels(...labels).observe(v);
      reference.labels(...labels).observe(v);
    }
    const got = normalised(await ours.metrics());
    expect(got).toEqual(normalised(await theirs.metrics()));
    expect(got).toContain('t_seconds_bucket{le="0.005",method="GET",route="/api/a"} 2');
    expect((await ours.metrics()).split('\n').slice(0, 2)).toEqual(['# HELP t_seconds help', '# TYPE t_seconds histogram']);
  });

  it('keeps one child per label values and forgets them on reset', async () => {
    const registry = new client.Registry();
    const h = new FastHistogram('u_seconds', 'help', ['a'], [1], registry);
    expect(h.labels('x')).toBe(h.labels('x'));
    h.labels('x').observe(2);
    expect(await registry.metrics()).toContain('u_seconds_count{a="x"} 1');
    h.reset();
    expect(await registry.metrics()).not.toContain('u_seconds_count');
  });
});
