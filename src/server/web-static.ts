/**
 * Serves the built web app (dist/) on the API's port. Hashed assets are cached for a year;
 * index.html never, so a new build is picked up at once. Routes are hash routes, so only
 * '/' needs the page. Text files go out brotli- or gzip-compressed from the copies the build wrote.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** WEB_DIST_DIR (tests only) points at another build, so parallel test runs do not share dist/. */
export const WEB_DIST = process.env.WEB_DIST_DIR ? resolve(process.env.WEB_DIST_DIR) : resolve(import.meta.dirname, '../../dist');

export async function registerWebStatic(app: FastifyInstance, root = WEB_DIST): Promise<boolean> {
  if (!existsSync(resolve(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    // the build writes .br and .gz copies (scripts/vite/precompress.ts): sent to browsers that accept them
    preCompressed: true,
    index: ['index.html'],
    setHeaders(reply, path) {
      if (path.includes('/assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      else reply.header('Cache-Control', 'no-cache');
    },
  });
  return true;
}
