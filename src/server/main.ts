/**
 * Starts the server: reads the configuration from the environment, builds the app and listens
 * on HOST:PORT. Stops cleanly on SIGINT/SIGTERM.
 */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

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

const app = await buildApp(config, { logger: true });
await app.listen({ port: config.port, host: config.host });
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
app.log.info(`dealer console listening on http://${shownHost}:${port} (${config.databaseUrl ? 'PostgreSQL' : 'SQLite'})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
