/**
 * Demo data of the roster for a first start (SEED_DEMO): job types (岗位类型) and about ten roster
 * entries across the demo departments, each written only into an empty table.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { insertAll } from '../../crud/index.ts';

export const DEMO_JOB_TYPES: Array<{ name: string; code: string; category: string }> = [
  { name: '销售顾问', code: 'XSGW', category: '销售' },
  { name: '销售经理', code: 'XSJL', category: '销售' },
  { name: '服务顾问', code: 'FWGW', category: '售后' },
  { name: '机修技师', code: 'JXJS', category: '售后' },
  { name: '人事专员', code: 'RSZY', category: '行政' },
  { name: '数据专员', code: 'SJZY', category: '行政' },
  { name: '总经理', code: 'ZJL', category: '管理' },
];

/** [name, mobile, sex, department name, job, job type code, entry date] */
const DEMO_STAFF: Array<[string, string, number, string, string, string, string]> = [
  ['张伟', '13838000001', 1, '销售部', '销售顾问', 'XSGW', '2022-03-01'],
  ['王芳', '13838000002', 0, '销售部', '销售顾问', 'XSGW', '2023-05-15'],
  ['李强', '13838000003', 1, '销售部', '销售经理', 'XSJL', '2019-08-01'],
  ['刘洋', '13838000004', 1, '销售部', '销售顾问', 'XSGW', '2024-02-20'],
  ['陈静', '13838000005', 0, '售后服务部', '服务顾问', 'FWGW', '2021-06-01'],
  ['杨磊', '13838000006', 1, '售后服务部', '机修技师', 'JXJS', '2020-10-12'],
  ['赵敏', '13838000007', 0, '人事部', '人事专员', 'RSZY', '2022-09-01'],
  ['黄海', '13838000008', 1, '信息数据部', '数据专员', 'SJZY', '2023-01-09'],
  ['周婷', '13838000009', 0, '售后服务部', '服务顾问', 'FWGW', '2024-07-01'],
  ['吴刚', '13838000010', 1, '总公司', '总经理', 'ZJL', '2018-01-02'],
];

async function isEmpty(app: FastifyInstance, table: string): Promise<boolean> {
  return !(await app.database.db.selectFrom(table).select('id').limit(1).executeTakeFirst());
}

export async function seedStaffDemo(app: FastifyInstance, staff: ResourceSpec, jpType: ResourceSpec | undefined): Promise<void> {
  if (!app.config.seedDemo) return;
  const { db } = app.database;
  const actor = { username: 'admin' };
  if (jpType && (await isEmpty(app, jpType.table))) {
    await insertAll(
      app.database,
      jpType,
      DEMO_JOB_TYPES.map((t, i) => ({ ...t, sort: i + 1, enabled: true })),
      actor,
    );
  }
  if (!(await isEmpty(app, staff.table))) return;
  const depts = await db.selectFrom('sys_dept').select(['id', 'pid', 'name']).execute();
  const root = depts.find((d) => d.pid === null || d.pid === undefined);
  if (!root) return;
  const byName = new Map(depts.map((d) => [String(d.name), Number(d.id)]));
  const types = jpType ? await db.selectFrom(jpType.table).select(['id', 'code']).execute() : [];
  const typeId = new Map(types.map((t) => [String(t.code), Number(t.id)]));
  const rows = DEMO_STAFF.filter(([, , , dept]) => byName.has(dept) || dept === '总公司').map(
    ([name, mobile, sex, dept, job, code, entryDate]) => ({
      name,
      mobile,
      sex,
      job,
      entryDate,
      orgId: Number(root.id),
      deptId: dept === '总公司' ? Number(root.id) : byName.get(dept)!,
      jpTypeId: typeId.get(code) ?? null,
      status: 1,
      edu: 3,
    }),
  );
  // without the demo departments only the head-office entry fits
  if (rows.length) await insertAll(app.database, staff, rows, actor);
}
