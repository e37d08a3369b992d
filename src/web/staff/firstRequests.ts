/**
 * The GET requests a list screen makes as it opens, as URLs: its default first page (page 0,
 * its page size, its default sort, no filter) and the dictionaries of its `x-dict` fields.
 * index.html's early script asks for them before any module runs (scripts/vite/console-early-start.ts,
 * which computes them at build time with these functions), and the console adopts an early
 * answer only under the exact URL it would have asked for itself (common/early.ts, takeEarlyGet).
 * Plain module: the build imports it.
 */
import type { ResourceSpec } from '../../shared/resource-spec.ts';
import { defaultSort } from './schema/listDefaults.ts';

/** The query of a dictionary's enabled details, sorted as the options are shown. */
export function dictionaryQuery(name: string): Record<string, string | number> {
  return { dictName: name, enabled: 'true', page: 0, size: 9999, sort: 'sort,asc' };
}

function url(path: string, query: Record<string, string | number>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) search.append(key, String(value));
  return `${path}?${search.toString()}`;
}

export function dictionaryUrl(name: string): string {
  return url('/api/dictDetail', dictionaryQuery(name));
}

/** The default first page of a generated list (what the list asks for with nothing remembered). */
export function firstPageUrl(spec: ResourceSpec): string {
  const sort = defaultSort(spec);
  return url(`/${spec.path}`, { page: 0, size: spec.pageSize, sort: `${sort.field},${sort.order.toLowerCase()}` });
}

/** Per resource: its first page's URL and its dictionaries' URLs. */
export function firstRequests(specs: ResourceSpec[]): Record<string, [string, string[]]> {
  const out: Record<string, [string, string[]]> = {};
  for (const spec of specs) {
    const dicts = [...new Set(spec.fields.flatMap((f) => (f.dict ? [f.dict] : [])))];
    out[spec.name] = [firstPageUrl(spec), dicts.map(dictionaryUrl)];
  }
  return out;
}
