/**
 * Data the screen a signed-in visit opens on will ask for as soon as it renders, asked for
 * while the console's code is still loading:
 * - the dictionaries of a resource list's `x-dict` fields (the list renders with their options);
 * - the list's first page, when the list opens on it: no query in the address and no page,
 *   sort, size or filter remembered from an earlier visit. The console puts the pending answer
 *   in react-admin's query cache under the list's own key (providers/queryClient.ts), so the
 *   list renders its rows in its first render instead of asking once it is on screen. Any
 *   other first page is asked for by the list as usual.
 * Both are taken from index.html's early requests when it asked for the same URL (it asks for
 * the same default first page under the same conditions, before any module has run).
 */
import type { GetListResult } from 'react-admin';
import { resourceByName } from '../../generated/resources.ts';
import { listQuery, resourceUrl, type Page } from './providers/dataProvider.ts';
import { buildQuery, request } from '../common/http.ts';
import { dropEarlyGets, takeEarlyGet } from '../common/early.ts';
import { storeAppKey } from '../common/token.ts';
import { prefetchDictionaries } from './schema/dictionaries.ts';
import { defaultSort } from './schema/listDefaults.ts';
import { preloadResourceScreens } from './resourceScreensLoader.tsx';

/** Where react-admin keeps a list's remembered parameters (localStorageStore with the app key 'staff'), before anyone signed in. */
export const STORE_PREFIX = 'RaStorestaff.';

/** The same for the signed-in user's store (app key `staff:<username>`, see storeAppKey). */
export function storePrefix(): string {
  return `RaStore${storeAppKey()}.`;
}

export interface ListPrefetch {
  /** react-admin's useGetList query key for the page */
  key: unknown[];
  result: Promise<GetListResult>;
}

let pendingList: ListPrefetch | null = null;

/** The resource a console path opens (`/sysQuestion`, `/sysQuestion:销售`, `/applicant/7/show`), if any. */
export function resourceOfPath(path: string): string | undefined {
  const name = (path.split('/')[1] ?? '').split(':')[0];
  return Object.prototype.hasOwnProperty.call(resourceByName, name) ? name : undefined;
}

/** Whether earlier visits left list parameters other than the defaults (react-admin's hasCustomParams). */
export function rememberedListParams(name: string, storage: Storage = localStorage): boolean {
  const raw = storage.getItem(`${storePrefix()}${name}.listParams`);
  if (!raw) return false;
  try {
    const p = JSON.parse(raw) as { filter?: object; order?: unknown; page?: unknown; perPage?: unknown; sort?: unknown } | null;
    if (!p || !p.filter) return false;
    return Object.keys(p.filter).length > 0 || p.order != null || p.page !== 1 || p.perPage != null || p.sort != null;
  } catch {
    return true;
  }
}

/** The query key and parameters of a generated list's default first page. */
export function firstPageOf(name: string) {
  const spec = resourceByName[name];
  const params = { pagination: { page: 1, perPage: spec.pageSize }, sort: defaultSort(spec), filter: {}, meta: undefined };
  return { key: [name, 'getList', params], params };
}

export function prefetchScreen(path: string, search = ''): void {
  try {
    askFirst(path, search);
  } finally {
    // what was asked for early and not taken now is not for this start
    dropEarlyGets();
  }
}

function askFirst(path: string, search: string): void {
  const name = resourceOfPath(path);
  if (!name) return;
  preloadResourceScreens();
  prefetchDictionaries(resourceByName[name]);
  if (path !== `/${name}` || search || rememberedListParams(name)) return;
  const { key, params } = firstPageOf(name);
  const query = listQuery(params);
  const ask = () => request<Page<unknown>>(resourceUrl(name), { query, quiet: true }).then(({ data }) => data);
  // an early answer that cannot be used (not a 2xx JSON answer) is asked for again the usual way
  const early = takeEarlyGet<Page<unknown>>(`${resourceUrl(name)}?${buildQuery(query)}`);
  const result = (early ? early.catch(ask) : ask()).then((data) => ({
    data: (data?.content ?? []) as GetListResult['data'],
    total: Number(data?.totalElements ?? 0),
    pageInfo: undefined,
    meta: undefined,
  }));
  result.catch(() => undefined);
  pendingList = { key, result };
}

/** The early first page (once): the console seeds its query cache with it. */
export function takeListPrefetch(): ListPrefetch | null {
  const taken = pendingList;
  pendingList = null;
  return taken;
}
