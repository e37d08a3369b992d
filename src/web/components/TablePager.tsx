/**
 * The pager under a hand-written table: page sizes, 每页条数 and "第 1-15 条，共 N 条" (the words
 * of every pager, pagerLabels.ts). Changing the page
 * size goes back to the first page. Without onSizeChange the size is fixed and not offered.
 */
import TablePagination from '@mui/material/TablePagination';
import { rangeLabel, ROWS_PER_PAGE_LABEL } from './pagerLabels.ts';

export interface TablePagerProps {
  count: number;
  /** zero-based */
  page: number;
  size: number;
  sizes?: number[];
  onPageChange: (page: number) => void;
  onSizeChange?: (size: number) => void;
}

export function TablePager({ count, page, size, sizes, onPageChange, onSizeChange }: TablePagerProps) {
  return (
    <TablePagination
      component="div"
      count={count}
      page={page}
      rowsPerPage={size}
      rowsPerPageOptions={onSizeChange ? (sizes ?? [size]) : [size]}
      onPageChange={(_e, p) => onPageChange(p)}
      onRowsPerPageChange={(e) => {
        onSizeChange?.(Number(e.target.value));
        onPageChange(0);
      }}
      labelRowsPerPage={ROWS_PER_PAGE_LABEL}
      labelDisplayedRows={rangeLabel}
    />
  );
}
