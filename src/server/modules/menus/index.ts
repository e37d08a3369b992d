/** Menu routes of the signed-in user (the tree the console builds its routes and sidebar from). */
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../../errors.ts';
import { buildMenuTree, visibleMenuRows } from './build.ts';

export function registerMenuBuildRoute(app: FastifyInstance): void {
  app.get('/api/menus/build', { preHandler: app.authenticate }, async (request) => {
    const user = request.user;
    if (!user) throw unauthorized();
    return buildMenuTree(await visibleMenuRows(app.database.db, user.id, user.isAdmin));
  });
}
