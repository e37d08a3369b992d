/**
 * Every Markdown file of the repository: each relative link and image resolves to a file or
 * folder of the repository, each `#anchor` to a heading of the page it points at (GitHub's
 * heading ids), and each file path written as code (`src/…`, `docs/…`, `tests/…`, …) names a
 * file that exists. Links to other sites are not followed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'data', 'test-results', 'coverage']);

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) markdownFiles(join(dir, entry.name), out);
    } else if (entry.name.endsWith('.md')) out.push(join(dir, entry.name));
  }
  return out;
}

/** The text outside fenced code blocks, line by line (fences hold examples, not links). */
function proseLines(text: string): Array<{ line: number; text: string }> {
  const lines: Array<{ line: number; text: string }> = [];
  let fence: string | null = null;
  text.split('\n').forEach((l, i) => {
    const m = /^\s*(```+|~~~+)/.exec(l);
    if (m) {
      if (fence === null) fence = m[1][0];
      else if (m[1][0] === fence) fence = null;
      return;
    }
    if (fence === null) lines.push({ line: i + 1, text: l });
  });
  return lines;
}

/** GitHub's id for a heading: lower case, punctuation dropped (letters of every script kept), spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let set = anchorCache.get(file);
  if (set) return set;
  set = new Set();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(readFileSync(file, 'utf8'))) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!m) continue;
    const base = headingSlug(m[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    set.add(n ? `${base}-${n}` : base);
  }
  anchorCache.set(file, set);
  return set;
}

/** Inline links and images: [text](target) and ![alt](target), also inside tables. */
function linksOf(line: string): string[] {
  const out: string[] = [];
  const withoutCode = line.replace(/`[^`]*`/g, '');
  for (const m of withoutCode.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  return out;
}

const CODE_PATH = /^(src|tests|scripts|docs|schemas|codegen)\/[^\s*<>{}`]+\.(ts|tsx|md|json|sh|sql|png|html)$/;

interface Problem {
  file: string;
  line: number;
  target: string;
  why: string;
}

function check(file: string): Problem[] {
  const problems: Problem[] = [];
  const rel = relative(ROOT, file);
  for (const { line, text } of proseLines(readFileSync(file, 'utf8'))) {
    for (const target of linksOf(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const path = decodeURIComponent(pathPart.split('?')[0]);
      const dest = path ? resolve(dirname(file), path) : file;
      if (!dest.startsWith(ROOT)) {
        problems.push({ file: rel, line, target, why: 'points outside the repository' });
        continue;
      }
      if (!existsSync(dest)) {
        problems.push({ file: rel, line, target, why: 'no such file' });
        continue;
      }
      if (anchor !== undefined) {
        if (statSync(dest).isDirectory() || !dest.endsWith('.md'))
          problems.push({ file: rel, line, target, why: 'anchor on a file that is not Markdown' });
        else if (!anchorsOf(dest).has(decodeURIComponent(anchor))) problems.push({ file: rel, line, target, why: `no heading #${anchor}` });
      }
    }
    for (const m of text.matchAll(/`([^`]+)`/g)) {
      const path = m[1].trim();
      // "Create `schemas/x.json`:" tells the reader to make the file: not a citation
      const toBeMade = /\b(create|add)\s*$/i.test(text.slice(0, m.index));
      if (CODE_PATH.test(path) && !toBeMade && !path.startsWith('src/generated/') && !existsSync(resolve(ROOT, path)))
        problems.push({ file: rel, line, target: path, why: 'names a file the repository does not have' });
    }
  }
  return problems;
}

describe('Markdown links', () => {
  const files = markdownFiles(ROOT);

  it('finds the documentation', () => {
    const names = files.map((f) => relative(ROOT, f));
    expect(names).toContain('README.md');
    expect(names).toContain(join('docs', 'README.md'));
    expect(names.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [relative(ROOT, f), f]))('%s: every relative link, anchor and named file exists', (_name, file) => {
    const problems = check(file).map((p) => `${p.file}:${p.line} ${p.target}: ${p.why}`);
    expect(problems).toEqual([]);
  });
});

describe('heading ids as GitHub makes them', () => {
  it.each([
    ['Read access and personal data', 'read-access-and-personal-data'],
    ['Applicant onboarding (应聘人员)', 'applicant-onboarding-应聘人员'],
    ["System settings, /explain, the dealer's lock time", 'system-settings-explain-the-dealers-lock-time'],
    ['`x-entity`', 'x-entity'],
    ['1. Write the schema', '1-write-the-schema'],
  ])('%s → %s', (heading, slug) => {
    expect(headingSlug(heading.replace(/`/g, ''))).toBe(slug);
  });
});
