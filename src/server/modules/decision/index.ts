/**
 * Data decision centre (数据决策中心) SSO link and the record of the links issued.
 *
 * GET /api/decision/getDecision -> { ssoHref: string | null }
 *   Needs DecisionCenter:list. The user admin is refused (403) even though admin passes every
 *   other check: the decision centre has no admin account. With SSO_LINK_URL set the link is
 *   `${SSO_LINK_URL}?user=<username>&ts=<epoch ms>&sign=<hex HMAC-SHA256(SSO_SECRET, user + "\n" + ts)>`,
 *   which the decision centre verifies (and refuses when ts is older than it allows); without it
 *   ssoHref is null and the landing page goes to /404. Every link issued is a row of
 *   decision_sso_log (who, when, from which address; never the signature).
 *
 * GET /api/decision/sso?page=0&size=10&sort=id,desc&username=&createTime=a&createTime=b
 *   -> { content: [{id, username, nickName, ip, createTime}], totalElements }
 *   The sign-in links issued, newest first; key DecisionCenter:sso (数据决策中心登录记录).
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ensureTables, type TableDef } from '../../auth/tables.ts';
import { nowText } from '../../db/index.ts';
import { badRequest, forbidden, unauthorized } from '../../errors.ts';
import { plainText } from '../../../shared/text.ts';

export const DECISION_PERMISSION = 'DecisionCenter:list';
export const DECISION_SSO_PERMISSION = 'DecisionCenter:sso';

export const DECISION_TABLES: TableDef[] = [
  {
    name: 'decision_sso_log',
    columns: [
      { name: 'id', type: 'id' },
      { name: 'username', type: 'varchar(64)', notNull: true },
      { name: 'nick_name', type: 'varchar(64)' },
      { name: 'ip', type: 'varchar(64)' },
      { name: 'create_time', type: 'time', notNull: true },
    ],
    indexes: [{ name: 'decision_sso_log_user', columns: ['username', 'id'] }],
  },
];

export function signSsoLink(base: string, secret: string, username: string, now = Date.now()): string {
  const ts = String(now);
  const sign = createHmac('sha256', secret).update(`${username}\n${ts}`).digest('hex');
  const url = new URL(base);
  url.searchParams.set('user', username);
  url.searchParams.set('ts', ts);
  url.searchParams.set('sign', sign);
  return url.toString();
}

const QUERY_KEYS = new Set(['page', 'size', 'sort', 'username', 'createTime']);
const SORTABLE: Record<string, string> = { id: 'id', createTime: 'create_time', username: 'username' };
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** A real calendar date (and time of day): 2024-02-30 or 25:00 is no date. */
function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1).map((x) => x ?? '0');
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return (
    Number(y) >= 1900 &&
    date.getUTCMonth() === Number(mo) - 1 &&
    date.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60
  );
}

function one(v: unknown, key: string): string | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw badRequest(`参数${key}只能有一个值`);
  return plainText(v);
}

export async function registerDecisionRoutes(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;
  await db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('dealer-console:decision-setup'))`.execute(trx);
    await ensureTables(trx, dialect, DECISION_TABLES);
  });

  app.get('/api/decision/getDecision', { preHandler: app.requirePermission(DECISION_PERMISSION) }, async (request) => {
    const user = request.user;
    if (!user) throw unauthorized();
    if (user.isAdmin) throw forbidden('管理员账号不能进入数据决策中心');
    const { ssoLinkUrl, ssoSecret } = app.config;
    if (!ssoLinkUrl) return { ssoHref: null };
    const ssoHref = signSsoLink(ssoLinkUrl, ssoSecret, user.username);
    await db
      .insertInto('decision_sso_log')
      .values({
        username: user.username.slice(0, 64),
        nick_name: (user.nickName ?? '').slice(0, 64) || null,
        ip: String(request.ip ?? '').slice(0, 64),
        create_time: nowText(),
      })
      .execute();
    return { ssoHref };
  });

  app.get('/api/decision/sso', { preHandler: app.requirePermission(DECISION_SSO_PERMISSION) }, async (request) => {
    const q = (request.query ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(q)) if (!QUERY_KEYS.has(k)) throw badRequest(`不支持的查询参数: ${k}`);
    const pageText = one(q.page, 'page') ?? '0';
    const sizeText = one(q.size, 'size') ?? '10';
    if (!/^\d{1,9}$/.test(pageText)) throw badRequest('参数page必须是不小于0的整数');
    if (!/^\d{1,5}$/.test(sizeText) || Number(sizeText) < 1 || Number(sizeText) > 99999)
      throw badRequest('参数size必须是1到99999之间的整数');
    const page = Number(pageText);
    const size = Number(sizeText);
    const sorts = (q.sort === undefined ? ['id,desc'] : Array.isArray(q.sort) ? q.sort : [q.sort]).map(
      (s): { column: string; dir: 'asc' | 'desc' } => {
        const [field, dirRaw = 'asc', ...rest] = String(s).split(',');
        const dir = dirRaw.trim().toLowerCase();
        if (!Object.hasOwn(SORTABLE, field.trim()) || rest.length || (dir !== 'asc' && dir !== 'desc'))
          throw badRequest(`不支持的排序: ${String(s).slice(0, 50)}`);
        return { column: SORTABLE[field.trim()], dir };
      },
    );
    let base = db.selectFrom('decision_sso_log');
    const username = one(q.username, 'username');
    if (username !== undefined && username !== '') {
      if (username.length > 64) throw badRequest('用户名不能超过64个字符');
      base = base.where('username', '=', username);
    }
    if (q.createTime !== undefined) {
      const range = Array.isArray(q.createTime) ? q.createTime.map(plainText) : [plainText(q.createTime)];
      if (range.length !== 2 || !range.every(isDate)) throw badRequest('创建时间范围必须是两个日期（yyyy-MM-dd）');
      const end = range[1].length === 10 ? `${range[1]} 23:59:59` : range[1];
      const start = range[0].length === 10 ? `${range[0]} 00:00:00` : range[0];
      base = base.where('create_time', '>=', start).where('create_time', '<=', end);
    }
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    let list = base.select(['id', 'username', 'nick_name', 'ip', 'create_time']);
    for (const s of sorts) list = list.orderBy(s.column, s.dir);
    if (!sorts.some((s) => s.column === 'id')) list = list.orderBy('id', 'desc');
    const rows = await list
      .limit(size)
      .offset(page * size)
      .$castTo<{ id: number; username: string; nick_name: string | null; ip: string | null; create_time: string | Date }>()
      .execute();
    return {
      content: rows.map((r) => ({
        id: Number(r.id),
        username: r.username,
        nickName: r.nick_name ?? null,
        ip: r.ip ?? null,
        createTime: r.create_time instanceof Date ? nowText(r.create_time) : String(r.create_time),
      })),
      totalElements: Number(total?.n ?? 0),
    };
  });
}
