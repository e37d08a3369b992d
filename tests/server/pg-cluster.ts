/**
 * A throwaway PostgreSQL cluster a test controls (stop in fast or immediate mode, start again),
 * on a free port, made with scripts/pg-start.sh (as the postgres user when run as root) and
 * removed with scripts/pg-stop.sh. Only for tests that restart the database under the servers;
 * the other PostgreSQL tests use TEST_DATABASE_URL.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPTS = resolve(import.meta.dirname, '../../scripts');

/** The newest PostgreSQL server binaries, or undefined. */
export function pgBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(a) - Number(b));
  for (const v of versions.reverse()) if (existsSync(`${root}/${v}/bin/pg_ctl`)) return `${root}/${v}/bin`;
  return undefined;
}

/** Why a cluster cannot be started here (undefined: it can). */
export function clusterUnavailableReason(): string | undefined {
  if (!process.env.TEST_DATABASE_URL) return 'TEST_DATABASE_URL is not set (no PostgreSQL in this run)';
  if (!pgBinDir()) return 'PostgreSQL server binaries (/usr/lib/postgresql/*/bin/pg_ctl) are not installed';
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export interface Cluster {
  port: number;
  /** postgres://postgres@127.0.0.1:port/postgres */
  url: string;
  /** a URL of another database on the cluster */
  urlOf(database: string): string;
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startCluster(): Promise<Cluster> {
  const port = await freePort();
  const bin = pgBinDir()!;
  const data = `/tmp/dealer-console-pg-${port}/data`;
  const asPostgres = (command: string) =>
    process.getuid?.() === 0 ? run('su', ['postgres', '-s', '/bin/bash', '-c', command]) : run('bash', ['-c', command]);
  const { stdout } = await run(`${SCRIPTS}/pg-start.sh`, [String(port)]);
  const url = stdout.trim().split('\n').pop()!;
  return {
    port,
    url,
    urlOf(database) {
      const u = new URL(url);
      u.pathname = `/${database}`;
      return u.toString();
    },
    async stop(mode) {
      await asPostgres(`'${bin}/pg_ctl' -D '${data}' -m ${mode} -w stop`);
    },
    async start() {
      await run(`${SCRIPTS}/pg-start.sh`, [String(port)]);
    },
    async destroy() {
      await run(`${SCRIPTS}/pg-stop.sh`, [String(port)]).catch(() => undefined);
    },
  };
}
