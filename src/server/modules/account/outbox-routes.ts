/**
 * 发件箱: the development outbox for administrators (holders of outbox:list), newest first.
 *   GET /api/outbox?channel=sms|email&target=...&page&size -> {content, totalElements, provider}
 */
import type { FastifyInstance } from 'fastify';
import '../../decorations.ts';
import { badRequest } from '../../errors.ts';
import { paging } from '../logs/log-routes.ts';

export const OUTBOX_PERMISSION = 'outbox:list';

export function registerOutboxRoutes(app: FastifyInstance, providers: { sms: string; mail: string }): void {
  const { db } = app.database;
  app.get('/api/outbox', { preHandler: app.requirePermission(OUTBOX_PERMISSION) }, async (request) => {
    const q = (request.query ?? {}) as Record<string, unknown>;
    const { page, size } = paging({ page: q.page, size: q.size });
    const channel = typeof q.channel === 'string' ? q.channel.trim() : '';
    const target = typeof q.target === 'string' ? q.target.trim() : '';
    if (channel && channel !== 'sms' && channel !== 'email') throw badRequest('发送渠道只能是sms或email');
    if (target.length > 100) throw badRequest('接收人过长');
    let base = db.selectFrom('sys_outbox');
    if (channel) base = base.where('channel', '=', channel);
    if (target) base = base.where('target', '=', target);
    const count = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rows = await base
      .select(['id', 'channel', 'target', 'subject', 'content', 'create_time'])
      .orderBy('id', 'desc')
      .limit(size)
      .offset(page * size)
      .$castTo<{ id: number; channel: string; target: string; subject: string | null; content: string; create_time: string }>()
      .execute();
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        channel: r.channel,
        target: r.target,
        subject: r.subject ?? '',
        content: r.content,
        createTime: r.create_time,
      })),
      totalElements: Number(count?.n ?? 0),
      provider: providers,
    };
  });
}
