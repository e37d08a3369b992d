/**
 * The request address as the service log writes it (Fastify's `incoming request` line and every
 * line of the request): the route's template for the path (/api/staff/:id, never the id or a name
 * typed in its place); on a path no route serves, its segments that are not plain words left out;
 * and the query's values left out but for paging and sorting.
 * A search, a filter or a look-up by mobile puts what it looks for in the query; the log says
 * that it was asked, not what (docs/operations-monitoring.md).
 */
import type { FastifyRequest } from 'fastify';
import { maskPersonalText } from '../shared/masks.ts';

/** query keys whose values are kept: they say how a list was read, never what was looked for */
const SAFE_KEYS = new Set(['page', 'size', 'sort']);
const MAX_URL = 512;

/** a path segment kept on a path no route serves: a plain word, never a value (digits, %-escapes, @) */
const WORD = /^[A-Za-z][A-Za-z_-]*$/;

export function logSafeUrl(url: string, template?: string): string {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  const path =
    template ??
    raw
      .split('/')
      .map((segment) => (segment === '' || WORD.test(segment) ? segment : '…'))
      .join('/');
  if (q < 0) return path.slice(0, MAX_URL);
  const query = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq < 0 ? pair : pair.slice(0, eq);
      if (eq < 0) return maskPersonalText(key);
      return SAFE_KEYS.has(key) ? pair : `${maskPersonalText(key)}=…`;
    })
    .join('&');
  return `${path}?${query}`.slice(0, MAX_URL);
}

/** Fastify's request serializer with the address made safe (the other members as Fastify writes them). */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: logSafeUrl(request.url, request.routeOptions?.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
