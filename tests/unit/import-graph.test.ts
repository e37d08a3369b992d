/**
 * The import rules of src/ (docs/architecture.md: "Import rules"). Every .ts/.tsx file under src/
 * is read as text; its `import ... from`, `export ... from`, side-effect `import '...'`, dynamic
 * `import('...')` and type `import('...')` specifiers are found by a small scanner (comments
 * removed first) and the relative ones resolved to files. The check fails on:
 *  - any import cycle. Type-only imports and lazy `import()` count too: a cycle of types is the
 *    same knot for a reader and for any tool drawing the graph (and one `import type` turned into
 *    a value import would make it a load-order cycle without anyone noticing);
 *  - src/web or src/shared importing src/server; src/shared importing src/web;
 *  - src/server/auth, src/server/crud or src/server/db importing src/server/modules (features plug
 *    into access rules, never the other way);
 *  - one app's folder (src/web/staff, src/web/dealer, src/web/applicant, src/web/login)
 *    importing another's: what more than one app uses lives in src/web/common (HTTP client,
 *    session, token, RSA, schema validation, idle lock) or src/web/components (shared widgets);
 *  - src/web/common or src/web/components importing any app's folder;
 *  - src/server importing a large library that only one rare request needs (LAZY_ON_SERVER) by a
 *    value import: it must come through `import()` where it is used, or every instance holds it
 *    from its start (bson alone keeps a 17 MB buffer from the moment it loads).
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'src');

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listSources(p));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

/** Source text with comments blanked (strings and template literals kept as they are). */
export function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') j++;
        else if (c !== '`' && text[j] === '\n') break;
        j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Every module specifier a file names: static imports/exports, side-effect imports, import(). */
export function specifiers(text: string): string[] {
  const code = stripComments(text);
  const found: string[] = [];
  const patterns = [
    /(?:^|[\n;}])\s*(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/g,
    /(?:^|[\n;}])\s*import\s*(['"])([^'"]+)\1/g,
    /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[2]);
  return found;
}

function resolveRelative(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return base; // reported below as unresolved
}

const rel = (p: string) => relative(ROOT, p).split(sep).join('/');

function buildGraph() {
  const graph = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of listSources(SRC)) {
    const targets = new Set<string>();
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      const target = resolveRelative(file, spec);
      if (target === null) continue;
      if (!/\.(ts|tsx)$/.test(target)) {
        if (!existsSync(target)) unresolved.push(`${rel(file)} -> ${spec}`);
        continue; // .json, .css and the like are leaves
      }
      if (!existsSync(target)) unresolved.push(`${rel(file)} -> ${spec}`);
      else targets.add(rel(target));
    }
    graph.set(rel(file), [...targets].sort());
  }
  return { graph, unresolved };
}

/** Strongly connected components with more than one file (or a file importing itself), Tarjan. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** One concrete loop inside a component, for the message: a -> b -> ... -> a. */
function oneLoop(graph: Map<string, string[]>, comp: string[]): string {
  const inComp = new Set(comp);
  const start = comp[0];
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0])!);
        return [...path, start].join(' -> ');
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return comp.join(', ');
}

const under = (file: string, folder: string) => file.startsWith(`${folder}/`);

/** The apps' folders: each holds only its own app. */
const APPS = ['src/web/staff', 'src/web/dealer', 'src/web/applicant', 'src/web/login'];

/** Layer rules: [which importers, which targets, why]. */
const RULES: Array<[string[], string[], string]> = [
  [['src/web', 'src/shared'], ['src/server'], 'the browser code and the shared code never import the server'],
  [['src/shared'], ['src/web'], 'shared code never imports the web apps'],
  [['src/server/auth', 'src/server/crud', 'src/server/db'], ['src/server/modules'], 'access rules, CRUD and the database know no feature'],
  ...APPS.map((app): [string[], string[], string] => [
    [app],
    APPS.filter((other) => other !== app),
    'an app folder imports no other app (shared code goes to src/web/common or src/web/components)',
  ]),
  [['src/web/common', 'src/web/components'], APPS, 'the code the apps share imports no app'],
];

/** packages the server loads on first use only: the phone look-up's tables, contract PDFs, import templates */
const LAZY_ON_SERVER = ['bson', 'pdfkit', 'exceljs'];

/** The packages a file imports as values when it loads (static imports and exports, not `import type`, not `import()`). */
export function loadedPackages(text: string): string[] {
  const code = stripComments(text);
  const found: string[] = [];
  const patterns = [
    /(?:^|[\n;}])\s*(?:import|export)\s+(?!type\s)[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/g,
    /(?:^|[\n;}])\s*import\s*(['"])([^'"]+)\1/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) if (!m[2].startsWith('.')) found.push(m[2]);
  return found;
}

describe('import graph of src/', () => {
  const { graph, unresolved } = buildGraph();

  it('reads the sources and resolves every relative import', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(unresolved).toEqual([]);
  });

  it('the scanner finds every kind of import and skips comments', () => {
    const text = [
      "import a from './a.ts';",
      "import type { B } from './b.ts';",
      "import {\n  c,\n  d,\n} from './c.ts';",
      "export { e } from './e.ts';",
      "export * from './f.ts';",
      "import './g.css';",
      "const h = () => import('./h.tsx');",
      "let i: import('./i.ts').I;",
      "// import x from './commented.ts';",
      "/* import y from './block.ts'; */",
      'const s = \'import z from "./in-string.ts"\';',
    ].join('\n');
    expect(specifiers(text).sort()).toEqual(['./a.ts', './b.ts', './c.ts', './e.ts', './f.ts', './g.css', './h.tsx', './i.ts']);
  });

  it('the cycle finder finds a loop and leaves a tree alone', () => {
    const loop = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(loop)).toEqual([['a', 'b', 'c']]);
    expect(
      cycles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no import cycle', () => {
    const found = cycles(graph).map((comp) => `${comp.length} files: ${oneLoop(graph, comp)}`);
    expect(found, `import cycles:\n${found.join('\n')}`).toEqual([]);
  });

  it('keeps the layers and the apps apart', () => {
    const broken: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        for (const [from, to, why] of RULES) {
          if (!from.some((f) => under(file, f)) || !to.some((t) => under(target, t))) continue;
          broken.push(`${file} -> ${target} (${why})`);
        }
      }
    }
    expect(broken, `imports against the rules:\n${broken.join('\n')}`).toEqual([]);
  });

  it('the server loads its rarely needed large libraries on first use', () => {
    expect(
      loadedPackages("import a from 'bson';\nimport type { B } from 'pdfkit';\nconst c = await import('exceljs');\nexport { d } from 'x';"),
    ).toEqual(['bson', 'x']);
    const eager: string[] = [];
    for (const file of listSources(join(SRC, 'server')))
      for (const pkg of loadedPackages(readFileSync(file, 'utf8'))) if (LAZY_ON_SERVER.includes(pkg)) eager.push(`${rel(file)}: ${pkg}`);
    expect(eager, `load these with import() where they are used:\n${eager.join('\n')}`).toEqual([]);
  });
});
