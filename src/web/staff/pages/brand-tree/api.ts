/** Brand tree calls of the staff console. */
import type { BrandNode, NodeKind } from '../../../../shared/brand-tree.ts';
import { request } from '../../../common/http.ts';

export async function loadChildren(pid: number, enabledOnly = false): Promise<BrandNode[]> {
  const { data } = await request<BrandNode[]>('/api/brandTree/getTreeByPid', {
    query: { pid, enabled: enabledOnly ? 'true' : undefined },
    quiet: true,
  });
  return data;
}

/** The cascader's loader: enabled nodes only. */
export const loadEnabledChildren = (pid: number) => loadChildren(pid, true);

export type FoundNode = BrandNode & { path: string[]; ids: number[] };

export async function findNodes(name: string): Promise<FoundNode[]> {
  const { data } = await request<FoundNode[]>('/api/brandTree/findTree', { query: { name } });
  return data;
}

/** The per-level create call for a child of `parent` (null: a brand). */
export function createPath(parent: BrandNode | null): string {
  if (!parent) return '/api/brandTree/createBrand';
  if (parent.kind === 'brand') return '/api/brandTree/createTrain';
  if (parent.kind === 'series') return '/api/brandTree/createType';
  return '/api/brandTree/createProp';
}

export function updatePath(kind: NodeKind): string {
  if (kind === 'brand') return '/api/brandTree/updateBrand';
  if (kind === 'series') return '/api/brandTree/updateTrain';
  if (kind === 'model') return '/api/brandTree/updateType';
  return '/api/brandTree/updateProp';
}

export async function saveNode(body: Record<string, unknown>, parent: BrandNode | null, existing?: BrandNode): Promise<void> {
  if (existing) await request(updatePath(existing.kind), { method: 'PUT', body: { ...body, id: existing.id } });
  else await request(createPath(parent), { method: 'POST', body: { ...body, pid: parent?.id ?? 0 } });
}

export async function deleteNode(id: number): Promise<void> {
  await request('/api/brandTree', { method: 'DELETE', body: [id] });
}

export interface Company {
  id: number;
  name: string;
}

/** The group's companies (top-level departments) for a brand's 所属公司. */
export async function loadCompanies(): Promise<Company[]> {
  const { data } = await request<{ content: Array<{ id: number; pid: number | null; name: string }> }>('/api/dept', {
    query: { page: 0, size: 99999, sort: 'sort,asc' },
    quiet: true,
  });
  return data.content.filter((d) => d.pid === null).map((d) => ({ id: d.id, name: d.name }));
}
