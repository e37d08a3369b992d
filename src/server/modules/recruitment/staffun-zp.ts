/**
 * Recruitment postings beyond the generic routes: GET api/staffunZp/getZpById?id= answers one
 * posting (the recruitment-info page and the applicant's detail page read it by id). The read
 * access of the postings list (its key, or the key of a screen that picks postings), inside
 * the caller's data scope (a posting outside it answers 404 数据不存在, as one that does not exist).
 */
import type { FastifyInstance } from 'fastify';
import { resourceByName, resources } from '../../../generated/resources.ts';
import { assertReadable, findById, positiveId, RECORD_NOT_FOUND } from '../../crud/index.ts';
import { readAccess, scopeField } from '../../../shared/resource-spec.ts';
import { badRequest, notFound } from '../../errors.ts';

export function registerStaffunZpRoutes(app: FastifyInstance): void {
  const spec = resourceByName.staffunZp;
  if (!spec) return;
  const read = readAccess(spec, resources);
  app.get(`/${spec.path}/getZpById`, { preHandler: app.requireAnyPermission(read.keys) }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const raw = Array.isArray(query.id) ? undefined : query.id;
    const id = positiveId(raw);
    if (id === undefined) throw badRequest('ID必须是正整数');
    const record = await findById(app.database, spec, id);
    if (!record) throw notFound(RECORD_NOT_FOUND);
    // the same data scope as the list (x-scope on deptId): outside it, as if it did not exist
    const scoped = scopeField(spec);
    if (scoped) await assertReadable(app.database, spec, request, record[scoped.name]);
    return record;
  });
}
