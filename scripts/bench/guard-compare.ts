/**
 * The guard's judgement (no server code, so a unit test can call it): measured ratios against the
 * recorded baseline. Every figure is a ratio where higher is better (the product's rate over a
 * yardstick's rate measured in the same run, or a budget over a size), so the machine's speed
 * cancels out. A figure fails when it falls more than its margin below the baseline.
 */

export interface GuardFigure {
  /** key in the baseline file */
  key: string;
  /** what it is, for the message */
  label: string;
  /** higher is better */
  value: number;
  /** allowed fall below the baseline, as a fraction (0.25 = 25 %) */
  margin: number;
  /** printed beside the figure (the absolute figures behind the ratio) */
  detail?: string;
}

export interface Baseline {
  recorded: string;
  commit: string;
  note?: string;
  figures: Record<string, number>;
}

export interface Judgement {
  key: string;
  label: string;
  value: number;
  baseline: number | undefined;
  floor: number | undefined;
  ok: boolean;
  message: string;
}

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;

export function judge(figures: GuardFigure[], baseline: Baseline | undefined): Judgement[] {
  return figures.map((f) => {
    const base = baseline?.figures[f.key];
    if (base === undefined || !Number.isFinite(base) || base <= 0) {
      return {
        key: f.key,
        label: f.label,
        value: f.value,
        baseline: undefined,
        floor: undefined,
        ok: true,
        message: `${f.label}: ${f.value.toFixed(3)} (no baseline recorded: run npm run bench:guard -- --record)`,
      };
    }
    const floor = base * (1 - f.margin);
    const ok = Number.isFinite(f.value) && f.value >= floor;
    const change = f.value / base - 1;
    const message = ok
      ? `${f.label}: ${f.value.toFixed(3)}, baseline ${base.toFixed(3)} (${change >= 0 ? '+' : ''}${pct(change)}; fails below ${floor.toFixed(3)})`
      : `${f.label} fell to ${f.value.toFixed(3)}, ${pct(-change)} below its baseline ${base.toFixed(3)} ` +
        `(the margin is ${pct(f.margin)}, so it must stay at or above ${floor.toFixed(3)}). ` +
        'Find what slowed it down; re-record only for a deliberate, justified cost (scripts/bench/README.md, "bench:guard").';
    return { key: f.key, label: f.label, value: f.value, baseline: base, floor, ok, message };
  });
}

/** The median of pairwise ratios a[i] / b[i] (pairs measured back to back keep drift out). */
export function medianRatio(a: number[], b: number[]): number {
  const r = a.map((x, i) => x / b[i]).filter(Number.isFinite);
  return median(r);
}

export function median(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Files a built module loads before it runs: itself and its static imports (`import ... from
 * "./x.js"`, `import "./x.js"`), transitively; dynamic `import("./x.js")` is not followed.
 */
export function staticImportsOf(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) out.push(m[1]);
  return out;
}
