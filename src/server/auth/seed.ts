/**
 * First-start data, idempotent: the root company (and demo departments when demo data is on),
 * the admin role and user, and a menu per resource with one button per action carrying the
 * permission key `${permission}:${action}`. Resources added later get their menus at the next
 * start; menus are linked to the admin role only when they are created, so an administrator's
 * later changes are kept.
 */
import type { Db } from '../types.ts';
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import { nowText } from '../db/index.ts';
import { hashPassword } from './passwords.ts';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_ROLE = 'admin';
export const ROOT_COMPANY = '总公司';
export const DEMO_DEPARTMENTS = ['人事部', '销售部', '售后服务部', '信息数据部'];

const ACTION_TITLES: Record<string, string> = {
  add: '新增',
  edit: '编辑',
  del: '删除',
  download: '导出',
  import: '导入',
  sensitive: '查看完整个人信息',
};

export interface SeedOptions {
  adminInitialPassword: string;
  seedDemo: boolean;
  resources: ResourceSpec[];
}

async function insertId(db: Db, table: string, values: Record<string, unknown>): Promise<number> {
  const row = await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

async function seedDepartments(db: Db, seedDemo: boolean): Promise<{ rootId: number; itDeptId: number | null }> {
  const existing = await db.selectFrom('sys_dept').select(['id', 'name', 'pid']).orderBy('id').execute();
  if (existing.length) {
    const root = existing.find((d) => d.pid === null) ?? existing[0];
    const it = existing.find((d) => d.name === '信息数据部');
    return { rootId: Number(root.id), itDeptId: it ? Number(it.id) : null };
  }
  const now = nowText();
  const rootId = await insertId(db, 'sys_dept', { pid: null, name: ROOT_COMPANY, sort: 0, enabled: 1, create_time: now });
  let itDeptId: number | null = null;
  if (seedDemo) {
    for (const [i, name] of DEMO_DEPARTMENTS.entries()) {
      const id = await insertId(db, 'sys_dept', { pid: rootId, name, sort: i + 1, enabled: 1, create_time: now });
      if (name === '信息数据部') itDeptId = id;
    }
  }
  return { rootId, itDeptId };
}

async function seedAdmin(db: Db, opts: SeedOptions, rootId: number, deptId: number): Promise<number> {
  const now = nowText();
  await db
    .insertInto('sys_role')
    .values({ name: ADMIN_ROLE, level: 1, data_scope: '全部', description: '超级管理员', create_time: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const role = await db.selectFrom('sys_role').select('id').where('name', '=', ADMIN_ROLE).executeTakeFirstOrThrow();
  const roleId = Number(role.id);
  const user = await db.selectFrom('sys_user').select('id').where('username', '=', ADMIN_USERNAME).executeTakeFirst();
  if (!user) {
    const userId = await insertId(db, 'sys_user', {
      username: ADMIN_USERNAME,
      nick_name: '管理员',
      password: await hashPassword(opts.adminInitialPassword),
      sex: 1,
      dept_id: deptId,
      org_id: rootId,
      enabled: 1,
      lock_time: 0,
      is_def_password: 1,
      pwd_reset_time: now,
      create_time: now,
      update_time: now,
    });
    await db.insertInto('sys_users_roles').values({ user_id: userId, role_id: roleId }).execute();
  }
  return roleId;
}

/**
 * Sidebar directories (menu type 0) and the resources placed in them. A resource not listed
 * here gets a menu at the root. To add one: a directory entry, then `resource: 'directory title'`.
 */
export const MENU_DIRECTORIES: Array<{ title: string; path: string; icon: string; sort: number }> = [
  { title: '人事管理', path: 'hr', icon: 'peoples', sort: 10 },
  { title: '系统管理', path: 'system', icon: 'system', sort: 90 },
  { title: '销售管理', path: 'sales', icon: 'money', sort: 20 },
  { title: '客服管理', path: 'service', icon: 'phone', sort: 30 },
  { title: '企业微信', path: 'qywx', icon: 'wechat', sort: 40 },
  { title: '基础数据', path: 'basic', icon: 'dictionary', sort: 80 },
  { title: '代步车管理', path: 'dbc', icon: 'car', sort: 50 },
];
export const RESOURCE_DIRECTORY: Record<string, string> = {
  staffunZp: '人事管理',
  applicant: '人事管理',
  staffunEducation: '人事管理',
  staffunPx: '人事管理',
  staffunWork: '人事管理',
  staff: '人事管理',
  sysQuestion: '系统管理',
  dj: '系统管理',
  menuPage: '系统管理',
  jobExplain: '系统管理',
  sysSocket: '系统管理',
  xsSubmersibleFile: '销售管理',
  xsSubmersibleCar: '销售管理',
  xsSubmersibleContact: '销售管理',
  xsSubmersibleActivity: '销售管理',
  xsLrSjmx: '销售管理',
  xsZjs: '销售管理',
  expense: '销售管理',
  scClueActivity: '销售管理',
  scClueActivity2: '销售管理',
  defeatAnalysis: '销售管理',
  defeatAnalysis2: '销售管理',
  kfRemindType: '客服管理',
  qywxMenu: '企业微信',
  qywxStudyPage: '企业微信',
  qywxCustomerTag: '企业微信',
  sysCarBrand: '基础数据',
  osType: '基础数据',
  jpType: '基础数据',
  tmsWareType: '基础数据',
  UserCzwd: '系统管理',
  dbcCompany: '代步车管理',
  dbcMember: '代步车管理',
  dbcUserInfo: '代步车管理',
  dbcInfo: '代步车管理',
};

/** Ids of the directories, created when missing (matched by title among type-0 menus). */
async function seedDirectories(db: Db, now: string): Promise<{ ids: Map<string, number>; created: number[] }> {
  const ids = new Map<string, number>();
  const created: number[] = [];
  for (const d of MENU_DIRECTORIES) {
    const have = await db.selectFrom('sys_menu').select('id').where('type', '=', 0).where('title', '=', d.title).executeTakeFirst();
    if (have) {
      ids.set(d.title, Number(have.id));
      continue;
    }
    const id = await insertId(db, 'sys_menu', {
      pid: null,
      type: 0,
      title: d.title,
      name: d.title,
      component: null,
      path: d.path,
      icon: d.icon,
      menu_sort: d.sort,
      permission: null,
      hidden: 0,
      cache: 0,
      i_frame: 0,
      create_time: now,
    });
    ids.set(d.title, id);
    created.push(id);
  }
  return { ids, created };
}

async function seedMenus(db: Db, resources: ResourceSpec[], adminRoleId: number): Promise<void> {
  const now = nowText();
  const directories = await seedDirectories(db, now);
  const created: number[] = [...directories.created];
  const existing = new Map<string, number>();
  for (const m of await db.selectFrom('sys_menu').select(['id', 'permission']).where('permission', 'is not', null).execute()) {
    existing.set(String(m.permission), Number(m.id));
  }
  for (const [i, spec] of resources.entries()) {
    const menuKey = `${spec.permission}:list`;
    let menuId = existing.get(menuKey);
    if (menuId === undefined) {
      const directory = RESOURCE_DIRECTORY[spec.name];
      menuId = await insertId(db, 'sys_menu', {
        pid: directory ? (directories.ids.get(directory) ?? null) : null,
        type: 1,
        title: spec.title,
        name: spec.name,
        component: spec.name,
        path: spec.name,
        menu_sort: (i + 1) * 10,
        permission: menuKey,
        hidden: 0,
        cache: 0,
        i_frame: 0,
        create_time: now,
      });
      existing.set(menuKey, menuId);
      created.push(menuId);
    }
    // a resource holding personal data (x-mask) has the key that shows it in full
    const actions: string[] = [...spec.actions, ...(spec.fields.some((f) => f.mask) ? ['sensitive'] : [])];
    for (const [j, action] of actions.entries()) {
      const key = `${spec.permission}:${action}`;
      if (existing.has(key)) continue;
      const id = await insertId(db, 'sys_menu', {
        pid: menuId,
        type: 2,
        title: `${spec.title}${ACTION_TITLES[action] ?? action}`,
        menu_sort: j + 1,
        permission: key,
        hidden: 0,
        cache: 0,
        i_frame: 0,
        create_time: now,
      });
      existing.set(key, id);
      created.push(id);
    }
  }
  for (const menuId of created) {
    await db
      .insertInto('sys_roles_menus')
      .values({ role_id: adminRoleId, menu_id: menuId })
      .onConflict((oc) => oc.columns(['role_id', 'menu_id']).doNothing())
      .execute();
  }
}

/**
 * Menus of hand-written screens (not generated from a schema): path, component (the web
 * screen's key) and the permission key that opens it. Added once, like the resource menus.
 */
export const SCREEN_MENUS: Array<{ title: string; path: string; component: string; permission: string; icon?: string; sort: number }> = [
  {
    title: '数据决策中心',
    path: 'DecisionCenter/index',
    component: 'DecisionCenter/index',
    permission: 'DecisionCenter:list',
    icon: 'chart',
    sort: 900,
  },
];

/** Buttons (keys) under a screen menu: who may read the screen's records beyond opening it. */
export const SCREEN_BUTTONS: Array<{ parent: string; title: string; permission: string }> = [
  { parent: 'DecisionCenter:list', title: '数据决策中心登录记录', permission: 'DecisionCenter:sso' },
];

async function seedScreenMenus(db: Db): Promise<void> {
  await seedScreenPages(db);
  const now = nowText();
  for (const [i, b] of SCREEN_BUTTONS.entries()) {
    if (await db.selectFrom('sys_menu').select('id').where('permission', '=', b.permission).executeTakeFirst()) continue;
    const parent = await db.selectFrom('sys_menu').select('id').where('permission', '=', b.parent).executeTakeFirst();
    await db
      .insertInto('sys_menu')
      .values({
        pid: parent ? Number(parent.id) : null,
        type: 2,
        title: b.title,
        menu_sort: i + 1,
        permission: b.permission,
        hidden: 0,
        cache: 0,
        i_frame: 0,
        create_time: now,
      })
      .execute();
  }
}

async function seedScreenPages(db: Db): Promise<void> {
  const now = nowText();
  for (const m of SCREEN_MENUS) {
    const have = await db.selectFrom('sys_menu').select('id').where('permission', '=', m.permission).executeTakeFirst();
    if (have) continue;
    // not linked to the admin role: admin passes every key anyway, and is barred from the decision centre
    await db
      .insertInto('sys_menu')
      .values({
        pid: null,
        type: 1,
        title: m.title,
        name: m.component,
        component: m.component,
        path: m.path,
        icon: m.icon ?? null,
        menu_sort: m.sort,
        permission: m.permission,
        hidden: 0,
        cache: 0,
        i_frame: 0,
        create_time: now,
      })
      .execute();
  }
}

export async function seedAuth(db: Db, opts: SeedOptions): Promise<void> {
  const { rootId, itDeptId } = await seedDepartments(db, opts.seedDemo);
  const adminRoleId = await seedAdmin(db, opts, rootId, itDeptId ?? rootId);
  await seedMenus(db, opts.resources, adminRoleId);
  await seedScreenMenus(db);
}
