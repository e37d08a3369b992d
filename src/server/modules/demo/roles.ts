/**
 * Demo roles and one user each (SEED_DEMO), so a reviewer can sign in as each and follow the
 * user guide's page of the role (docs/用户手册/): each holds the keys its page describes and sits
 * in the department its work needs. None holds a `:sensitive` key: only 管理员 sees personal data
 * in full. Added once: a role that exists already (by name) is left as it is.
 */
import type { Db } from '../../types.ts';
import { nowText } from '../../db/index.ts';
import { hashPassword } from '../../auth/passwords.ts';

export const DEMO_PASSWORD = 'Demo@123456';

export interface DemoRole {
  role: string;
  username: string;
  nickName: string;
  dataScope: '全部' | '本级';
  /** the demo department the user sits in (the company root when it is missing) */
  dept: string;
  keys: string[];
}

export const DEMO_ROLES: DemoRole[] = [
  {
    role: '人事专员',
    username: 'hr01',
    nickName: '人事小王',
    dataScope: '全部',
    dept: '人事部',
    keys: [
      'staff:list',
      'staff:add',
      'staff:edit',
      'staff:download',
      'staff:import',
      'staffun:list',
      'staffun:edit',
      'staffun:download',
      'staffunEducation:list',
      'staffunPx:list',
      'staffunWork:list',
      'staffunZp:list',
      'staffunZp:add',
      'staffunZp:edit',
      'staffunZp:del',
      'staffunZp:download',
      'jpType:list',
    ],
  },
  {
    role: '销售顾问',
    username: 'sales01',
    nickName: '销售小李',
    dataScope: '本级',
    dept: '销售部',
    keys: [
      'xsSubmersibleFile:list',
      'xsSubmersibleFile:own',
      'xsSubmersibleFile:add',
      'xsSubmersibleFile:edit',
      'xsSubmersibleCar:list',
      'xsSubmersibleCar:add',
      'xsSubmersibleCar:edit',
      'xsSubmersibleContact:list',
      'xsSubmersibleContact:add',
      'xsSubmersibleContact:edit',
      'xsSubmersibleActivity:list',
      'xsLrSjmx:list',
      'xsLrSjmx:download',
      'xsZjs:list',
      'xsZjs:download',
    ],
  },
  {
    role: '客服',
    username: 'kf01',
    nickName: '客服小张',
    dataScope: '全部',
    dept: '售后服务部',
    keys: [
      'sysQuestion:list',
      'sysQuestion:add',
      'sysQuestion:edit',
      'sysQuestion:download',
      'sysSocket:list',
      'sysSocket:add',
      'sysSocket:edit',
      'sysSocket:del',
      'kfRemindType:list',
      'kfRemindType:add',
      'kfRemindType:edit',
      'kfRemindType:del',
    ],
  },
];

export async function seedDemoRoles(db: Db): Promise<void> {
  const now = nowText();
  const depts = (await db.selectFrom('sys_dept').select(['id', 'pid', 'name']).orderBy('id').execute()).map((d) => ({
    id: Number(d.id),
    pid: d.pid === null ? null : Number(d.pid),
    name: String(d.name),
  }));
  const root = depts.find((d) => d.pid === null);
  if (!root) return;
  for (const demo of DEMO_ROLES) {
    if (await db.selectFrom('sys_role').select('id').where('name', '=', demo.role).executeTakeFirst()) continue;
    if (await db.selectFrom('sys_user').select('id').where('username', '=', demo.username).executeTakeFirst()) continue;
    const role = await db
      .insertInto('sys_role')
      .values({ name: demo.role, level: 3, data_scope: demo.dataScope, description: `演示岗位：${demo.role}`, create_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const menus = await db.selectFrom('sys_menu').select('id').where('permission', 'in', demo.keys).execute();
    for (const m of menus)
      await db
        .insertInto('sys_roles_menus')
        .values({ role_id: Number(role.id), menu_id: Number(m.id) })
        .execute();
    // each in the department its work belongs to: 销售部's leads are sales01's 本级
    const deptId = depts.find((d) => d.pid === root.id && d.name === demo.dept)?.id ?? root.id;
    const user = await db
      .insertInto('sys_user')
      .values({
        username: demo.username,
        nick_name: demo.nickName,
        password: await hashPassword(DEMO_PASSWORD),
        sex: 1,
        dept_id: deptId,
        org_id: root.id,
        enabled: 1,
        lock_time: 0,
        is_def_password: 0,
        pwd_reset_time: now,
        create_time: now,
        update_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('sys_users_roles')
      .values({ user_id: Number(user.id), role_id: Number(role.id) })
      .execute();
  }
}
