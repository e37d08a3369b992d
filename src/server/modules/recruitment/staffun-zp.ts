/**
 * Recruitment postings beyond the generic routes: GET api/staffunZp/getZpById?id= answers one
 * posting (the recruitment-info page reads it by id). Signed-in staff only, inside their data scope.
 */
import type { FastifyInstance } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import { assertRecordsInScope, findById, positiveId } from '../../crud/index.ts';
import { scopeField } from '../../../shared/resource-spec.ts';
import { badRequest, notFound } from '../../errors.ts';

export async function registerStaffunZpRoutes(app: FastifyInstance): Promise<void> {
  const spec = resourceByName.staffunZp;
  if (!spec) return;
  app.get(`/${spec.path}/getZpById`, { preHandler: app.requirePermission(`${spec.permission}:list`) }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const raw = Array.isArray(query.id) ? undefined : query.id;
    const id = positiveId(raw);
    if (id === undefined) throw badRequest('ID必须是正整数');
    const record = await findById(app.database, spec, id);
    if (!record) throw notFound('数据不存在');
    // the same data scope as the list (x-scope on deptId)
    const scoped = scopeField(spec);
    if (scoped) await assertRecordsInScope(app.database, spec, request, [record[scoped.name]]);
    return record;
  });
}
