/**
 * The demand's car type (userCarType) against the brand tree.
 *   GET comp/dbcCompany/getTree?levels=   (dealer token) the enabled brand tree down to `levels`
 *                                         (1-5, default CAR_TYPE_LEVEL), read through the trees module
 * A demand carries userCarType (brand/series/model names joined by '/') and carTypeIds, the ids of
 * the path picked in the cascader, from the brand down to at least CAR_TYPE_LEVEL (a configuration).
 * The server checks that the ids are one enabled branch of the tree, deep enough, and that their
 * first three names are the userCarType; otherwise 400 with the messages below.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../types.ts';
import { badRequest } from '../../errors.ts';
import { readBrandTree } from '../trees/index.ts';
import { BRAND_TREE_TABLE } from '../trees/tables.ts';
import { MAX_LEVEL, levelRequiredMessage, userCarType } from '../../../shared/brand-tree.ts';
import { CAR_TYPE_LEVEL } from '../../../shared/dbc-demand.ts';
import { DEALER_BASE } from './auth.ts';

export const CAR_TYPE_MESSAGES = {
  unknown: '所选车型在品牌车型中不存在或已停用，请重新选择',
  idsInvalid: '车型数据格式不正确，请重新选择车型',
  tooShort: levelRequiredMessage(CAR_TYPE_LEVEL),
} as const;

/** The checked ids of the path, or throws the 400. */
export async function checkCarTypePath(database: Database, carType: string, rawIds: unknown, level = CAR_TYPE_LEVEL): Promise<number[]> {
  if (rawIds === undefined || rawIds === null) throw badRequest(CAR_TYPE_MESSAGES.tooShort);
  if (!Array.isArray(rawIds) || rawIds.length > MAX_LEVEL || !rawIds.every((v) => Number.isSafeInteger(v) && (v as number) > 0)) {
    throw badRequest(CAR_TYPE_MESSAGES.idsInvalid);
  }
  const ids = rawIds as number[];
  if (ids.length < level) throw badRequest(CAR_TYPE_MESSAGES.tooShort);
  const rows = await database.db
    .selectFrom(BRAND_TREE_TABLE)
    .select(['id', 'pid', 'name', 'level', 'enabled'])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const names: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    const node = byId.get(ids[i]);
    const parent = i === 0 ? 0 : ids[i - 1];
    if (!node || Number(node.pid) !== parent || Number(node.level) !== i + 1 || !node.enabled) throw badRequest(CAR_TYPE_MESSAGES.unknown);
    names.push(String(node.name));
  }
  if (userCarType(names) !== carType) throw badRequest(CAR_TYPE_MESSAGES.unknown);
  return ids;
}

export function registerCarTypeRoutes(app: FastifyInstance): void {
  app.get(`${DEALER_BASE}/getTree`, { preHandler: app.authenticateDealer }, async (request) => {
    const raw = (request.query as Record<string, unknown>).levels;
    if (Array.isArray(raw)) throw badRequest('参数levels只能传一个值');
    let levels = CAR_TYPE_LEVEL;
    if (raw !== undefined && raw !== '') {
      levels = Number(raw);
      if (!Number.isInteger(levels) || levels < 1 || levels > MAX_LEVEL) throw badRequest(`参数levels必须是1到${MAX_LEVEL}的整数`);
    }
    return readBrandTree(app.database, levels, { enabledOnly: true });
  });
}
