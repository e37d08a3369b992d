/**
 * A schema the app has never seen becomes a screen with no hand-written code: the spec that
 * codegen makes from the throwaway `tmpThing` schema renders its columns, filters and buttons.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { specFromSchema } from '../../codegen/spec-from-schema.ts';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { createDataProvider } from '../../src/web/staff/providers/dataProvider.ts';
import { SchemaList } from '../../src/web/staff/schema/SchemaList.tsx';
import { tmpThingSchema } from '../unit/helpers/tmp-thing.ts';
import { mockFetch } from './fetchMock.ts';
import { testAuthProvider } from './renderScreen.tsx';

describe('a new schema', { timeout: 60000 }, () => {
  it('renders as a list screen with its columns, page size and permitted buttons', async () => {
    const spec = specFromSchema('schemas/tmpThing.json', tmpThingSchema());
    const server = mockFetch({
      'GET /api/tmpThing': { body: { content: [{ id: 7, name: '样品', amount: 12.5, kind: '乙', active: true }], totalElements: 1 } },
    });
    render(
      <AdminContext
        dataProvider={createDataProvider()}
        authProvider={testAuthProvider(['tmpThing:add'])}
        i18nProvider={i18nProvider}
        store={memoryStore()}
      >
        <SchemaList spec={spec} />
      </AdminContext>,
    );
    expect(await screen.findByText('样品', {}, { timeout: 10000 })).toBeTruthy();
    expect(screen.getAllByText('名称').length).toBeGreaterThan(0);
    expect(screen.getAllByText('金额').length).toBeGreaterThan(0);
    const toolbar = screen.getByTestId('list-toolbar');
    await waitFor(() => expect(within(toolbar).queryByRole('button', { name: /新增/ })).toBeTruthy());
    expect(within(toolbar).queryByRole('button', { name: /删除/ })).toBeNull();
    expect(screen.getByRole('combobox', { name: /每页条数/ }).textContent).toBe('10');
    const listCall = server.calls.find((c) => c.url.pathname === '/api/tmpThing');
    expect(listCall?.url.searchParams.get('page')).toBe('0');
    expect(listCall?.url.searchParams.get('size')).toBe('10');
    expect(listCall?.url.searchParams.getAll('sort')).toEqual(['id,desc']);
  });
});
