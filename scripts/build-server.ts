/**
 * Bundles the server (src/server/main.ts with src/shared and src/generated) into one ES module,
 * build/server/main.js, that plain Node runs: no TypeScript loader in the running server, which
 * starts faster and holds about 50 MB less. Packages stay external (loaded from node_modules).
 * Run by `npm start` and `npm run build`; `node scripts/...` callers use buildServer().
 */
import { build } from 'esbuild';
import { resolve } from 'node:path';

export const SERVER_ENTRY = resolve(import.meta.dirname, '../build/server/main.js');

/**
 * Node flags of the running server: --expose-gc lets long exports collect garbage as they go
 * (src/server/crud/sheets/spreadsheet.ts); NODE_SERVER_FLAGS from the environment adds more (for
 * example `--optimize-for-size`: see scripts/bench/README.md).
 * Not `--enable-source-maps` by default: the first error stack formatted (any 4xx that logs one)
 * then parses the bundle's 2.9 MB map, which held 100-250 MB more RSS and pushed the 100,000-row
 * import past its 300 MB budget (scripts/bench/README.md, Import). The map is still written
 * beside the bundle: `NODE_SERVER_FLAGS=--enable-source-maps` when a trace must name the sources.
 */
export const SERVER_NODE_FLAGS = ['--expose-gc', ...(process.env.NODE_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean)];

export async function buildServer(outfile = SERVER_ENTRY): Promise<string> {
  await build({
    entryPoints: [resolve(import.meta.dirname, '../src/server/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    // the bundle sits two folders below the project root, like src/server, so paths relative to
    // the module (dist/ for the web app) resolve the same
  });
  return outfile;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  console.log(`server bundle: ${await buildServer()}`);
}
