/**
 * System messages (系统消息推送) beyond the generic routes of `api/sysSocket`:
 * - POST/PUT bodies: `msg` is cleaned on the server (rich text allow-list) before validation;
 * - after a successful POST/PUT/DELETE, INFO goes to every connected staff member, whose console
 *   refreshes its unread count; a DELETE also drops the read state of the deleted messages;
 *   GET api/sysSocket/getSocket            the signed-in user's notices (enabled messages) with status 0/1
 *   GET api/sysSocket/getNotRead           the user's unread notices; totalElements is the badge number
 *   PUT api/sysSocket/read                 {id} (or [ids]): marks read for this user -> {unread}
 *   GET api/sysSocket/getReadUser?id=      who read a message and when (sysSocket:edit)
 * The latest enabled message is the generic list: `?sort=createTime,desc&size=1&enabled=true`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { resourceByName } from '../../../generated/resources.ts';
import { positiveId } from '../../crud/index.ts';
import { nowText } from '../../db/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { sanitizeRichText } from '../../html.ts';
import type { Database } from '../../types.ts';
import { onlyKeys, pageParams, sortParam } from './paging.ts';

export const NOTICE_PAGE_SIZE = 9999;
export const NEW_MESSAGE_INFO = '您有新的系统消息';
export const MESSAGES_CHANGED_INFO = '系统消息已更新';

export interface Notice {
  id: number;
  title: string;
  msg: string | null;
  url: string | null;
  sort: number;
  status: 0 | 1;
  createTime: string;
}

/** Enabled messages with one user's read state joined (`r.user_id` is null while unread). */
function enabledNotices(database: Database, userId: number) {
  const isTrue = database.dialect === 'postgres' ? sql<boolean>`true` : sql<number>`1`;
  return database.db
    .selectFrom('sys_socket as s')
    .leftJoin('sys_socket_read as r', (join) => join.onRef('r.socket_id', '=', 's.id').on('r.user_id', '=', userId))
    .where('s.enabled', '=', isTrue);
}

/** How many enabled messages the user has not read: the badge number, and totalElements of getNotRead. */
export async function countUnreadNotices(database: Database, userId: number): Promise<number> {
  const row = await enabledNotices(database, userId)
    .where('r.user_id', 'is', null)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function registerSystemMessageRoutes(app: FastifyInstance): void {
  const spec = resourceByName.sysSocket;
  if (!spec) return;
  const base = `/${spec.path}`;
  const { db } = app.database;

  const isWrite = (request: FastifyRequest) =>
    request.routeOptions.url === base && (request.method === 'POST' || request.method === 'PUT' || request.method === 'DELETE');

  // clean the rich text before the schema sees it (its length limits apply to the cleaned text)
  app.addHook('preValidation', (request, _reply, done) => {
    if (!isWrite(request) || request.method === 'DELETE') return done();
    const body = request.body as Record<string, unknown> | null;
    if (body && typeof body === 'object' && !Array.isArray(body) && typeof body.msg === 'string') body.msg = sanitizeRichText(body.msg);
    done();
  });

  app.addHook('onResponse', async (request, reply) => {
    if (!isWrite(request) || reply.statusCode >= 300) return;
    if (request.method === 'DELETE') {
      await db
        .deleteFrom('sys_socket_read')
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('sys_socket').select('id').whereRef('sys_socket.id', '=', 'sys_socket_read.socket_id'))),
        )
        .execute()
        .catch((err) => request.log.warn({ err }, 'read state of deleted messages not removed'));
    }
    const body = request.body as Record<string, unknown> | null;
    const title = request.method === 'POST' && body && typeof body.title === 'string' ? body.title : undefined;
    await app.hub
      .push({ kind: 'layout' }, { msgType: 'INFO', msg: title ? `${NEW_MESSAGE_INFO}：${title}` : MESSAGES_CHANGED_INFO })
      .catch((err) => request.log.warn({ err }, 'INFO not published'));
  });

  /** Enabled messages with this user's read status, newest first. */
  const notices = (userId: number) => enabledNotices(app.database, userId);

  /** A message with this user's read time (null while unread). */
  interface NoticeRow {
    id: number;
    title: string | null;
    msg: string | null;
    url: string | null;
    sort: number | null;
    create_time: string;
    read_time: string | null;
  }

  const toNotice = (row: NoticeRow): Notice => ({
    id: Number(row.id),
    title: String(row.title ?? ''),
    msg: row.msg ?? null,
    url: row.url ?? null,
    sort: Number(row.sort ?? 0),
    status: row.read_time === null || row.read_time === undefined ? 0 : 1,
    createTime: row.create_time,
  });

  const noticeList = async (userId: number, query: Record<string, unknown>, unreadOnly: boolean) => {
    onlyKeys(query, ['page', 'size', 'sort']);
    const { page, size } = pageParams(query, NOTICE_PAGE_SIZE);
    const sort = sortParam(query, ['createTime', 'sort', 'id'] as const, { field: 'createTime', dir: 'desc' });
    const column = { createTime: 's.create_time', sort: 's.sort', id: 's.id' }[sort.field];
    let q = notices(userId);
    if (unreadOnly) q = q.where('r.user_id', 'is', null);
    const [rows, total] = await Promise.all([
      q
        .select(['s.id', 's.title', 's.msg', 's.url', 's.sort', 's.create_time', 'r.read_time'])
        .orderBy(column, sort.dir)
        .orderBy('s.id', 'desc')
        .limit(size)
        .offset(page * size)
        .$castTo<NoticeRow>()
        .execute(),
      q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
    ]);
    return { content: rows.map(toNotice), totalElements: Number(total?.n ?? 0) };
  };

  app.get(`${base}/getSocket`, { preHandler: app.authenticate }, async (request) =>
    noticeList(request.user!.id, request.query as Record<string, unknown>, false),
  );

  app.get(`${base}/getNotRead`, { preHandler: app.authenticate }, async (request) =>
    noticeList(request.user!.id, request.query as Record<string, unknown>, true),
  );

  app.put(`${base}/read`, { preHandler: app.authenticate }, async (request) => {
    const body = request.body;
    const raw = Array.isArray(body) ? body : body && typeof body === 'object' ? [(body as Record<string, unknown>).id] : [];
    if (raw.length === 0) throw badRequest('ID不能为空');
    if (raw.length > 1000) throw badRequest('一次最多标记1000条消息');
    const ids = raw.map((v) => {
      const id = positiveId(v);
      if (id === undefined) throw badRequest('ID必须是正整数');
      return id;
    });
    const userId = request.user!.id;
    const existing = await db
      .selectFrom('sys_socket')
      .select('id')
      .where('id', 'in', [...new Set(ids)])
      .execute();
    if (existing.length === 0) throw notFound('消息不存在');
    const already = await db
      .selectFrom('sys_socket_read')
      .select('socket_id')
      .where('user_id', '=', userId)
      .where(
        'socket_id',
        'in',
        existing.map((r) => Number(r.id)),
      )
      .execute();
    const have = new Set(already.map((r) => Number(r.socket_id)));
    const fresh = existing.map((r) => Number(r.id)).filter((id) => !have.has(id));
    if (fresh.length) {
      const readTime = nowText();
      const values = fresh.map((id) => ({ socket_id: id, user_id: userId, read_time: readTime }));
      // two tabs marking the same message at once: the second insert changes nothing
      await db
        .insertInto('sys_socket_read')
        .values(values)
        .onConflict((oc) => oc.columns(['socket_id', 'user_id']).doNothing())
        .execute();
    }
    return { unread: await countUnreadNotices(app.database, userId) };
  });

  app.get(`${base}/getReadUser`, { preHandler: app.requirePermission(`${spec.permission}:edit`) }, async (request) => {
    const query = request.query as Record<string, unknown>;
    onlyKeys(query, ['id', 'page', 'size', 'sort']);
    const id = positiveId(Array.isArray(query.id) ? undefined : query.id);
    if (id === undefined) throw badRequest('ID必须是正整数');
    const { page, size } = pageParams(query, NOTICE_PAGE_SIZE);
    const sort = sortParam(query, ['readTime', 'username'] as const, { field: 'readTime', dir: 'desc' });
    const found = await db.selectFrom('sys_socket').select('id').where('id', '=', id).executeTakeFirst();
    if (!found) throw notFound('消息不存在');
    const q = db.selectFrom('sys_socket_read as r').innerJoin('sys_user as u', 'u.id', 'r.user_id').where('r.socket_id', '=', id);
    const [rows, total] = await Promise.all([
      q
        .select(['u.id', 'u.username', 'u.nick_name', 'r.read_time'])
        .orderBy(sort.field === 'readTime' ? 'r.read_time' : 'u.username', sort.dir)
        .orderBy('u.id')
        .limit(size)
        .offset(page * size)
        .$castTo<{ id: number; username: string; nick_name: string | null; read_time: string }>()
        .execute(),
      q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
    ]);
    return {
      content: rows.map((r) => ({
        userId: Number(r.id),
        username: r.username,
        nickName: r.nick_name ?? r.username,
        readTime: r.read_time,
      })),
      totalElements: Number(total?.n ?? 0),
    };
  });
}
