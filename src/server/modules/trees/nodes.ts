/**
 * Brand tree nodes: reading (children by pid, the tree by levels, one node, search) and the
 * body rules of a create or update. Columns <-> JSON fields are mapped here only.
 */
import { sql } from 'kysely';
import { ENUM_FIELDS, KIND_TITLES, MAX_LEVEL, type BrandNode, type NodeKind } from '../../../shared/brand-tree.ts';
import { plainText } from '../../../shared/text.ts';
import type { Database, Db, TableQuery } from '../../types.ts';
import { badRequest } from '../../errors.ts';
import { BRAND_TREE_TABLE } from './tables.ts';

const T = BRAND_TREE_TABLE;

/** JSON field -> column, for the fields a client may write. */
export const WRITABLE: Record<string, string> = {
  name: 'name',
  sort: 'sort',
  enabled: 'enabled',
  enabledXs: 'enabled_xs',
  orgId: 'org_id',
  brandNature: 'brand_nature',
  brandTier: 'brand_tier',
  origin: 'origin',
  bodyType: 'body_type',
  carClass: 'car_class',
  fuelType: 'fuel_type',
  emission: 'emission',
  modelYear: 'model_year',
  engine: 'engine',
  gearbox: 'gearbox',
  colorCode: 'color_code',
  price: 'price',
  remark: 'remark',
};
/** Fields the server sets: accepted in an update body (the screen sends the record back) and ignored. */
const READ_ONLY = new Set(['id', 'pid', 'level', 'kind', 'children', 'hasChildren', 'createTime', 'updateTime', 'leaf', 'label', 'value']);

export function rowToNode(row: Record<string, unknown>): BrandNode {
  const text = (v: unknown) => (v === null || v === undefined ? null : plainText(v));
  const node: BrandNode = {
    id: Number(row.id),
    pid: Number(row.pid ?? 0),
    name: plainText(row.name),
    level: Number(row.level),
    kind: row.kind as NodeKind,
    sort: Number(row.sort),
    enabled: Boolean(row.enabled),
    enabledXs: Boolean(row.enabled_xs),
    orgId: row.org_id === null || row.org_id === undefined ? null : Number(row.org_id),
    brandNature: text(row.brand_nature),
    brandTier: text(row.brand_tier),
    origin: text(row.origin),
    bodyType: text(row.body_type),
    carClass: text(row.car_class),
    fuelType: text(row.fuel_type),
    emission: text(row.emission),
    modelYear: text(row.model_year),
    engine: text(row.engine),
    gearbox: text(row.gearbox),
    colorCode: text(row.color_code),
    price: row.price === null || row.price === undefined ? null : Number(row.price),
    remark: text(row.remark),
    createTime: text(row.create_time),
    updateTime: text(row.update_time),
  };
  if (row.has_children !== undefined) node.hasChildren = Boolean(row.has_children);
  return node;
}

export interface TreeFilter {
  /** only enabled nodes (a disabled node hides its branch) */
  enabledOnly?: boolean;
  /** only nodes offered in sales */
  enabledXs?: boolean;
  /** brands of this company plus the group-wide ones */
  orgId?: number;
}

const truthy = (database: Database) => (database.dialect === 'postgres' ? sql<boolean>`true` : sql<number>`1`);

function filtered<O>(database: Database, q: TableQuery<O>, filter: TreeFilter): TableQuery<O> {
  if (filter.enabledOnly) q = q.where('enabled', '=', truthy(database));
  if (filter.enabledXs) q = q.where('enabled_xs', '=', truthy(database));
  return q;
}

/** Direct children of pid (0: the brands), sorted, each with hasChildren. */
export async function childrenOf(database: Database, pid: number, filter: TreeFilter = {}): Promise<BrandNode[]> {
  let q = database.db
    .selectFrom(`${T} as n`)
    .selectAll('n')
    .select((eb) => eb.exists(eb.selectFrom(`${T} as c`).select('c.id').whereRef('c.pid', '=', 'n.id')).as('has_children'))
    .where('n.pid', '=', pid);
  if (filter.enabledOnly) q = q.where('n.enabled', '=', truthy(database));
  if (filter.enabledXs) q = q.where('n.enabled_xs', '=', truthy(database));
  if (pid === 0 && filter.orgId !== undefined) {
    const orgId = filter.orgId;
    q = q.where((eb) => eb.or([eb('n.org_id', 'is', null), eb('n.org_id', '=', orgId)]));
  }
  const rows = await q.orderBy('n.sort').orderBy('n.id').execute();
  return rows.map(rowToNode);
}

/**
 * The tree down to `levels` (1-5) as nested nodes; a node at the last level or without
 * children has no `children`. Other modules read the brand tree through this function.
 */
export async function readBrandTree(database: Database, levels = MAX_LEVEL, filter: TreeFilter = {}): Promise<BrandNode[]> {
  let q = database.db.selectFrom(T).selectAll().where('level', '<=', levels);
  q = filtered(database, q, filter);
  const rows = await q.orderBy('level').orderBy('sort').orderBy('id').execute();
  const byId = new Map<number, BrandNode>();
  const roots: BrandNode[] = [];
  for (const row of rows) {
    const node = rowToNode(row);
    if (node.level === 1) {
      if (filter.orgId !== undefined && node.orgId !== null && node.orgId !== filter.orgId) continue;
      roots.push(node);
      byId.set(node.id, node);
      continue;
    }
    const parent = byId.get(node.pid);
    if (!parent) continue; // its branch is filtered out
    (parent.children ??= []).push(node);
    byId.set(node.id, node);
  }
  return roots;
}

export async function nodeById(db: Db, id: number): Promise<BrandNode | undefined> {
  const row = await db.selectFrom(T).selectAll().where('id', '=', id).executeTakeFirst();
  return row ? rowToNode(row) : undefined;
}

/** Ancestors of a node from the brand down, the node included. */
export async function pathOf(db: Db, node: BrandNode): Promise<BrandNode[]> {
  const path = [node];
  let current = node;
  while (current.pid !== 0) {
    const parent = await nodeById(db, current.pid);
    if (!parent) break;
    path.unshift(parent);
    current = parent;
  }
  return path;
}

/** Nodes whose name contains the text (at most 100), each with its path of names and ids. */
export async function findNodes(database: Database, text: string): Promise<Array<BrandNode & { path: string[]; ids: number[] }>> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await database.db
    .selectFrom(T)
    .selectAll()
    .where(sql<boolean>`name like ${pattern} escape '\\'`)
    .orderBy('level')
    .orderBy('sort')
    .orderBy('id')
    .limit(100)
    .execute();
  const out: Array<BrandNode & { path: string[]; ids: number[] }> = [];
  for (const row of rows) {
    const node = rowToNode(row);
    const path = await pathOf(database.db, node);
    out.push({ ...node, path: path.map((n) => n.name), ids: path.map((n) => n.id) });
  }
  return out;
}

/** Kind of a new child under a parent (null = the root); option packs are asked for with kind 'pack'. */
export function childKind(parent: BrandNode | null, asked?: unknown): NodeKind {
  if (!parent) return 'brand';
  switch (parent.kind) {
    case 'brand':
      return 'series';
    case 'series':
      return 'model';
    case 'model':
      return 'config';
    case 'config':
      if (asked === undefined || asked === null || asked === '' || asked === 'colour') return 'colour';
      if (asked === 'pack') return 'pack';
      throw badRequest('配置下只能添加颜色（colour）或选装包（pack）');
    default:
      throw badRequest(`${KIND_TITLES[parent.kind]}下不能再添加子节点`);
  }
}

const PRICE = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * Checks a create or update body for a node of `kind` and answers the columns to write.
 * Unknown fields, enumerations on a level that does not carry them and values outside
 * their list are refused with a message naming them.
 */
export function nodeValues(body: Record<string, unknown>, kind: NodeKind, mode: 'create' | 'update'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const kindTitle = KIND_TITLES[kind];
  for (const [key, value] of Object.entries(body)) {
    if (READ_ONLY.has(key) || key === 'kind') continue;
    const column = Object.hasOwn(WRITABLE, key) ? WRITABLE[key] : undefined;
    if (!column) throw badRequest(`不支持的字段：${key}`);
    if (key === 'name') {
      if (typeof value !== 'string' || !value.trim()) throw badRequest('名称不能为空');
      if (value.trim().length > 50) throw badRequest('名称长度不能超过50个字符');
      out.name = value.trim();
      continue;
    }
    if (key === 'sort') {
      if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 999999) throw badRequest('排序必须是0到999999的整数');
      out.sort = value;
      continue;
    }
    if (key === 'enabled' || key === 'enabledXs') {
      if (typeof value !== 'boolean') throw badRequest(key === 'enabled' ? '状态必须是是或否' : '销售启用必须是是或否');
      out[column] = value ? 1 : 0;
      continue;
    }
    if (key === 'remark') {
      if (value !== null && typeof value !== 'string') throw badRequest('备注必须是文本');
      if (typeof value === 'string' && value.length > 255) throw badRequest('备注长度不能超过255个字符');
      out.remark = value || null;
      continue;
    }
    if (key === 'orgId') {
      if (value === null) {
        out.org_id = null;
        continue;
      }
      if (kind !== 'brand') throw badRequest(`${kindTitle}不能设置所属公司`);
      if (!Number.isSafeInteger(value) || (value as number) < 1) throw badRequest('所属公司ID必须是正整数');
      out.org_id = value;
      continue;
    }
    const field = ENUM_FIELDS.find((f) => f.name === key)!;
    if (value === null || value === '') {
      out[column] = null;
      continue;
    }
    if (!field.kinds.includes(kind)) throw badRequest(`${kindTitle}不能设置${field.title}`);
    if (field.values) {
      if (typeof value !== 'string' || !field.values.includes(value)) throw badRequest(`${field.title}只能是：${field.values.join('、')}`);
      out[column] = value;
    } else if (field.type === 'number') {
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
      if (!PRICE.test(text)) throw badRequest('价格必须是非负数，最多保留两位小数');
      out[column] = String(Number(text));
    } else {
      if (typeof value !== 'string' || value.length > 16) throw badRequest(`${field.title}长度不能超过16个字符`);
      if (key === 'colorCode' && !/^#[0-9A-Fa-f]{6}$/.test(value)) throw badRequest('色值格式应为 #RRGGBB');
      out[column] = value;
    }
  }
  if (mode === 'create' && out.name === undefined) throw badRequest('名称不能为空');
  return out;
}
