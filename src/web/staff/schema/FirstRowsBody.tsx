/**
 * The grid's body, rendering the first FIRST_ROWS rows only until the console's first screen is
 * up (shell/startup.ts: painted, then a moment to spare), and every row after that. The first
 * list of a visit then shows the rows a window holds without waiting for the ones below them:
 * a row (checkbox, cells, status radios, action buttons with their tooltips) is most of what the
 * console renders before its first paint. Lists opened later render all their rows at once.
 */
import { createElement, forwardRef, memo } from 'react';
import { DatagridBody, DatagridRow, shallowEqual, type DatagridBodyProps, type DatagridRowProps } from 'react-admin';
import { useConsoleStarted } from '../shell/startup.ts';

/**
 * The rows an 800-pixel-high window shows of a list under the console's header, filters and
 * toolbar (the rows are 57-90 px high); on a taller window the rows below appear with the rest.
 */
export const FIRST_ROWS = 8;

/**
 * Whether a row may skip a render: every prop the same, its columns (children) included.
 * react-admin's list state changes after the first page shows (its query settling), and every row
 * rendered again with it before the browser could paint them. A row's record comes through its
 * record context, which still reaches the row and its cells when the record changes.
 * (react-admin's own pure row leaves the columns out of the comparison: it would keep hidden or
 * new columns.)
 */
export const sameRowProps = (before: DatagridRowProps, after: DatagridRowProps): boolean => shallowEqual(before, after);

const ROW = createElement(memo(DatagridRow, sameRowProps));

export const FirstRowsBody = forwardRef<HTMLTableSectionElement, DatagridBodyProps>(function FirstRowsBody(props, ref) {
  const started = useConsoleStarted();
  const data = started || !props.data ? props.data : props.data.slice(0, FIRST_ROWS);
  return <DatagridBody ref={ref} row={ROW} {...props} data={data} />;
});
