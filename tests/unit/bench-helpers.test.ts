import { describe, expect, it } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { parseArgs } from '../../scripts/bench/common.ts';
import { percentile } from '../../scripts/bench/load.ts';
import { MODELS, USER_TYPES, createTimeAt } from '../../scripts/bench/seed.ts';

describe('benchmark helpers', () => {
  it('reads --rows, --duration and --connections within bounds', () => {
    const o = parseArgs(['--rows', '5000', '--duration', '2', '--connections', '8'], { rows: 1_000_000 });
    expect([o.rows, o.duration, o.connections]).toEqual([5000, 2, 8]);
    expect(parseArgs([], { rows: 100 }).rows).toBe(100);
    expect(() => parseArgs(['--rows', '0'], { rows: 1 })).toThrow(/--rows/);
    expect(() => parseArgs(['--rows', '1e9'], { rows: 1 })).toThrow(/--rows/);
    expect(() => parseArgs(['--duration', '1000'], { rows: 1 })).toThrow(/--duration/);
    expect(() => parseArgs(['--only', 'mysql'], { rows: 1 })).toThrow(/--only/);
    expect(() => parseArgs(['stray'], { rows: 1 })).toThrow(/unknown argument/);
  });

  it('takes nearest-rank percentiles', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(v, 50), percentile(v, 95), percentile(v, 99), percentile(v, 100)]).toEqual([50, 95, 99, 100]);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 95)).toBeNaN();
  });

  it('seeds only values the schema accepts, with weights adding up to 100 %', () => {
    const spec = resourceByName.sysQuestion;
    const options = (name: string) => spec.fields.find((f) => f.name === name)!.options!.map((o) => o.value);
    expect(USER_TYPES.map(([v]) => v).sort()).toEqual([...options('userType')].sort());
    expect(MODELS.map(([v]) => v).sort()).toEqual([...options('model')].sort());
    for (const table of [USER_TYPES, MODELS]) expect(table.reduce((a, [, w]) => a + w, 0)).toBe(100);
  });

  it('spreads creation times over three years, rising with the row', () => {
    const first = createTimeAt(0, 1000);
    const mid = createTimeAt(500, 1000);
    const last = createTimeAt(999, 1000);
    expect(first).toBe('2022-01-01 08:00:00');
    expect(first < mid && mid < last).toBe(true);
    expect(last.startsWith('2024-12-3')).toBe(true);
    expect(mid).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});
