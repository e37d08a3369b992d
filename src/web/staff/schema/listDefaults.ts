/** The first page a generated list asks for: its page size and sort (shared by the list and the early request). */
import type { ResourceSpec } from '../../../shared/resource-spec.ts';

export function defaultSort(spec: ResourceSpec): { field: string; order: 'ASC' | 'DESC' } {
  const [field = 'id', dir = 'desc'] = (spec.sort[0] ?? 'id,desc').split(',');
  return { field, order: dir.toLowerCase() === 'asc' ? 'ASC' : 'DESC' };
}
