/**
 * Menu help pages (api/menuPage, keys menuPage:*) and job descriptions (api/jobExplain, keys
 * jobExplain:*) are generic resources; this area adds their save rules: the HTML content is
 * sanitised before it is stored (content that is nothing but script is refused as empty) and a
 * help page must belong to an existing menu.
 * The help screen reads GET api/menuPage?menuId= and shows the first result's pageRemark; a menu
 * has one help page (`x-unique` on menuId: a second one answers 409 菜单ID“n”已存在).
 */
import type { FastifyInstance } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import { insertAll, setRecordHooks } from '../../crud/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { sanitizeRichText } from '../../html.ts';

export { sanitizeRichText } from '../../html.ts';

function cleanHtml(record: Record<string, unknown>, field: string, emptyMessage: string): void {
  const value = record[field];
  if (typeof value !== 'string') return;
  const clean = sanitizeRichText(value);
  // an image alone is content; markup with no text and no image is not
  if (
    !clean
      .replace(/<(?!img)[^>]*>/g, '')
      .replace(/&nbsp;/g, '')
      .trim()
  )
    throw badRequest(emptyMessage);
  record[field] = clean;
}

export async function registerHelpPages(app: FastifyInstance): Promise<void> {
  setRecordHooks('menuPage', {
    beforeWrite: async ({ app: writer, record }) => {
      cleanHtml(record, 'pageRemark', '页面说明不能为空');
      const menuId = Number(record.menuId);
      const menu = await writer.database.db.selectFrom('sys_menu').select('id').where('id', '=', menuId).executeTakeFirst();
      if (!menu) throw badRequest(`菜单不存在：${menuId}`);
    },
  });
  setRecordHooks('jobExplain', {
    beforeWrite: ({ record }) => cleanHtml(record, 'content', '岗位说明不能为空'),
  });
  // the help button knows the screen's path, not its menu id
  app.get('/api/menuPage/menu', { preHandler: app.authenticate }, async (request) => {
    const raw = (request.query as Record<string, unknown>).path;
    if (typeof raw !== 'string' || !raw.trim() || raw.length > 255) throw badRequest('参数path不能为空');
    const path = raw.trim().replace(/^\/+/, '');
    const menu = await app.database.db
      .selectFrom('sys_menu')
      .select(['id', 'title'])
      .where('type', '=', 1)
      .where('path', '=', path)
      .orderBy('id')
      .$castTo<{ id: number; title: string }>()
      .executeTakeFirst();
    if (!menu) throw notFound('当前页面没有对应的菜单');
    return { menuId: Number(menu.id), title: menu.title };
  });
  if (app.config.seedDemo) await seedDemoHelp(app);
}

/** Demo help for the jobs and brand screens and a job description for the administrator role (empty tables only). */
async function seedDemoHelp(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const pages = resourceByName.menuPage;
  if (pages && !(await db.selectFrom(pages.table).select('id').limit(1).executeTakeFirst())) {
    const menus = await db
      .selectFrom('sys_menu')
      .select(['id', 'permission'])
      .where('permission', 'in', ['timing:list', 'brandTree:list'])
      .$castTo<{ id: number; permission: string | null }>()
      .execute();
    const idOf = (key: string) => menus.find((m) => m.permission === key)?.id;
    const rows = [];
    if (idOf('timing:list')) {
      rows.push({
        menuId: Number(idOf('timing:list')),
        title: '定时任务使用说明',
        pageRemark:
          '<h3>定时任务</h3><p>任务按 Cron 表达式（秒 分 时 日 月 周）定时执行已注册的服务器方法，例如 <code>0 0 3 * * ?</code> 表示每天3点。</p>' +
          '<ul><li><b>暂停/恢复</b>：暂停后不再按时执行，仍可手动执行。</li><li><b>执行</b>：立即执行一次，结果记入日志。</li><li><b>日志</b>：查看每次执行的开始时间、耗时和结果。</li></ul>',
      });
    }
    if (idOf('brandTree:list')) {
      rows.push({
        menuId: Number(idOf('brandTree:list')),
        title: '品牌车型维护说明',
        pageRemark:
          '<h3>品牌车型</h3><p>层级依次为：品牌 → 车系 → 车型 → 配置 → 颜色，选装包挂在配置下。</p>' +
          '<p>品牌维护品牌性质、档次和国别；车系维护车身类型和级别；车型维护燃油类型、排放标准和年款；配置维护发动机、变速箱和指导价。</p><p>存在下级节点的节点不能删除。</p>',
      });
    }
    if (rows.length) await insertAll(app.database, pages, rows, { username: 'admin' });
  }
  const explains = resourceByName.jobExplain;
  if (explains && !(await db.selectFrom(explains.table).select('id').limit(1).executeTakeFirst())) {
    await insertAll(
      app.database,
      explains,
      [
        {
          roleName: 'admin',
          sort: 1,
          enabled: true,
          content:
            '<h3>系统管理员</h3><ol><li>维护用户、岗位、菜单和权限，岗位可查看的部门和菜单由上级授权。</li><li>维护品牌车型、字典等基础数据。</li><li>关注定时任务执行日志，处理执行失败的任务。</li></ol>',
        },
      ],
      { username: 'admin' },
    );
  }
}
