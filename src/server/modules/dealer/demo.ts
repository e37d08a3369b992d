/**
 * Demo dealer companies for a first start with demo data, so that the portal can be tried at
 * once: 示例经销商一 (jxs001) and 示例经销商二 (jxs002), both with the password Jxs@123456.
 */
import type { Database } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { resourceByName } from '../../../generated/resources.ts';
import { writePinyinKeys } from '../../crud/pinyin/pinyin-search.ts';

export const DEMO_DEALER_PASSWORD = 'Jxs@123456';
export const DEMO_DEALERS = [
  { comp_name: '示例经销商一', comp_code: 'JXS001', username: 'jxs001', mobile: '13900000001' },
  { comp_name: '示例经销商二', comp_code: 'JXS002', username: 'jxs002', mobile: null },
];

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
