/**
 * Who a request acted as, for the operation log, when it is not the signed-in user of the
 * request (a sign-in by WeCom QR knows its user only after the exchange). Sign-in records it
 * here; the logs area reads it.
 */
import type { FastifyRequest } from 'fastify';

const identities = new WeakMap<FastifyRequest, { username: string; id: number | null }>();

export function setLogUser(request: FastifyRequest, username: string, id: number | null = null): void {
  identities.set(request, { username, id });
}

export function logUserOf(request: FastifyRequest): { username: string; id: number | null } | undefined {
  return identities.get(request);
}
