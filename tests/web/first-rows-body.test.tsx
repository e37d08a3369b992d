/**
 * The generated lists' grid body (FirstRowsBody): a row renders again when its record, its
 * selection or its columns change, and not when only the list's state around it changes (the
 * query settling after the first page shows re-rendered every row before the first paint).
 */
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ComponentType } from 'react';
import {
  AdminContext,
  Datagrid,
  ListContextProvider,
  memoryStore,
  ResourceContextProvider,
  useRecordContext,
  type ListControllerResult,
} from 'react-admin';
import { FirstRowsBody, sameRowProps } from '../../src/web/staff/schema/FirstRowsBody.tsx';
import { markStarted, resetStartup } from '../../src/web/staff/shell/startup.ts';

/** renders of the grid's rows: react-admin's row, counted through a wrapper the body picks up */
const rowRendered = vi.hoisted(() => vi.fn());
vi.mock('react-admin', async (importOriginal) => {
  const original = await importOriginal<typeof import('react-admin')>();
  const Row = original.DatagridRow as unknown as ComponentType<Record<string, unknown>>;
  function CountedRow(props: Record<string, unknown>) {
    rowRendered();
    return <Row {...props} />;
  }
  return { ...original, DatagridRow: CountedRow };
});

let renders = 0;
function Cell({ source }: { source: string; label?: string }) {
  const record = useRecordContext();
  renders++;
  return <span>{String(record?.[source] ?? '')}</span>;
}

const rows = [
  { id: 2, title: '标题二', model: '售后' },
  { id: 1, title: '标题一', model: '人事' },
];

/** react-admin's list callbacks keep their identity across renders: so do these */
const nothing = () => undefined;
const SORT = { field: 'id', order: 'DESC' } as const;

function list(over: Partial<ListControllerResult> = {}): ListControllerResult {
  return {
    data: rows,
    total: rows.length,
    isPending: false,
    isLoading: false,
    isFetching: false,
    page: 1,
    perPage: 15,
    sort: SORT,
    filterValues: {},
    displayedFilters: {},
    selectedIds: [],
    resource: 'sysQuestion',
    onSelect: nothing,
    onToggleItem: nothing,
    onUnselectItems: nothing,
    onSelectAll: nothing,
    setSort: nothing,
    setPage: nothing,
    setPerPage: nothing,
    setFilters: nothing,
    showFilter: nothing,
    hideFilter: nothing,
    refetch: nothing,
    hasNextPage: false,
    hasPreviousPage: false,
    defaultTitle: '',
    ...over,
  } as unknown as ListControllerResult;
}

const titleOnly = [<Cell key="title" source="title" label="标题" />];
const withModel = [...titleOnly, <Cell key="model" source="model" label="模块" />];

function Grid({ value, columns }: { value: ListControllerResult; columns: typeof titleOnly }) {
  return (
    <AdminContext store={memoryStore()}>
      <ResourceContextProvider value="sysQuestion">
        <ListContextProvider value={value}>
          <Datagrid body={FirstRowsBody} rowClick={false} bulkActionButtons={<></>} bulkActionsToolbar={<></>}>
            {columns}
          </Datagrid>
        </ListContextProvider>
      </ResourceContextProvider>
    </AdminContext>
  );
}

describe('FirstRowsBody', () => {
  beforeEach(() => {
    markStarted();
    renders = 0;
    rowRendered.mockClear();
  });
  afterEach(() => resetStartup());

  it('a row skips a render only when every prop, its columns included, is the same', () => {
    const onToggleItem = () => undefined;
    const props = { id: 1, className: 'RaDatagrid-row', selected: false, selectable: true, onToggleItem, children: titleOnly };
    expect(sameRowProps(props, { ...props })).toBe(true);
    expect(sameRowProps(props, { ...props, children: withModel })).toBe(false);
    expect(sameRowProps(props, { ...props, selected: true })).toBe(false);
    expect(sameRowProps(props, { ...props, onToggleItem: () => undefined })).toBe(false);
  });

  it('does not render its rows again when only the list state around them changes', () => {
    const selectedIds: number[] = [];
    const { rerender } = render(<Grid value={list({ selectedIds })} columns={titleOnly} />);
    expect(screen.getByText('标题二')).toBeTruthy();
    const [rowsFirst, cellsFirst] = [rowRendered.mock.calls.length, renders];
    expect([rowsFirst, cellsFirst]).toEqual([2, 2]);
    rerender(<Grid value={list({ selectedIds, isFetching: true })} columns={titleOnly} />);
    rerender(<Grid value={list({ selectedIds, isFetching: false, total: 2 })} columns={titleOnly} />);
    expect([rowRendered.mock.calls.length, renders]).toEqual([rowsFirst, cellsFirst]);
  });

  it('renders them again for a new column, a changed record and a selection', () => {
    const selectedIds: number[] = [];
    const { rerender } = render(<Grid value={list({ selectedIds })} columns={titleOnly} />);
    expect(screen.queryByText('售后')).toBeNull();
    rerender(<Grid value={list({ selectedIds })} columns={withModel} />);
    expect(screen.getByText('售后')).toBeTruthy();
    rerender(<Grid value={list({ selectedIds, data: [{ ...rows[0], title: '标题二（改）' }, rows[1]] })} columns={withModel} />);
    expect(screen.getByText('标题二（改）')).toBeTruthy();
    rerender(<Grid value={list({ selectedIds: [1], data: rows })} columns={withModel} />);
    const boxes = screen.getAllByRole('checkbox').slice(1) as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([false, true]);
  });
});
