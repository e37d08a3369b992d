/**
 * No test waits a fixed time and then asserts: such a test passes on a fast machine and fails on
 * one twice as slow. A wait is a poll for the event (`until`, `steady` in tests/support/wait.ts,
 * or a sleep inside a loop that checks a condition with a deadline), or `elapse(ms)` with a
 * comment saying which time the scenario needs (a window that must run out, a quiet spell in
 * which nothing may happen). Any other fixed wait in tests/ is refused here with its line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** A fixed wait written in place: a timer promise, Playwright's waitForTimeout, a sleep helper. */
const FIXED_WAIT = /new Promise(<[^>]*>)?\(\s*\(?\w*\)?\s*=>\s*setTimeout\(|\.waitForTimeout\(|\bsleep\(\s*[\w.]/;
const LOOP_HEAD = /^\s*(\}\s*)?(for|while)\s*\(|^\s*do\b/;

const indent = (s: string) => s.length - s.trimStart().length;

/** Whether a loop encloses line i: its openers (the nearest earlier lines indented less), up to a function. */
function inLoop(lines: string[], i: number): boolean {
  let own = indent(lines[i]);
  for (let j = i - 1; j >= 0; j--) {
    if (!lines[j].trim() || indent(lines[j]) >= own) continue;
    if (LOOP_HEAD.test(lines[j])) return true;
    if (/=>\s*\{\s*$|\bfunction\b|^\s*(it|test|describe)\(/.test(lines[j])) return false;
    own = indent(lines[j]);
  }
  return false;
}

const hasComment = (line: string | undefined) => !!line && /\/\/|\/\*|^\s*\*/.test(line);

/** The refused waits of one file's text, as `line: text`. */
export function refusedWaits(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    if (/^\s*(export )?const sleep\s*=/.test(code))
      out.push(`${i + 1}: a sleep helper (use until/steady/elapse from tests/support/wait.ts)`);
    else if (/\belapse\(/.test(code) && !/function elapse/.test(code)) {
      if (!hasComment(line) && !hasComment(lines[i - 1]) && !LOOP_HEAD.test(code) && !inLoop(lines, i))
        out.push(`${i + 1}: elapse() without a comment saying why the time itself is needed`);
    } else if (FIXED_WAIT.test(code) && !/Promise\.race|a deadline/.test(line)) {
      if (!LOOP_HEAD.test(code) && !inLoop(lines, i)) out.push(`${i + 1}: ${line.trim()}`);
    }
  });
  return out;
}

describe('waits in the tests', () => {
  it('refuses a fixed wait outside a poll, and elapse() without its reason', () => {
    const found = files(root)
      .filter((f) => !f.endsWith(join('support', 'wait.ts')) && !f.endsWith('test-waits.test.ts'))
      .flatMap((f) => refusedWaits(readFileSync(f, 'utf8')).map((w) => `${relative(root, f)}:${w}`));
    expect(found).toEqual([]);
  });

  it('tells a sleep before an assertion from a poll and from a reasoned pause', () => {
    expect(refusedWaits(`  await new Promise((r) => setTimeout(r, 50));\n  expect(closed).toBe(true);`)).toHaveLength(1);
    expect(refusedWaits(`  await page.waitForTimeout(300);`)).toHaveLength(1);
    expect(refusedWaits(`  await sleep(100);`)).toHaveLength(1);
    expect(refusedWaits(`const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));`)).toHaveLength(1);
    expect(refusedWaits(`  await elapse(300);`)).toHaveLength(1);
    expect(refusedWaits(`  while (n < 5) await new Promise((r) => setTimeout(r, 5));`)).toEqual([]);
    expect(refusedWaits(`  for (let i = 0; i < 9; i++) {\n    await new Promise((r) => setTimeout(r, 100));\n  }`)).toEqual([]);
    expect(
      refusedWaits(`  for (;;) {\n    try {\n      break;\n    } catch {\n      await new Promise((r) => setTimeout(r, 100));\n    }\n  }`),
    ).toEqual([]);
    expect(refusedWaits(`  // the window runs out\n  await elapse(1300);`)).toEqual([]);
  });
});
