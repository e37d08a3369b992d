/**
 * The generated list screen of a resource: filters, columns, paging (15/30/45/60/100,
 * spec.pageSize by default, sort id desc), toolbar, create/edit dialog, delete with the
 * spec's confirms, export and import. Resource folders adjust it through ResourceOverrides.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import {
  Confirm,
  Datagrid,
  List,
  Pagination,
  useDataProvider,
  useListContext,
  useNotify,
  useRefresh,
  useStore,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { columnWidths, listColumns } from './columns.tsx';
import { EditorContext, type EditorApi } from './editor.tsx';
import { exportResource } from './exportFile.ts';
import { TransferDialog } from '../../components/TransferProgress.tsx';
import type { TransferProgress } from '../../common/http.ts';
import { filterInputs, filterItems } from './filters.tsx';
import { FiltersOrPlaceholder } from './FilterBarSkeleton.tsx';
import { FilterToggleButton, foldedFilterSx, useFilterFold, type FilterFold } from './FilterToggle.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { ColumnPicker, useHiddenColumns } from './ColumnPicker.tsx';
import { SUCCESS_NOTICE_MS } from './notices.ts';
import type { ResourceOverrides } from './overrides.ts';
import { useCanReadHistory, useResourceAccess } from './permissions.ts';
import { RecordDialog } from './RecordDialog.tsx';
import { LIST_HEADER_RULES, ListHeader } from './ListHeader.tsx';
import { TotalLine } from './TotalLine.tsx';
import { FirstRowsBody } from './FirstRowsBody.tsx';
import { EmptyTable, columnLabels } from './EmptyTable.tsx';
import { formatMessage, messages } from '../../../shared/messages.ts';
import { useDictionaryOptions } from './dictionaries.ts';
import { markStartedAfterPaint, useConsoleStarted } from '../shell/startup.ts';
import { defaultSort } from './listDefaults.ts';
import Button from '@mui/material/Button';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { HistoryDialog } from './HistoryDialog.tsx';
import { lazyPart } from '../lazyPart.tsx';

// opened by a toolbar button: their code (the xlsx reader, the bin's own table) comes when first opened
const ImportDialog = lazyPart(() => import('./ImportDialog.tsx'), 'ImportDialog');
const RecycleBinDialog = lazyPart(() => import('./RecycleBinDialog.tsx'), 'RecycleBinDialog');

export const ROWS_PER_PAGE_OPTIONS = [15, 30, 45, 60, 100];

/** The spec's page sizes, plus the schema's own default when it is another one (10). */
export function rowsPerPageOptions(pageSize: number): number[] {
  return ROWS_PER_PAGE_OPTIONS.includes(pageSize) ? ROWS_PER_PAGE_OPTIONS : [pageSize, ...ROWS_PER_PAGE_OPTIONS].sort((a, b) => a - b);
}

export { defaultSort };

/** Page to show after deleting `deleted` rows of the `shown` on `page`: one back when the page empties. */
export function pageAfterDelete(page: number, shown: number, deleted: number): number {
  return page > 1 && deleted >= shown ? page - 1 : page;
}

interface EditorState {
  dialog: { open: boolean; record?: RaRecord };
  setDialog: (dialog: { open: boolean; record?: RaRecord }) => void;
  pendingDelete: { ids: Identifier[]; single: boolean } | null;
  setPendingDelete: (value: { ids: Identifier[]; single: boolean } | null) => void;
  importing: boolean;
  setImporting: (value: boolean) => void;
  /** the record whose 历史记录 is open */
  historyOf: RaRecord | null;
  setHistoryOf: (record: RaRecord | null) => void;
  binOpen: boolean;
  setBinOpen: (open: boolean) => void;
}

interface DialogsProps {
  spec: ResourceSpec;
  overrides: ResourceOverrides;
  /** permanent filter and create defaults from the route */
  fixed?: Record<string, unknown>;
  state: EditorState;
}

/** Dialog, delete confirm and import of one screen; sits inside <List> for its paging and selection. */
function EditorDialogs({ spec, overrides, fixed, state }: DialogsProps) {
  const list = useListContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [deleting, setDeleting] = useState(false);
  const { dialog, setDialog, pendingDelete, setPendingDelete, importing, setImporting, historyOf, setHistoryOf, binOpen, setBinOpen } =
    state;
  const { can } = useResourceAccess(spec);

  const runDelete = async () => {
    if (!pendingDelete) return;
    const { ids } = pendingDelete;
    setDeleting(true);
    try {
      await dataProvider.deleteMany(spec.name, { ids });
      notify(messages.notice.deleted, { type: 'success', autoHideDuration: SUCCESS_NOTICE_MS });
      setPendingDelete(null);
      list.onUnselectItems();
      const next = pageAfterDelete(list.page, list.data?.length ?? 0, ids.length);
      if (next !== list.page) list.setPage(next);
      else refresh();
    } catch {
      /* the confirm stays open (prepared); the HTTP client has shown the message */
    } finally {
      setDeleting(false);
    }
  };

  return (
    <>
      <RecordDialog
        spec={spec}
        overrides={overrides}
        open={dialog.open}
        record={dialog.record}
        defaults={fixed}
        onClose={() => setDialog({ open: false })}
        onSaved={() => {
          setDialog({ open: false });
          refresh();
        }}
      />
      <Confirm
        isOpen={!!pendingDelete}
        loading={deleting}
        title={messages.confirm.title}
        content={
          pendingDelete?.single
            ? messages.confirm.deleteOne
            : formatMessage(messages.confirm.deleteSelected, { count: pendingDelete?.ids.length ?? 0 })
        }
        confirm={messages.confirm.ok}
        cancel={messages.confirm.cancel}
        onConfirm={() => void runDelete()}
        onClose={() => setPendingDelete(null)}
      />
      {importing ? <ImportDialog spec={spec} open onClose={() => setImporting(false)} onImported={refresh} /> : null}
      {historyOf ? (
        <HistoryDialog
          spec={spec}
          recordId={historyOf.id}
          canRestore={can('edit')}
          onClose={() => setHistoryOf(null)}
          onRestored={refresh}
        />
      ) : null}
      {binOpen ? <RecycleBinDialog spec={spec} open onClose={() => setBinOpen(false)} onRestored={refresh} /> : null}
    </>
  );
}

function ListBody({ spec, overrides }: { spec: ResourceSpec; overrides: ResourceOverrides }) {
  const { isPending } = useListContext();
  // the first page is on screen: the console may start what it held back (sockets, counts)
  useEffect(() => {
    if (!isPending) markStartedAfterPaint();
  }, [isPending]);
  const { can } = useResourceAccess(spec);
  const [hidden] = useHiddenColumns(spec);
  const canEdit = can('edit');
  const canDelete = can('del');
  const canHistory = useCanReadHistory(spec);
  // the same column elements while nothing they show changes: the grid's rows skip re-renders
  const columns = useMemo(
    () =>
      listColumns(spec, {
        canEdit,
        canDelete,
        canHistory,
        viewOnly: !!overrides.readOnlyExisting,
        showActions: canEdit || canDelete || canHistory || !!overrides.RowButtons,
        extra: overrides.RowButtons,
        detailPath: overrides.detailPath,
      }).filter((c) => !hidden.includes(String(c.key))),
    [spec, overrides, canEdit, canDelete, canHistory, hidden],
  );
  const sx = useMemo(() => ({ ...columnWidths(spec), ...LIST_HEADER_RULES }), [spec]);
  return (
    // checkboxes for selection; the toolbar buttons act on it, so no overlay bulk toolbar
    <Datagrid
      rowClick={false}
      body={FirstRowsBody}
      header={ListHeader}
      bulkActionButtons={<></>}
      bulkActionsToolbar={<></>}
      sx={sx}
      size="small"
      empty={<EmptyTable labels={columnLabels(columns)} canAdd={can('add')} />}
    >
      {columns}
    </Datagrid>
  );
}

function Toolbar({
  spec,
  overrides,
  fixed,
  fold,
  onRecycleBin,
}: {
  spec: ResourceSpec;
  overrides: ResourceOverrides;
  fixed?: Record<string, unknown>;
  fold: FilterFold;
  onRecycleBin: () => void;
}) {
  const { can } = useResourceAccess(spec);
  const list = useListContext();
  const notify = useNotify();
  const [exporting, setExporting] = useState(false);
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  const transfer = useRef<AbortController | null>(null);
  const exportList = async () => {
    setExporting(true);
    setProgress(null);
    const controller = new AbortController();
    transfer.current = controller;
    try {
      const outcome = await exportResource(spec, { ...(list.filterValues as Record<string, unknown>), ...fixed }, list.sort, {
        onProgress: setProgress,
        signal: controller.signal,
      });
      if (outcome === 'async') notify('导出任务已提交，完成后将通知您', { type: 'info', autoHideDuration: SUCCESS_NOTICE_MS });
    } catch {
      /* shown by the HTTP client (a cancelled export shows nothing) */
    } finally {
      transfer.current = null;
      setExporting(false);
    }
  };
  return (
    <>
      <ListToolbar
        can={can}
        viewOnly={!!overrides.readOnlyExisting}
        exporting={exporting}
        onExport={() => void exportList()}
        extra={
          <>
            <FilterToggleButton fold={fold} />
            {can('del') ? (
              <Button size="small" variant="outlined" startIcon={<RestoreFromTrashIcon />} onClick={onRecycleBin}>
                回收站
              </Button>
            ) : null}
            <ColumnPicker spec={spec} />
          </>
        }
      />
      <TransferDialog
        open={exporting}
        title={`导出${spec.title}`}
        progress={progress}
        label="下载进度"
        onCancel={() => transfer.current?.abort()}
      />
    </>
  );
}

export interface SchemaListProps {
  spec: ResourceSpec;
  overrides?: ResourceOverrides;
  /** the part after the colon in `#/{name}:{param}` */
  routeParam?: string;
}

/**
 * The list screen, with the options of `x-dict` fields read from their dictionaries. Memoised:
 * its props are the same on every render of the routes above it, which react-admin repeats
 * while the console starts (resources registered, permissions arrived).
 */
export const SchemaList = memo(function SchemaList(props: SchemaListProps) {
  const spec = useDictionaryOptions(props.spec);
  return <SchemaListScreen {...props} spec={spec} />;
});

/**
 * Whether the list shows its filters' placeholder (FilterBarSkeleton.tsx): while the console's
 * first screen is not up yet (shell/startup.ts), on a list without a route parameter and with no
 * filter value in its address or remembered. Every later list, and this one once its first rows
 * are painted, has its filters at once.
 */
function useFilterPlaceholder(spec: ResourceSpec, withRouteParam: boolean): boolean {
  const started = useConsoleStarted();
  const { search } = useLocation();
  const [remembered] = useStore<{ filter?: Record<string, unknown> } | undefined>(`${spec.name}.listParams`);
  if (started || withRouteParam) return false;
  if (new URLSearchParams(search).has('filter')) return false;
  return !remembered?.filter || Object.keys(remembered.filter).length === 0;
}

function SchemaListScreen({ spec, overrides = {}, routeParam }: SchemaListProps) {
  const fixed = useMemo(() => (routeParam && overrides.routeParam ? overrides.routeParam(routeParam) : undefined), [routeParam, overrides]);
  const items = useMemo(() => filterItems(spec, Object.keys(fixed ?? {})), [spec, fixed]);
  const filters = useMemo(() => filterInputs(items), [items]);
  const placeholder = useFilterPlaceholder(spec, !!routeParam);
  const filterBar = useMemo(
    () => <FiltersOrPlaceholder filters={filters} items={items} placeholder={placeholder} />,
    [filters, items, placeholder],
  );
  const fold = useFilterFold(filters.length - (spec.search.length ? 1 : 0));
  const [dialog, setDialog] = useState<EditorState['dialog']>({ open: false });
  const [pendingDelete, setPendingDelete] = useState<EditorState['pendingDelete']>(null);
  const [importing, setImporting] = useState(false);
  const [historyOf, setHistoryOf] = useState<RaRecord | null>(null);
  const [binOpen, setBinOpen] = useState(false);
  const state: EditorState = {
    dialog,
    setDialog,
    pendingDelete,
    setPendingDelete,
    importing,
    setImporting,
    historyOf,
    setHistoryOf,
    binOpen,
    setBinOpen,
  };
  const api: EditorApi = {
    openCreate: () => setDialog({ open: true }),
    openEdit: (record) => setDialog({ open: true, record }),
    requestDelete: (ids, single) => {
      if (ids.length) setPendingDelete({ ids, single });
    },
    openImport: () => setImporting(true),
    openHistory: (record) => setHistoryOf(record),
  };
  return (
    <EditorContext.Provider value={api}>
      <List
        resource={spec.name}
        title={spec.title}
        perPage={spec.pageSize}
        sort={defaultSort(spec)}
        filters={filterBar}
        filter={fixed}
        storeKey={routeParam ? `${spec.name}:${routeParam}` : undefined}
        actions={<Toolbar spec={spec} overrides={overrides} fixed={fixed} fold={fold} onRecycleBin={() => setBinOpen(true)} />}
        pagination={<Pagination rowsPerPageOptions={rowsPerPageOptions(spec.pageSize)} />}
        empty={false}
        exporter={false}
        queryOptions={{ onError: () => undefined }}
        // a table wider than the window scrolls inside its card; the filters wrap to the window
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' }, ...foldedFilterSx(fold) }}
      >
        <ListBody spec={spec} overrides={overrides} />
        <TotalLine spec={spec} fixed={fixed} />
        <EditorDialogs spec={spec} overrides={overrides} fixed={fixed} state={state} />
      </List>
    </EditorContext.Provider>
  );
}
