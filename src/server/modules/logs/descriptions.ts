/**
 * The Chinese description of a logged request. In order: the route's own `config.description`,
 * the table of hand-written routes below, the generic routes of a resource (标题 + action),
 * then the method's verb and the path.
 */
import type { ResourceSpec } from '../../../shared/resource-spec.ts';

export const ROUTE_DESCRIPTIONS: Record<string, string> = {
  'POST /api/login': '用户登录',
  'GET /api/qywxLogin': '企业微信扫码登录',
  'DELETE /api/logout': '退出登录',
  'PUT /api/users/center': '修改个人信息',
  'POST /api/users/updatePass/': '修改密码',
  'POST /api/users/updateEmail/:code': '修改邮箱',
  'PUT /api/users/updateUserPhone': '修改手机号',
  'POST /api/users/updateAvatar': '修改头像',
  'POST /api/code/resetEmail': '发送邮箱验证码',
  'POST /api/code/resetPhone': '发送短信验证码',
  'POST /api/resetPassword': '找回密码',
  'POST /api/users': '新增用户',
  'PUT /api/users': '修改用户',
  'DELETE /api/users': '删除用户',
  'POST /api/users/resetPass': '重置密码',
  'POST /api/roles': '新增角色',
  'PUT /api/roles': '修改角色',
  'DELETE /api/roles': '删除角色',
  'PUT /api/roles/menu': '修改角色菜单',
  'POST /api/menus': '新增菜单',
  'PUT /api/menus': '修改菜单',
  'DELETE /api/menus': '删除菜单',
  'POST /api/dept': '新增部门',
  'PUT /api/dept': '修改部门',
  'DELETE /api/dept': '删除部门',
  'POST /api/dict': '新增字典',
  'PUT /api/dict': '修改字典',
  'DELETE /api/dict': '删除字典',
  'POST /api/dictDetail': '新增字典详情',
  'PUT /api/dictDetail': '修改字典详情',
  'DELETE /api/dictDetail': '删除字典详情',
  'PUT /api/system/sysConfig': '修改系统设置',
  'PUT /comp/dbcCompany/lockTime': '修改锁屏时间',
  'POST /api/privacy/search': '个人信息查询',
  'POST /api/privacy/copy': '个人信息副本导出',
  'POST /api/privacy/erase': '个人信息删除',
};

const VERBS: Record<string, string> = { POST: '新增', PUT: '修改', DELETE: '删除', GET: '查询' };

export function resourceDescriptions(specs: ResourceSpec[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const spec of specs) {
    const base = `/${spec.path}`;
    map.set(`POST ${base}`, `新增${spec.title}`);
    map.set(`PUT ${base}`, `修改${spec.title}`);
    map.set(`DELETE ${base}`, `删除${spec.title}`);
    map.set(`POST ${base}/import`, `导入${spec.title}`);
  }
  return map;
}

/** Resources whose personal data is read in full, by the name a read records (request.personalDataRead). */
const READ_RESOURCE_TITLES: Record<string, string> = { user: '用户' };

/** The Chinese title of a resource a read names (its schema title; 用户 for the users), the name itself when unknown. */
export function resourceTitle(name: string, specs: ResourceSpec[]): string {
  return specs.find((s) => s.name === name)?.title ?? READ_RESOURCE_TITLES[name] ?? name;
}

export function describeRoute(method: string, url: string, own: unknown, generic: Map<string, string>): string {
  if (typeof own === 'string' && own) return own;
  const key = `${method} ${url}`;
  return ROUTE_DESCRIPTIONS[key] ?? generic.get(key) ?? `${VERBS[method] ?? method} ${url}`;
}
