/**
 * The filter bar's placeholder while the console's first list shows its first rows: the same
 * places as the filters (react-admin's filter form and its inputs, whose sizes are fixed: 260 px
 * text boxes, 160 px selects, 180 px pickers, two 190 px date boxes with 至 and the shortcut
 * button), each an outlined box with its label, and no form behind it. The filters take its place
 * as soon as the first rows are painted (shell/startup.ts), so the rows do not wait for the
 * filter form (react-hook-form, MUI's text fields and selects, about a fifth of the console's
 * work before its first paint), and nothing below moves when they come.
 *
 * Only where the filters would show nothing but their labels: no filter value set (SchemaList
 * decides), since a select holding a long label grows wider than its placeholder.
 */
import type { ReactElement } from 'react';
import Box from '@mui/material/Box';
import { FilterForm } from 'react-admin';
import type { SxProps, Theme } from '@mui/material/styles';
import type { FilterItem } from './filters.tsx';
import { DATE_FIELD_WIDTH, FILTER_FIELD_WIDTH } from './filterWidths.ts';

/** react-admin's filter form (FilterForm, FilterFormInput) and the outlined small field, as static rules */
const skeletonSx: SxProps<Theme> = (theme) => ({
  display: 'flex',
  flex: '0 1 auto',
  flexWrap: 'wrap' as const,
  alignItems: 'flex-end',
  pointerEvents: 'none' as const,
  padding: '0 0 4px 0',
  [theme.breakpoints.down('sm')]: { width: '100%' },
  [theme.breakpoints.up('sm')]: { minHeight: 64 },
  [theme.breakpoints.up('md')]: { flex: '0 1 100%' },
  '& .filter-field': { display: 'flex', alignItems: 'flex-end', [theme.breakpoints.down('sm')]: { width: '100%' } },
  '& .filter-skeleton-spacer': { width: 16 },
  '& .filter-skeleton-box': {
    marginTop: '8px',
    height: 40,
    boxSizing: 'border-box' as const,
    flexShrink: 0,
    display: 'flex',
    alignItems: 'center',
    padding: '0 14px',
    border: '1px solid rgba(0, 0, 0, 0.23)',
    borderRadius: '4px',
    color: (theme.vars ?? theme).palette.text.secondary,
    fontSize: '1rem',
    whiteSpace: 'nowrap' as const,
    overflow: 'hidden',
  },
  '& .filter-skeleton-range': {
    display: 'flex',
    flexWrap: 'wrap' as const,
    rowGap: '8px',
    columnGap: '4px',
    alignItems: 'center',
    maxWidth: '100%',
  },
  '& .filter-skeleton-button': { width: 30, height: 30, flexShrink: 0 },
});

function Field({ width, text }: { width: number; text: string }) {
  return (
    <div className="filter-skeleton-box" style={{ width }}>
      {text}
    </div>
  );
}

function Place({ item }: { item: FilterItem }) {
  return (
    <div className="filter-field" data-source={item.source}>
      {item.kind === 'range' ? (
        <div className="filter-skeleton-range">
          <Field width={DATE_FIELD_WIDTH} text={`${item.label}(开始)`} />
          <span>至</span>
          <Field width={DATE_FIELD_WIDTH} text={`${item.label}(结束)`} />
          <span className="filter-skeleton-button" />
        </div>
      ) : (
        <Field width={FILTER_FIELD_WIDTH[item.kind]} text={item.label} />
      )}
      <div className="filter-skeleton-spacer">&nbsp;</div>
    </div>
  );
}

export function FilterBarSkeleton({ items }: { items: FilterItem[] }) {
  return (
    <Box className="filter-bar-skeleton" aria-hidden sx={skeletonSx}>
      {items.map((item) => (
        <Place key={item.source} item={item} />
      ))}
    </Box>
  );
}

/**
 * The list's filters, or their placeholder. Given to the List as one element (not the array of
 * inputs) in both cases, so react-admin's list toolbar keeps the same tree when the filters take
 * the placeholder's place: the toolbar's buttons beside them stay mounted (an open menu, an
 * export's progress).
 */
export function FiltersOrPlaceholder({
  filters,
  items,
  placeholder,
}: {
  filters: ReactElement[];
  items: FilterItem[];
  placeholder: boolean;
}) {
  return placeholder ? <FilterBarSkeleton items={items} /> : <FilterForm filters={filters} />;
}
