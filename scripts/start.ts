/**
 * npm start: regenerate from the schemas, build the web app when its sources are newer than
 * the build, bundle the server, then run it under plain Node (SQLite in ./data with demo data
 * unless configured otherwise). Signals are passed on; the exit code is the server's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCodegen } from '../codegen/main.ts';
import { SERVER_NODE_FLAGS, buildServer } from './build-server.ts';

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const specs = await runCodegen('schemas', 'src/generated');
console.log(`codegen: ${specs.length} schemas`);

const built = newest('dist/index.html');
const sources = Math.max(newest('src/web'), newest('src/shared'), newest('schemas'), newest('index.html'), newest('vite.config.ts'));
if (!built || sources > built) {
  console.log('building the web app...');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const entry = await buildServer();
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
