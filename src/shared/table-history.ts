/**
 * The hand-written tables admins edit (users, roles, menus, departments, dictionaries, system
 * settings) as record history sees them: a resource name for sys_revision, the API path their
 * history routes hang under, the screen's title, and the tracked fields with their Chinese
 * titles, option labels and masks. The server records and reads revisions with these
 * (src/server/crud/history/table-revisions.ts); the console's 历史记录 dialog shows them with the same
 * titles and labels as a generated entity's.
 *
 * A field's `column` is the table's column; fields without one (a user's roles, a role's
 * departments and menus) are read by the server's adapter of the table.
 */
import type { FieldSpec, FieldType, MaskKind, Option, ResourceSpec } from './resource-spec.ts';

const ENABLED: Option[] = [
  { value: true, label: '启用' },
  { value: false, label: '禁用' },
];

interface FieldOptions {
  column?: string;
  options?: Option[];
  mask?: MaskKind;
  /** not written back by 恢复到此版本 (set by another action, e.g. a password reset) */
  readOnly?: boolean;
  /** a column of the 回收站 dialog (its order) */
  shown?: number;
}

function field(name: string, title: string, type: FieldType = 'string', more: FieldOptions = {}): FieldSpec {
  return {
    name,
    column: more.column ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    title,
    type,
    required: false,
    readOnly: !!more.readOnly,
    input: more.options ? 'select' : 'text',
    form: true,
    messages: {},
    ...(more.options ? { options: more.options } : {}),
    ...(more.mask ? { mask: more.mask } : {}),
    ...(more.shown ? { list: { order: more.shown } } : {}),
  };
}

interface TableOptions {
  /** the resource name in sys_revision (distinct from every generated entity's name) */
  name: string;
  table: string;
  /** the API path of the table's routes, without the leading slash */
  path: string;
  /** the permission module: `<permission>:list` reads the history, `:edit` restores */
  permission: string;
  title: string;
  fields: FieldSpec[];
}

function tableSpec(t: TableOptions): ResourceSpec {
  return {
    name: t.name,
    table: t.table,
    path: t.path,
    permission: t.permission,
    title: t.title,
    sort: ['id,desc'],
    pageSize: 10,
    dialogWidth: 600,
    search: [],
    actions: ['add', 'edit', 'del'],
    fields: [{ ...field('id', 'ID', 'integer'), auto: 'id', readOnly: true, form: false }, ...t.fields],
    schema: {},
  };
}

/** Properties whose values are ids of another table; the history names them (history answers `name（ID n）`). */
export type LabelledBy = 'dept' | 'role' | 'menu' | 'dict';

export const TABLE_HISTORY = {
  user: tableSpec({
    name: 'sysUser',
    table: 'sys_user',
    path: 'api/users',
    permission: 'user',
    title: '用户',
    fields: [
      field('username', '用户名', 'string', { shown: 1 }),
      field('nickName', '昵称', 'string', { shown: 2 }),
      field('phone', '电话', 'string', { mask: 'phone', shown: 3 }),
      field('email', '邮箱', 'string', { mask: 'email' }),
      field('sex', '性别', 'integer', {
        options: [
          { value: 1, label: '男' },
          { value: 0, label: '女' },
        ],
      }),
      field('enabled', '状态', 'boolean', { options: ENABLED }),
      field('orgId', '公司', 'integer'),
      field('deptId', '部门', 'integer', { shown: 4 }),
      field('roleIds', '岗位', 'string', { column: '' }),
      field('wecomUserId', '企业微信账号'),
      field('lockTime', '锁屏时间（分钟）', 'integer'),
      field('defPassword', '使用初始密码', 'boolean', { column: 'is_def_password', readOnly: true }),
      field('img', '头像', 'string', { readOnly: true }),
    ],
  }),
  role: tableSpec({
    name: 'sysRole',
    table: 'sys_role',
    path: 'api/roles',
    permission: 'roles',
    title: '角色',
    fields: [
      field('name', '名称', 'string', { shown: 1 }),
      field('level', '角色级别', 'integer', { shown: 2 }),
      field('dataScope', '数据范围', 'string', { shown: 3 }),
      field('depts', '数据权限', 'string', { column: '' }),
      field('description', '描述', 'string', { shown: 4 }),
      field('menus', '菜单权限', 'string', { column: '' }),
    ],
  }),
  menu: tableSpec({
    name: 'sysMenu',
    table: 'sys_menu',
    path: 'api/menus',
    permission: 'menu',
    title: '菜单',
    fields: [
      field('title', '菜单标题', 'string', { shown: 1 }),
      field('type', '菜单类型', 'integer', {
        shown: 2,
        options: [
          { value: 0, label: '目录' },
          { value: 1, label: '菜单' },
          { value: 2, label: '按钮' },
        ],
      }),
      field('pid', '上级菜单', 'integer', { shown: 4 }),
      field('name', '组件名称'),
      field('component', '组件路径'),
      field('path', '路由地址'),
      field('icon', '菜单图标'),
      field('menuSort', '菜单排序', 'integer', { column: 'menu_sort' }),
      field('permission', '权限标识', 'string', { shown: 3 }),
      field('hidden', '菜单可见', 'boolean', {
        options: [
          { value: false, label: '是' },
          { value: true, label: '否' },
        ],
      }),
      field('cache', '菜单缓存', 'boolean'),
      field('iFrame', '外链', 'boolean', { column: 'i_frame' }),
      // the roles granting it (changed from 角色管理; brought back with the menu from the 回收站)
      field('roles', '授权角色', 'string', { column: '', readOnly: true }),
    ],
  }),
  dept: tableSpec({
    name: 'sysDept',
    table: 'sys_dept',
    path: 'api/dept',
    permission: 'dept',
    title: '部门',
    fields: [
      field('name', '部门名称', 'string', { shown: 1 }),
      field('pid', '上级部门', 'integer', { shown: 2 }),
      field('deptSort', '排序', 'integer', { column: 'sort' }),
      field('enabled', '状态', 'boolean', { options: ENABLED, shown: 3 }),
      // kept by other screens; brought back with the department from the 回收站
      field('remark', '部门备注', 'string', { readOnly: true }),
      field('wecomDeptId', '企业微信部门ID', 'integer', { readOnly: true }),
      field('roles', '自定义数据权限的角色', 'string', { column: '', readOnly: true }),
    ],
  }),
  dict: tableSpec({
    name: 'sysDict',
    table: 'sys_dict',
    path: 'api/dict',
    permission: 'dict',
    title: '字典',
    fields: [
      field('name', '字典名称', 'string', { shown: 1 }),
      field('description', '描述', 'string', { shown: 2 }),
      field('isPublic', '公开', 'boolean', { shown: 3 }),
    ],
  }),
  dictDetail: tableSpec({
    name: 'sysDictDetail',
    table: 'sys_dict_detail',
    path: 'api/dictDetail',
    permission: 'dict',
    title: '字典详情',
    fields: [
      field('dictId', '所属字典', 'integer', { shown: 1 }),
      field('label', '字典标签', 'string', { shown: 2 }),
      field('value', '字典值', 'string', { shown: 3 }),
      field('dictSort', '排序', 'integer', { column: 'sort' }),
      field('enabled', '状态', 'boolean', { options: ENABLED }),
    ],
  }),
  settings: tableSpec({
    name: 'sysConfig',
    table: 'sys_config',
    path: 'api/system/sysConfig',
    permission: 'sysConfig',
    title: '系统设置',
    fields: [
      field('title', '系统名称'),
      field('compName', '公司名称'),
      field('recordNumber', '备案号'),
      field('favicon', '网站图标'),
      field('logo', '系统Logo'),
      field('sysHomeImg', '首页图片'),
    ],
  }),
} satisfies Record<string, ResourceSpec>;

export type TrackedTableName = keyof typeof TABLE_HISTORY;

/** The one record id the settings' history is kept under (the settings are one record). */
export const SETTINGS_RECORD_ID = 1;

/** Which properties hold ids of another table (named in the history). */
export const LABELLED: Partial<Record<TrackedTableName, Record<string, LabelledBy>>> = {
  user: { orgId: 'dept', deptId: 'dept', roleIds: 'role' },
  role: { depts: 'dept', menus: 'menu' },
  menu: { pid: 'menu', roles: 'role' },
  dept: { pid: 'dept', roles: 'role' },
  dictDetail: { dictId: 'dict' },
};

/** The tables whose deleted records go to a 回收站 (holders of `<permission>:del`). */
export const TABLE_BINS: TrackedTableName[] = ['user', 'role', 'menu', 'dept', 'dict', 'dictDetail'];
