import { afterEach, describe, expect, it } from 'vitest';
import { createDataProvider, listQuery, resourceUrl } from '../../src/web/staff/providers/dataProvider.ts';
import { buildQuery, submitId } from '../../src/web/common/http.ts';
import { setToken } from '../../src/web/common/token.ts';
import { onHttpProblem } from '../../src/web/common/httpEvents.ts';
import { mockFetch } from './fetchMock.ts';

describe('list query mapping', () => {
  it('maps page-1, size, sort field,dir and keeps only non-empty filters', () => {
    const query = listQuery({
      pagination: { page: 3, perPage: 15 },
      sort: { field: 'id', order: 'DESC' },
      filter: { model: '销售', title: '', userType: null, status: false, blurry: undefined },
    });
    expect(query).toEqual({ model: '销售', status: false, page: 2, size: 15, sort: 'id,desc' });
  });

  it('writes arrays as repeated keys without indices', () => {
    const qs = buildQuery(
      listQuery({
        pagination: { page: 1, perPage: 30 },
        sort: { field: 'createTime', order: 'ASC' },
        filter: { createTime: ['2024-01-01 00:00:00', '2024-01-31 23:59:59'] },
      }),
    );
    const params = new URLSearchParams(qs);
    expect(params.getAll('createTime')).toEqual(['2024-01-01 00:00:00', '2024-01-31 23:59:59']);
    expect(qs).not.toMatch(/createTime%5B|createTime\[/);
    expect(params.get('page')).toBe('0');
    expect(params.get('size')).toBe('30');
    expect(params.get('sort')).toBe('createTime,asc');
  });

  it('uses the spec path, else api/{name}', () => {
    expect(resourceUrl('sysQuestion')).toBe('/api/sysQuestion');
    expect(resourceUrl('dept')).toBe('/api/dept');
  });
});

describe('data provider over HTTP', () => {
  afterEach(() => {
    document.cookie = 'Admin-Token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('reads content/totalElements and sends bearer token and a 32-digit submit_id', async () => {
    setToken('tok-1', false);
    const { calls } = mockFetch({
      'GET /api/sysQuestion': { body: { content: [{ id: 7, title: 'a' }], totalElements: 41 } },
    });
    const provider = createDataProvider();
    const result = await provider.getList('sysQuestion', {
      pagination: { page: 2, perPage: 15 },
      sort: { field: 'id', order: 'DESC' },
      filter: { status: 'false', model: '' },
    });
    expect(result).toEqual({ data: [{ id: 7, title: 'a' }], total: 41 });
    const call = calls[0];
    expect(call.url.searchParams.get('page')).toBe('1');
    expect(call.url.searchParams.get('size')).toBe('15');
    expect(call.url.searchParams.get('sort')).toBe('id,desc');
    expect(call.url.searchParams.get('status')).toBe('false');
    expect(call.url.searchParams.has('model')).toBe(false);
    expect(call.headers.Authorization).toBe('Bearer tok-1');
    expect(call.headers.submit_id).toMatch(/^[1-9]\d{31}$/);
  });

  it('sends no credentials without a token', async () => {
    const { calls } = mockFetch({ 'GET /api/staffunZp': { body: { content: [], totalElements: 0 } } });
    await createDataProvider().getList('staffunZp', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'id', order: 'DESC' },
      filter: {},
    });
    expect(calls[0].headers.Authorization).toBeUndefined();
    expect(calls[0].headers.submit_id).toBeUndefined();
  });

  it('create = POST, update = PUT with id in body, delete/deleteMany = DELETE with an id array', async () => {
    setToken('tok-2', true);
    const { calls } = mockFetch({
      'POST /api/staffunZp': { status: 201, body: { id: 9, job: '销售顾问' } },
      'PUT /api/staffunZp': { status: 204 },
      'DELETE /api/staffunZp': { status: 200 },
    });
    const provider = createDataProvider();
    const created = await provider.create('staffunZp', { data: { job: '销售顾问' } });
    expect(created.data).toEqual({ id: 9, job: '销售顾问' });
    const updated = await provider.update('staffunZp', {
      id: 9,
      data: { job: '店长' },
      previousData: { id: 9, job: '销售顾问', jobNum: 2 },
    });
    expect(updated.data).toEqual({ id: 9, job: '店长', jobNum: 2 });
    await provider.delete('staffunZp', { id: 9, previousData: { id: 9 } });
    await provider.deleteMany('staffunZp', { ids: [1, 2, 3] });
    expect(calls.map((c) => [c.method, c.body])).toEqual([
      ['POST', { job: '销售顾问' }],
      ['PUT', { job: '店长', id: 9 }],
      ['DELETE', [9]],
      ['DELETE', [1, 2, 3]],
    ]);
    for (const call of calls) expect(call.headers.submit_id).toMatch(/^\d{32}$/);
    expect(new Set(calls.map((c) => c.headers.submit_id)).size).toBe(4);
  });

  it('getMany of a lookup (api/dept) reads the full list and keeps the asked ids', async () => {
    const { calls } = mockFetch({
      'GET /api/dept': {
        body: {
          content: [
            { id: 1, name: '销售部' },
            { id: 2, name: '人事部' },
            { id: 3, name: '行政部' },
          ],
          totalElements: 3,
        },
      },
    });
    const result = await createDataProvider().getMany<{ id: number; name: string }>('dept', { ids: [1, 3] });
    expect(result.data.map((d) => d.name)).toEqual(['销售部', '行政部']);
    expect(calls[0].url.searchParams.get('page')).toBe('0');
    expect(calls[0].url.searchParams.get('size')).toBe('99999');
    expect(calls[0].url.searchParams.has('id')).toBe(false);
  });

  it('getMany/getOne of a generated resource use the repeated id filter', async () => {
    const { calls } = mockFetch({ 'GET /api/staffunZp': { body: { content: [{ id: 1 }, { id: 2 }], totalElements: 2 } } });
    const provider = createDataProvider();
    expect((await provider.getMany('staffunZp', { ids: [1, 2] })).data).toHaveLength(2);
    expect(calls[0].url.searchParams.getAll('id')).toEqual(['1', '2']);
    expect((await provider.getOne('staffunZp', { id: 2 })).data).toEqual({ id: 2 });
    await expect(provider.getOne('staffunZp', { id: 9 })).rejects.toThrow('数据不存在');
  });

  it('a read of one id that answers 404 (gone, or outside the data scope) is no record, without a notice', async () => {
    mockFetch({ 'GET /api/staffunZp': { status: 404, body: { status: 404, message: '数据不存在', timestamp: '2026-01-01 00:00:00' } } });
    const notices: unknown[] = [];
    const stop = onHttpProblem((p) => notices.push(p));
    const provider = createDataProvider();
    expect((await provider.getMany('staffunZp', { ids: [5] })).data).toEqual([]);
    await expect(provider.getOne('staffunZp', { id: 5 })).rejects.toThrow('数据不存在');
    stop();
    expect(notices).toEqual([]);
    // a list of several ids still reports a failure
    await expect(provider.getMany('staffunZp', { ids: [5, 6] })).rejects.toThrow('数据不存在');
  });

  it('submitId is 32 digits and random', () => {
    const ids = new Set(Array.from({ length: 50 }, submitId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[1-9]\d{31}$/);
  });
});
