/**
 * Starts the server: reads the configuration from the environment, builds the app and listens
 * on HOST:PORT.
 * - A start that fails on the database prints one line naming DATABASE_URL and exits with 1.
 * - A database that goes away later never ends the process: requests answer 503 and the pools
 *   and listeners reconnect (a stray rejection from a background task is logged, not fatal).
 * - SIGTERM/SIGINT: readiness turns 503 at once, requests are still served for DRAIN_DELAY_MS (the
 *   balancer notices and moves away; every answer from now on closes its keep-alive connection,
 *   so none is left idle for the close to cut while a request is on its way), then the server stops taking connections, requests
 *   in flight finish (at most SHUTDOWN_GRACE_SECONDS), sockets close with 1001 (the console reconnects,
 *   through the balancer, to another instance), job locks are handed back; then the process exits.
 *   A request arriving meanwhile on an open connection is answered 503 服务正在停止，请稍后重试
 *   (draining.ts); one still waiting when the grace period ends (a stalled database) is answered
 *   the same before the process exits, so none is dropped without an answer.
 */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { databaseStartError } from './start-errors.ts';

/** After answering the requests still in flight at the end of the grace period: time for the answers to go out. */
const FLUSH_MS = 500;
/** Between answering not-ready and closing: the balancer's health check sees it and moves new
 * requests away, while requests arriving meanwhile are still served. */
const DRAIN_DELAY_MS = 1000;

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`configuration error: ${err.message}`);
    process.exit(1);
  }
  throw err;
}

let app;
try {
  app = await buildApp(config, { logger: true });
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  const line = databaseStartError(err, config.databaseUrl);
  if (line) {
    console.error(line);
    process.exit(1);
  }
  throw err;
}
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
app.log.info(`dealer console listening on http://${shownHost}:${port} (${config.databaseUrl ? 'PostgreSQL' : 'SQLite'})`);

process.on('unhandledRejection', (reason) => {
  app.log.error({ err: reason }, isDatabaseUnavailable(reason) ? 'background task failed: database unavailable' : 'background task failed');
});
process.on('uncaughtException', (err) => {
  if (isDatabaseUnavailable(err)) {
    app.log.error({ err }, 'database connection error');
    return;
  }
  app.log.fatal({ err }, 'uncaught exception');
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: draining`);
    app.health.stopping();
    app.draining.stopping();
    setTimeout(() => {
      const answered = app.draining.answerInFlight();
      app.log.warn({ answered }, 'requests still running after the grace period: answered 503, exiting');
      setTimeout(() => process.exit(1), FLUSH_MS);
    }, config.shutdownGraceMs).unref();
    setTimeout(() => {
      app.log.info(`${signal}: drain delay over, closing`);
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }, DRAIN_DELAY_MS);
  });
}
