/**
 * Demo dealer companies for a first start with demo data, so that the portal can be tried at
 * once: 示例经销商一 (jxs001) and 示例经销商二 (jxs002), both with the password Jxs@123456.
 * 示例经销商一 also has what the user guide (docs/用户手册/经销商.md) walks through: a customer
 * (李娜, a demo member who follows the official account, so 提交用车需求 opens for her row) and
 * one approved demand of hers, whose view offers 查看合同 and 下载合同. Each is written only into
 * an empty table, checked as a create would be.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { resourceByName } from '../../../generated/resources.ts';
import { writePinyinKeys } from '../../crud/pinyin/pinyin-search.ts';
import { checkRecord, insertAll } from '../../crud/index.ts';
import { checkDemand } from '../../../shared/dbc-demand.ts';
import { STATUS_FLAGS } from '../../../shared/dbc-status.ts';
import { DEMO_MEMBERS } from './members.ts';
import { memberValues } from './customers.ts';
import { demandRecord, recordStatusChange } from './requests.ts';

export const DEMO_DEALER_PASSWORD = 'Jxs@123456';
export const DEMO_DEALERS = [
  { comp_name: '示例经销商一', comp_code: 'JXS001', username: 'jxs001', mobile: '13900000001' },
  { comp_name: '示例经销商二', comp_code: 'JXS002', username: 'jxs002', mobile: null },
];
/** the demo customer of jxs001 (a member other than 张伟, whom the guide's screenshots add) */
export const DEMO_CUSTOMER_MOBILE = '13800000002';

export async function seedDemoDealers(database: Database): Promise<void> {
  const have = await database.db.selectFrom('dbc_company').select('id').limit(1).executeTakeFirst();
  if (have) return;
  const now = nowText();
  const password = await hashPassword(DEMO_DEALER_PASSWORD);
  const rows = await database.db
    .insertInto('dbc_company')
    .values(DEMO_DEALERS.map((d) => ({ ...d, enabled: 1, password, pwd_reset_time: now, create_time: now })))
    .returning(['id', 'comp_name'])
    .execute();
  // seeded after the migration filled the keys: the names' pinyin keys come with the rows
  await writePinyinKeys(database.db, resourceByName.dbcCompany, rows);
}

function checked(name: 'dbcUserInfo' | 'dbcInfo', row: Record<string, unknown>, owned: Record<string, unknown> = {}) {
  const result = checkRecord(resourceByName[name], row, 'create');
  if (!result.ok) throw new Error(`demo row of ${name} refused: ${result.error.message}`);
  return { ...result.values, ...owned };
}

/** 'YYYY-MM-DD 09:00:00', days from today */
function morning(days: number): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 09:00:00`;
}

/** jxs001's customer and her approved demand, with its status history (submitted, then approved by staff). */
export async function seedDemoDealerRecords(app: FastifyInstance): Promise<void> {
  const { database } = app;
  const db = database.db;
  const customers = resourceByName.dbcUserInfo;
  const demands = resourceByName.dbcInfo;
  if (await db.selectFrom(customers.table).select('id').limit(1).executeTakeFirst()) return;
  const company = await db.selectFrom('dbc_company').select('id').where('username', '=', DEMO_DEALERS[0].username).executeTakeFirst();
  const member = DEMO_MEMBERS.find((m) => m.mobile === DEMO_CUSTOMER_MOBILE);
  if (!company || !member) return;
  const compId = Number(company.id);
  const actor = { username: DEMO_DEALERS[0].username };
  await insertAll(database, customers, [checked('dbcUserInfo', { compId, ...memberValues(member) })], actor);
  const customer = await db
    .selectFrom(customers.table)
    .select('id')
    .where('comp_id', '=', compId)
    .where('mobile', '=', member.mobile)
    .executeTakeFirstOrThrow();
  if (await db.selectFrom(demands.table).select('id').limit(1).executeTakeFirst()) return;
  const demand = checkDemand({
    userCarType: '丰田/凯美瑞/2024款 2.0L',
    userCph: '豫A56789',
    userVin: 'LVGBE40K3NG100107',
    bah: 'BA20260315001',
    wxgsf: 1200,
    wxts: 5,
    startTime: morning(1),
    endTime: morning(6),
    mfts: 3,
    zfts: 2,
    foregiftPrice: 2000,
    createUser: '王经理',
  });
  if (!demand.ok) throw new Error(`demo demand refused: ${JSON.stringify(demand.errors)}`);
  const reason = '资料齐全，同意';
  const record = checked('dbcInfo', demandRecord(compId, demand.values, customer, member, app.config.dbcDailyPrice), {
    status: 2,
    ...STATUS_FLAGS[2],
    auditReason: reason,
  });
  await insertAll(database, demands, [record], actor);
  const row = await db.selectFrom(demands.table).select('id').where('du_id', '=', Number(customer.id)).executeTakeFirstOrThrow();
  const at = nowText();
  const dealer = { kind: 'dealer' as const, name: actor.username };
  await recordStatusChange(db, Number(row.id), null, 1, 'submit', null, dealer, at);
  await recordStatusChange(db, Number(row.id), 1, 2, 'approve', reason, { kind: 'staff', name: 'admin' }, at);
}
