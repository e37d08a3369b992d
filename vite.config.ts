import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { consoleEarlyStart } from './scripts/vite/console-early-start.ts';
import { precompress } from './scripts/vite/precompress.ts';
import { consoleChunkGroups } from './scripts/vite/chunk-groups.ts';

const api = process.env.API_URL || 'http://127.0.0.1:8000';

export default defineConfig(async ({ command }) => ({
  plugins: [react(), consoleEarlyStart(), precompress()],
  root: '.',
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    // a console visit loads a few larger files instead of some 70 small ones (a first pass of the
    // build tells which; the dev server has no chunks)
    ...(command === 'build' ? { rolldownOptions: { output: { codeSplitting: await consoleChunkGroups(import.meta.dirname) } } } : {}),
  },
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/comp': api,
      // the favicon of the system settings (or the default one) comes from the server
      '/favicon.ico': api,
      '/webSocket': { target: api, ws: true },
    },
  },
}));
