/**
 * Extracts the HTTP calls the spec names into tests/fixtures/spec-calls.txt, one `METHOD path`
 * a line, for tests/server/spec-call-list.test.ts. Run once when the spec changes:
 *   npx tsx scripts/extract-spec-calls.ts SPEC_FILE... > tests/fixtures/spec-calls.txt
 *
 * How the spec writes calls, and how each is read:
 * - a full path `api/...` or `comp/...` (leading slash optional, trailing slash or full stop dropped);
 * - a comma (or "and") list after a path or a method continues it with names relative to the
 *   resource base of the last path (`GET /api/brandTree/getTree, getTreeByPid?pid` ->
 *   api/brandTree/getTreeByPid). The base of `api/NS/Resource/...` for the spec's module
 *   namespaces (system, xs, sc, os, jp, tms, kf, qywxapp, dbc, other) is api/NS/Resource, else
 *   api/Resource or comp/Resource. A name with the same lowercase prefix as the base
 *   (`api/sc/scClueActivity and scClueActivity2`) is a sibling resource, not a sub-path;
 * - the method is the method word before the list (`POST/PUT/DELETE api/menus` gives three);
 *   method words in a clause that name no path of their own (`(POST/PUT/DELETE on base path
 *   with body, GET with paging): api/kf/...`, `..., each with POST, PUT, DELETE`) apply to every
 *   path of that clause without its own method;
 * - a path still without a method takes the methods the spec gives it elsewhere, else POST for
 *   `.../import` and the Uploads lists, else GET.
 * Front-end routes (`/comp/jxs_...`) are screens, not calls, and are skipped.
 */
import { readFileSync } from 'node:fs';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
const NAMESPACES = new Set(['system', 'xs', 'sc', 'os', 'jp', 'tms', 'kf', 'qywxapp', 'dbc', 'other']);

interface Found {
  path: string;
  methods: Set<string>;
  extra: boolean;
}

function baseOf(path: string): string {
  const seg = path.split('/');
  if (seg[0] === 'api' && NAMESPACES.has(seg[1]) && seg.length >= 3) return seg.slice(0, 3).join('/');
  return seg.slice(0, 2).join('/');
}
const prefix = (name: string) => (/^[a-z]+/.exec(name) ?? [''])[0];

function resolve(rel: string, base: string): string {
  const name = rel.replace(/^\//, '');
  const last = base.split('/').pop()!;
  const namespaced = base.split('/').length === 3;
  if (namespaced && !name.includes('/') && prefix(name) && prefix(name) === prefix(last)) {
    return `${base.split('/').slice(0, -1).join('/')}/${name}`;
  }
  return `${base}/${name}`;
}

/** leading slash, trailing slash or full stop and query values dropped: `getZpById?id=` -> `getZpById?id` */
const clean = (p: string) =>
  p
    .replace(/^\//, '')
    .replace(/[./]+$/, '')
    .replace(/=[^&]*/g, '');

const NOT_NAMES = new Set(['and', 'plus', 'with', 'paged', 'to', 'of', 'at', 'each', 'else', 'needs']);
const TOKEN =
  /(?<methods>\b(?:GET|POST|PUT|DELETE)\b(?:\s*(?:\/|,\s*|\s+and\s+)\s*\b(?:GET|POST|PUT|DELETE)\b)*)|(?<path>\/?\b(?:api|comp)\/[\w/{}?=&.-]*)|(?<rel>(?<=(?:,|\band|\bplus)\s+|\b(?:GET|POST|PUT|DELETE)\s+)\/?[a-z][\w]*(?:\/(?:\{\w+\}|\w+))*\/?(?:\?[\w&=]*)?(?=[,;.)(:]|\s+and\b|\s+\(|\s*$|(?<=[A-Z?{}]\w*)\s+[a-z]))|(?<open>\()|(?<close>\))|(?<stop>;|\.(?:\s|$)|:\s)|(?<comma>,|\band\b|\bplus\b)/g;

export function extract(text: string): Array<[string, string]> {
  const found: Found[] = [];
  const explicit = new Map<string, Set<string>>();
  for (const rawLine of text.split('\n')) {
    if (!/\b(api|comp)\//.test(rawLine)) continue;
    const uploads = /^\W*Uploads\b/.test(rawLine);
    let base = '';
    let clause: Array<{ f: Found; depth: number }> = [];
    let clauseDefaults = new Set<string>();
    // per paren depth: methods of the running list, whether the list is open (after a method, path or comma)
    let depth = 0;
    const ctx: Array<{ methods: string[]; open: boolean; used: boolean; plus?: boolean }> = [{ methods: [], open: false, used: true }];
    const close = () => {
      for (const c of clause) if (!c.f.methods.size && !c.f.extra) for (const m of clauseDefaults) c.f.methods.add(m);
      clause = [];
      clauseDefaults = new Set();
    };
    const flushMethods = (c: { methods: string[]; used: boolean }) => {
      if (!c.used) for (const m of c.methods) clauseDefaults.add(m);
    };
    const add = (path: string) => {
      const c = ctx[depth];
      const f: Found = { path: clean(path), methods: new Set(c.open ? c.methods : []), extra: c.plus === true };
      if (f.methods.size) {
        const s = explicit.get(f.path) ?? new Set();
        for (const m of f.methods) s.add(m);
        explicit.set(f.path, s);
      }
      if (uploads && !f.methods.size) f.methods.add('POST');
      found.push(f);
      clause.push({ f, depth });
      if (c.open) c.used = true;
      c.open = true;
      last = f;
    };
    let end = 0;
    let last = null as Found | null;
    for (const m of rawLine.matchAll(TOKEN)) {
      const g = m.groups!;
      const c = ctx[depth];
      // any other words between two tokens end the running list (`GET /api/qywxLogin with code and state`)
      const gap = rawLine.slice(end, m.index).trim();
      const follows: Found | null = !gap ? last : null;
      last = null;
      if (gap && !(gap === 'to' && c.methods.length)) {
        c.open = false;
        c.plus = false;
      }
      end = m.index + m[0].length;
      if (g.methods) {
        flushMethods(c);
        // `api/xs/xsLrSjmx POST/PUT/DELETE, GET findGroup`: the first group belongs to the path before it
        const groups = g.methods.split(/\s*,\s*|\s+and\s+/);
        if (follows && groups.length > 1) {
          for (const m of groups[0].split(/\s*\/\s*/)) {
            follows.methods.add(m);
            const s = explicit.get(follows.path) ?? new Set();
            explicit.set(follows.path, s.add(m));
          }
          groups.shift();
        }
        c.methods = groups.join(',').match(/GET|POST|PUT|DELETE/g)!;
        c.used = false;
        c.open = true;
      } else if (g.path) {
        if (/^\/?comp\/jxs_/.test(g.path)) {
          c.open = false;
          continue;
        }
        add(g.path);
        base = baseOf(clean(g.path));
      } else if (g.rel) {
        if (c.open && base && !NOT_NAMES.has(clean(g.rel))) add(resolve(clean(g.rel), base));
      } else if (g.open) {
        c.open = false;
        depth++;
        ctx[depth] = { methods: [], open: false, used: true };
      } else if (g.close) {
        flushMethods(c);
        if (depth > 0) depth--;
        ctx[depth].open = false;
      } else if (g.stop) {
        for (const k of ctx.slice(0, depth + 1)) {
          flushMethods(k);
          k.methods = [];
          k.open = false;
          k.used = true;
        }
        if (g.stop.startsWith(':')) {
          ctx[depth].open = false;
          continue;
        }
        depth = 0;
        close();
      } else if (g.comma) {
        if (g.comma === 'plus') {
          c.open = true;
          c.methods = [];
          c.plus = true;
        }
      }
    }
    for (const k of ctx.slice(0, depth + 1)) flushMethods(k);
    close();
  }
  const calls = new Set<string>();
  for (const f of found) {
    let methods = [...f.methods];
    if (!methods.length) methods = [...(explicit.get(f.path) ?? [])];
    if (!methods.length) methods = [/\/import$/.test(f.path) ? 'POST' : 'GET'];
    if (/\/import$/.test(f.path)) methods = ['POST'];
    for (const m of methods) calls.add(`${m} ${f.path}`);
  }
  return [...calls]
    .map((c) => c.split(' ') as [string, string])
    .sort((a, b) => a[1].localeCompare(b[1]) || METHODS.indexOf(a[0] as 'GET') - METHODS.indexOf(b[0] as 'GET'));
}

if (process.argv[1]?.endsWith('extract-spec-calls.ts')) {
  const text = process.argv
    .slice(2)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const calls = extract(text);
  process.stdout.write(`# The spec's calls, METHOD path, extracted by scripts/extract-spec-calls.ts (${calls.length} calls)\n`);
  for (const [m, p] of calls) process.stdout.write(`${m} ${p}\n`);
}
