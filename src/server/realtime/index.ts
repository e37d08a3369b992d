/**
 * The realtime area: the websocket endpoints, the hub and its pub/sub adapter, background
 * imports and exports with their download files.
 *
 *   GET /webSocket/{token}              console socket: INFO and EXCEL messages
 *   GET /webSocket/{token}/{nickName}   chat socket: CHAT, CONNECT and CLOSE
 *   GET /webSocket?token=...            console socket, token in the query (clients that cannot put it in the path)
 *   GET /api/downloadFile/{id}          a background export's file, for its requester only
 *
 * The token is checked when the socket opens (a bad or ended session answers 401 and no socket
 * opens); the socket closes with code 4001 when its session ends on any instance.
 */
import { markIdentity } from '../auth/route-catalogue.ts';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionRecord } from '../auth/sessions.ts';
import { badRequest, notFound, unauthorized } from '../errors.ts';
import { attachmentHeader } from '../crud/sheets/spreadsheet.ts';
import { downloadChunks, findDownload } from './downloads.ts';
import { Hub, type SocketKind } from './hub.ts';
import { LongTasks } from './long-tasks.ts';
import { InProcessPubSub, PostgresPubSub, type PubSub } from './pubsub.ts';
import { ensureRealtimeTables } from './tables.ts';
import { Readable } from 'node:stream';

export { deleteExpiredDownloads } from './downloads.ts';
export { HIDDEN_STAFF, SESSION_ENDED_CODE } from './hub.ts';

export const FILE_GONE = '文件不存在或已过期，请重新导出';
const NICK_NAME_MAX = 64;
const SHUTDOWN_WAIT_MS = 10_000;

declare module 'fastify' {
  interface FastifyRequest {
    socketSession?: SessionRecord;
  }
}

async function openPubSub(app: FastifyInstance): Promise<PubSub> {
  const { config, database } = app;
  if (database.dialect === 'postgres' && config.databaseUrl) {
    return PostgresPubSub.open(config.databaseUrl, database.db, {
      onError: (err) => app.log.warn({ err }, 'realtime LISTEN connection'),
    });
  }
  return new InProcessPubSub();
}

export async function registerRealtime(app: FastifyInstance): Promise<void> {
  const { database, config } = app;
  await ensureRealtimeTables(database);
  // one SQLite server owns its file: rows of sockets from an earlier run are gone for sure
  if (database.dialect === 'sqlite') await database.db.deleteFrom('sys_socket_presence').execute();
  const pubsub = await openPubSub(app);
  const hub = new Hub(database, pubsub, { heartbeatMs: config.wsHeartbeatSeconds * 1000, log: app.log });
  app.decorate('hub', hub);
  const longTasks = new LongTasks(database, hub, { downloadTtlMs: config.downloadTtlMinutes * 60_000, log: app.log });
  app.decorate('longTasks', longTasks);
  app.addHook('preClose', async () => {
    // a running import or export gets a little time to finish and report before the database closes
    await Promise.race([longTasks.idle(), new Promise((r) => setTimeout(r, SHUTDOWN_WAIT_MS).unref())]);
    await hub.close();
  });
  // the session cache (auth/sessions.ts): changes seen here are announced to every instance, and
  // memory is used only while the channel that carries those announcements is up
  app.sessions.onChanged(() => hub.announceSessionsChanged().catch((err) => app.log.warn({ err }, 'session change not announced')));
  hub.onSessionsChanged(() => app.sessions.changedElsewhere());
  app.sessions.useMemory(() => !(pubsub instanceof PostgresPubSub) || pubsub.listening);
  app.sessions.onEnded((end) => {
    hub.endSessions({ sessions: end.sessionIds, users: end.userId === undefined ? undefined : [end.userId] }).catch((err) => {
      app.log.warn({ err }, 'session end not published');
    });
  });

  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });

  /** Refuses the upgrade (plain HTTP 401) unless the path's token is a live staff session. */
  const verifyToken = async (request: FastifyRequest) => {
    const params = request.params as { token?: string; nickName?: string };
    const query = request.query as { token?: unknown };
    const token = params.token ?? (typeof query.token === 'string' ? query.token : undefined);
    const nickName = params.nickName;
    if (nickName !== undefined && (nickName.length === 0 || nickName.length > NICK_NAME_MAX)) throw badRequest('昵称长度不正确');
    const session = token ? await app.sessions.lookup(token) : null;
    if (!session) throw unauthorized();
    request.socketSession = session;
  };

  const open = (kind: SocketKind) => async (socket: import('ws').WebSocket, request: FastifyRequest) => {
    const session = request.socketSession!;
    // messages from clients are not used: the browser sends through the HTTP API
    socket.on('message', () => undefined);
    let closed = false;
    let registered: Awaited<ReturnType<Hub['add']>> | undefined;
    socket.on('close', () => {
      closed = true;
      if (registered) hub.remove(registered).catch((err) => app.log.warn({ err }, 'socket presence not removed'));
    });
    try {
      registered = await hub.add({
        kind,
        socket,
        userId: session.userId,
        username: session.username,
        nickName: session.nickName || session.username,
        sessionId: session.sessionId,
      });
      if (closed) await hub.remove(registered);
    } catch (err) {
      app.log.warn({ err }, 'socket not registered');
      socket.close(1011, 'server error');
    }
  };

  markIdentity(verifyToken, 'socket');
  app.get('/webSocket', { websocket: true, preValidation: verifyToken }, open('layout'));
  app.get('/webSocket/:token', { websocket: true, preValidation: verifyToken }, open('layout'));
  app.get('/webSocket/:token/:nickName', { websocket: true, preValidation: verifyToken }, open('chat'));

  app.get('/api/downloadFile/:id', { preHandler: app.authenticate }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const file = await findDownload(database, id);
    // another user's file answers as a missing one: an id tells nothing about others' exports
    if (!file || !file.complete || file.expires <= Date.now() || file.userId !== request.user!.id) throw notFound(FILE_GONE);
    if (file.personalResource) request.personalDataRead = { resource: file.personalResource, ids: [] };
    return reply
      .header('content-type', file.mime)
      .header('content-length', String(file.size))
      .header('content-disposition', attachmentHeader(file.fileName, 'export.xlsx'))
      .header('cache-control', 'no-store')
      .send(Readable.from(downloadChunks(database, file.id)));
  });
}
