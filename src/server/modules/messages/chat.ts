/**
 * The staff chat room (`/api/sysSocketChat`), for every signed-in staff member:
 *   GET    /api/sysSocketChat?page=0&size=20&sort=id,desc   history -> {content, totalElements}
 *   POST   /api/sysSocketChat {msg}     stores the message and sends CHAT to every chat socket -> 201
 *                                       (at most 30 messages per 10 s from one address: 429)
 *   PUT    /api/sysSocketChat {id,msg}  corrects one's own message -> 204
 *   DELETE /api/sysSocketChat [ids]     deletes one's own messages (admin: any) -> 200
 *   GET    /api/sysSocketChat/wssList   online staff [{sid, name}] (admin and deploy hidden)
 * The sender is the session's user (formUser, formName, formImg); the text is stripped of
 * every tag and limited to CHAT_MAX_LENGTH characters.
 */
import type { FastifyInstance } from 'fastify';
import { positiveId } from '../../crud/index.ts';
import { nowText } from '../../db/index.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import { plainText } from '../../html.ts';
import { onlyKeys, pageParams, sortParam } from './paging.ts';

export const CHAT_PATH = '/api/sysSocketChat';
export const CHAT_MAX_LENGTH = 500;
export const CHAT_EMPTY = '消息内容不能为空';
export const CHAT_TOO_LONG = `消息内容不能超过${CHAT_MAX_LENGTH}个字符`;
export const CHAT_HISTORY_SIZE = 20;
/** messages one address may send in CHAT_RATE_WINDOW_MS (more: 429) */
export const CHAT_RATE_MAX = 30;
export const CHAT_RATE_WINDOW_MS = 10_000;

export interface ChatMessage {
  id: number;
  formUser: string;
  formName: string;
  formImg: string | null;
  msg: string;
  msgType: 'CHAT';
  createTime: string;
}

/** A sys_socket_chat row. */
interface ChatRow {
  id: number;
  form_user: string;
  form_name: string | null;
  form_img: string | null;
  msg: string;
  create_time: string;
}

const toMessage = (r: ChatRow): ChatMessage => ({
  id: Number(r.id),
  formUser: r.form_user,
  formName: r.form_name ?? r.form_user,
  formImg: r.form_img ?? null,
  msg: r.msg,
  msgType: 'CHAT',
  createTime: r.create_time,
});

/** The cleaned text of a body's `msg`, or a 400 saying what is wrong. */
function messageText(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(CHAT_EMPTY);
  const raw = (body as Record<string, unknown>).msg;
  if (typeof raw !== 'string') throw badRequest(CHAT_EMPTY);
  // refuse the obviously long before cleaning, then count the cleaned characters
  if (raw.length > CHAT_MAX_LENGTH * 20) throw badRequest(CHAT_TOO_LONG);
  const text = plainText(raw);
  if (!text) throw badRequest(CHAT_EMPTY);
  if ([...text].length > CHAT_MAX_LENGTH) throw badRequest(CHAT_TOO_LONG);
  return text;
}

export function registerChatRoutes(app: FastifyInstance): void {
  const { db } = app.database;
  const columns = ['id', 'form_user', 'form_name', 'form_img', 'msg', 'create_time'] as const;

  app.get(CHAT_PATH, { preHandler: app.authenticate }, async (request) => {
    const query = request.query as Record<string, unknown>;
    onlyKeys(query, ['page', 'size', 'sort']);
    const { page, size } = pageParams(query, CHAT_HISTORY_SIZE);
    const sort = sortParam(query, ['id', 'createTime'] as const, { field: 'id', dir: 'desc' });
    const [rows, total] = await Promise.all([
      db
        .selectFrom('sys_socket_chat')
        .select([...columns])
        .orderBy(sort.field === 'id' ? 'id' : 'create_time', sort.dir)
        .orderBy('id', sort.dir)
        .limit(size)
        .offset(page * size)
        .$castTo<ChatRow>()
        .execute(),
      db
        .selectFrom('sys_socket_chat')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst(),
    ]);
    return { content: rows.map(toMessage), totalElements: Number(total?.n ?? 0) };
  });

  const limited = typeof (app as { rateLimit?: unknown }).rateLimit === 'function';
  const sendGuard = limited
    ? [app.rateLimit({ max: CHAT_RATE_MAX, timeWindow: CHAT_RATE_WINDOW_MS }), app.authenticate]
    : [app.authenticate];

  app.post(CHAT_PATH, { preHandler: sendGuard }, async (request, reply) => {
    const user = request.user!;
    const msg = messageText(request.body);
    const sender = await db.selectFrom('sys_user').select(['nick_name', 'img']).where('id', '=', user.id).executeTakeFirst();
    const row = await db
      .insertInto('sys_socket_chat')
      .values({
        form_user: user.username,
        form_name: sender?.nick_name || user.username,
        form_img: sender?.img ?? null,
        msg,
        msg_type: 'CHAT',
        create_time: nowText(),
      })
      .returning([...columns])
      .executeTakeFirstOrThrow();
    const message = toMessage(row);
    await app.hub.push({ kind: 'chat' }, message);
    return reply.status(201).send(message);
  });

  app.put(CHAT_PATH, { preHandler: app.authenticate }, async (request, reply) => {
    const body = request.body as Record<string, unknown> | null;
    const id = positiveId(body && typeof body === 'object' ? body.id : undefined);
    if (id === undefined) throw badRequest('ID不能为空');
    const msg = messageText(body);
    const found = await db.selectFrom('sys_socket_chat').select(['form_user']).where('id', '=', id).executeTakeFirst();
    if (!found) throw notFound('数据不存在');
    if (found.form_user !== request.user!.username) throw forbidden('只能修改自己发送的消息');
    await db.updateTable('sys_socket_chat').set({ msg }).where('id', '=', id).execute();
    return reply.status(204).send();
  });

  app.delete(CHAT_PATH, { preHandler: app.authenticate }, async (request, reply) => {
    const body = request.body;
    if (!Array.isArray(body) || body.length === 0) throw badRequest('请至少选择一条数据');
    if (body.length > 1000) throw badRequest('一次最多删除1000条数据');
    const ids = body.map((v) => {
      const id = positiveId(v);
      if (id === undefined) throw badRequest('ID必须是正整数');
      return id;
    });
    const user = request.user!;
    const rows = await db
      .selectFrom('sys_socket_chat')
      .select(['id', 'form_user'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    if (!user.isAdmin && rows.some((r) => r.form_user !== user.username)) throw forbidden('只能删除自己发送的消息');
    if (rows.length)
      await db
        .deleteFrom('sys_socket_chat')
        .where(
          'id',
          'in',
          rows.map((r) => Number(r.id)),
        )
        .execute();
    return reply.status(200).send();
  });

  app.get(`${CHAT_PATH}/wssList`, { preHandler: app.authenticate }, async () => app.hub.onlineStaff());
}
