import { describe, expect, it } from 'vitest';
import { judge, median, medianRatio, staticImportsOf, type Baseline } from '../../scripts/bench/guard-compare.ts';

const baseline: Baseline = { recorded: '2026-11-27T00:00:00Z', commit: 'abc1234', figures: { list: 0.2, export: 0.5 } };

describe('bench:guard comparison', () => {
  it('passes a figure within its margin of the baseline and fails one below it, saying by how much', () => {
    const [ok, slow] = judge(
      [
        { key: 'list', label: 'list / bare', value: 0.16, margin: 0.25 },
        { key: 'export', label: 'export / raw', value: 0.3, margin: 0.25 },
      ],
      baseline,
    );
    expect(ok.ok).toBe(true);
    expect(ok.floor).toBeCloseTo(0.15);
    expect(slow.ok).toBe(false);
    expect(slow.message).toMatch(/export \/ raw fell to 0\.300, 40 % below its baseline 0\.500/);
    expect(slow.message).toMatch(/at or above 0\.375/);
  });

  it('fails a route slowed down enough to halve its rate against the same bare route', () => {
    // the product answered 1,000 req/s against a bare 10,000; a slower stack answers 500
    const recorded: Baseline = { ...baseline, figures: { oneRow: medianRatio([1000, 1020, 980], [10000, 10000, 10000]) } };
    const [slowed] = judge(
      [{ key: 'oneRow', label: 'one row', value: medianRatio([500, 510, 490], [10000, 10200, 9800]), margin: 0.25 }],
      recorded,
    );
    expect(slowed.ok).toBe(false);
    const [noisy] = judge(
      [{ key: 'oneRow', label: 'one row', value: medianRatio([600, 620, 590], [6500, 6400, 6600]), margin: 0.25 }],
      recorded,
    );
    expect(noisy.ok).toBe(true); // a busy machine slows both sides: the ratio holds
  });

  it('does not fail a figure without a baseline, nor a missing or broken measure silently passes', () => {
    const [fresh] = judge([{ key: 'oneRow', label: 'one row', value: 0.1, margin: 0.25 }], baseline);
    expect(fresh.ok).toBe(true);
    expect(fresh.message).toMatch(/--record/);
    const [broken] = judge([{ key: 'list', label: 'list', value: NaN, margin: 0.25 }], baseline);
    expect(broken.ok).toBe(false);
  });

  it('takes medians of pairwise ratios', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    expect(medianRatio([10, 20, 30], [10, 10, 10])).toBe(2);
  });

  it('follows static imports of a built module but not dynamic ones', () => {
    const code = 'import{a as b}from"./vendor-1.js";import"./style-2.js";const x=()=>import("./lazy-3.js");export{b};';
    expect(staticImportsOf(code)).toEqual(['vendor-1.js', 'style-2.js']);
  });
});
