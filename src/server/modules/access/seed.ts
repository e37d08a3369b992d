/**
 * First-start data of the access administration, idempotent (each piece is added only when
 * missing, so an administrator's later changes are kept):
 * - the menus of the administration screens (users, roles, menus, departments, dictionaries,
 *   business dictionary) in the 系统管理 directory, with one button per permission key, linked
 *   to the admin role when created;
 * - a sidebar entry for the usage guide (使用说明, open to everyone);
 * - one dictionary per `x-dict` name of the resource specs, its details from the `x-options`;
 * - the business dictionary tree: the spec's categories, the insurer abbreviations under
 *   承保公司 and 驾意险公司, and a few obvious entries.
 */
import type { Db } from '../../types.ts';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { nowText } from '../../db/index.ts';
import { ADMIN_ROLE } from '../../auth/seed.ts';

export interface AdminScreen {
  title: string;
  path: string;
  component: string;
  icon: string;
  sort: number;
  /** permission module: <module>:list opens the screen, the buttons carry the others */
  module: string;
  /** the key of the screen's menu when it is not `<module>:list` (a screen with a single key) */
  menuKey?: string;
  buttons: Array<{ action: string; title: string }>;
}

const CRUD = (noun: string) => [
  { action: 'add', title: `${noun}新增` },
  { action: 'edit', title: `${noun}编辑` },
  { action: 'del', title: `${noun}删除` },
];

/** The administration screens and their permission keys (documented in docs/reference/access-administration.md). */
export const ADMIN_SCREENS: AdminScreen[] = [
  // 用户查看完整个人信息: staff phones and e-mails in full (masked without it)
  {
    title: '用户管理',
    path: 'system/user',
    component: 'system/user/index',
    icon: 'peoples',
    sort: 2,
    module: 'user',
    buttons: [...CRUD('用户'), { action: 'sensitive', title: '用户查看完整个人信息' }],
  },
  { title: '角色管理', path: 'system/role', component: 'system/role/index', icon: 'role', sort: 3, module: 'roles', buttons: CRUD('角色') },
  { title: '菜单管理', path: 'system/menu', component: 'system/menu/index', icon: 'menu', sort: 5, module: 'menu', buttons: CRUD('菜单') },
  {
    title: '部门管理',
    path: 'system/dept',
    component: 'system/dept/index',
    icon: 'dept',
    sort: 6,
    module: 'dept',
    buttons: [...CRUD('部门'), { action: 'qywx', title: '部门企业微信同步' }, { action: 'remark', title: '部门备注编辑' }],
  },
  {
    title: '字典管理',
    path: 'system/dict',
    component: 'system/dict/index',
    icon: 'dictionary',
    sort: 8,
    module: 'dict',
    buttons: CRUD('字典'),
  },
  {
    title: '业务字典',
    path: 'system/busidict',
    component: 'system/busidict/index',
    icon: 'tree',
    sort: 9,
    module: 'busidict',
    buttons: CRUD('业务字典'),
  },
  // favicon, logo, company name, filing number and home image: `sys` of every session
  {
    title: '系统设置',
    path: 'system/settings',
    component: 'system/settings/index',
    icon: 'system',
    sort: 10,
    module: 'sysConfig',
    buttons: [{ action: 'edit', title: '系统设置编辑' }],
  },
  // backups of the database and uploaded files (src/server/modules/backup): a backup holds every personal datum unmasked
  {
    title: '备份管理',
    path: 'system/backup',
    component: 'system/backup/index',
    icon: 'backup',
    sort: 11,
    module: 'backup',
    buttons: [
      { action: 'add', title: '备份新增' },
      { action: 'del', title: '备份删除' },
      { action: 'download', title: '备份下载' },
      { action: 'restore', title: '备份恢复' },
    ],
  },
  // PIPL requests: finding, copying and erasing a person's data, retention, records of processing
  // (src/server/modules/privacy): one key, since each of them reads every personal datum in full
  {
    title: '个人信息保护',
    path: 'system/privacy',
    component: 'system/privacy/index',
    icon: 'lock',
    sort: 12,
    module: 'pi',
    menuKey: 'pi:admin',
    buttons: [],
  },
];

export const SYSTEM_DIRECTORY = '系统管理';

async function insertId(db: Db, table: string, values: Record<string, unknown>): Promise<number> {
  const row = await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

async function seedAdminMenus(db: Db): Promise<void> {
  const now = nowText();
  const dir = await db.selectFrom('sys_menu').select('id').where('type', '=', 0).where('title', '=', SYSTEM_DIRECTORY).executeTakeFirst();
  const pid = dir ? Number(dir.id) : null;
  const adminRole = await db.selectFrom('sys_role').select('id').where('name', '=', ADMIN_ROLE).executeTakeFirst();
  const created: number[] = [];
  for (const screen of ADMIN_SCREENS) {
    const listKey = screen.menuKey ?? `${screen.module}:list`;
    let menuId = (await db.selectFrom('sys_menu').select('id').where('permission', '=', listKey).executeTakeFirst())?.id as
      number | undefined;
    if (menuId === undefined) {
      menuId = await insertId(db, 'sys_menu', {
        pid,
        type: 1,
        title: screen.title,
        name: screen.title,
        component: screen.component,
        path: screen.path,
        icon: screen.icon,
        menu_sort: screen.sort,
        permission: listKey,
        hidden: 0,
        cache: 0,
        i_frame: 0,
        create_time: now,
      });
      created.push(menuId);
    }
    for (const [i, b] of screen.buttons.entries()) {
      const key = `${screen.module}:${b.action}`;
      if (await db.selectFrom('sys_menu').select('id').where('permission', '=', key).executeTakeFirst()) continue;
      created.push(
        await insertId(db, 'sys_menu', {
          pid: Number(menuId),
          type: 2,
          title: b.title,
          menu_sort: i + 1,
          permission: key,
          hidden: 0,
          cache: 0,
          i_frame: 0,
          create_time: now,
        }),
      );
    }
  }
  if (adminRole) {
    for (const menuId of created) {
      await db
        .insertInto('sys_roles_menus')
        .values({ role_id: Number(adminRole.id), menu_id: menuId })
        .onConflict((oc) => oc.columns(['role_id', 'menu_id']).doNothing())
        .execute();
    }
  }
}

/** Screens open to every signed-in user that still get a sidebar entry (granted like any menu). */
export const OPEN_SCREEN_MENUS = [{ title: '使用说明', path: 'usage', component: 'usage', icon: 'guide', sort: 950 }];

async function seedOpenScreenMenus(db: Db): Promise<void> {
  const now = nowText();
  for (const m of OPEN_SCREEN_MENUS) {
    if (await db.selectFrom('sys_menu').select('id').where('type', '=', 1).where('path', '=', m.path).executeTakeFirst()) continue;
    await db
      .insertInto('sys_menu')
      .values({
        pid: null,
        type: 1,
        title: m.title,
        name: m.title,
        component: m.component,
        path: m.path,
        icon: m.icon,
        menu_sort: m.sort,
        permission: null,
        hidden: 0,
        cache: 0,
        i_frame: 0,
        create_time: now,
      })
      .execute();
  }
}

/** Dictionaries named by the specs' `x-dict`, with the `x-options` as their details. */
async function seedDictionaries(db: Db, specs: ResourceSpec[]): Promise<void> {
  const now = nowText();
  const seen = new Set<string>();
  for (const spec of specs) {
    for (const field of spec.fields) {
      if (!field.dict || seen.has(field.dict)) continue;
      seen.add(field.dict);
      if (await db.selectFrom('sys_dict').select('id').where('name', '=', field.dict).executeTakeFirst()) continue;
      const dictId = await insertId(db, 'sys_dict', {
        name: field.dict,
        description: `${spec.title}·${field.title}`,
        is_public: 0,
        create_time: now,
      });
      for (const [i, o] of (field.options ?? []).entries()) {
        await db
          .insertInto('sys_dict_detail')
          .values({ dict_id: dictId, label: o.label, value: String(o.value), sort: i + 1, enabled: 1, create_time: now })
          .execute();
      }
    }
  }
}

export const INSURERS = ['人保', '平安', '人寿', '太平洋', '大地', '阳光', '太平', '中华联合', '天安', '渤海', '大家', '永安'];

/** The categories of the business dictionary (their code is the Chinese name) and first entries. */
export const BUSINESS_CATEGORIES: Array<{ name: string; entries: string[] }> = [
  { name: '业务类别', entries: ['新车销售', '二手车', '保险', '售后维修', '精品加装'] },
  { name: '续保类型', entries: ['新保', '续保', '转保'] },
  { name: '保险险种', entries: ['交强险', '商业险', '车损险', '第三者责任险', '车上人员责任险', '驾乘意外险'] },
  { name: '税率', entries: ['6%', '9%', '13%'] },
  { name: '承保公司', entries: INSURERS },
  { name: '分期公司', entries: [] },
  { name: '购车方式', entries: ['全款', '分期'] },
  { name: '区域/地区', entries: [] },
  { name: '销售部渠道', entries: ['展厅', '网络', '电话', '转介绍'] },
  { name: '服务部渠道', entries: ['进店', '预约', '救援'] },
  { name: '三者险保额', entries: ['100万', '150万', '200万', '300万'] },
  { name: '划痕保额', entries: ['2000', '5000', '10000'] },
  { name: '驾意险公司', entries: INSURERS },
];

async function seedBusinessDictionary(db: Db): Promise<void> {
  const any = await db.selectFrom('sys_busidict').select('id').limit(1).executeTakeFirst();
  if (any) return;
  const now = nowText();
  for (const [i, c] of BUSINESS_CATEGORIES.entries()) {
    const pid = await insertId(db, 'sys_busidict', {
      pid: null,
      code: c.name,
      name: c.name,
      value: null,
      sort: i + 1,
      enabled: 1,
      create_time: now,
    });
    for (const [j, e] of c.entries.entries()) {
      await db
        .insertInto('sys_busidict')
        .values({ pid, code: e, name: e, value: e, sort: j + 1, enabled: 1, create_time: now })
        .execute();
    }
  }
}

export async function seedAccess(db: Db, specs: ResourceSpec[]): Promise<void> {
  await seedAdminMenus(db);
  await seedOpenScreenMenus(db);
  await seedDictionaries(db, specs);
  await seedBusinessDictionary(db);
}
