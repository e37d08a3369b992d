/**
 * The operation log: every write (POST, PUT, DELETE) and every sign-in (password or WeCom QR),
 * successful or not, becomes one row of sys_log: user, description, method and route,
 * parameters with secrets left out and personal data masked (request-info.ts, personal-keys.ts), IP, address kind, browser, time in ms, created time, and
 * INFO or ERROR with the error message. The row is written before the answer leaves, so a
 * client that got its answer finds the log. A failed log write never fails the request.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import '../../decorations.ts';
import { nowText } from '../../db/index.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { describeRoute, resourceDescriptions, resourceTitle } from './descriptions.ts';
import { logUserOf } from './identity.ts';
import { addressOf, browserOf, maskedParams } from './request-info.ts';
import { personalKeysOf } from './personal-keys.ts';
import { maskPersonalText } from '../../../shared/masks.ts';
import { PersonalReadLog } from './personal-read-log.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** the audit of full personal-data reads, written in batches (personal-read-log.ts) */
    personalReadLog: PersonalReadLog;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
/** GET routes that are logged too: sign-ins */
const LOGGED_GETS = new Set(['/api/qywxLogin']);

function errorMessageOf(payload: unknown): string {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
  if (!text) return '';
  try {
    const body: unknown = JSON.parse(text);
    const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
    if (typeof message === 'string') return message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 500);
}

/** The log line of a read that showed personal data in full: the resource and the ids (an export: all matching). */
function personalReadText(read: { resource: string; ids: number[] }, specs: ResourceSpec[]): string {
  const ids = read.ids.length
    ? `，记录ID: ${read.ids.slice(0, 30).join(',')}${read.ids.length > 30 ? ` 等${read.ids.length}条` : ''}`
    : '（导出）';
  return `查看完整个人信息：${resourceTitle(read.resource, specs)}${ids}`;
}

function username(request: FastifyRequest): { name: string | null; id: number | null } {
  if (request.user) return { name: request.user.username, id: request.user.id };
  const own = logUserOf(request);
  if (own) return { name: own.username, id: own.id };
  // a failed password sign-in: the name that was typed
  const body = request.body as Record<string, unknown> | undefined;
  const typed = body && typeof body === 'object' && typeof body.username === 'string' ? body.username.slice(0, 64) : null;
  return { name: typed, id: null };
}

export function installOperationLog(app: FastifyInstance, specs: ResourceSpec[]): void {
  const generic = resourceDescriptions(specs);
  const personalKeys = personalKeysOf(specs);
  const personalReads = new PersonalReadLog(app.database.db, app.log);
  app.decorate('personalReadLog', personalReads);
  // registered after the database's own onClose, so it runs before the database closes
  app.addHook('onClose', () => personalReads.close());
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const url = request.routeOptions.url;
    if (!url) return payload; // no route matched: probes of unknown paths are not logged
    const method = request.method;
    const personal = method === 'GET' && reply.statusCode < 400 ? request.personalDataRead : undefined;
    if (personal && !LOGGED_GETS.has(url)) {
      // a full read of personal data: gathered and written within a second, off the request path
      const who = username(request);
      personalReads.add(
        {
          userId: who.id,
          username: who.name,
          // the resource's Chinese title, as the log screen shows it
          resource: resourceTitle(personal.resource, specs),
          ids: personal.ids,
        },
        () => ({
          method: `${method} ${url}`,
          params: maskedParams({ params: request.params, query: request.query }, personalKeys.forRoute(url)),
          ip: request.ip,
          address: addressOf(request.ip),
          browser: browserOf(request.headers['user-agent']),
          time: Math.max(0, Math.round(reply.elapsedTime)),
        }),
      );
      return payload;
    }
    if (!WRITE_METHODS.has(method) && !(method === 'GET' && LOGGED_GETS.has(url)) && !personal) return payload;
    const failed = reply.statusCode >= 400;
    const who = username(request);
    const own = (request.routeOptions.config as { description?: unknown } | undefined)?.description;
    const isMultipart = request.isMultipart?.() ?? false;
    try {
      await app.database.db
        .insertInto('sys_log')
        .values({
          user_id: who.id,
          username: who.name,
          description: (personal ? personalReadText(personal, specs) : describeRoute(method, url, own, generic)).slice(0, 255),
          method: `${method} ${url}`.slice(0, 255),
          params: maskedParams(
            { params: request.params, query: request.query, body: isMultipart ? undefined : request.body },
            personalKeys.forRoute(url),
          ),
          request_ip: request.ip.slice(0, 64),
          address: addressOf(request.ip),
          browser: browserOf(request.headers['user-agent']).slice(0, 255),
          time: Math.max(0, Math.round(reply.elapsedTime)),
          log_type: failed ? 'ERROR' : 'INFO',
          exception_detail: failed ? maskPersonalText(errorMessageOf(payload)) : null,
          create_time: nowText(),
        })
        .execute();
    } catch (err) {
      request.log.warn({ err }, 'operation log not written');
    }
    return payload;
  });
}
