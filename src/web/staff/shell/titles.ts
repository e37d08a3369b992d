/**
 * The title of a console path, for tabs, the breadcrumb and the page title: the fixed pages,
 * then the screen of a resource (its schema title), then menu titles registered at run time
 * (the menus the server builds for the user).
 */
import { resources } from '../../../generated/resources.ts';

const FIXED: Record<string, string> = {
  '/dashboard': '首页',
  '/user/center': '个人中心',
  '/401': '没有权限',
  '/403': '没有权限',
  '/404': '页面不存在',
  '/developing': '建设中',
  '/DecisionCenter/index': '数据决策中心',
  '/usage': '使用说明',
  '/UserCzwd': '操作文档',
  '/help': '帮助',
  '/jobDescription': '岗位说明',
  '/brandTree': '品牌车型',
  '/logs': '操作日志',
  '/outbox': '发件箱',
  // the 系统管理 screens (also named by the menus; these serve until the menus have loaded)
  '/system/user': '用户管理',
  '/system/role': '角色管理',
  '/system/menu': '菜单管理',
  '/system/dept': '部门管理',
  '/system/dict': '字典管理',
  '/system/busidict': '业务字典',
  '/system/settings': '系统设置',
  '/explain': '使用说明',
};

/** The title of the 404 page, also of any address the console has no screen for. */
export const NOT_FOUND_TITLE = '页面不存在';

const byResource = new Map(resources.map((r) => [`/${r.name}`, r.title]));
const registered = new Map<string, string>();

/** Menu titles from the server's menu tree (path -> title); later calls replace earlier ones. */
export function registerMenuTitles(entries: Iterable<[string, string]>): void {
  for (const [path, title] of entries) registered.set(path.startsWith('/') ? path : `/${path}`, title);
}

/** Pages whose title comes from their query (`?title=`), with the title used without one. */
const QUERY_TITLED: Record<string, string> = { '/content': '内容' };

export function titleOf(path: string, search = ''): string {
  const clean = path.replace(/\/+$/, '') || '/';
  if (clean in QUERY_TITLED) return new URLSearchParams(search).get('title') || QUERY_TITLED[clean];
  const direct = FIXED[clean] ?? registered.get(clean) ?? byResource.get(clean);
  if (direct) return direct;
  // /resource/123, /resource/create: the resource's title; /resource:param (a narrowed list): param + title
  const first = `/${clean.split('/')[1] ?? ''}`;
  const colon = first.indexOf(':');
  if (colon > 1) {
    const title = registered.get(first.slice(0, colon)) ?? byResource.get(first.slice(0, colon));
    if (title) return `${safeDecode(first.slice(colon + 1))}${title}`;
  }
  const parent = registered.get(first) ?? byResource.get(first);
  // a record's page is not the list: its own title, so the two tabs tell themselves apart
  if (parent && clean.split('/').length === 4 && clean.endsWith('/show')) return `${parent}详情`;
  if (parent && clean.endsWith('/create')) return `新增${parent}`;
  if (parent) return parent;
  // an address the console has no screen for (it shows the 404 page): not its raw path
  return clean === '/' ? '首页' : FIXED['/404'];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface MenuEntry {
  path: string;
  title: string;
}

/** Every screen the menu search offers: the menus registered from the server, else the resources. */
export function menuEntries(): MenuEntry[] {
  const seen = new Map<string, string>();
  seen.set('/dashboard', '首页');
  for (const [path, title] of registered) seen.set(path, title);
  for (const [path, title] of byResource) if (!seen.has(path)) seen.set(path, title);
  seen.set('/user/center', '个人中心');
  return [...seen].map(([path, title]) => ({ path, title }));
}
