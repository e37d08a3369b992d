/**
 * Demo data for a first start (SEED_DEMO, on by default): feedback, recruitment postings, 库品类型
 * and the rows of every list the user guide shows (records.ts),
 * written only into empty tables so a restart never adds them twice or touches real data.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { insertAll } from '../../crud/index.ts';
import { departmentIds } from '../system/index.ts';
import { demoFeedback, demoPostings, demoWareTypes } from './data.ts';
import { seedGuideRecords } from './records.ts';
import { seedDemoRoles } from './roles.ts';

async function isEmpty(app: FastifyInstance, table: string): Promise<boolean> {
  const row = await app.database.db.selectFrom(table).select('id').limit(1).executeTakeFirst();
  return !row;
}

export async function seedDemoData(app: FastifyInstance, specs: ResourceSpec[]): Promise<void> {
  if (!app.config.seedDemo) return;
  const byName = new Map(specs.map((s) => [s.name, s]));
  const actor = { username: 'admin' };
  const feedback = byName.get('sysQuestion');
  if (feedback && (await isEmpty(app, feedback.table))) {
    await insertAll(app.database, feedback, demoFeedback(), actor);
  }
  await seedDemoRoles(app.database.db);
  const postings = byName.get('staffunZp');
  if (postings && (await isEmpty(app, postings.table))) {
    const depts = (await departmentIds(app.database.db)).slice(1);
    if (depts.length) await insertAll(app.database, postings, demoPostings(depts), actor);
  }
  const root = await app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).orderBy('id').executeTakeFirst();
  if (root) {
    const named = async (name: string): Promise<unknown> =>
      (
        await app.database.db
          .selectFrom('sys_dept')
          .select('id')
          .where('pid', '=', Number(root.id))
          .where('name', '=', name)
          .executeTakeFirst()
      )?.id;
    const sales = Number((await named('销售部')) ?? root.id);
    const other = Number((await named('售后服务部')) ?? root.id);
    await seedGuideRecords(app, byName, { sales, other });
  }
  const wareTypes = byName.get('tmsWareType');
  if (wareTypes && (await isEmpty(app, wareTypes.table))) {
    await insertAll(app.database, wareTypes, demoWareTypes(), actor);
  }
}
