/**
 * System area: public settings (before sign-in) and the department list.
 * Registered right after registerAuth, which owns the tables these read; gives sign-in the
 * department names and public settings of its answer (auth/user-directory.ts).
 */
import type { FastifyInstance } from 'fastify';
import '../../decorations.ts';
import { getPublicSettings } from './public-settings.ts';
import { deptName, deptNamePath, listDepartments, parseDeptQuery } from './departments.ts';
import { requestScope, scopeIds } from '../../auth/data-scope.ts';
import { registerDeptRemark } from './dept-remark.ts';
import { provideUserDirectory } from '../../auth/user-directory.ts';

export { getPublicSettings, setPublicSetting, defaultPublicSettings, type PublicSettings } from './public-settings.ts';
export { deptName, deptNamePath, departmentIds, listDepartments, parseDeptQuery, type DeptRow } from './departments.ts';

/** Registers the routes; answers a settled promise (callers await it like the other areas). */
export function registerSystem(app: FastifyInstance): Promise<void> {
  provideUserDirectory({ deptName, deptNamePath, publicSettings: getPublicSettings });
  app.get('/api/system/sysConfigInit/anon/pc', async () => getPublicSettings(app.database.db, app.config));

  app.get('/api/dept', { preHandler: app.authenticate }, async (request) => {
    const q = parseDeptQuery((request.query ?? {}) as Record<string, unknown>);
    // the departments of the user's data scope (全部: all)
    const scope = await requestScope(app.database.db, request);
    return listDepartments(app.database.db, q, scopeIds(scope, 'dept'));
  });

  registerDeptRemark(app);
  return Promise.resolve();
}
