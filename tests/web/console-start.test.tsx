/**
 * How the console starts fast without changing what it shows: the early requests of
 * index.html are adopted once (and refused when unusable), the first page fetched early lands
 * under react-admin's own query key (the list renders it without asking), react-admin's auth
 * answers are seeded from the loaded session, dictionaries already loaded are used at once,
 * and work held back until the first screen is up starts then.
 */
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, useRecordContext, type DataProvider } from 'react-admin';
import { earlyStartScript } from '../../scripts/vite/console-early-start.ts';
import { resourceByName, resources } from '../../src/generated/resources.ts';
import { dictionaryUrl, firstRequests } from '../../src/web/staff/firstRequests.ts';
import { listQuery, resourceUrl } from '../../src/web/staff/providers/dataProvider.ts';
import { buildQuery } from '../../src/web/common/http.ts';
import { fieldByName } from '../../src/shared/resource-spec.ts';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { lazyPart } from '../../src/web/staff/lazyPart.tsx';
import {
  firstPageOf,
  prefetchScreen,
  rememberedListParams,
  resourceOfPath,
  STORE_PREFIX,
  takeListPrefetch,
} from '../../src/web/staff/prefetchScreen.ts';
import { takeEarly, takeEarlyGet } from '../../src/web/common/early.ts';
import { createConsoleQueryClient } from '../../src/web/staff/providers/queryClient.ts';
import { clearSession, loadSession, peekSession, type SessionInfo } from '../../src/web/common/session.ts';
import { setStoreOwner, setToken, STORE_OWNER_KEY } from '../../src/web/common/token.ts';
import { clearDictionaryCache, loadDictionary, useDictionaryOptions } from '../../src/web/staff/schema/dictionaries.ts';
import { SchemaList } from '../../src/web/staff/schema/SchemaList.tsx';
import { useScrolledDown } from '../../src/web/staff/layout/HideOnScroll.tsx';
import { FIRST_ROWS, FirstRowsBody } from '../../src/web/staff/schema/FirstRowsBody.tsx';
import { markStarted, resetStartup, STARTUP_FALLBACK_MS, useConsoleStarted } from '../../src/web/staff/shell/startup.ts';
import { testAuthProvider } from './renderScreen.tsx';
import { mockFetch } from './fetchMock.ts';

const SESSION: SessionInfo = {
  user: { id: 1, username: 'admin', nickName: '管理员', roles: [{ name: '超级管理员' }] },
  permissions: ['admin'],
  sys: { title: '后台管理系统' },
};

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  setToken('tok-1', false);
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
  clearDictionaryCache();
  resetStartup();
  localStorage.clear();
  delete (window as { __consoleEarly?: unknown }).__consoleEarly;
  document.head.querySelectorAll('link[rel="modulepreload"]').forEach((l) => l.remove());
  window.location.hash = '';
});

describe('index.html early start', () => {
  const run = (hash: string) => {
    window.location.hash = hash;
    const fetchSpy = vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(jsonResponse({})));
    vi.stubGlobal('fetch', fetchSpy);
    // run as the page runs its inline script: in the global scope (indirect eval)
    const runInline = eval;
    runInline(
      earlyStartScript(['/assets/StaffApp-x.js', '/assets/menus-y.js'], ['/login', '/jxsLogin'], 'Admin-Token', {
        files: ['/assets/resourceScreens-z.js'],
        resources: ['sysQuestion', 'applicant'],
        first: { sysQuestion: ['/api/sysQuestion?page=0&size=15', ['/api/dictDetail?dictName=a', '/api/dictDetail?dictName=b']] },
        ownerKey: STORE_OWNER_KEY,
      }),
    );
    return fetchSpy;
  };
  const preloads = () => [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href'));

  it('a signed-in console visit preloads the console chunks and asks for info and menus with the token', () => {
    const fetchSpy = run('#/sysQuestion');
    expect(preloads()).toEqual(['/assets/StaffApp-x.js', '/assets/menus-y.js', '/assets/resourceScreens-z.js']);
    expect(fetchSpy.mock.calls.map((c) => c[0])).toEqual([
      '/api/info',
      '/api/menus/build',
      '/api/dictDetail?dictName=a',
      '/api/dictDetail?dictName=b',
      // after the preloads: it needs the first read of localStorage
      '/api/sysQuestion?page=0&size=15',
    ]);
    for (const call of fetchSpy.mock.calls) expect(call[1]).toMatchObject({ headers: { Authorization: 'Bearer tok-1' } });
    expect((window as { __consoleEarly?: { token: string } }).__consoleEarly?.token).toBe('tok-1');
  });

  it("preloads the list screens' chunks only for a resource's route", () => {
    run('#/sysQuestion:销售');
    expect(preloads()).toContain('/assets/resourceScreens-z.js');
    document.head.querySelectorAll('link[rel="modulepreload"]').forEach((l) => l.remove());
    run('#/dashboard');
    expect(preloads()).toEqual(['/assets/StaffApp-x.js', '/assets/menus-y.js']);
  });

  it("asks for the list's first page only when the list opens on it with nothing remembered, as prefetchScreen does", () => {
    const asked = (hash: string) =>
      run(hash)
        .mock.calls.map((c) => c[0])
        .slice(2);
    const dicts = ['/api/dictDetail?dictName=a', '/api/dictDetail?dictName=b'];
    expect(asked('#/sysQuestion:销售')).toEqual(dicts);
    expect(asked('#/sysQuestion/3/show')).toEqual(dicts);
    expect(asked('#/sysQuestion?page=2')).toEqual(dicts);
    expect(asked('#/applicant')).toEqual([]);
    // the signed-in user's store: remembered page 3 there, defaults in the store of no one
    setStoreOwner('admin');
    localStorage.setItem(
      'RaStorestaff:admin.sysQuestion.listParams',
      JSON.stringify({ filter: {}, page: 3, perPage: 15, sort: 'id', order: 'DESC' }),
    );
    expect(rememberedListParams('sysQuestion')).toBe(true);
    expect(asked('#/sysQuestion')).toEqual(dicts);
    localStorage.setItem(
      'RaStorestaff:admin.sysQuestion.listParams',
      JSON.stringify({ filter: {}, page: 1, perPage: null, sort: null, order: null }),
    );
    expect(rememberedListParams('sysQuestion')).toBe(false);
    expect(asked('#/sysQuestion')).toEqual([...dicts, '/api/sysQuestion?page=0&size=15']);
    localStorage.setItem('RaStorestaff:admin.sysQuestion.listParams', '{not json');
    expect(rememberedListParams('sysQuestion')).toBe(true);
    expect(asked('#/sysQuestion')).toEqual(dicts);
  });

  it('the build writes the URLs the console asks for itself', () => {
    const first = firstRequests(resources);
    for (const spec of resources) {
      const { params } = firstPageOf(spec.name);
      expect(first[spec.name][0]).toBe(`${resourceUrl(spec.name)}?${buildQuery(listQuery(params))}`);
      const dicts = [...new Set(spec.fields.flatMap((f) => (f.dict ? [f.dict] : [])))];
      expect(first[spec.name][1]).toEqual(
        dicts.map((d) => `/api/dictDetail?${buildQuery({ dictName: d, enabled: 'true', page: 0, size: 9999, sort: 'sort,asc' })}`),
      );
    }
    expect(first.sysQuestion[1]).toHaveLength(3);
  });

  it('does nothing on a public page or without a token', () => {
    expect(run('#/login?redirect=%2Fdashboard')).not.toHaveBeenCalled();
    expect(run('#/jxsLogin')).not.toHaveBeenCalled();
    clearSession();
    expect(run('#/sysQuestion')).not.toHaveBeenCalled();
    expect(document.head.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
  });
});

describe('adopting the early answers', () => {
  it('the session uses the early info once, and asks again when it was refused', async () => {
    const { calls } = mockFetch({ 'GET /api/info': { body: { ...SESSION, user: { ...SESSION.user, nickName: '再次请求' } } } });
    (window as { __consoleEarly?: unknown }).__consoleEarly = { token: 'tok-1', info: Promise.resolve(jsonResponse(SESSION)) };
    expect(peekSession()).toBeNull();
    expect((await loadSession()).user.nickName).toBe('管理员');
    expect(calls).toHaveLength(0);
    expect(peekSession()?.user.nickName).toBe('管理员');
    expect(takeEarly('info')).toBeNull(); // taken once

    clearSession();
    setToken('tok-1', false);
    (window as { __consoleEarly?: unknown }).__consoleEarly = {
      token: 'tok-1',
      info: Promise.resolve(jsonResponse({ message: '登录状态已过期' }, 401)),
    };
    expect((await loadSession()).user.nickName).toBe('再次请求');
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/info']);
  });

  it("the list's first page and the dictionaries are taken by URL, once; a refused one is asked for again", async () => {
    const spec = resourceByName.sysQuestion;
    const [listUrl, dictUrls] = firstRequests([spec])[spec.name];
    const { calls } = mockFetch({
      'GET /api/dictDetail': { body: { content: [{ value: '售后', label: '再次请求' }] } },
      'GET /api/sysQuestion': { body: { content: [], totalElements: 0 } },
    });
    const gets: Record<string, Promise<Response>> = {
      [listUrl]: Promise.resolve(jsonResponse({ content: [{ id: 7, title: '早到的记录' }], totalElements: 1 })),
      [dictUrls[0]]: Promise.resolve(jsonResponse({ content: [{ value: '员工', label: '早到的字典' }] })),
      [dictUrls[1]]: Promise.resolve(jsonResponse({ message: '登录状态已过期' }, 401)),
      '/api/other?page=0': Promise.resolve(jsonResponse({})),
    };
    (window as { __consoleEarly?: unknown }).__consoleEarly = { token: 'tok-1', gets };
    prefetchScreen('/sysQuestion');
    const list = takeListPrefetch();
    expect(await list?.result).toMatchObject({ data: [{ id: 7, title: '早到的记录' }], total: 1 });
    const dictNames = spec.fields.flatMap((f) => (f.dict ? [f.dict] : []));
    expect(dictUrls[0]).toBe(dictionaryUrl(dictNames[0]));
    expect(await loadDictionary(dictNames[0])).toEqual([{ value: '员工', label: '早到的字典' }]);
    expect(await loadDictionary(dictNames[1])).toEqual([{ value: '售后', label: '再次请求' }]);
    // asked for: the refused dictionary again and the one no early request covered; not the list
    expect(calls.map((c) => c.url.searchParams.get('dictName') ?? c.url.pathname).sort()).toEqual([dictNames[1], dictNames[2]].sort());
    // what the start did not take is dropped
    expect(takeEarlyGet('/api/other?page=0')).toBeNull();
  });

  it('an early answer asked with another token is not used', () => {
    (window as { __consoleEarly?: unknown }).__consoleEarly = { token: 'old-token', menus: Promise.resolve(jsonResponse([])) };
    expect(takeEarly('menus')).toBeNull();
  });
});

describe('the first page asked for early', () => {
  const spec = resourceByName.sysQuestion;
  const row = { id: 41, model: '销售', title: '早到的记录', userType: '员工', status: false, createTime: '2024-05-01 10:00:00' };

  it('is asked only for the plain list with nothing remembered', () => {
    expect(resourceOfPath('/sysQuestion')).toBe('sysQuestion');
    expect(resourceOfPath('/sysQuestion:销售')).toBe('sysQuestion');
    expect(resourceOfPath('/dashboard')).toBeUndefined();
    expect(rememberedListParams('sysQuestion')).toBe(false);
    localStorage.setItem(
      `${STORE_PREFIX}sysQuestion.listParams`,
      JSON.stringify({ filter: {}, page: 1, perPage: null, sort: null, order: null }),
    );
    expect(rememberedListParams('sysQuestion')).toBe(false);
    localStorage.setItem(
      `${STORE_PREFIX}sysQuestion.listParams`,
      JSON.stringify({ filter: {}, page: 3, perPage: 15, sort: 'id', order: 'DESC' }),
    );
    expect(rememberedListParams('sysQuestion')).toBe(true);

    const { calls } = mockFetch({
      'GET /api/dictDetail': { body: { content: [] } },
      'GET /api/sysQuestion': { body: { content: [], totalElements: 0 } },
    });
    prefetchScreen('/sysQuestion'); // remembered page 3: the list asks itself
    expect(takeListPrefetch()).toBeNull();
    localStorage.clear();
    prefetchScreen('/sysQuestion', '?page=2');
    prefetchScreen('/sysQuestion:销售');
    prefetchScreen('/sysQuestion/3/show');
    expect(takeListPrefetch()).toBeNull();
    prefetchScreen('/sysQuestion');
    expect(takeListPrefetch()?.key).toEqual(firstPageOf('sysQuestion').key);
    const lists = calls.filter((c) => c.url.pathname === '/api/sysQuestion');
    expect(lists).toHaveLength(1);
    expect(Object.fromEntries(lists[0].url.searchParams)).toEqual({ page: '0', size: String(spec.pageSize), sort: 'id,desc' });
  });

  it('lands under the list query key: the list shows it without asking', async () => {
    const getList = vi.fn(() => Promise.resolve({ data: [], total: 0 }));
    const dataProvider = { getList, getMany: () => Promise.resolve({ data: [] }) } as unknown as DataProvider;
    mockFetch({ 'GET /api/dictDetail': { body: { content: [] } } });
    const queryClient = createConsoleQueryClient(SESSION, {
      key: firstPageOf('sysQuestion').key,
      result: Promise.resolve({ data: [row], total: 1, pageInfo: undefined, meta: undefined }),
    });
    render(
      <AdminContext
        dataProvider={dataProvider}
        authProvider={testAuthProvider(['admin'])}
        i18nProvider={i18nProvider}
        store={memoryStore()}
        queryClient={queryClient}
      >
        <SchemaList spec={spec} />
      </AdminContext>,
    );
    await screen.findByText('早到的记录');
    expect(getList).not.toHaveBeenCalled();
  });
});

describe('the first list of a visit', () => {
  it('renders the rows a window shows first, and the rest once the first screen is up', () => {
    const rows = Array.from({ length: 15 }, (_, i) => ({ id: 100 - i, title: `记录${i + 1}` }));
    function Row() {
      const record = useRecordContext<{ id: number; title: string }>();
      return (
        <tr className="RaDatagrid-row">
          <td>{record?.title}</td>
        </tr>
      );
    }
    render(
      <table>
        <FirstRowsBody data={rows} row={<Row />} />
      </table>,
    );
    const shown = () => document.querySelectorAll('tbody tr.RaDatagrid-row').length;
    expect(shown()).toBe(FIRST_ROWS);
    expect(screen.getByText('记录1')).toBeTruthy();
    expect(screen.queryByText(`记录${FIRST_ROWS + 1}`)).toBeNull();
    act(() => markStarted());
    expect(shown()).toBe(15);
    expect(screen.getByText('记录15')).toBeTruthy();
  });
});

describe('hidden on scroll without reading the scroll position at mount', () => {
  it('turns on past 100 px down and off as soon as the page scrolls up, as MUI useScrollTrigger', () => {
    const scrollTo = (y: number) => {
      Object.defineProperty(window, 'pageYOffset', { value: y, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    };
    const { result } = renderHook(() => useScrolledDown());
    expect(result.current).toBe(false);
    act(() => scrollTo(80));
    expect(result.current).toBe(false);
    act(() => scrollTo(150));
    expect(result.current).toBe(true);
    act(() => scrollTo(140));
    expect(result.current).toBe(false);
    act(() => scrollTo(300));
    expect(result.current).toBe(true);
    act(() => scrollTo(0));
    expect(result.current).toBe(false);
  });
});

describe('react-admin answers seeded from the session', () => {
  it('check, permissions and identity are in the cache before the first render', () => {
    const client = createConsoleQueryClient(SESSION);
    expect(client.getQueryData(['auth', 'checkAuth', {}])).toBe(true);
    expect(client.getQueryData(['auth', 'getPermissions', {}])).toEqual(['admin']);
    expect(client.getQueryData(['auth', 'getIdentity'])).toMatchObject({ id: 1, fullName: '管理员' });
    const empty = createConsoleQueryClient(null);
    expect(empty.getQueryData(['auth', 'getPermissions', {}])).toBeUndefined();
  });
});

describe('dictionaries already loaded', () => {
  it('are used in the first render', async () => {
    mockFetch({ 'GET /api/dictDetail': { body: { content: [{ value: '售后', label: '售后服务' }] } } });
    const spec = resourceByName.sysQuestion;
    await Promise.all(spec.fields.filter((f) => f.dict).map((f) => loadDictionary(f.dict!)));
    const { result } = renderHook(() => useDictionaryOptions(spec));
    expect(fieldByName(result.current, 'model')!.options).toEqual([{ value: '售后', label: '售后服务' }]);
  });
});

describe('held back until the first screen is up', () => {
  it('starts when marked, or after the fallback delay', () => {
    vi.useFakeTimers();
    try {
      const { result } = renderHook(() => useConsoleStarted());
      expect(result.current).toBe(false);
      act(() => markStarted());
      expect(result.current).toBe(true);
      resetStartup();
      const second = renderHook(() => useConsoleStarted());
      expect(second.result.current).toBe(false);
      act(() => {
        vi.advanceTimersByTime(STARTUP_FALLBACK_MS);
      });
      expect(second.result.current).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('parts loaded when first shown', () => {
  it('shows the fallback, then the part with its props', async () => {
    let release: (m: { Part: (p: { label: string }) => ReactElement }) => void = () => undefined;
    const Part = lazyPart(
      () => new Promise<{ Part: (p: { label: string }) => ReactElement }>((resolve) => (release = resolve)),
      'Part',
      <span>加载中</span>,
    );
    render(<Part label="你好" />);
    expect(screen.getByText('加载中')).toBeTruthy();
    await act(() => Promise.resolve(release({ Part: ({ label }) => <b>{label}</b> })));
    await waitFor(() => expect(screen.getByText('你好')).toBeTruthy());
  });
});
