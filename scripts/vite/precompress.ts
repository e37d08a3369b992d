/**
 * Build plugin: writes a brotli (`.br`) and a gzip (`.gz`) copy next to each text file of the
 * build (scripts, styles, the page, SVG) of at least 1 KB, so the server sends the compressed
 * form the browser accepts without compressing on every request (@fastify/static `preCompressed`,
 * src/server/web-static.ts). Build only.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** below this a compressed copy saves too little to be worth a file */
export const MIN_BYTES = 1024;

/** The compressed copies of one file's content (brotli at its best, gzip level 9). */
export async function compressedCopies(content: Buffer): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gzipped] = await Promise.all([
    brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
    gz(content, { level: 9 }),
  ]);
  return { br, gz: gzipped };
}

export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? resolve(config.root, config.build.outDir);
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => COMPRESSIBLE.test(name))
          .map(async (name) => {
            const file = resolve(outDir, name);
            const content = await readFile(file);
            if (content.length < MIN_BYTES) return;
            const copies = await compressedCopies(content);
            // a copy no smaller than the file would only cost the browser the decoding
            if (copies.br.length < content.length) await writeFile(`${file}.br`, copies.br);
            if (copies.gz.length < content.length) await writeFile(`${file}.gz`, copies.gz);
          }),
      );
    },
  };
}
