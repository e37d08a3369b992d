/**
 * Build option: fewer, larger script files for a visit to the console, with no page loading
 * more than before.
 *
 * Left to itself the bundler splits the code by the exact set of entries (the applications and
 * every lazily loaded screen, dialog and drawer) that reach each module: a list visit loaded 67
 * script files, most under 2 KB, and over the browser's six connections the last of them
 * arrived well after the list's data, so the first paint waited for them.
 *
 * The grouping is computed from that split itself, in two passes: a first build without
 * minification gives the bundler's own chunks (which modules it keeps, which chunk imports
 * which); each chunk that the console's start or the list screens load is labelled with the
 * starts that load it before their first screen (sign-in, password reset, applicant pages,
 * dealer portal, console, list); chunks with the same label become one file. Every start then
 * loads the same modules as before, in fewer files. The label only grows along imports (whatever
 * loads a chunk loads what it imports), so merged files cannot import each other in a cycle.
 * Only the entry's own chunks and the console's and list screens' root modules are left as they
 * are (the manifest, the early start and the benchmark find those by module).
 */
import { resolve } from 'node:path';
import { build, type Rolldown } from 'vite';

const ENTRY = 'src/web/main.tsx';
/** the starts a chunk may be loaded by, and the modules each starts from */
const STARTS: Record<string, string[]> = {
  login: ['src/web/login/LoginApp.tsx'],
  reset: ['src/web/login/ForgetPassApp.tsx'],
  applicant: ['src/web/applicant/ApplicantApp.tsx'],
  dealer: ['src/web/dealer/DealerApp.tsx'],
  // the console's frame and what the entry starts beside it (see scripts/vite/console-early-start.ts)
  console: ['src/web/staff/StaffApp.tsx', 'src/web/staff/shell/menus.ts', 'src/web/staff/prefetchScreen.ts', 'src/web/common/session.ts'],
  list: ['src/web/staff/resourceScreens.tsx'],
};
/** what the groups are for: chunks none of these load stay as the bundler made them */
const GROUPED = ['console', 'list'];
/** root modules that keep a chunk of their own */
const OWN_CHUNK = ['src/web/staff/StaffApp.tsx', 'src/web/staff/resourceScreens.tsx'];

interface Chunk {
  fileName: string;
  moduleIds: string[];
  imports: string[];
  isEntry: boolean;
}

/** The chunk files a set of modules' chunks load before they run: their own and their static imports, transitively. */
function loadedBy(chunks: Map<string, Chunk>, modules: string[]): Set<string> {
  const files = [...chunks.values()].filter((c) => c.moduleIds.some((id) => modules.includes(id))).map((c) => c.fileName);
  const seen = new Set<string>();
  while (files.length) {
    const file = files.pop()!;
    if (seen.has(file) || !chunks.has(file)) continue;
    seen.add(file);
    files.push(...chunks.get(file)!.imports);
  }
  return seen;
}

/**
 * Module id -> group name, from the chunks of a first build: `starts` (the labels above, in
 * their order, joined by '-') for each module of a chunk that the console or the list loads.
 */
export function groupsFromChunks(chunks: Chunk[], root: string): Map<string, string> {
  const abs = (p: string) => resolve(root, p);
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = loadedBy(
    byFile,
    chunks.filter((c) => c.isEntry && c.moduleIds.includes(abs(ENTRY))).flatMap((c) => c.moduleIds),
  );
  const starts = Object.entries(STARTS).map(([name, modules]) => ({ name, files: loadedBy(byFile, modules.map(abs)) }));
  const own = new Set(OWN_CHUNK.map(abs));
  const groupOf = new Map<string, string>();
  for (const chunk of chunks) {
    if (entry.has(chunk.fileName)) continue;
    let label = starts.filter((s) => s.files.has(chunk.fileName)).map((s) => s.name);
    if (!label.some((name) => GROUPED.includes(name))) continue;
    // the list screens open inside the console: what both load is one file with the console's
    if (label.includes('console')) label = label.filter((name) => name !== 'list');
    for (const id of chunk.moduleIds) if (!own.has(id)) groupOf.set(id, label.join('-'));
  }
  return groupOf;
}

/** The bundler's own chunks for the app at `root` (a build without minification, nothing written). */
async function firstPassChunks(root: string): Promise<Chunk[]> {
  const result = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [],
    build: { write: false, minify: false, reportCompressedSize: false, copyPublicDir: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs
    .flatMap((o) => o.output)
    .filter((item): item is Rolldown.OutputChunk => item.type === 'chunk')
    .map((c) => ({ fileName: c.fileName, moduleIds: c.moduleIds, imports: c.imports, isEntry: c.isEntry }));
}

/** `build.rolldownOptions.output.codeSplitting` for the console's groups (runs the first pass). */
export async function consoleChunkGroups(root: string): Promise<Rolldown.CodeSplittingOptions> {
  const groupOf = groupsFromChunks(await firstPassChunks(root), root);
  return {
    groups: [{ name: (id) => groupOf.get(id) ?? null, debugName: 'console-visit', includeDependenciesRecursively: false }],
  };
}
