/**
 * TMS (库品管理) calls beyond the 库品类型 schema (api/tms/tmsWareType):
 *   GET api/tms/tmsZhcl/findZhclItem[?name=]   (tmsWareType:list)
 * The specification gives this path without entity or answer. "zhcl" is read as 装潢材料
 * (decoration materials: the accessories a dealer fits, stocked as 库品), and the spec's only TMS
 * entity is the 库品类型; so the call lists the enabled 库品类型 as the items a 装潢材料 form picks
 * from: [{id, name, code, unit}] in their order (sort, then id), `name` narrowing by part of the
 * name. At most ZHCL_MAX items.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { badRequest } from '../../errors.ts';
import { plainText } from '../../../shared/text.ts';

export const ZHCL_MAX = 10_000;

export function registerTmsRoutes(app: FastifyInstance, specs: ResourceSpec[]): void {
  const spec = specs.find((s) => s.name === 'tmsWareType');
  if (!spec) return;
  app.get('/api/tms/tmsZhcl/findZhclItem', { preHandler: app.requirePermission(`${spec.permission}:list`) }, async (request) => {
    const q = (request.query ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(q)) if (k !== 'name') throw badRequest(`不支持的查询参数: ${k}`);
    if (Array.isArray(q.name)) throw badRequest('参数name只能有一个值');
    const name = q.name === undefined ? '' : plainText(q.name).trim();
    if (name.length > 50) throw badRequest('类型名称长度不能超过50个字符');
    let query = app.database.db
      .selectFrom(spec.table)
      .select(['id', 'name', 'code', 'unit'])
      .where('enabled', '=', app.database.dialect === 'postgres' ? (true as never) : (1 as never));
    if (name) query = query.where(sql<boolean>`name like ${`%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`);
    const rows = await query
      .orderBy('sort')
      .orderBy('id')
      .limit(ZHCL_MAX)
      .$castTo<{ id: number; name: string; code: string | null; unit: string | null }>()
      .execute();
    return rows.map((r) => ({ id: Number(r.id), name: String(r.name), code: r.code ?? null, unit: r.unit ?? null }));
  });
}
