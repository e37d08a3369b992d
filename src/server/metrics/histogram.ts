/**
 * A Prometheus histogram with children fixed by their label values, observed on every request
 * and every statement. prom-client's own histogram hashes and checks the labels on each
 * observation, even through a child made by `labels()`; a child here is a few numbers, and an
 * observation finds its bucket and adds. The exposition (`_bucket` with `le`, `_sum`, `_count`)
 * is prom-client's: the registry formats it like any of its own metrics.
 */
import type client from 'prom-client';

export interface HistogramChild {
  observe(seconds: number): void;
}

interface Child extends HistogramChild {
  readonly labels: Record<string, string>;
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

type Value = { value: number; labels: Record<string, string | number>; metricName: string };

export class FastHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly children = new Map<string, Child>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly buckets: readonly number[],
    registry: client.Registry,
  ) {
    registry.registerMetric(this as unknown as client.Metric);
  }

  /** The child of these label values (in the order of labelNames), made on first use. */
  labels(...values: string[]): HistogramChild {
    const key = values.join('\u0000');
    let child = this.children.get(key);
    if (!child) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, i) => (labels[name] = values[i] ?? ''));
      const bounds = this.buckets;
      const made: Child = {
        labels,
        counts: new Float64Array(bounds.length + 1),
        sum: 0,
        count: 0,
        observe(seconds: number) {
          let i = 0;
          while (i < bounds.length && seconds > bounds[i]) i++;
          made.counts[i]++;
          made.sum += seconds;
          made.count++;
        },
      };
      child = made;
      this.children.set(key, child);
    }
    return child;
  }

  reset(): void {
    this.children.clear();
  }

  /** What prom-client's registry reads at a scrape. */
  get() {
    const values: Value[] = [];
    for (const child of this.children.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += child.counts[i];
        values.push({ value: cumulative, labels: { ...child.labels, le }, metricName: `${this.name}_bucket` });
      });
      values.push({ value: child.count, labels: { ...child.labels, le: '+Inf' }, metricName: `${this.name}_bucket` });
      // copies: prom-client's registry may add its default labels to what it is given
      values.push({ value: child.sum, labels: { ...child.labels }, metricName: `${this.name}_sum` });
      values.push({ value: child.count, labels: { ...child.labels }, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
