/**
 * Reading the operation log:
 *   GET /api/logs/user   the signed-in user's own entries, newest first (paged)
 *   GET /api/logs        every entry, for holders of log:list; filters: username or blurry
 *                        (user name or description), logType INFO|ERROR (or error=true),
 *                        createTime=a&createTime=b (a date-only end covers the whole day)
 * Paging as everywhere: page from 0, size 1-1000 (default 10) -> {content, totalElements}.
 * ID numbers and mobiles in the recorded parameters and errors are masked (for every reader).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db, TableQuery } from '../../types.ts';
import '../../decorations.ts';
import { badRequest, unauthorized } from '../../errors.ts';
import { likePattern } from '../../crud/query/query.ts';
import { maskPersonalText } from '../../../shared/masks.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { personalKeysOf, type RoutePersonalKeys } from './personal-keys.ts';
import { maskStoredParams } from './request-info.ts';

export const LOG_PERMISSION = 'log:list';

type Query = Record<string, unknown>;

const one = (q: Query, key: string): string | undefined => {
  const v = q[key];
  const s: unknown = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s.trim() : undefined;
};

export function paging(q: Query): { page: number; size: number } {
  const pageText = one(q, 'page') ?? '0';
  const sizeText = one(q, 'size') ?? '10';
  if (!/^\d{1,6}$/.test(pageText)) throw badRequest('page参数不正确');
  if (!/^\d{1,4}$/.test(sizeText) || Number(sizeText) < 1 || Number(sizeText) > 1000) throw badRequest('size参数不正确，应为1-1000');
  const sort = q.sort;
  for (const s of Array.isArray(sort) ? sort : sort === undefined ? [] : [sort]) {
    if (typeof s !== 'string' || !/^(id|createTime|time)(,(asc|desc))?$/i.test(s.trim()))
      throw badRequest(`不支持的排序字段：${String(s)}`);
  }
  return { page: Number(pageText), size: Number(sizeText) };
}

const DATE = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

function timeRange(q: Query): [string, string] | null {
  const raw = q.createTime;
  if (raw === undefined) return null;
  const values = (Array.isArray(raw) ? raw : [raw]).map((v) => (typeof v === 'string' ? v.trim() : ''));
  if (values.length !== 2 || !values.every((v) => DATE.test(v))) throw badRequest('创建时间范围格式错误，应为两个 yyyy-MM-dd 日期');
  const [from, to] = values;
  return [from.length === 10 ? `${from} 00:00:00` : from, to.length === 10 ? `${to} 23:59:59` : to];
}

function sortOf(q: Query): Array<[string, 'asc' | 'desc']> {
  const sort = q.sort;
  const list = (Array.isArray(sort) ? sort : sort === undefined ? [] : [sort]) as string[];
  const columns: Record<string, string> = { id: 'id', createtime: 'id', time: 'time' };
  const out = list.map((s) => {
    const [field, dir] = s.trim().split(',');
    const column = Object.hasOwn(columns, field.toLowerCase()) ? columns[field.toLowerCase()] : undefined;
    if (!column) throw badRequest(`不支持的排序: ${s.slice(0, 50)}`);
    return [column, dir?.toLowerCase() === 'asc' ? 'asc' : 'desc'] as [string, 'asc' | 'desc'];
  });
  return out.length ? out : [['id', 'desc']];
}

const USER_COLUMNS = [
  'id',
  'description',
  'request_ip',
  'address',
  'browser',
  'time',
  'log_type',
  'exception_detail',
  'create_time',
] as const;
const ALL_COLUMNS = [...USER_COLUMNS, 'username', 'method', 'params'] as const;

function view(row: Record<string, unknown>, full: boolean, keys: RoutePersonalKeys) {
  const base = {
    id: Number(row.id),
    description: row.description,
    requestIp: row.request_ip,
    address: row.address ?? '',
    browser: row.browser,
    time: Number(row.time),
    logType: row.log_type,
    createTime: row.create_time,
  };
  // entries written before the log masked ID numbers and mobiles, or before a property gained
  // x-mask, are masked as they are read
  const text = (v: unknown) => (typeof v === 'string' ? maskPersonalText(v) : v);
  const method = typeof row.method === 'string' ? row.method : '';
  const params =
    typeof row.params === 'string' ? maskStoredParams(row.params, keys.forRoute(method.slice(method.indexOf(' ') + 1))) : row.params;
  return full
    ? { ...base, username: row.username, method: row.method, params, exceptionDetail: text(row.exception_detail ?? '') }
    : { ...base, exceptionDetail: text(row.exception_detail ?? '') };
}

/** The route's conditions on the log's query, whatever the query selects. */
type Narrow = <O>(b: TableQuery<O>) => TableQuery<O>;

async function page(db: Db, q: Query, full: boolean, keys: RoutePersonalKeys, narrow: Narrow) {
  const { page: p, size } = paging(q);
  const base = narrow(db.selectFrom('sys_log'));
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  let rows = base.select(full ? [...ALL_COLUMNS] : [...USER_COLUMNS]);
  for (const [col, dir] of sortOf(q)) rows = rows.orderBy(col, dir);
  const content = await rows
    .limit(size)
    .offset(p * size)
    .execute();
  return { content: content.map((r) => view(r as Record<string, unknown>, full, keys)), totalElements: Number(count?.n ?? 0) };
}

export function registerLogRoutes(app: FastifyInstance, specs: ResourceSpec[]): void {
  const { db } = app.database;
  const keys = personalKeysOf(specs);
  const query = (request: FastifyRequest) => (request.query ?? {}) as Query;

  app.get('/api/logs/user', { preHandler: app.authenticate }, async (request) => {
    const user = request.user;
    if (!user) throw unauthorized();
    const q = query(request);
    const range = timeRange(q);
    return page(db, q, false, keys, (b) => {
      let out = b.where('user_id', '=', user.id);
      if (range) out = out.where('create_time', '>=', range[0]).where('create_time', '<=', range[1]);
      return out;
    });
  });

  app.get('/api/logs', { preHandler: app.requirePermission(LOG_PERMISSION) }, async (request) => {
    const q = query(request);
    const range = timeRange(q);
    const usernameText = one(q, 'username');
    const blurry = one(q, 'blurry');
    const logType = one(q, 'logType');
    const errorOnly = one(q, 'error');
    if (logType && !['INFO', 'ERROR'].includes(logType)) throw badRequest('日志类型只能是INFO或ERROR');
    if (errorOnly && !['true', 'false'].includes(errorOnly)) throw badRequest('error参数只能是true或false');
    if ((usernameText?.length ?? 0) > 64 || (blurry?.length ?? 0) > 100) throw badRequest('查询内容过长');
    return page(db, q, true, keys, (b) => {
      let out = b;
      if (range) out = out.where('create_time', '>=', range[0]).where('create_time', '<=', range[1]);
      if (usernameText) out = out.where('username', '=', usernameText);
      if (blurry) {
        const pattern = likePattern(blurry);
        const like = app.database.dialect === 'postgres' ? sql.raw('ilike') : sql.raw('like');
        out = out.where(
          sql<boolean>`(${sql.ref('username')} ${like} ${pattern} escape '\\' or ${sql.ref('description')} ${like} ${pattern} escape '\\')`,
        );
      }
      if (logType) out = out.where('log_type', '=', logType);
      if (errorOnly === 'true') out = out.where('log_type', '=', 'ERROR');
      return out;
    });
  });
}
