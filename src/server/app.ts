/**
 * buildApp(config): the whole server without listen(). Three layers, in order:
 * wiring (errors, limits, database), services (auth, sessions), areas (routes).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { resources } from '../generated/resources.ts';
import './types.ts';

export interface BuildOptions {
  logger?: boolean;
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: config.logLevel } : false,
    bodyLimit: config.bodyLimit,
    trustProxy: true,
  });
  app.decorate('config', config);
  // wiring, services and areas are registered here by their modules
  void resources;
  return app;
}
