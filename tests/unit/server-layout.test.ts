/**
 * The layout of src/server (docs/architecture.md, "A request's way through the engine"): no
 * TypeScript file over MAX_LINES lines, so a reader finds a part by its file rather than by
 * scrolling; and every file of the engine (src/server/crud/ and its folders) and of the OpenAPI
 * tables (src/server/openapi/) opens with a comment saying what it is for. Both are checked over
 * the whole tree as it is, so a new or grown file is caught without naming it here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const SERVER = join(ROOT, 'src/server');
const MAX_LINES = 700;
/** folders whose every file opens with a `/** … *\/` comment */
const COMMENTED = ['src/server/crud', 'src/server/openapi'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return tsFiles(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    })
    .sort();
}

/** Lines as an editor numbers them: a final newline ends the last line, it does not start another. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

const files = tsFiles(SERVER).map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

describe('layout of src/server', () => {
  it('reads the tree', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path.startsWith('src/server/crud/history/'))).toBe(true);
  });

  it('counts lines as an editor does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\n\nb')).toBe(3);
  });

  it(`has no TypeScript file over ${MAX_LINES} lines`, () => {
    const over = files
      .map((f) => ({ path: f.path, lines: lineCount(f.text) }))
      .filter((f) => f.lines > MAX_LINES)
      .sort((a, b) => b.lines - a.lines)
      .map((f) => `${f.path}: ${f.lines} lines`);
    expect(over, `split these by area (at most ${MAX_LINES} lines each)`).toEqual([]);
  });

  it('opens every file of the engine and of the OpenAPI tables with a comment saying what it is for', () => {
    const inFolders = files.filter((f) => COMMENTED.some((dir) => f.path.startsWith(`${dir}/`)));
    expect(inFolders.length).toBeGreaterThan(40);
    const bare = inFolders.filter((f) => !/^\/\*\*\s*\n\s*\*\s*\S/.test(f.text)).map((f) => f.path);
    expect(bare).toEqual([]);
  });
});
