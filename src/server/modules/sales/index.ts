/**
 * Sales area: the calls of sales leads, profit detail and settlements beyond their schemas'
 * generic CRUD, and the two button keys of the leads screen (销售顾问, 分配潜客).
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { nowText } from '../../db/index.ts';
import { setRecordHooks, type RecordHooks } from '../../crud/hooks.ts';
import { ALLOT_KEY, CONSULTANT_KEY, registerLeadRoutes } from './leads.ts';
import { openMainClue, OPEN_STATUSES } from './lead-store.ts';
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

/**
 * One open main clue per mobile number and company: a lead added through 新增 or 导入 whose
 * number already has an open main clue in its company (or an earlier row of the same import
 * does) is kept as a secondary clue (主线索 否), as a returning showroom visitor is.
 */
const mainClueHooks = new Map<string, RecordHooks>();

function keepOneMainClue(file: ResourceSpec): void {
  // one hook per resource in the process (hooks are kept by resource name, apps may be built again)
  if (mainClueHooks.has(file.name)) return;
  const hooks: RecordHooks = {
    async beforeWrite({ app, mode, record, shared }) {
      if (mode !== 'create') return;
      const mobile = typeof record.mobile === 'string' ? record.mobile : '';
      const orgId = Number(record.orgId);
      const status = Number(record.status ?? 0);
      if (!mobile || !Number.isInteger(orgId) || !OPEN_STATUSES.includes(status)) return;
      const key = `mainClue:${orgId}:${mobile}`;
      const earlierRow = shared?.has(key) ?? false;
      const main = earlierRow || (await openMainClue(app.database.db, file, app.database.dialect, mobile, orgId));
      record.isMain = !main;
      shared?.set(key, true);
    },
  };
  mainClueHooks.set(file.name, hooks);
  setRecordHooks(file.name, hooks);
}

export async function registerSalesRoutes(app: FastifyInstance, specs: ResourceSpec[]): Promise<void> {
  const by = (name: string) => specs.find((s) => s.name === name);
  const file = by('xsSubmersibleFile');
  const contact = by('xsSubmersibleContact');
  if (file && contact) {
    registerLeadRoutes(app, file, contact);
    keepOneMainClue(file);
    await seedLeadButtons(app, file);
  }
  const profit = by('xsLrSjmx');
  if (profit) registerProfitRoutes(app, profit);
  const settlement = by('xsZjs');
  if (settlement) registerSettlementRoutes(app, settlement);
}
