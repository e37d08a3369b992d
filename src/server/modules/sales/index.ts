/**
 * Sales area: the calls of sales leads, profit detail and settlements beyond their schemas'
 * generic CRUD, and the two button keys of the leads screen (销售顾问, 分配潜客).
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { nowText } from '../../db/index.ts';
import { ALLOT_KEY, CONSULTANT_KEY, registerLeadRoutes } from './leads.ts';
import { registerProfitRoutes, registerSettlementRoutes } from './reports.ts';

export { ALLOT_KEY, CONSULTANT_KEY };

/** Buttons under the leads menu carrying the keys that are not CRUD actions; added once. */
async function seedLeadButtons(app: FastifyInstance, file: ResourceSpec): Promise<void> {
  const { db } = app.database;
  const menu = await db.selectFrom('sys_menu').select('id').where('permission', '=', `${file.permission}:list`).executeTakeFirst();
  if (!menu) return;
  const buttons = [
    { key: CONSULTANT_KEY, title: '销售顾问(我的潜客)', sort: 20 },
    { key: ALLOT_KEY, title: '潜客分配与调整公司', sort: 21 },
  ];
  for (const b of buttons) {
    const have = await db.selectFrom('sys_menu').select('id').where('permission', '=', b.key).executeTakeFirst();
    if (have) continue;
    await db
      .insertInto('sys_menu')
      .values({
        pid: Number(menu.id),
        type: 2,
        title: b.title,
        menu_sort: b.sort,
        permission: b.key,
        hidden: 0,
        cache: 0,
        i_frame: 0,
        create_time: nowText(),
      })
      .execute();
  }
}

export async function registerSalesRoutes(app: FastifyInstance, specs: ResourceSpec[]): Promise<void> {
  const by = (name: string) => specs.find((s) => s.name === name);
  const file = by('xsSubmersibleFile');
  const contact = by('xsSubmersibleContact');
  if (file && contact) {
    registerLeadRoutes(app, file, contact);
    await seedLeadButtons(app, file);
  }
  const profit = by('xsLrSjmx');
  if (profit) registerProfitRoutes(app, profit);
  const settlement = by('xsZjs');
  if (settlement) registerSettlementRoutes(app, settlement);
}
