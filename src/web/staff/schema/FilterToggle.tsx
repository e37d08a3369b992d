/**
 * On a phone-wide window a list with many filters (the roster has 14) would stack them all above
 * its table: there the search box stays and the other filters fold behind a 筛选 button, which
 * says how many of them are in use. Wider windows show every filter as before.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import useMediaQuery from '@mui/material/useMediaQuery';
import FilterListIcon from '@mui/icons-material/FilterList';
import { useListContext } from 'react-admin';

/** Phone widths: below MUI's `sm` breakpoint. */
export const NARROW_QUERY = '(max-width:599.95px)';
/** fewer filters than this (besides the search box) stay in view on a phone too */
export const FOLD_FROM = 3;
export const FILTERS_REGION_ID = 'list-filters';

export interface FilterFold {
  /** the filters are folding ones on this window */
  foldable: boolean;
  shown: boolean;
  toggle: () => void;
}

export function useFilterFold(filterCount: number): FilterFold {
  const narrow = useMediaQuery(NARROW_QUERY);
  const [shown, setShown] = useState(false);
  return { foldable: narrow && filterCount >= FOLD_FROM, shown, toggle: () => setShown((s) => !s) };
}

/** The List's styles hiding all filters but the search box while folded. */
export function foldedFilterSx(fold: FilterFold): Record<string, { display: 'none' }> {
  return fold.foldable && !fold.shown ? { '& .filter-field[data-source]:not([data-source="blurry"])': { display: 'none' } } : {};
}

/** Values in use among the folding filters (the search box and fixed filters not counted). */
function usedFilters(values: Record<string, unknown>): number {
  return Object.entries(values).filter(
    ([key, value]) => key !== 'blurry' && value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && !value.length),
  ).length;
}

export function FilterToggleButton({ fold }: { fold: FilterFold }) {
  const list = useListContext();
  if (!fold.foldable) return null;
  const used = usedFilters((list.filterValues ?? {}) as Record<string, unknown>);
  return (
    <Button
      size="small"
      variant="outlined"
      aria-expanded={fold.shown}
      startIcon={<FilterListIcon fontSize="small" />}
      onClick={fold.toggle}
    >
      {fold.shown ? '收起筛选' : used ? `筛选（${used}）` : '筛选'}
    </Button>
  );
}
