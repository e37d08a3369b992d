/**
 * The width (px) of each kind of list filter, shared by the filters (filters.tsx,
 * DateTextField.tsx) and their placeholder (FilterBarSkeleton.tsx), so that nothing moves when the
 * filters take the placeholder's place. Text boxes and selects keep react-admin's own widths (its
 * TextInput's 260 px, its SelectInput's minimum of 160 px); tests/e2e/filter-placeholder.test.ts
 * fails when a filter's width drifts from its place.
 */
export const FILTER_FIELD_WIDTH = { search: 260, text: 260, select: 160, picker: 180 } as const;
/** one end of a date range */
export const DATE_FIELD_WIDTH = 190;
