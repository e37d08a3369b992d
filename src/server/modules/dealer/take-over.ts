/**
 * Replaces the handler of one generic resource route (registered earlier from the schema) with a
 * hand-written one, for writes a schema cannot express (a hashed password, a state machine).
 * It runs as an app-level preHandler, that is before the route's own permission check: the
 * handler must check access itself. When the handler answers, the generic handler never runs.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export function takeOverRoute(
  app: FastifyInstance,
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== method || request.routeOptions.url !== url) return;
    const result = await handler(request, reply);
    if (!reply.sent) await reply.send(result);
    return reply;
  });
}

/** Runs a preHandler (authenticate, requirePermission(key)) from inside another handler. */
export async function runPreHandler(
  app: FastifyInstance,
  pre: (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  await pre.call(app, request, reply);
}
