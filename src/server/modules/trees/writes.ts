/**
 * Brand tree writes, each in one transaction: create under a parent of the right level,
 * update one node, delete nodes without children, and push a whole branch at once.
 * Sibling names are unique (同一上级下名称不能重复).
 */
import { KIND_LEVEL, type BrandNode, type NodeKind } from '../../../shared/brand-tree.ts';
import { plainText } from '../../../shared/text.ts';
import { nowText } from '../../db/index.ts';
import type { Database, Db } from '../../types.ts';
import { badRequest, notFound } from '../../errors.ts';
import { childKind, nodeById, nodeValues } from './nodes.ts';
import { BRAND_TREE_TABLE } from './tables.ts';

const T = BRAND_TREE_TABLE;

/** A per-level call's rule: which kinds the parent (create) or the node (update) may be. */
export interface LevelRule {
  /** kinds of the parent a create accepts; 'root' for a brand */
  parents: Array<NodeKind | 'root'>;
  /** kinds an update accepts */
  nodes: NodeKind[];
  parentMessage: string;
  nodeMessage: string;
}

export const LEVEL_RULES: Record<'Brand' | 'Train' | 'Type' | 'Prop', LevelRule> = {
  Brand: { parents: ['root'], nodes: ['brand'], parentMessage: '品牌只能添加在根节点下', nodeMessage: '该节点不是品牌' },
  Train: { parents: ['brand'], nodes: ['series'], parentMessage: '车系的上级必须是品牌', nodeMessage: '该节点不是车系' },
  Type: { parents: ['series'], nodes: ['model'], parentMessage: '车型的上级必须是车系', nodeMessage: '该节点不是车型' },
  Prop: {
    parents: ['model', 'config'],
    nodes: ['config', 'colour', 'pack'],
    parentMessage: '配置的上级必须是车型，颜色和选装包的上级必须是配置',
    nodeMessage: '该节点不是配置、颜色或选装包',
  },
};

function parentIdOf(value: unknown): number {
  if (value === undefined || value === null || value === 0 || value === '0') return 0;
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (!Number.isSafeInteger(n) || (n as number) < 0) throw badRequest('上级节点ID必须是非负整数');
  return n as number;
}

async function checkSiblingName(db: Db, pid: number, name: string, exceptId?: number): Promise<void> {
  let q = db.selectFrom(T).select('id').where('pid', '=', pid).where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  if (await q.executeTakeFirst()) throw badRequest(`同一上级下已存在名称：${name}`);
}

async function checkOrg(db: Db, values: Record<string, unknown>): Promise<void> {
  if (values.org_id === undefined || values.org_id === null) return;
  const org = await db
    .selectFrom('sys_dept')
    .select('id')
    .where('id', '=', values.org_id as number)
    .executeTakeFirst();
  if (!org) throw badRequest(`所属公司不存在：${plainText(values.org_id)}`);
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('请求内容必须是JSON对象');
  return body as Record<string, unknown>;
}

async function insertNode(db: Db, body: Record<string, unknown>, rule?: LevelRule): Promise<number> {
  const pid = parentIdOf(body.pid);
  const parent = pid === 0 ? null : ((await nodeById(db, pid)) ?? null);
  if (pid !== 0 && !parent) throw badRequest('上级节点不存在');
  if (rule && !rule.parents.includes(parent ? parent.kind : 'root')) throw badRequest(rule.parentMessage);
  const kind = childKind(parent, body.kind);
  const values = nodeValues(body, kind, 'create');
  await checkOrg(db, values);
  await checkSiblingName(db, pid, String(values.name));
  const now = nowText();
  const row = await db
    .insertInto(T)
    .values({ ...values, pid, level: KIND_LEVEL[kind], kind, create_time: now, update_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function createNode(database: Database, input: unknown, rule?: LevelRule): Promise<BrandNode> {
  const body = asObject(input);
  const id = await database.db.transaction().execute((trx) => insertNode(trx, body, rule));
  return (await nodeById(database.db, id))!;
}

export async function updateNode(database: Database, input: unknown, rule?: LevelRule): Promise<void> {
  const body = asObject(input);
  const id = typeof body.id === 'number' && Number.isSafeInteger(body.id) && body.id > 0 ? body.id : undefined;
  if (id === undefined) throw badRequest('ID不能为空');
  await database.db.transaction().execute(async (trx) => {
    const node = await nodeById(trx, id);
    if (!node) throw notFound('节点不存在');
    if (rule && !rule.nodes.includes(node.kind)) throw badRequest(rule.nodeMessage);
    if (body.pid !== undefined && parentIdOf(body.pid) !== node.pid) throw badRequest('不支持修改上级节点，请删除后在新的上级下添加');
    if (body.kind !== undefined && body.kind !== node.kind) throw badRequest('不支持修改节点类型');
    const values = nodeValues(body, node.kind, 'update');
    await checkOrg(trx, values);
    if (values.name !== undefined) await checkSiblingName(trx, node.pid, plainText(values.name), id);
    await trx
      .updateTable(T)
      .set({ ...values, update_time: nowText() })
      .where('id', '=', id)
      .execute();
  });
}

/** Deletes the nodes; refused while a node has children that are not deleted with it. */
export async function deleteNodes(database: Database, input: unknown): Promise<number> {
  if (!Array.isArray(input)) throw badRequest('请求内容必须是ID数组');
  if (input.length === 0) throw badRequest('请至少选择一条数据');
  if (input.length > 1000) throw badRequest('一次最多删除1000个节点');
  const ids = new Set<number>();
  for (const v of input) {
    if (!Number.isSafeInteger(v) || (v as number) < 1) throw badRequest('ID必须是正整数');
    ids.add(v as number);
  }
  const deleted = await database.db.transaction().execute(async (trx) => {
    const list = [...ids];
    const children = await trx.selectFrom(T).select(['id', 'pid']).where('pid', 'in', list).execute();
    const blocking = children.find((c) => !ids.has(Number(c.id)));
    if (blocking) {
      const parent = await nodeById(trx, Number(blocking.pid));
      throw badRequest(`「${parent?.name ?? blocking.pid}」下存在子节点，不能删除，请先删除其子节点`);
    }
    const r = await trx.deleteFrom(T).where('id', 'in', list).executeTakeFirst();
    return Number(r.numDeletedRows);
  });
  return deleted;
}

interface PushNode {
  children?: unknown;
  [key: string]: unknown;
}

/**
 * brandTreePush: a whole branch in one call, all or nothing. Body {pid, nodes:[{name, ...,
 * children:[...]}]} (or just the array, under the root). Answers how many nodes were written.
 */
export async function pushTree(database: Database, input: unknown): Promise<number> {
  const body = Array.isArray(input) ? { pid: 0, nodes: input } : asObject(input);
  if (!Array.isArray(body.nodes) || body.nodes.length === 0) throw badRequest('请提供要推送的节点（nodes）');
  let count = 0;
  const walk = async (trx: Db, pid: number, nodes: unknown[], depth: number): Promise<void> => {
    if (depth > 5) throw badRequest('品牌树最多5级');
    for (const raw of nodes) {
      const { children, ...fields } = asObject(raw) as PushNode;
      if (children !== undefined && !Array.isArray(children)) throw badRequest('children必须是数组');
      const id = await insertNode(trx, { ...fields, pid });
      count++;
      if (count > 5000) throw badRequest('一次最多推送5000个节点');
      if (Array.isArray(children) && children.length) await walk(trx, id, children, depth + 1);
    }
  };
  await database.db.transaction().execute(async (trx) => {
    const pid = parentIdOf(body.pid);
    if (pid !== 0 && !(await nodeById(trx, pid))) throw badRequest('上级节点不存在');
    await walk(trx, pid, body.nodes as unknown[], 1);
  });
  return count;
}
