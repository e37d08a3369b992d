import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { clearDictionaryCache, dictValue, useDictionaryOptions, withDictionary } from '../../src/web/staff/schema/dictionaries.ts';
import { resourceByName } from '../../src/generated/resources.ts';
import { fieldByName } from '../../src/shared/resource-spec.ts';
import { mockFetch } from './fetchMock.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  clearDictionaryCache();
});

describe('x-dict options', () => {
  const spec = resourceByName.sysQuestion;

  it('converts dictionary values to the field type and drops those that do not fit', () => {
    expect(dictValue({ type: 'boolean' }, 'true')).toBe(true);
    expect(dictValue({ type: 'boolean' }, 'yes')).toBeUndefined();
    expect(dictValue({ type: 'integer' }, '12')).toBe(12);
    expect(dictValue({ type: 'integer' }, '1.5')).toBeUndefined();
    const status = fieldByName(spec, 'status')!;
    expect(
      withDictionary(status, [
        { value: 'false', label: '未解决' },
        { value: 'true', label: '已解决' },
        { value: 'x', label: '坏值' },
      ]).options,
    ).toEqual([
      { value: false, label: '未解决' },
      { value: true, label: '已解决' },
    ]);
    // nothing usable: the schema's x-options stay
    expect(withDictionary(status, []).options).toEqual(status.options);
  });

  it('a screen reads its x-dict fields from api/dictDetail and keeps x-options when that fails', async () => {
    const { calls } = mockFetch({
      'GET /api/dictDetail': (call) =>
        call.url.searchParams.get('dictName') === 'question_model'
          ? {
              body: {
                content: [
                  { value: '销售', label: '销售' },
                  { value: '金融', label: '金融' },
                ],
                totalElements: 2,
              },
            }
          : { status: 500, body: { status: 500, message: '服务器内部错误' } },
    });
    const { result } = renderHook(() => useDictionaryOptions(spec));
    await waitFor(() => expect(fieldByName(result.current, 'model')!.options!.map((o) => o.label)).toEqual(['销售', '金融']));
    expect(fieldByName(result.current, 'userType')!.options).toEqual(fieldByName(spec, 'userType')!.options);
    const names = calls.map((c) => c.url.searchParams.get('dictName')).sort();
    expect(names).toEqual(['question_model', 'question_status', 'user_type']);
    expect(calls[0].url.searchParams.get('enabled')).toBe('true');
  });
});
