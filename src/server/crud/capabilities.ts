/**
 * Extra generic calls a schema can ask for in `x-entity` (see schemas/README.md):
 *   enabledToggle: "enabled"  PUT  {path}/updateEnabled/{id}  (`:edit`) body {enabled} or empty to flip
 *                                                             -> 200 {id, enabled}
 *   queryAll: true            GET  {path}/queryAll            (read access) every matching record, sorted,
 *                                                             as an array (the list's filters and sort apply)
 *   total: ["money"]          GET  {path}/total               (read access) {money, count} summed over the
 *                                                             same filters as the list
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { fieldByName, permissionKey, readAccess, type FieldSpec, type ReadAccess, type ResourceSpec } from '../../shared/resource-spec.ts';
import { accessFor, callerOf, scopeListQuery } from './access/owner-access.ts';
import { oneIdRead, RECORD_NOT_FOUND, scopedParams } from './access/scope.ts';
import { guardRecords } from './access/personal-data.ts';
import { fieldAccess } from './access/field-access.ts';
import { badRequest, notFound } from '../errors.ts';
import { MAX_PAGE_SIZE, parseListQuery } from './query/query.ts';
import { filteredQuery, findById, pageQuery, updateRecord } from './repository.ts';
import { rowToRecord } from './values.ts';
import { positiveId } from './routes.ts';
import { fromCents } from '../../shared/money.ts';
import { readLimit } from '../read-limits.ts';

export const ENABLED_NOT_BOOLEAN = '状态只能是启用(true)或禁用(false)';

/** Sum of a number column as a JSON number (PostgreSQL answers numeric sums as text), rounded off float noise. */
export function sumValue(raw: unknown): number {
  const n = raw === null || raw === undefined ? 0 : Number(raw);
  return Number.isFinite(n) ? Math.round(n * 1e6) / 1e6 : 0;
}

/** Sum of a column as a JSON number: money sums are integer cents (exact) shown in yuan. */
export function fieldSum(field: Pick<FieldSpec, 'money'>, raw: unknown): number {
  return field.money ? fromCents(raw ?? 0) : sumValue(raw);
}

export function registerCapabilityRoutes(app: FastifyInstance, spec: ResourceSpec, read: ReadAccess = readAccess(spec, [spec])): void {
  // reads take the resource's read access and the caller's data scope, as its list does
  const reader = accessFor(app, spec, 'list', read);
  const base = `/${spec.path}`;

  if (spec.enabledToggle) {
    const field = fieldByName(spec, spec.enabledToggle)!;
    app.put<{ Params: { id: string } }>(
      `${base}/updateEnabled/:id`,
      { preHandler: app.requirePermission(permissionKey(spec, 'edit')) },
      async (request) => {
        const id = positiveId(request.params.id);
        if (id === undefined) throw badRequest('ID必须是正整数');
        const body = request.body;
        let wanted: boolean | undefined;
        if (body !== undefined && body !== null && body !== '') {
          if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(ENABLED_NOT_BOOLEAN);
          const v = (body as Record<string, unknown>)[field.name];
          if (v !== undefined) {
            if (typeof v !== 'boolean') throw badRequest(ENABLED_NOT_BOOLEAN);
            wanted = v;
          }
        }
        const current = await findById(app.database, spec, id);
        if (!current) throw notFound('数据不存在');
        const next = wanted ?? !current[field.name];
        await updateRecord(
          app.database,
          spec,
          id,
          { [field.name]: next },
          [],
          request.user ? { username: request.user.username } : undefined,
        );
        return { id, [field.name]: next };
      },
    );
  }

  if (spec.queryAll) {
    app.get(`${base}/queryAll`, { preHandler: [reader, ...readLimit(app)] }, async (request) => {
      const query = { ...(request.query as Record<string, unknown>) };
      if (query.size === undefined || query.size === '') query.size = String(MAX_PAGE_SIZE);
      const params = await scopedParams(
        app.database,
        spec,
        request,
        parseListQuery(spec, scopeListQuery(spec, callerOf(request), query), fieldAccess(request, spec)),
      );
      const rows = await pageQuery(app.database, spec, params).execute();
      if (rows.length === 0 && oneIdRead(request.query as Record<string, unknown>) !== undefined) throw notFound(RECORD_NOT_FOUND);
      return guardRecords(
        request,
        spec,
        rows.map((r) => rowToRecord(spec, r as Record<string, unknown>)),
      );
    });
  }

  if (spec.total?.length) {
    const fields = spec.total.map((name) => fieldByName(spec, name)!);
    app.get(`${base}/total`, { preHandler: [reader, ...readLimit(app)] }, async (request) => {
      const query = { ...(request.query as Record<string, unknown>) };
      // paging and order do not change a total; accept them so the list's own query can be sent
      delete query.page;
      delete query.size;
      delete query.sort;
      const params = await scopedParams(
        app.database,
        spec,
        request,
        parseListQuery(spec, scopeListQuery(spec, callerOf(request), query), fieldAccess(request, spec), { paging: false }),
      );
      const row = await filteredQuery(app.database, spec, params.conditions)
        .clearSelect()
        .select([...fields.map((f) => sql<unknown>`sum(${sql.ref(f.column)})`.as(f.name)), sql<unknown>`count(*)`.as('count')])
        .executeTakeFirst();
      const out: Record<string, number> = {};
      // money sums are integer cents: exact, then shown in yuan
      for (const f of fields) out[f.name] = fieldSum(f, row?.[f.name]);
      out.count = Number(row?.count ?? 0);
      return out;
    });
  }
}
