/**
 * The brand tree (品牌车型): brand -> series -> model -> configuration -> colour / option pack.
 *
 * Reads (signed-in staff):
 *   GET /api/brandTree?pid=            children of pid (0 = brands) as {content, totalElements}
 *   GET /api/brandTree/getTreeByPid?pid=   the same as an array, each with hasChildren (lazy loading)
 *   GET /api/brandTree/getTree?levels=&enabled=   the nested tree down to `levels` (1-5)
 *   GET /api/brandTree/getItem?id=     one node with its path
 *   GET /api/brandTree/findTree?name=  nodes whose name contains the text, with their paths
 *   GET /api/brandTree/getBrandTree?orgId=&enabledXs=&levels=   the tree a company sells
 *       (also at /api/system/deptRemark/getBrandTree)
 * Writes (brandTree:add / brandTree:edit / brandTree:del):
 *   POST /api/brandTree (level from the parent), createBrand, createTrain, createType, createProp,
 *        brandTreePush (a whole branch)
 *   PUT  /api/brandTree, updateBrand, updateTrain, updateType, updateProp
 *   DELETE /api/brandTree [ids]   refused while a node has children
 */
import type { FastifyInstance } from 'fastify';
import { MAX_LEVEL } from '../../../shared/brand-tree.ts';
import { plainText } from '../../../shared/text.ts';
import { ensureTables } from '../../auth/tables.ts';
import { positiveId } from '../../crud/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { ensureScreenMenu } from '../menus/screen-menu.ts';
import { demoBrands } from './demo.ts';
import { childrenOf, findNodes, nodeById, pathOf, readBrandTree, type TreeFilter } from './nodes.ts';
import { BRAND_TREE_TABLE, TREE_TABLES } from './tables.ts';
import { LEVEL_RULES, createNode, deleteNodes, pushTree, updateNode } from './writes.ts';

export { readBrandTree, type TreeFilter } from './nodes.ts';

export const BRAND_TREE_MENU = {
  title: '品牌车型',
  path: 'brandTree',
  component: 'brandTree',
  permission: 'brandTree:list',
  icon: 'tree',
  sort: 80,
  directory: '系统管理',
  buttons: [
    { title: '品牌车型新增', permission: 'brandTree:add' },
    { title: '品牌车型编辑', permission: 'brandTree:edit' },
    { title: '品牌车型删除', permission: 'brandTree:del' },
  ],
};

type Query = Record<string, unknown>;

function single(query: Query, key: string): string | undefined {
  const v = query[key];
  if (Array.isArray(v)) throw badRequest(`参数${key}只能传一个值`);
  return v === undefined || v === '' ? undefined : plainText(v);
}

function flagParam(query: Query, key: string): boolean | undefined {
  const v = single(query, key);
  if (v === undefined) return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw badRequest(`参数${key}只能是true或false`);
}

function levelsParam(query: Query): number {
  const v = single(query, 'levels');
  if (v === undefined) return MAX_LEVEL;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LEVEL) throw badRequest(`参数levels必须是1到${MAX_LEVEL}的整数`);
  return n;
}

function pidParam(query: Query): number {
  const v = single(query, 'pid');
  if (v === undefined || v === '0' || v === 'null') return 0;
  const id = positiveId(v);
  if (id === undefined) throw badRequest('参数pid必须是非负整数');
  return id;
}

function filterOf(query: Query): TreeFilter {
  const filter: TreeFilter = {};
  if (flagParam(query, 'enabled')) filter.enabledOnly = true;
  if (flagParam(query, 'enabledXs')) filter.enabledXs = true;
  const org = single(query, 'orgId');
  if (org !== undefined) {
    const id = positiveId(org);
    if (id === undefined) throw badRequest('参数orgId必须是正整数');
    filter.orgId = id;
  }
  return filter;
}

export async function registerBrandTree(app: FastifyInstance): Promise<void> {
  const { database } = app;
  await ensureTables(database.db, database.dialect, TREE_TABLES);
  await ensureScreenMenu(database.db, BRAND_TREE_MENU);
  if (app.config.seedDemo) {
    const any = await database.db.selectFrom(BRAND_TREE_TABLE).select('id').limit(1).executeTakeFirst();
    if (!any) await pushTree(database, { pid: 0, nodes: demoBrands() });
  }

  const read = { preHandler: app.authenticate };
  const add = { preHandler: app.requirePermission('brandTree:add') };
  const edit = { preHandler: app.requirePermission('brandTree:edit') };
  const del = { preHandler: app.requirePermission('brandTree:del') };
  const base = '/api/brandTree';

  app.get(base, read, async (request) => {
    const query = request.query as Query;
    const content = await childrenOf(database, pidParam(query), filterOf(query));
    return { content, totalElements: content.length };
  });
  app.get(`${base}/getTreeByPid`, read, async (request) => {
    const query = request.query as Query;
    return childrenOf(database, pidParam(query), filterOf(query));
  });
  app.get(`${base}/getTree`, read, async (request) => {
    const query = request.query as Query;
    return readBrandTree(database, levelsParam(query), filterOf(query));
  });
  const brandTree = async (request: { query: unknown }) => {
    const query = request.query as Query;
    const filter = filterOf(query);
    return readBrandTree(database, levelsParam(query), { ...filter, enabledOnly: true });
  };
  app.get(`${base}/getBrandTree`, read, brandTree);
  app.get('/api/system/deptRemark/getBrandTree', read, brandTree);
  app.get(`${base}/getItem`, read, async (request) => {
    const id = positiveId(single(request.query as Query, 'id'));
    if (id === undefined) throw badRequest('参数id必须是正整数');
    const node = await nodeById(database.db, id);
    if (!node) throw notFound('节点不存在');
    const path = await pathOf(database.db, node);
    return { ...node, path: path.map((n) => n.name), ids: path.map((n) => n.id) };
  });
  app.get(`${base}/findTree`, read, async (request) => {
    const name = single(request.query as Query, 'name')?.trim();
    if (!name) throw badRequest('请输入要查找的名称');
    if (name.length > 50) throw badRequest('名称长度不能超过50个字符');
    return findNodes(database, name);
  });

  app.post(base, add, async (request, reply) => reply.status(201).send(await createNode(database, request.body)));
  for (const [suffix, rule] of Object.entries(LEVEL_RULES)) {
    app.post(`${base}/create${suffix}`, add, async (request, reply) =>
      reply.status(201).send(await createNode(database, request.body, rule)),
    );
    app.put(`${base}/update${suffix}`, edit, async (request, reply) => {
      await updateNode(database, request.body, rule);
      return reply.status(204).send();
    });
  }
  app.post(`${base}/brandTreePush`, add, async (request, reply) =>
    reply.status(201).send({ count: await pushTree(database, request.body) }),
  );
  app.put(base, edit, async (request, reply) => {
    await updateNode(database, request.body);
    return reply.status(204).send();
  });
  app.delete(base, del, async (request) => ({ count: await deleteNodes(database, request.body) }));
}
