/**
 * The dealer portal and the replacement-car programme (代步车): dealer companies and their
 * sign-in, members, customers, car-use demands with their state machine, and the staff's audit.
 * Registered as one area after the generic resource routes (whose tables it extends).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { nowText } from '../../db/index.ts';
import { ADMIN_ROLE } from '../../auth/seed.ts';
import { registerDealerAuth } from './auth.ts';
import { registerCompanyWrites } from './company.ts';
import { registerCustomerRoutes } from './customers.ts';
import { seedDemoMembers, tableMemberProvider, type MemberProvider } from './members.ts';
import { registerRequestRoutes } from './requests.ts';
import { DealerSessions } from './sessions.ts';
import { ensureDealerTables } from './tables.ts';
import { seedDemoDealers } from './demo.ts';
import './types.ts';

export { DealerSessions } from './sessions.ts';
export type { MemberProvider, Member } from './members.ts';

export interface DealerOptions {
  /** the official account's member service; default: the dbc_member table */
  members?: MemberProvider;
  now?: () => number;
}

/** The button menu carrying submitDbcInfo:add (staff submitting a demand for a dealer), under the requests' menu. */
async function seedSubmitPermission(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;
  await db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('dealer-console:dealer-menus'))`.execute(trx);
    const have = await trx.selectFrom('sys_menu').select('id').where('permission', '=', 'submitDbcInfo:add').executeTakeFirst();
    if (have) return;
    const parent = await trx.selectFrom('sys_menu').select('id').where('permission', '=', 'dbcInfo:list').executeTakeFirst();
    const row = await trx
      .insertInto('sys_menu')
      .values({ pid: parent ? Number(parent.id) : null, type: 2, title: '代客提交用车需求', menu_sort: 10, permission: 'submitDbcInfo:add', hidden: 0, cache: 0, i_frame: 0, create_time: nowText() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await trx.selectFrom('sys_role').select('id').where('name', '=', ADMIN_ROLE).executeTakeFirst();
    if (role) await trx.insertInto('sys_roles_menus').values({ role_id: Number(role.id), menu_id: Number(row.id) }).execute();
  });
}

export async function registerDealerArea(app: FastifyInstance, options: DealerOptions = {}): Promise<void> {
  await ensureDealerTables(app.database);
  await seedSubmitPermission(app);
  if (app.config.seedDemo) {
    await seedDemoMembers(app.database);
    await seedDemoDealers(app.database);
  }
  const now = options.now ?? Date.now;
  const sessions = new DealerSessions(app.database.db, app.config.sessionIdleMinutes * 60_000, now);
  const members = options.members ?? tableMemberProvider(app.database);
  await registerDealerAuth(app, sessions, now);
  registerCompanyWrites(app, sessions);
  registerCustomerRoutes(app, members);
  registerRequestRoutes(app, members);
}
