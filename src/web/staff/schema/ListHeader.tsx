/**
 * The generated lists' header row: react-admin's DatagridHeader (the select-all checkbox, a sort
 * label per sortable column, the same classes), with the sort labels' tooltips mounted on first
 * hover or focus (LazyTooltip) and the cells' sort-icon rules given once by the grid.
 *
 * Why: react-admin's header cell wraps every sort label in a MUI Tooltip and a styled cell of
 * its own. Each mounted Tooltip sets state from its child's ref during React's commit, so the
 * header (some 90 components) rendered a second time before a list's first rows could be
 * painted. The labels, their tooltip texts (按 … 升序 / 降序), the sort a click asks for and the
 * select-all behaviour are react-admin's.
 */
import { Children, isValidElement, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import Checkbox from '@mui/material/Checkbox';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import {
  DatagridClasses,
  FieldTitle,
  useListContextWithProps,
  useResourceContext,
  useTranslate,
  useTranslateLabel,
  type DatagridHeaderProps,
  type Identifier,
  type RaRecord,
  type SortPayload,
} from 'react-admin';
import { LazyTooltip } from '../../components/LazyTooltip.tsx';

/** react-admin's header cell rules (sort icons shown on the active column only), for the grid's `sx`. */
export const LIST_HEADER_RULES = {
  [`& .${DatagridClasses.headerCell} .MuiTableSortLabel-icon`]: { display: 'none' },
  [`& .${DatagridClasses.headerCell} .Mui-active .MuiTableSortLabel-icon`]: { display: 'inline' },
};

const OPPOSITE: Record<SortPayload['order'], SortPayload['order']> = { ASC: 'DESC', DESC: 'ASC' };

interface ColumnProps {
  source?: string;
  sortBy?: string;
  sortByOrder?: SortPayload['order'];
  sortable?: boolean;
  label?: ReactNode;
  textAlign?: 'left' | 'right' | 'center';
  headerClassName?: string;
}

type Column = ReactElement<ColumnProps> & { type: { sortable?: boolean; textAlign?: ColumnProps['textAlign'] } };

function HeaderCell({ column, sort, onSort }: { column: Column; sort?: SortPayload; onSort?: (event: MouseEvent<HTMLElement>) => void }) {
  const resource = useResourceContext();
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const props = column.props;
  const sortField = props.sortBy || props.source;
  const align = props.textAlign || column.type.textAlign;
  const title = <FieldTitle label={props.label as string} source={props.source} resource={resource} />;
  const className = [DatagridClasses.headerCell, `column-${props.source}`, props.headerClassName].filter(Boolean).join(' ');
  if (!onSort || !sort || !sortField || props.sortable === false || column.type.sortable === false) {
    return (
      <TableCell className={className} align={align} variant="head">
        {title}
      </TableCell>
    );
  }
  const next = sort.field === sortField ? OPPOSITE[sort.order] : (props.sortByOrder ?? 'ASC');
  const label = translateLabel({ label: typeof props.label === 'string' ? props.label : undefined, resource, source: props.source });
  const tip = translate('ra.sort.sort_by', {
    field: label,
    field_lower_first: typeof label === 'string' ? label.charAt(0).toLowerCase() + label.slice(1) : undefined,
    order: translate(`ra.sort.${next}`),
    _: translate('ra.action.sort'),
  });
  return (
    <TableCell className={className} align={align} variant="head">
      <LazyTooltip title={tip} placement={align === 'right' ? 'bottom-end' : 'bottom-start'} enterDelay={300}>
        <TableSortLabel
          active={sort.field === sortField}
          direction={sort.order === 'ASC' ? 'asc' : 'desc'}
          data-field={sortField}
          data-order={props.sortByOrder || 'ASC'}
          onClick={onSort}
          classes={{ icon: 'RaDatagridHeaderCell-icon' }}
        >
          {title}
        </TableSortLabel>
      </LazyTooltip>
    </TableCell>
  );
}

export function ListHeader(props: DatagridHeaderProps) {
  const { children, className, hasBulkActions = false, isRowSelectable } = props;
  const translate = useTranslate();
  const { sort, data, onSelect, selectedIds, setSort } = useListContextWithProps(props);

  const onSort = setSort
    ? (event: MouseEvent<HTMLElement>) => {
        event.stopPropagation();
        const field = event.currentTarget.dataset.field!;
        const order = sort?.field === field ? OPPOSITE[sort.order] : (event.currentTarget.dataset.order as SortPayload['order']);
        setSort({ field, order });
      }
    : undefined;

  const rows: RaRecord[] = Array.isArray(data) ? (data as RaRecord[]) : [];
  const selectable: Identifier[] = rows.filter((r) => !isRowSelectable || isRowSelectable(r)).map((r) => r.id);
  const onSelectAll = (checked: boolean) => {
    if (!onSelect || !selectedIds || !Array.isArray(data)) return;
    onSelect(
      checked
        ? selectedIds.concat(selectable.filter((id) => !selectedIds.includes(id)))
        : // only the ids of this page are let go
          selectedIds.filter((id) => !rows.some((r) => r.id === id)),
    );
  };
  const selectAllLabel = translate('ra.action.select_all', { _: 'Select all' });

  return (
    <TableHead className={[className, DatagridClasses.thead].filter(Boolean).join(' ')}>
      <TableRow className={`${DatagridClasses.row} ${DatagridClasses.headerRow}`}>
        {hasBulkActions && selectedIds ? (
          <TableCell padding="checkbox" className={DatagridClasses.headerCell}>
            <Checkbox
              inputProps={{ 'aria-label': selectAllLabel }}
              slotProps={{ input: { 'aria-label': selectAllLabel } }}
              className="select-all"
              color="primary"
              checked={selectedIds.length > 0 && selectable.length > 0 && selectable.every((id) => selectedIds.includes(id))}
              onChange={(e) => onSelectAll(e.target.checked)}
              onClick={(e) => e.stopPropagation()}
            />
          </TableCell>
        ) : null}
        {Children.map(children, (column, index) =>
          isValidElement<ColumnProps>(column) ? (
            <HeaderCell key={column.props.source || index} column={column as Column} sort={sort} onSort={onSort} />
          ) : null,
        )}
      </TableRow>
    </TableHead>
  );
}
