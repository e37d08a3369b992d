/**
 * Profit detail (利润数据明细, `api/xs/xsLrSjmx`) and vehicle settlements (整车结算, `api/xsZjs`):
 * the calls beyond the generic CRUD. Every call takes the list's filters and stays inside the
 * caller's data scope (x-scope on orgId), as the lists do.
 *   GET  xsLrSjmx/getListAll               every matching row (no paging, at most 99999), list sort
 *   GET  xsLrSjmx/findGroup                per brand: count, sales, profit (sum), average profit
 *   GET  xsLrSjmx/selectGroupBrandCxType   per brand, model and model class: count, sales, profit
 *   PUT  xsZjs/updateCreateTime {id, createTime}   corrects when a settlement was entered (xsZjs:edit)
 *   GET  xsZjs/getcx?brand=                the models settled so far (distinct brand + model)
 */
import { sql } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { permissionKey, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { badRequest, notFound } from '../../errors.ts';
import {
  assertRecordsInScope,
  fieldAccess,
  filteredQuery,
  MAX_PAGE_SIZE,
  pageQuery,
  parseListQuery,
  rowToRecord,
  scopedParams,
  storedScopeValues,
  updateRecord,
} from '../../crud/index.ts';
import { isDateTimeText } from '../../crud/values.ts';
import { revisionActor, writeRevisions } from '../../crud/history/revisions.ts';
import { actorOf } from '../../crud/routes.ts';
import { fieldSum } from '../../crud/capabilities.ts';
import { fieldByName } from '../../../shared/resource-spec.ts';
import { idOf, objectBody } from './body.ts';
import { col } from './lead-store.ts';
import { guardRecords } from '../../crud/access/personal-data.ts';
import { readLimit } from '../../read-limits.ts';

function listQueryOf(raw: unknown): Record<string, unknown> {
  const q = { ...(raw as Record<string, unknown>) };
  delete q.page;
  delete q.size;
  return q;
}

export function registerProfitRoutes(app: FastifyInstance, spec: ResourceSpec): void {
  const base = `/${spec.path}`;
  const db = () => app.database;
  const reader = [app.requirePermission(permissionKey(spec, 'list')), ...readLimit(app)];

  app.get(`${base}/getListAll`, { preHandler: reader }, async (request) => {
    const params = await scopedParams(
      db(),
      spec,
      request,
      parseListQuery(spec, { ...listQueryOf(request.query), size: String(MAX_PAGE_SIZE) }, fieldAccess(request, spec)),
    );
    const rows = await pageQuery(db(), spec, params).execute();
    return guardRecords(
      request,
      spec,
      rows.map((r) => rowToRecord(spec, r as Record<string, unknown>)),
    );
  });

  async function grouped(request: FastifyRequest, keys: string[]) {
    const q = listQueryOf(request.query);
    delete q.sort;
    const params = await scopedParams(db(), spec, request, parseListQuery(spec, q, fieldAccess(request, spec), { paging: false }));
    const keyCols = keys.map((k) => col(spec, k));
    const rows = await filteredQuery(db(), spec, params.conditions)
      .clearSelect()
      .select([
        ...keys.map((k, i) => sql.ref(keyCols[i]).as(k)),
        sql<unknown>`count(*)`.as('count'),
        sql<unknown>`sum(${sql.ref(col(spec, 'salePrice'))})`.as('salePrice'),
        sql<unknown>`sum(${sql.ref(col(spec, 'profit'))})`.as('profit'),
      ])
      .groupBy(keyCols)
      .orderBy(keyCols)
      .execute();
    return rows.map((r: Record<string, unknown>) => {
      const count = Number(r.count);
      // money columns hold cents: fieldSum answers yuan, exactly
      const profit = fieldSum(fieldByName(spec, 'profit')!, r.profit);
      const out: Record<string, unknown> = {};
      for (const k of keys) out[k] = r[k] ?? null;
      return {
        ...out,
        count,
        salePrice: fieldSum(fieldByName(spec, 'salePrice')!, r.salePrice),
        profit,
        avgProfit: count ? Math.round((profit / count) * 100) / 100 : 0,
      };
    });
  }

  app.get(`${base}/findGroup`, { preHandler: reader }, async (request) => grouped(request, ['brand']));
  app.get(`${base}/selectGroupBrandCxType`, { preHandler: reader }, async (request) => grouped(request, ['brand', 'cx', 'cxType']));
}

export function registerSettlementRoutes(app: FastifyInstance, spec: ResourceSpec): void {
  const base = `/${spec.path}`;
  const db = () => app.database;
  const reader = [app.requirePermission(permissionKey(spec, 'list')), ...readLimit(app)];

  app.put(`${base}/updateCreateTime`, { preHandler: app.requirePermission(permissionKey(spec, 'edit')) }, async (request, reply) => {
    const body = objectBody(request.body);
    const id = idOf(body.id);
    const text = typeof body.createTime === 'string' ? body.createTime.trim() : '';
    if (!text) throw badRequest('创建时间不能为空');
    if (!isDateTimeText(text)) throw badRequest('创建时间格式错误，应为yyyy-MM-dd HH:mm:ss');
    if (Date.parse(text.replace(' ', 'T')) > Date.now() + 60_000) throw badRequest('创建时间不能晚于当前时间');
    const stored = await storedScopeValues(db(), spec, [id]);
    if (!stored.length) throw notFound('数据不存在');
    await assertRecordsInScope(db(), spec, request, stored);
    // createTime is automatic in the schema, so it is written here directly, with its revision
    const value = text.replace('T', ' ');
    const updated = await db()
      .db.transaction()
      .execute(async (trx) => {
        const old = await trx.selectFrom(spec.table).select(col(spec, 'createTime')).where(col(spec, 'id'), '=', id).executeTakeFirst();
        if (!old) return false;
        await trx
          .updateTable(spec.table)
          .set({ [col(spec, 'createTime')]: value })
          .where(col(spec, 'id'), '=', id)
          .execute();
        const before = rowToRecord(spec, old).createTime ?? null;
        if (before !== value)
          await writeRevisions(trx, db().dialect, spec, revisionActor(actorOf(request)), [
            { recordId: id, action: 'update', changes: { createTime: [before, value] } },
          ]);
        return true;
      });
    if (!updated) throw notFound('数据不存在');
    // touch through the repository so the list's cached counts are cleared
    await updateRecord(db(), spec, id, {}, []);
    return reply.status(204).send();
  });

  app.get(`${base}/getcx`, { preHandler: reader }, async (request) => {
    const q = request.query as Record<string, unknown>;
    const brand = typeof q.brand === 'string' && q.brand.trim() ? q.brand.trim() : undefined;
    if (brand && brand.length > 50) throw badRequest('品牌长度不能超过50个字符');
    const scoped = await scopedParams(db(), spec, request, parseListQuery(spec, {}, fieldAccess(request, spec), { paging: false }));
    let query = filteredQuery(db(), spec, scoped.conditions)
      .clearSelect()
      .select([sql.ref(col(spec, 'brand')).as('brand'), sql.ref(col(spec, 'cx')).as('cx')])
      .distinct();
    if (brand) query = query.where(col(spec, 'brand'), '=', brand);
    const rows = await query.orderBy(col(spec, 'brand')).orderBy(col(spec, 'cx')).execute();
    return rows.map((r: Record<string, unknown>) => ({ brand: r.brand, cx: r.cx }));
  });
}
