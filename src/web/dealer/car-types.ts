/**
 * The dealer's car-type cascader data: the enabled brand tree down to the configuration, read
 * once per form from GET comp/dbcCompany/getTree?levels=4 and answered by parent id.
 */
import type { BrandNode } from '../../shared/brand-tree.ts';
import { CAR_TYPE_LEVEL } from '../../shared/dbc-demand.ts';
import { dealerFetch } from './http.ts';

/** A loader for ModelCascader over one fetch of the tree. */
export function dealerCarTypeLoader(): (pid: number) => Promise<BrandNode[]> {
  let tree: Promise<Map<number, BrandNode[]>> | null = null;
  const fetchTree = async () => {
    const roots = await dealerFetch<BrandNode[]>(`comp/dbcCompany/getTree?levels=${CAR_TYPE_LEVEL}`);
    const byParent = new Map<number, BrandNode[]>([[0, []]]);
    const walk = (nodes: BrandNode[], pid: number) => {
      byParent.set(
        pid,
        nodes.map(({ children, ...n }) => ({ ...n, hasChildren: !!children?.length })),
      );
      for (const n of nodes) if (n.children?.length) walk(n.children, n.id);
    };
    walk(roots, 0);
    return byParent;
  };
  return async (pid) => {
    tree ??= fetchTree().catch((err) => {
      tree = null; // a failed load may be retried
      throw err;
    });
    return (await tree).get(pid) ?? [];
  };
}
