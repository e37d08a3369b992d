/**
 * Access administration area: users, roles with data scope, menus, departments, dictionaries
 * and the business dictionary tree. Creates its tables and first-start data (under the same
 * PostgreSQL advisory lock as the sign-in tables, so several instances can start at once), then
 * registers the routes.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { ensureTables } from '../../auth/tables.ts';
import { ACCESS_TABLES } from './tables.ts';
import { seedAccess } from './seed.ts';
import { registerDepartmentAdmin } from './departments.ts';
import { registerUserAdmin } from './users.ts';
import { registerUserPicker } from './user-picker.ts';
import { registerRoleAdmin } from './roles.ts';
import { registerMenuAdmin } from './menus.ts';
import { registerDictionaries } from './dictionaries.ts';

export { ADMIN_SCREENS, BUSINESS_CATEGORIES, INSURERS } from './seed.ts';
export { DEFAULT_USER_PASSWORD } from './users.ts';

export async function registerAccessAdmin(app: FastifyInstance, specs: ResourceSpec[]): Promise<void> {
  const database = app.database;
  await database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('dealer-console:auth-setup'))`.execute(trx);
    await ensureTables(trx, database.dialect, ACCESS_TABLES);
    await seedAccess(trx, specs);
  });
  registerDepartmentAdmin(app, specs);
  registerUserAdmin(app);
  registerUserPicker(app, specs);
  registerRoleAdmin(app);
  registerMenuAdmin(app);
  registerDictionaries(app);
}
